"""Beyblade Metal Fusion deck rules (rules text: steps 1, 2 and 7; ruling M1).

The line-up is exactly one Character, one Beyblade and one Customizer. The deck
is exactly fifteen more cards, of any type, with no two cards sharing a number
(ruling M1: "in a deck" means the fifteen; the line-up is not part of it). The
line-up's slots, the deck size and the repeated-number test are the engine's.

The number compared is the card's ``number``, the one column a Metal Fusion
card number is kept and read into (``GAME.card_number``), as the engine compares
it. A card whose number is unknown cannot be checked: the deck gets a
warning (code ``unknown_number``), which does not make it illegal, and that card
is never reported as a duplicate. The site does not guess a number it lacks.

The table companion (``COMPANION``) plays every variant the engine plays (the
registry's ``variant`` option): each player's battle power in the turn's
launcher colour is ``engine.lineup_power`` over their line-up and boosters
(ruling M3). In ``left`` the attacker battles the defender named; in ``all``
(ruling M9) everyone else at once. The engine says who wins (``attacker_wins``:
strictly higher power, M4) and how many cards in hand win (``VARIANTS``, M5).
The winner keeps the card in hand or slides it under the line-up as a booster.
Effect text is entered as a typed adjustment.
"""

from collections import defaultdict

from cards.games import Game
from cards.games.metal_fusion import GAME

from ..engine import metal_fusion as engine
from ..engine.core import EngineError
from ..engine.metal_fusion import DECK_SIZE, SLOTS, repeated_numbers
from ..table.companion.score import (
    Companion,
    ScoreError,
    players,
    seat,
    seat_name,
    typed,
    whole,
)
from ..tools import Bar, colour_order, engine_card
from . import WARNING, Line, Problem, count_phrase, ids, rotated, total

SLUG = GAME.slug
NAME = GAME.short_name
ZONES = GAME.zone_values
LINEUP_TYPES = SLOTS
TYPE_NAMES = {kind: GAME.kind(kind).label for kind in LINEUP_TYPES}
LINEUP = "rules: 1. Build your battle line-up"
DECK = "rules: 2. Build a deck of fifteen"
FINE_PRINT = "rules: 7. The fine print"


def card_number(line: Line):
    """Return the number M1 compares, or None when it is unknown."""
    return line.get(GAME.card_number)


def validate(lines: list[Line], **options) -> list[Problem]:
    """Return the problems of a Metal Fusion deck."""
    lineup = [line for line in lines if line.zone == "lineup"]
    deck = [line for line in lines if line.zone == "deck"]
    return _lineup_problems(lineup) + _deck_problems(deck)


def _lineup_problems(lineup: list[Line]) -> list[Problem]:
    problems = []
    for kind in LINEUP_TYPES:
        of_kind = [line for line in lineup if line.get("card_type") == kind]
        count = total(of_kind)
        if count != 1:
            name = TYPE_NAMES[kind]
            problems.append(
                Problem(
                    f"lineup_{kind}",
                    f"A Metal Fusion line-up is exactly one Character, one Beyblade and "
                    f"one Customizer ({LINEUP}). This line-up has "
                    f"{count_phrase(count, name)}.",
                    ids(of_kind),
                )
            )
    others = [line for line in lineup if line.get("card_type") not in LINEUP_TYPES]
    if others:
        problems.append(
            Problem(
                "lineup_wrong_type",
                "Only a Character, a Beyblade and a Customizer make up the line-up "
                f"({LINEUP}): "
                + ", ".join(
                    line.label
                    + (" (type unknown)" if line.get("card_type") is None else "")
                    for line in others
                )
                + " cannot sit there.",
                ids(others),
            )
        )
    return problems


def _deck_problems(deck: list[Line]) -> list[Problem]:
    problems = []
    size = total(deck)
    if size != DECK_SIZE:
        problems.append(
            Problem(
                "deck_size",
                f"A Metal Fusion deck is exactly {DECK_SIZE} cards beside the line-up "
                f"({DECK}). This deck has {size}.",
            )
        )
    by_number: dict[object, list[Line]] = defaultdict(list)
    unknown = []
    for line in deck:
        number = card_number(line)
        if number is None:
            unknown.append(line)
        else:
            by_number[str(number)].append(line)
    repeated = repeated_numbers(
        number
        for number, group in by_number.items()
        for line in group
        for _ in range(line.quantity)
    )
    for number, group in by_number.items():
        if number in repeated:
            problems.append(
                Problem(
                    "duplicate_number",
                    "No two cards in a Metal Fusion deck may share a number; the "
                    f"line-up does not count ({FINE_PRINT}; ruling M1). This deck has "
                    f"{total(group)} cards numbered {number}: "
                    + ", ".join(line.label for line in group)
                    + ".",
                    ids(group),
                )
            )
    if unknown:
        problems.append(
            Problem(
                "unknown_number",
                "The number of "
                + ", ".join(line.label for line in unknown)
                + " is unknown, so the no-duplicate-numbers rule cannot be checked "
                f"for it ({FINE_PRINT}; ruling M1).",
                ids(unknown),
                WARNING,
            )
        )
    return problems


def sample(cards: list, variant: int = 0) -> list[dict]:
    """Return entries of a legal deck of ``cards``: a line-up and fifteen numbers.

    ``variant`` turns the choice of cards, so two samples can face each other.
    """
    lineup = [
        rotated([c for c in cards if c.card_type == kind], variant)[0]
        for kind in LINEUP_TYPES
    ]
    rest, numbers = [], set()
    for card in rotated([c for c in cards if c not in lineup], variant):
        if card.number in numbers or len(rest) == DECK_SIZE:
            continue
        numbers.add(card.number)
        rest.append(card)
    return [{"card": c.pk, "quantity": 1, "zone": "lineup"} for c in lineup] + [
        {"card": c.pk, "quantity": 1, "zone": "deck"} for c in rest
    ]


def timing_entries(size: int) -> list[dict]:
    """Return a plain line-up and ``size - 3`` numbered deck cards."""
    lineup = [
        {
            "card": {"id": 2, "name": "Card 2", "card_type": kind, "number": n},
            "quantity": 1,
            "zone": "lineup",
        }
        for n, kind in enumerate(LINEUP_TYPES, start=1)
    ]
    return lineup + [
        {
            "card": {
                "id": 200 + i,
                "name": f"Card {200 + i}",
                "card_type": "effect",
                "number": i,
            },
            "quantity": 1,
            "zone": "deck",
        }
        for i in range(size - 3)
    ]


# --- the table companion -------------------------------------------------------


def typed_lineup(values: dict) -> list[dict]:
    """Return line-up cards built from typed stats (when no deck is chosen).

    ``values`` holds ``character``, ``beyblade`` and ``customizer``, each a
    ``{colour: stat}`` dict, ``move`` (``{colour: value}``) and ``emblems_match``.
    """
    cards = []
    for slot in SLOTS:
        stats = values.get(slot) or {}
        card = {"card_type": slot, "name": slot.title()}
        for colour in engine.COLOURS:
            card[f"stat_{colour}"] = whole(
                stats.get(colour), f"The {slot}'s {colour} stat", 0, 5
            )
        if slot != "customizer":
            card["emblem"] = "match" if values.get("emblems_match") else slot
        if slot == "beyblade":
            move = values.get("move") or {}
            for colour in engine.COLOURS:
                card[f"move_{colour}"] = whole(
                    move.get(colour, 0), f"The move's {colour} value", -5, 5
                )
        cards.append(card)
    return cards


def battle_power(lineup: list[dict], colour: str, boosters=()) -> tuple[int, dict]:
    """Return the line-up's battle power in ``colour`` (ruling M3), by the engine."""
    try:
        return engine.lineup_power(lineup, colour, boosters)
    except (EngineError, ValueError) as error:
        raise ScoreError(getattr(error, "message", str(error))) from None


def variant(setup: dict) -> str:
    """Return the set-up's variant, checked by the registry (its default when none)."""
    given = {"variant": setup["variant"]} if "variant" in setup else {}
    try:
        return GAME.check_options(given)["variant"]
    except ValueError as error:
        raise ScoreError(str(error)) from None


def _defenders(event: dict, attacker: int, count: int, chosen: str) -> list[int]:
    if chosen == "all":
        return [(attacker + k) % count for k in range(1, count)]
    defender = seat(event.get("defender"), count, "The defender")
    if attacker == defender:
        raise ScoreError("The attacker and the defender are different players.")
    return [defender]


def _score(setup: dict, log: list) -> dict:
    lineups = setup.get("lineups") or []
    count = players(GAME, len(lineups))
    chosen = variant(setup)
    to_win = engine.VARIANTS[chosen]
    boosters: list[list[str]] = [[] for _ in range(count)]
    hands = [0] * count
    history = []
    winner = None
    for event in log:
        if winner is not None:
            raise ScoreError(f"The game is over: a player holds {to_win} cards.")
        if event.get("kind") != "turn":
            raise ScoreError("A Metal Fusion event is a turn.")
        attacker = seat(event.get("attacker"), count, "The attacker")
        defenders = _defenders(event, attacker, count, chosen)
        colour = event.get("colour")
        if colour not in engine.COLOURS:
            raise ScoreError("The launcher colour is red, blue, green or yellow.")
        adjust = event.get("adjust") or {}
        powers = {}
        for place in (attacker, *defenders):
            power, _ = battle_power(lineups[place], colour, boosters[place])
            powers[place] = power + whole(
                adjust.get(str(place), 0), "An effect's power", -50, 50
            )
        line = f"{colour.title()}: " + " against ".join(
            f"{seat_name(setup, place)} {powers[place]}"
            for place in (attacker, *defenders)
        )
        if engine.attacker_wins(powers[attacker], [powers[d] for d in defenders]):
            keep = event.get("keep") or "hand"
            if keep == "hand":
                hands[attacker] += 1
                line += (
                    f"; {seat_name(setup, attacker)} keeps the card "
                    f"({hands[attacker]} in hand)"
                )
            elif keep == "booster":
                code = event.get("booster")
                if code not in engine._BOOSTER_CODES:
                    raise ScoreError(
                        "A booster is one colour, two, or all four (R, B, G, Y)."
                    )
                boosters[attacker].append(code)
                line += f"; {seat_name(setup, attacker)} adds a {code} booster"
            else:
                raise ScoreError("The winner keeps the card in hand or as a booster.")
        else:
            held = "the defender holds" if len(defenders) == 1 else "the attack fails"
            line += f"; {held} (the card is discarded)"
        history.append(line)
        winner = next((p for p in range(count) if hands[p] >= to_win), None)
    rows = []
    for place in range(count):
        by_colour = {
            colour: battle_power(lineups[place], colour, boosters[place])[0]
            for colour in engine.COLOURS
        }
        rows.append(
            {
                "player": place,
                "power": by_colour,
                "boosters": list(boosters[place]),
                "hand": hands[place],
            }
        )
    return {
        "rows": rows,
        "winner": winner,
        "history": history,
        "variant": chosen,
        "to_win": to_win,
    }


_LINEUP_FIELDS = (
    "id", "label", "card_type", "emblem", "not_printed", "effects",
    *(f"stat_{c}" for c in engine.COLOURS), *(f"move_{c}" for c in engine.COLOURS),
)  # fmt: skip


def _typed_values(form, p: int) -> dict:
    values = {
        slot: {c: form.get(f"{slot}_{c}_{p}") for c in engine.COLOURS} for slot in SLOTS
    }
    values["move"] = {c: form.get(f"move_{c}_{p}") or 0 for c in engine.COLOURS}
    values["emblems_match"] = bool(form.get(f"emblems_{p}"))
    return values


def _setup(form, seats) -> dict:
    lineups = []
    for p, place in enumerate(seats):
        if place.cards:
            lineup = []
            for c in place.cards.get("lineup", []):
                lineup += [c] * c.get("copies", 1)
            lineups.append([{k: c.get(k) for k in _LINEUP_FIELDS} for c in lineup])
        else:
            lineups.append(typed_lineup(_typed_values(form, p)))
    setup = {"lineups": lineups}
    if form.get("variant"):
        setup["variant"] = form.get("variant")
    return setup


def _event(form, setup: dict) -> dict:
    attacker = typed(form.get("attacker"))
    event = {"kind": "turn", "attacker": attacker}
    if variant(setup) == "all":
        count = len(setup.get("lineups") or [])
        event["adjust"] = {str(p): form.get(f"adjust_{p}") or 0 for p in range(count)}
    else:
        defender = typed(form.get("defender"))
        event["defender"] = defender
        event["adjust"] = {
            str(attacker): form.get("adjust_attacker") or 0,
            str(defender): form.get("adjust_defender") or 0,
        }
    event["colour"] = form.get("colour")
    event["keep"] = form.get("keep") or "hand"
    # Stored only where it counts; the score checks it is a booster code.
    event["booster"] = (
        (form.get("booster") or "").upper() or None
        if form.get("keep") == "booster"
        else None
    )
    return event


def _page(setup: dict) -> dict:
    chosen = variant(setup)
    return {
        "colours": engine.COLOURS,
        "slots": SLOTS,
        "variant": chosen,
        "variants": next(o.choices for o in GAME.options if o.name == "variant"),
    }


COMPANION = Companion(replay=_score, setup=_setup, event=_event, page=_page)


# --- deck tools (the deck page's figures) --------------------------------------


def lineup_power(game: Game, lines: list[Line]) -> dict:
    """Return the line-up's power in each launcher colour and its deck average.

    The count itself is the engine's ``lineup_power`` (ruling M3, M10), so the
    deck page and the playtest never disagree. The average weighs each colour by
    how many deck cards carry that launcher; unknown launchers are left out.
    """
    colours = colour_order(game)
    launcher = game.colour_field
    lineup = [
        engine_card(line.card)
        for line in lines
        if line.zone == "lineup"
        for _ in range(line.quantity)
    ]
    rows, error = [], None
    for colour in colours:
        try:
            total, parts = engine.lineup_power(lineup, colour)
        except EngineError as exc:
            error = exc.message
            rows = []
            break
        rows.append({"colour": colour, "total": total, "parts": parts})
    launchers = {colour: 0 for colour in colours}
    for line in lines:
        if line.zone == "deck" and line.get(launcher) in launchers:
            launchers[line.get(launcher)] += line.quantity
    weighed = sum(launchers.values())
    average = None
    if rows and weighed:
        power = {row["colour"]: row["total"] for row in rows}
        average = sum(power[c] * n for c, n in launchers.items()) / weighed
    top = max((row["total"] for row in rows), default=0) or 1
    for row in rows:
        row["bar"] = Bar(
            row["colour"],
            row["total"],
            max(row["total"], 0) / top,
            f"colour-{row['colour']}",
        )
        row["launchers"] = launchers[row["colour"]]
    return {"rows": rows, "error": error, "average": average, "launchers": weighed}


def deck_tools(game, lines: list[Line]) -> dict:
    """Return this game's own figures for the deck page."""
    return {"power": lineup_power(game, lines)}


# --- board helpers (the playtest board's template filters and tags) ----------


BOOSTER_WORDS = {c.letter: c.value for c in GAME.colours}


def booster_colours(code) -> list[str]:
    """Return the colour words of a Metal Fusion booster code ("RB" -> red, blue)."""
    return [BOOSTER_WORDS[c] for c in str(code or "") if c in BOOSTER_WORDS]


def power_parts(parts) -> list[dict]:
    """Return a Metal Fusion power breakdown as labelled rows, in counting order."""
    if not isinstance(parts, dict):
        return []
    labels = (
        ("character", "Character stat"),
        ("beyblade", "Beyblade stat"),
        ("customizer", "Customizer stat"),
        ("emblem", "Matching emblems"),
        ("move", "Beyblade move"),
        ("boosters", "Boosters"),
        ("effects", "Card effects"),
    )
    return [
        {"label": label, "value": parts[key]} for key, label in labels if key in parts
    ]


BOARD_FILTERS = {"booster_colours": booster_colours, "power_parts": power_parts}
