"""The table companion's arithmetic: the score of a physical game, from its log.

Pure Python (no Django): a game is its set-up and a log of events, and the score
is a replay of the log, so undo is the log minus its last event. Where the
rules engine has the rule, it is called, not copied (one rule, one place):

- Collision (``spin``): each player's spin pile starts at their Blade's spin
  strength; a battle's hits take cards off the defender's pile, hits past
  the last card are lost and the player is out (ruling C6); gained spin never
  passes the spin strength. Hits may be entered as a number, or counted from
  the two battle edges by the engine's own rule (``collision.hits``, ruling C4).
- Bakugan (``gates``): a battle's G-Power per Bakugan is its G-Power plus the
  gate's bonus for its attribute (``bakugan.g_power_on_gate``, ruling B5) plus
  what ability cards add as the battle goes (typed: what a card's text does
  is read at the table). The higher total wins the gate; a tie goes to the
  Bakugan that landed first (rules text, "Battle"). Three gates win.
- Metal Fusion (``power``): each player's battle power in the turn's launcher
  colour is ``metal_fusion.lineup_power`` over their line-up and boosters
  (ruling M3); the attacker wins on strictly higher power (M4) and keeps the
  card in hand or slides it under the line-up as a booster; five in hand wins
  (M5). Effect text is entered as a typed adjustment.
- Collide-O! (``cards``): one card to the centre, the rest dealt equally,
  what is left over set aside (the same division as the engine's deal); each
  card played takes one off its player's count; one card left wins (ruling O5).

A reading the rules leave open, taken as a player at the table would: a
Bakugan battle always names its two Bakugan in the order they landed, so the
tie rule needs no more input.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace

from decks.engine import bakugan, collide_o, collision, metal_fusion
from decks.engine.core import EngineError

MAX_LOG = 2000
MAX_PLAYERS = 5


class ScoreError(ValueError):
    """An event or set-up the companion cannot count; the message says why."""


def _int(value, what: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            value = int(str(value).strip())
        except (TypeError, ValueError):
            raise ScoreError(f"{what} is a whole number.") from None
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise ScoreError(f"{what} is {span}.")
    return value


def _seat(value, players: int, what: str = "The player") -> int:
    return _int(value, what, 0, players - 1)


# --- Collision ------------------------------------------------------------------


def edge_hits(attacking_edge: str, defending_edge: str) -> int:
    """Return the hits of the turn player's edge against the other (ruling C4)."""
    for edge in (attacking_edge, defending_edge):
        if not isinstance(edge, str) or not collision_edge_ok(edge):
            raise ScoreError("A battle edge is six notches, each . (bare), L, S or E.")
    # The engine's own count, over its own notch masks.
    on, _, _ = collision._edge_masks(attacking_edge)
    _, off, _ = collision._edge_masks(defending_edge)
    return collision.hits(SimpleNamespace(on=on), SimpleNamespace(off=off))


def collision_edge_ok(edge: str) -> bool:
    return len(edge) == 6 and all(c in ".LSE" for c in edge)


def _spin(setup: dict, log: list) -> dict:
    strengths = [
        _int(s, "A Blade's spin strength", 1, 30) for s in setup.get("strength", [])
    ]
    players = len(strengths)
    piles = list(strengths)
    history = []
    for event in log:
        kind = event.get("kind")
        if kind == "battle":
            defender = _seat(event.get("defender"), players, "The defender")
            if "attacker_edge" in event:
                hits = edge_hits(event["attacker_edge"], event["defender_edge"])
            else:
                hits = _int(event.get("hits"), "Hits", 0, 6)
            if piles[defender] == 0:
                raise ScoreError(f"Player {defender + 1} is already out.")
            taken = min(hits, piles[defender])
            piles[defender] -= taken
            history.append(
                f"Player {defender + 1} takes {hits} hit{'s' * (hits != 1)}: "
                f"spin pile {piles[defender] + taken} → {piles[defender]}"
                + (" (out)" if piles[defender] == 0 else "")
            )
        elif kind in ("gain", "lose"):
            player = _seat(event.get("player"), players)
            amount = _int(event.get("amount"), "The amount", 1, 30)
            before = piles[player]
            if before == 0:
                raise ScoreError(f"Player {player + 1} is already out.")
            if kind == "gain":
                piles[player] = min(strengths[player], before + amount)
            else:
                piles[player] = max(0, before - amount)
            history.append(
                f"Player {player + 1} {kind}s {amount} spin: {before} → {piles[player]}"
            )
        else:
            raise ScoreError("A Collision event is a battle, a gain or a loss of spin.")
    live = [p for p in range(players) if piles[p] > 0]
    return {
        "rows": [
            {
                "player": p,
                "spin": piles[p],
                "strength": strengths[p],
                "out": piles[p] == 0,
            }
            for p in range(players)
        ],
        "winner": live[0] if len(live) == 1 and players > 1 else None,
        "history": history,
    }


# --- Bakugan --------------------------------------------------------------------

GATES_TO_WIN = 3


def battle_totals(fighters: list[dict], gate: dict) -> list[int]:
    """Return each Bakugan's G-Power on ``gate`` with its ability cards added."""
    totals = []
    for fighter in fighters:
        figure = {
            "g_power": _int(fighter.get("g_power"), "A Bakugan's G-Power", 0, 2000),
            "attribute": fighter.get("attribute"),
        }
        if figure["attribute"] not in bakugan.ATTRIBUTES:
            raise ScoreError(
                "A Bakugan's attribute is one of " + ", ".join(bakugan.ATTRIBUTES) + "."
            )
        on_gate = bakugan.g_power_on_gate(figure, gate)
        if on_gate is None:
            raise ScoreError(
                f"The gate's bonus for {figure['attribute']} is unknown; type it in."
            )
        abilities = [
            _int(a, "An ability card's G-Power", -2000, 2000)
            for a in fighter.get("abilities", [])
        ]
        totals.append(on_gate + sum(abilities))
    return totals


def _gates(setup: dict, log: list) -> dict:
    players = _int(setup.get("players"), "Players", 2, 4)
    won = [0] * players
    history = []
    winner = None
    for event in log:
        if winner is not None:
            raise ScoreError("The game is over: a player has won three gates.")
        kind = event.get("kind")
        if kind == "battle":
            fighters = event.get("fighters") or []
            if len(fighters) != 2:
                raise ScoreError("A battle is two Bakugan, in the order they landed.")
            seats = [_seat(f.get("player"), players) for f in fighters]
            if seats[0] == seats[1]:
                raise ScoreError("A battle is between two different players.")
            totals = battle_totals(fighters, event.get("gate") or {})
            # A tie goes to the Bakugan that landed first: the first one named.
            first = 0 if totals[0] >= totals[1] else 1
            won[seats[first]] += 1
            history.append(
                f"Player {seats[0] + 1} {totals[0]} against player {seats[1] + 1} "
                f"{totals[1]}: player {seats[first] + 1} wins the gate"
                + (" (tie: landed first)" if totals[0] == totals[1] else "")
            )
        elif kind == "gate":
            player = _seat(event.get("player"), players)
            won[player] += 1
            history.append(f"Player {player + 1} wins a gate without a battle")
        else:
            raise ScoreError("A Bakugan event is a battle or a gate won.")
        leaders = [p for p in range(players) if won[p] >= GATES_TO_WIN]
        winner = leaders[0] if leaders else None
    return {
        "rows": [{"player": p, "gates": won[p]} for p in range(players)],
        "winner": winner,
        "history": history,
    }


# --- Metal Fusion ---------------------------------------------------------------

HAND_TO_WIN = 5
_BOOSTER_CODES = ("R", "B", "G", "Y", "RB", "RG", "RY", "BG", "BY", "GY", "RBGY")


def typed_lineup(values: dict) -> list[dict]:
    """Return line-up cards built from typed stats (when no deck is chosen).

    ``values`` holds ``character``, ``beyblade`` and ``customizer``, each a
    ``{colour: stat}`` dict, ``move`` (``{colour: value}``) and ``emblems_match``.
    """
    cards = []
    for slot in metal_fusion.SLOTS:
        stats = values.get(slot) or {}
        card = {"card_type": slot, "name": slot.title()}
        for colour in metal_fusion.COLOURS:
            card[f"stat_{colour}"] = _int(
                stats.get(colour), f"The {slot}'s {colour} stat", 0, 5
            )
        if slot != "customizer":
            card["emblem"] = "match" if values.get("emblems_match") else slot
        if slot == "beyblade":
            move = values.get("move") or {}
            for colour in metal_fusion.COLOURS:
                card[f"move_{colour}"] = _int(
                    move.get(colour, 0), f"The move's {colour} value", -5, 5
                )
        cards.append(card)
    return cards


def battle_power(lineup: list[dict], colour: str, boosters=()) -> tuple[int, dict]:
    """Return the line-up's battle power in ``colour`` (ruling M3), by the engine."""
    try:
        return metal_fusion.lineup_power(lineup, colour, boosters)
    except (EngineError, ValueError) as error:
        raise ScoreError(getattr(error, "message", str(error))) from None


def _power(setup: dict, log: list) -> dict:
    lineups = setup.get("lineups") or []
    players = len(lineups)
    if not 2 <= players <= 4:
        raise ScoreError("Metal Fusion is for two to four players.")
    boosters: list[list[str]] = [[] for _ in range(players)]
    hands = [0] * players
    history = []
    winner = None
    for event in log:
        if winner is not None:
            raise ScoreError("The game is over: a player holds five cards.")
        if event.get("kind") != "turn":
            raise ScoreError("A Metal Fusion event is a turn.")
        attacker = _seat(event.get("attacker"), players, "The attacker")
        defender = _seat(event.get("defender"), players, "The defender")
        if attacker == defender:
            raise ScoreError("The attacker and the defender are different players.")
        colour = event.get("colour")
        if colour not in metal_fusion.COLOURS:
            raise ScoreError("The launcher colour is red, blue, green or yellow.")
        adjust = event.get("adjust") or {}
        powers = {}
        for seat in (attacker, defender):
            power, _ = battle_power(lineups[seat], colour, boosters[seat])
            powers[seat] = power + _int(
                adjust.get(str(seat), 0), "An effect's power", -50, 50
            )
        line = (
            f"{colour.title()}: player {attacker + 1} {powers[attacker]} against "
            f"player {defender + 1} {powers[defender]}"
        )
        if powers[attacker] > powers[defender]:
            keep = event.get("keep") or "hand"
            if keep == "hand":
                hands[attacker] += 1
                line += f"; player {attacker + 1} keeps the card ({hands[attacker]} in hand)"
            elif keep == "booster":
                code = event.get("booster")
                if code not in _BOOSTER_CODES:
                    raise ScoreError(
                        "A booster is one colour, two, or all four (R, B, G, Y)."
                    )
                boosters[attacker].append(code)
                line += f"; player {attacker + 1} adds a {code} booster"
            else:
                raise ScoreError("The winner keeps the card in hand or as a booster.")
        else:
            line += "; the defender holds (the card is discarded)"
        history.append(line)
        winner = next((p for p in range(players) if hands[p] >= HAND_TO_WIN), None)
    rows = []
    for seat in range(players):
        by_colour = {
            colour: battle_power(lineups[seat], colour, boosters[seat])[0]
            for colour in metal_fusion.COLOURS
        }
        rows.append(
            {
                "player": seat,
                "power": by_colour,
                "boosters": list(boosters[seat]),
                "hand": hands[seat],
            }
        )
    return {"rows": rows, "winner": winner, "history": history}


# --- Collide-O! -----------------------------------------------------------------


def deal(pack: int, players: int) -> tuple[list[int], int]:
    """Return each player's share and the cards set aside (after the centre card)."""
    share = (pack - 1) // players
    return [share] * players, pack - 1 - share * players


def _cards(setup: dict, log: list) -> dict:
    players = _int(setup.get("players"), "Players", 2, 5)
    pack = _int(setup.get("pack"), "The pack", collide_o.pack_minimum(players), 500)
    left, aside = deal(pack, players)
    history = []
    winner = None
    for event in log:
        if winner is not None:
            raise ScoreError("The game is over: a player has one card left.")
        if event.get("kind") != "play":
            raise ScoreError("A Collide-O! event is a card played.")
        player = _seat(event.get("player"), players)
        left[player] -= 1
        history.append(f"Player {player + 1} plays a card: {left[player]} left")
        if left[player] <= 1:
            winner = player
    return {
        "rows": [{"player": p, "left": left[p]} for p in range(players)],
        "aside": aside,
        "winner": winner,
        "history": history,
    }


# --- by game ----------------------------------------------------------------------


@dataclass(frozen=True)
class Keeper:
    """How the companion keeps one game's score."""

    kind: str
    replay: object
    seat_counts: tuple[int, ...] = field(default=(2,))


# Keyed by the engine module's name, which is the registry's ``Game.module``.
KEEPERS = {
    collision.__name__.rpartition(".")[2]: Keeper("spin", _spin, (2, 3, 4)),
    bakugan.__name__.rpartition(".")[2]: Keeper("gates", _gates, (2, 4)),
    metal_fusion.__name__.rpartition(".")[2]: Keeper("power", _power, (2, 3, 4)),
    collide_o.__name__.rpartition(".")[2]: Keeper("cards", _cards, (2, 3, 4, 5)),
}


def keeper(module: str) -> Keeper:
    return KEEPERS[module]


def score(module: str, setup: dict, log: list) -> dict:
    """Return the score of a game after ``log``; ScoreError when it cannot be counted."""
    if not isinstance(setup, dict) or not isinstance(log, list):
        raise ScoreError("A game is a set-up and a list of events.")
    if len(log) > MAX_LOG:
        raise ScoreError(f"A game keeps at most {MAX_LOG} events.")
    for event in log:
        if not isinstance(event, dict):
            raise ScoreError("An event is a set of named values.")
    try:
        return KEEPERS[module].replay(setup, log)
    except (KeyError, IndexError, TypeError, AttributeError):
        raise ScoreError("This event does not fit the game.") from None
