"""Play the Beyblade Metal Fusion card game (DeAgostini, ~2010) by its rules.

What is modelled
----------------
Each seat brings a line-up (one Character, one Beyblade, one Customizer, face
up) and a deck of fifteen cards. The game begins with the first-attacker
turn-over (ruling M2): every player turns over their top card, the highest
card ``number`` attacks first, players tied for the highest turn over their
next card, and then every deck is shuffled again. Play goes round to the left
(seat ``i``'s left is seat ``i + 1``).

A turn is one battle. The attacker's ``reveal`` action turns over the top card
of their deck; its ``launcher`` colour sets the turn's colour. Each player in
the battle counts battle power (ruling M3, ``power`` / ``lineup_power``): the
three line-up stats in that colour, +1 when the Character's and Beyblade's
``emblem`` values are equal and recorded, the Beyblade's signed move value in
that colour (a colour the move does not print counts 0, ruling M10), +1 per
booster under the line-up whose colour matches (one letter; two letters fire
on either; ``RBGY`` fires on every colour), and the effects in force. The
attacker wins only with strictly higher power (a tie goes to the defender)
and then chooses (ruling M4): ``hand`` puts the card into the hand, ``boost
<slot>`` slides it face down under the line-up card of the same type. An
Effect card may become a booster only when its text allows it (``as_booster``),
under the line-up card its owner picks. Ties and defenders' wins discard the
revealed card. The next player round the circle attacks next. Holding the
winning number of cards ends the game at once (ruling M5).

Variants (option ``"variant"``): ``"left"`` (default; with two players it is
the basic game): the attacker battles the player on their left, who then
attacks the next player round the circle; first to five cards in hand wins.
``"all"`` (ruling M9): the attacker battles everyone at once and wins the card
only with power strictly higher than every other player's; the next player
round the circle attacks next; first to two cards in hand wins.

Card text (the ``effects`` steps of ``core``), per the fine print
-----------------------------------------------------------------
- ``add_power`` (``amount``, signed) adds to the power of the ``target``
  players in the current battle. Timings: ``revealed`` (an Effect card, when
  its owner reveals it), ``discard_from_hand`` (an Effect card in hand, see
  below), ``in_lineup`` (a Character, Beyblade or Customizer, in every battle
  its owner fights while it sits in the line-up).
- ``draw`` (target ``self``; ``revealed`` or ``discard_from_hand``): the owner
  takes ``amount`` cards from the top of their deck into their hand (fewer if
  the deck runs short; drawing never reshuffles, M6 is about revealing).
- ``discard`` (``revealed`` or ``discard_from_hand``): each target player
  discards ``amount`` cards of their own choice from their hand (ruling E2:
  the discarding player picks; a player holding no more than that discards
  everything without being asked).
- ``to_hand`` (``revealed``): the revealed card goes to its owner's hand even
  when the battle is tied or lost, instead of the discard pile.
- ``as_booster`` (any timing): the permission of M4 for an Effect card.
- Targets: ``self`` the card's owner; ``opponent`` / ``each_opponent`` the
  players the owner battles (every defender when the owner attacks, the
  attacker when the owner defends); ``all`` everyone in the battle;
  ``attacker`` / ``defender``. ``turn`` ``"your"`` means while the owner
  attacks, ``"opponent"`` while the owner defends. ``attribute`` holding a
  colour word limits the step to turns of that colour.
- A ``discard_from_hand`` card is used by its owner while a battle involving
  them is counted, before power is compared (ruling M7): the counting window.
  Priority goes round the players in the battle from the attacker (``use N``
  or ``pass``); a use gives everyone in the battle a new chance to answer, and
  power is compared once all of them have passed in a row. Players holding no
  usable card are passed over without being asked.
- A ``revealed`` step works only when its owner reveals the card from the deck
  (the attacker); printed effects of line-up cards apply only while they are
  in the line-up; boosters lie face down and their text is off (ruling M10).
- A card whose steps the engine does not support for its type plays as its
  basic self, and the event log says so (at the start for line-up cards, when
  revealed for Effect cards).

Running out, the cap and other edges
------------------------------------
- A player who must reveal with an empty deck shuffles their discard pile into
  a new deck; with nothing to shuffle the game ends at once, the player with
  the most cards in hand wins, and a tie for the most is a draw (ruling M6).
- ``TURN_CAP`` battles (ruling E3) end the game as a draw: a mirror match,
  where every tie goes to the defender, could otherwise run for ever.
- Decks of the wrong shape, two deck cards with the same number (ruling M1,
  refused here as well as by the deck builder), or cards whose play data is
  unknown (``card_problems``) are refused with ``EngineError("bad_deck")``.
- Unknown is not "not printed" (ruling E4): a line-up card's stats, a line-up
  Character's or Beyblade's emblem, a deck card's number and launcher, and the
  booster colour of every card that can become a booster must be recorded or
  listed in ``not_printed`` where the card may leave them blank. A Beyblade
  move that records some colours reads the others as not printed (M10); a
  Beyblade recording no move at all is unknown unless ``not_printed`` lists
  all four move colours.
- Actions name deck cards by their card number (``use 12``), unique within a
  deck by ruling M1.

Beyond the common interface: ``lineup_power(cards, colour, boosters)`` counts
a plain line-up without a game (for the deck builder), ``power(state, seat)``
gives the breakdown in a game, ``card_problems(card, zone)`` narrows the check
to the line-up or the deck, and ``first_attacker`` is the M2 turn-over.
Seats without a usable hand card are passed over in the counting window, so
the window itself tells the other players that much; at a real table the
pause would too.

Left out: the stat names by colour (ruling M8 is data only), the website code
in the white box, and card text beyond the vocabulary above.

The rules are this module; ``valuation`` (the bots' race score) and ``view``
(the move in words, what a player sees, the board) read them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import repeat

from cards.games import GAMES

from ..core import (
    DeckReads,
    Effect,
    EngineError,
    Rng,
    checked_options,
    copy_state,
    derived,
    marked,
    parse_effects,
    seed_state,
    state_from_json,
    state_to_json,
)

GAME = GAMES["metal-fusion"]
SLUG = GAME.slug
NAME = GAME.name
VERSION = "1"
MIN_PLAYERS = GAME.min_players
MAX_PLAYERS = GAME.max_players
SEAT_COUNTS = GAME.seat_counts
TURN_CAP = 200

COLOURS = ("red", "blue", "green", "yellow")
LETTERS = "RBGY"
SLOTS = ("character", "beyblade", "customizer")
EFFECT = 3
DECK_SIZE = 15
VARIANTS = {"left": 5, "all": 2}
LINEUP_PARTS = ("character", "beyblade", "customizer", "emblem", "move", "boosters")

_PLAYERS = tuple(f"Player {seat + 1}" for seat in range(MAX_PLAYERS))
_STAT_FIELDS = tuple(f"stat_{c}" for c in COLOURS)
_MOVE_FIELDS = tuple(f"move_{c}" for c in COLOURS)
_TYPES = {"character": 0, "beyblade": 1, "customizer": 2, "effect": EFFECT}
_BOOSTER_CODES = {
    "R", "B", "G", "Y", "RB", "RG", "RY", "BG", "BY", "GY", "RBGY",
}  # fmt: skip


# --- actions ---------------------------------------------------------------


@dataclass(frozen=True)
class Action:
    """One move: reveal, hand, boost <slot>, use <number>, pass, discard <number>."""

    kind: str
    arg: str | int | None = None
    text: str = field(default="", compare=False, repr=False)

    def __post_init__(self):
        # Written once: the log takes it on every move.
        text = self.kind if self.arg is None else f"{self.kind} {self.arg}"
        object.__setattr__(self, "text", text)

    def __str__(self) -> str:
        return self.text


REVEAL = Action("reveal")
HAND = Action("hand")
PASS = Action("pass")
BOOST = {slot: Action("boost", slot) for slot in SLOTS}
_USE: dict[int, Action] = {}
_DISCARD: dict[int, Action] = {}


def _use(number: int) -> Action:
    action = _USE.get(number)
    if action is None:
        action = _USE[number] = Action("use", number)
    return action


def _discard_action(number: int) -> Action:
    action = _DISCARD.get(number)
    if action is None:
        action = _DISCARD[number] = Action("discard", number)
    return action


def parse_action(text: str) -> Action:
    """Return the action written as ``text`` (the log form)."""
    if not isinstance(text, str):
        raise EngineError("bad_action", "An action is written as text.")
    words = text.split()
    if words == ["reveal"]:
        return REVEAL
    if words == ["hand"]:
        return HAND
    if words == ["pass"]:
        return PASS
    if len(words) == 2 and words[0] == "boost" and words[1] in BOOST:
        return BOOST[words[1]]
    if len(words) == 2 and words[0] in ("use", "discard") and words[1].isdigit():
        number = int(words[1])
        return _use(number) if words[0] == "use" else _discard_action(number)
    raise EngineError(
        "bad_action",
        f"'{text}' is not a Metal Fusion move; moves are: reveal, hand, "
        "boost character|beyblade|customizer, use N, pass, discard N.",
    )


# --- card data ---------------------------------------------------------------


def _name(card: dict) -> str:
    if card.get("name"):
        return str(card["name"])
    if card.get("number") is not None:
        return f"card #{card['number']}"
    return f"card {card.get('id', '?')}"


def _not_printed(card: dict) -> list:
    return card.get("not_printed") or []


def _colour_index(colour) -> int:
    if isinstance(colour, int) and 0 <= colour < 4:
        return colour
    try:
        return COLOURS.index(colour)
    except ValueError:
        raise ValueError(f"{colour!r} is not a launcher colour.") from None


def _booster_mask(value) -> tuple[int, int, int, int]:
    """Return which colours a booster code fires on (RBGY fires on all)."""
    if value is None:
        return (0, 0, 0, 0)
    return tuple(1 if letter in value else 0 for letter in LETTERS)


def _booster_problem(card: dict) -> str | None:
    value = card.get("boosters")
    if value is None:
        if "boosters" in _not_printed(card):
            return None
        return "its booster colour is unknown"
    if value not in _BOOSTER_CODES:
        return f"its booster code {value!r} is not one, two or all four of R, B, G, Y"
    return None


def _move_problem(card: dict) -> str | None:
    recorded = card.get("move_name") or any(
        card.get(f) is not None for f in _MOVE_FIELDS
    )
    if recorded or all(f in _not_printed(card) for f in _MOVE_FIELDS):
        return None
    return "its launch or landing move is not recorded (list the move colours as not printed if it has none)"


def card_problems(card: dict, zone: str | None = None) -> list[str]:
    """Return the plain-words reasons ``card`` cannot be played (empty when it can).

    ``zone`` is ``"lineup"`` or ``"deck"`` for the needs of that place only;
    without it, every need of the card's type is checked.
    """
    problems = []
    kind = card.get("card_type")
    if kind is None:
        return ["its card type is unknown"]
    if kind not in _TYPES:
        return [f"'{kind}' is not a Metal Fusion card type"]
    slot = _TYPES[kind]
    if zone in (None, "lineup") and slot != EFFECT:
        for colour, name in zip(COLOURS, _STAT_FIELDS, strict=True):
            value = card.get(name)
            if value is None:
                problems.append(f"its {colour} stat is unknown")
            elif not isinstance(value, int) or isinstance(value, bool):
                problems.append(f"its {colour} stat is not a whole number")
        if (
            slot in (0, 1)
            and card.get("emblem") is None
            and "emblem" not in _not_printed(card)
        ):
            problems.append("its emblem is unknown")
        if slot == 1:
            problem = _move_problem(card)
            if problem:
                problems.append(problem)
    if zone in (None, "deck"):
        launcher = card.get("launcher")
        if launcher is None:
            problems.append("its launcher colour is unknown")
        elif launcher not in COLOURS:
            problems.append(
                f"its launcher {launcher!r} is not red, blue, green or yellow"
            )
        number = card.get("number")
        if number is None:
            problems.append("its card number is unknown (it decides who attacks first)")
        elif not isinstance(number, int) or isinstance(number, bool) or number < 0:
            problems.append("its card number is not a whole number")
        if slot != EFFECT or _allows_booster(card):
            problem = _booster_problem(card)
            if problem:
                problems.append(problem)
    return problems


def _steps(card: dict) -> tuple[Effect, ...] | None:
    """Return the parsed steps, or None when they are not valid vocabulary."""
    try:
        return parse_effects(card.get("effects"))
    except EngineError:
        return None


def _allows_booster(card: dict) -> bool:
    steps = _steps(card) or ()
    return any(step.op == "as_booster" for step in steps)


def _supported(step: Effect, slot: int) -> bool:
    if step.attribute is not None and step.attribute not in COLOURS:
        return False
    if step.op == "as_booster":
        return slot == EFFECT
    if slot != EFFECT:
        return step.timing == "in_lineup" and step.op == "add_power"
    if step.timing == "revealed":
        ops = ("add_power", "draw", "discard", "to_hand")
    elif step.timing == "discard_from_hand":
        ops = ("add_power", "draw", "discard")
    else:
        return False
    if step.op in ("draw", "to_hand") and step.target != "self":
        return False
    return step.op in ops


class _Card:
    """What the engine needs of one card, read once from its dict."""

    __slots__ = (
        "name", "number", "slot", "launcher", "boost", "reveal", "from_hand",
        "lineup", "as_booster", "basic", "plain_key", "said_reveal",
        "said_takes", "said_discarded", "said_hand", "said_boost",
    )  # fmt: skip

    def __init__(self, card: dict, seat: int = 0):
        """Read ``card`` for the seat that owns it (its events name the owner)."""
        self.name = _name(card)
        self.number = card.get("number")
        self.slot = _TYPES[card["card_type"]]
        launcher = card.get("launcher")
        self.launcher = COLOURS.index(launcher) if launcher in COLOURS else -1
        self.boost = _booster_mask(card.get("boosters"))
        steps = _steps(card)
        self.basic = bool(card.get("effects")) and (
            steps is None or not all(_supported(s, self.slot) for s in steps)
        )
        if steps is None or self.basic:
            steps = ()
        self.reveal = tuple(
            s for s in steps if s.timing == "revealed" and s.op != "as_booster"
        )
        self.from_hand = tuple(
            s for s in steps if s.timing == "discard_from_hand" and s.op != "as_booster"
        )
        self.lineup = tuple(s for s in steps if s.timing == "in_lineup")
        self.as_booster = self.slot == EFFECT and any(
            s.op == "as_booster" for s in steps
        )
        # Where a plain battle's result is kept (``_plain_battles``).
        self.plain_key = 4 * seat + self.launcher
        # Every battle logs these; written once per card.
        who = _PLAYERS[seat]
        colour = COLOURS[self.launcher] if self.launcher >= 0 else ""
        self.said_reveal = f"{who} reveals {self.name}: a {colour} launcher."
        self.said_takes = f"{who} wins the battle and takes {self.name}."
        self.said_discarded = f"{self.name} is discarded."
        self.said_hand = f"{who} puts {self.name} into their hand."
        self.said_boost = {
            slot: f"{who} slides {self.name} under their {slot} as a booster."
            for slot in SLOTS
        }


class _Seat:
    """One seat's cards: 0-2 the line-up by slot, 3-17 the deck as given."""

    __slots__ = (
        "cards",
        "dicts",
        "by_number",
        "stats",
        "emblem",
        "move",
        "base",
        "lineup_steps",
        "hand_cards",
        "plain",
    )

    def __init__(self, lineup: list[dict], deck: list[dict], seat: int = 0):
        self.dicts = lineup + deck
        self.cards = [_Card(card, seat) for card in self.dicts]
        self.by_number = {self.cards[i].number: i for i in range(3, len(self.cards))}
        self.stats, self.emblem, self.move = _lineup_static(lineup)
        self.base = tuple(
            self.stats[0][c]
            + self.stats[1][c]
            + self.stats[2][c]
            + self.emblem
            + self.move[c]
            for c in range(4)
        )
        self.lineup_steps = tuple(s for card in self.cards[:3] for s in card.lineup)
        self.hand_cards = frozenset(
            i for i, card in enumerate(self.cards) if i >= 3 and card.from_hand
        )
        # No line-up text and no hand effect: its battles need no window.
        self.plain = not self.lineup_steps and not self.hand_cards


def _lineup_static(lineup: Sequence[dict]):
    """Return (stats by slot and colour, emblem bonus, move by colour) of a sorted line-up."""
    stats = [[card.get(f) for f in _STAT_FIELDS] for card in lineup]
    char, bey = lineup[0].get("emblem"), lineup[1].get("emblem")
    emblem = 1 if char is not None and char == bey else 0
    move = [lineup[1].get(f) or 0 for f in _MOVE_FIELDS]
    return stats, emblem, move


def _sort_lineup(cards: Sequence[dict], whose: str) -> list[dict]:
    """Return the line-up ordered character, beyblade, customizer; refuse a wrong shape."""
    if not isinstance(cards, (list, tuple)) or len(cards) != 3:
        raise EngineError(
            "bad_deck",
            f"{whose} line-up must be three cards: one Character, one Beyblade, one Customizer.",
        )
    by_slot: dict[str, dict] = {}
    for card in cards:
        if not isinstance(card, dict):
            raise EngineError(
                "bad_deck", f"{whose} line-up holds something that is not a card."
            )
        kind = card.get("card_type")
        if kind not in SLOTS:
            what = "a card of unknown type" if kind is None else f"a {kind} card"
            raise EngineError(
                "bad_deck",
                f"{whose} line-up holds {_name(card)}, {what}; it takes one Character, "
                "one Beyblade and one Customizer.",
            )
        if kind in by_slot:
            raise EngineError(
                "bad_deck",
                f"{whose} line-up holds two {kind} cards ({_name(by_slot[kind])} and "
                f"{_name(card)}); it takes one of each type.",
            )
        by_slot[kind] = card
    return [by_slot[slot] for slot in SLOTS]


def _checked_cards(card: dict, zone: str, whose: str) -> None:
    problems = card_problems(card, zone)
    if problems:
        raise EngineError(
            "bad_deck",
            f"{whose} {_name(card)} cannot be played: {'; '.join(problems)}.",
        )


def _build_seat(deck: dict, seat: int) -> _Seat:
    who = f"Player {seat + 1}"
    if not isinstance(deck, dict) or "lineup" not in deck or "deck" not in deck:
        raise EngineError("bad_deck", f"{who}'s deck needs a line-up and a deck.")
    lineup = _sort_lineup(deck["lineup"], f"{who}'s")
    cards = deck["deck"]
    if not isinstance(cards, (list, tuple)) or len(cards) != DECK_SIZE:
        count = len(cards) if isinstance(cards, (list, tuple)) else 0
        raise EngineError(
            "bad_deck",
            f"{who}'s deck holds {count} cards; it must hold exactly {DECK_SIZE} "
            "besides the line-up.",
        )
    for card in lineup:
        _checked_cards(card, "lineup", f"{who}'s")
    for card in cards:
        if not isinstance(card, dict):
            raise EngineError(
                "bad_deck", f"{who}'s deck holds something that is not a card."
            )
        _checked_cards(card, "deck", f"{who}'s")
    repeated = repeated_numbers(card["number"] for card in cards)
    if repeated:
        number = next(c["number"] for c in cards if c["number"] in repeated)
        first, second = [c for c in cards if c["number"] == number][:2]
        raise EngineError(
            "bad_deck",
            f"{who}'s deck holds two cards numbered {number} ({_name(first)} "
            f"and {_name(second)}); a deck may not repeat a card number (ruling M1).",
        )
    return _Seat(lineup, list(cards), seat)


class _Seats(list):
    """Every seat's ``_Seat``, with what each run of plain battles asks of them."""

    __slots__ = ("plain", "cards")

    def __init__(self, seats: Iterable[_Seat]):
        super().__init__(seats)
        self.plain = all(info.plain for info in self)  # no battle needs a check
        self.cards = [info.cards for info in self]


_seats = DeckReads(
    lambda decks: _Seats(_build_seat(deck, seat) for seat, deck in enumerate(decks))
)


# --- power ------------------------------------------------------------------


def _lineup_step_applies(step: Effect, colour: int, role: str | None) -> bool:
    if step.attribute is not None and COLOURS.index(step.attribute) != colour:
        return False
    if step.turn == "your":
        return role == "attacker"
    if step.turn == "opponent":
        return role == "defender"
    return True


def lineup_power(
    lineup_cards: Sequence[dict],
    colour: str,
    boosters: Iterable = (),
    role: str | None = None,
) -> tuple[int, dict]:
    """Return a line-up's battle power in ``colour`` and its parts (ruling M3).

    ``boosters`` holds booster cards (dicts) or booster codes ("Y", "RB",
    "RBGY"). ``role`` (``"attacker"`` or ``"defender"``) switches on the line-up
    text limited to that role; without it only text that always applies counts.
    Raise EngineError("bad_deck") when a value the count needs is unknown.
    """
    c = _colour_index(colour)
    cards = _sort_lineup(lineup_cards, "This")
    for card in cards:
        _checked_cards(card, "lineup", "This line-up's")
    stats, emblem, move = _lineup_static(cards)
    fired = 0
    for booster in boosters:
        if isinstance(booster, dict):
            problem = _booster_problem(booster)
            if problem:
                raise EngineError(
                    "bad_deck", f"The booster {_name(booster)}: {problem}."
                )
            booster = booster.get("boosters")
        elif booster is not None and booster not in _BOOSTER_CODES:
            raise EngineError("bad_deck", f"{booster!r} is not a booster code.")
        fired += _booster_mask(booster)[c]
    effects = 0
    for card in cards:
        for step in _Card(card).lineup:
            if _lineup_step_applies(step, c, role) and (
                step.target in ("self", "all")
                or (step.target == "attacker" and role == "attacker")
                or (step.target == "defender" and role == "defender")
            ):
                effects += step.amount
    parts = {
        "character": stats[0][c],
        "beyblade": stats[1][c],
        "customizer": stats[2][c],
        "emblem": emblem,
        "move": move[c],
        "boosters": fired,
        "effects": effects,
    }
    return sum(parts.values()), parts


# --- state ------------------------------------------------------------------


@dataclass
class State:
    """A game in progress; plain data (``seats`` is derived from ``decks``)."""

    seed: int
    options: dict
    decks: list
    players: int
    variant: str
    target: int
    rng: int
    deck: list = marked("rows")  # per seat, card indices; the top card is the last
    hand: list = marked("rows")
    discard: list = marked("rows")
    boosters: list = marked("grid")  # per seat, per line-up slot, card indices
    # per seat, boosters firing per colour
    boosts: list = marked("rows", derived=True)
    phase: str = "reveal"  # reveal, discard, window, choose, over
    attacker: int = 0
    turn: int = 0
    card: int = -1
    colour: int = -1
    defenders: list = marked("list", factory=list)
    bonus: list = marked("list", factory=list)  # per seat, effect power this battle
    keep: bool = False
    window_turn: int = 0  # index among the battle's seats of the one to act
    passes: int = 0
    resume: str = "open"
    pending: list = marked("rows", factory=list)
    winner: int | None = None
    reason: str = ""
    log: list = marked("list", factory=list)
    # What happened, in words: not saved, a replay of the log reproduces it.
    events: list = marked("list", factory=list, derived=True)
    seats: list = marked(factory=list, derived=True)
    # Plain battles' results by attacker and colour while no booster is added
    # (``_plain_battles``); a copy or a loaded game starts without.
    plain_results: list | None = derived(None, "fresh")


def _player(seat: int) -> str:
    return _PLAYERS[seat]


def _options(options: dict | None, players: int) -> tuple[str, int]:
    checked = checked_options(GAME, options)
    if checked["players"] not in (None, players):
        raise EngineError(
            "bad_options", f"{checked['players']} players need as many decks."
        )
    variant = checked["variant"]
    return variant, VARIANTS[variant]


def first_attacker(tops: Sequence[Sequence[int]]) -> tuple[int | None, list[int]]:
    """Return the M2 first attacker and how many cards each player turned over.

    Each list holds a player's card numbers from the top of the deck down. The
    highest number attacks first; players tied for the highest turn over their
    next card. The seat is None when the tie never breaks.
    """
    contenders = list(range(len(tops)))
    turned = [0] * len(tops)
    depth = 0
    while depth < min(len(t) for t in tops):
        for seat in contenders:
            turned[seat] += 1
        best = max(tops[s][depth] for s in contenders)
        contenders = [s for s in contenders if tops[s][depth] == best]
        depth += 1
        if len(contenders) == 1:
            return contenders[0], turned
    return None, turned


def new_game(decks: Sequence[dict], options: dict | None, seed: int) -> State:
    """Return a new game: decks shuffled, first attacker found by ruling M2."""
    if (
        not isinstance(decks, (list, tuple))
        or not MIN_PLAYERS <= len(decks) <= MAX_PLAYERS
    ):
        raise EngineError(
            "bad_deck",
            f"Metal Fusion is played by {MIN_PLAYERS} to {MAX_PLAYERS} players.",
        )
    players = len(decks)
    variant, target = _options(options, players)
    seats = _seats(decks)
    rng = Rng(seed_state(seed, 0))
    order = []
    for _ in range(players):
        cards = list(range(3, 3 + DECK_SIZE))
        rng.shuffle(cards)
        order.append(cards)
    state = State(
        seed=seed,
        options=dict(options or {}),
        decks=list(decks),
        players=players,
        variant=variant,
        target=target,
        rng=0,
        deck=order,
        hand=[[] for _ in range(players)],
        discard=[[] for _ in range(players)],
        boosters=[[[], [], []] for _ in range(players)],
        boosts=[[0, 0, 0, 0] for _ in range(players)],
        bonus=[0] * players,
        seats=seats,
    )
    for seat, info in enumerate(seats):
        for card in info.cards[:3]:
            if card.basic:
                state.events.append(
                    f"{_player(seat)}'s {card.name}: its text is not one the engine "
                    "knows; it plays as its basic self."
                )
    tops = [
        [info.cards[i].number for i in reversed(deck)]
        for info, deck in zip(seats, order, strict=True)
    ]
    winner, counts = first_attacker(tops)
    turned = "; ".join(
        f"{_player(s)} turns over " + ", ".join(f"#{n}" for n in tops[s][: counts[s]])
        for s in range(players)
    )
    if winner is None:
        winner = rng.below(players)
        state.events.append(f"{turned}: the numbers never differ; the seed picks.")
    state.events.append(f"{turned}: {_player(winner)} attacks first (ruling M2).")
    for cards in order:
        rng.shuffle(cards)
    state.rng = rng.state
    state.attacker = winner
    _start_turn(state)
    return state


# --- flow -------------------------------------------------------------------


def _end(s: State, winner: int | None, reason: str) -> None:
    s.phase = "over"
    s.winner = winner
    s.reason = reason
    s.events.append(reason)


def _gain(s: State, seat: int, card: int) -> None:
    hand = s.hand[seat]
    hand.append(card)
    if len(hand) >= s.target and s.phase != "over":
        _end(
            s,
            seat,
            f"{_player(seat)} holds {len(hand)} cards in hand and wins (ruling M5).",
        )


def _start_turn(s: State) -> None:
    s.card = -1
    s.colour = -1
    s.defenders = []
    s.bonus = [0] * s.players
    s.keep = False
    s.pending = []
    if s.turn >= TURN_CAP:
        _end(
            s,
            None,
            f"{TURN_CAP} battles are fought with no winner: the game is a draw (ruling E3).",
        )
        return
    a = s.attacker
    if not s.deck[a] and not s.discard[a]:
        counts = [len(h) for h in s.hand]
        best = max(counts)
        leaders = [i for i, n in enumerate(counts) if n == best]
        said = ", ".join(f"{_player(i)} {n}" for i, n in enumerate(counts))
        if len(leaders) == 1:
            _end(
                s,
                leaders[0],
                f"{_player(a)} has no card left to reveal; cards in hand: {said}. {_player(leaders[0])} wins (ruling M6).",
            )
        else:
            _end(
                s,
                None,
                f"{_player(a)} has no card left to reveal; cards in hand: {said}. The game is a draw (ruling M6).",
            )
        return
    s.phase = "reveal"


def _next_turn(s: State) -> None:
    s.attacker = (s.attacker + 1) % s.players
    _start_turn(s)


def _involved(s: State) -> list[int]:
    return [s.attacker] + s.defenders


def _targets(s: State, owner: int, target: str) -> list[int]:
    if target == "self":
        return [owner]
    if target in ("opponent", "each_opponent"):
        return s.defenders[:] if owner == s.attacker else [s.attacker]
    if target == "all":
        return _involved(s)
    if target == "attacker":
        return [s.attacker]
    return s.defenders[:]


def _step_applies(s: State, owner: int, step: Effect) -> bool:
    if step.attribute is not None and COLOURS.index(step.attribute) != s.colour:
        return False
    if step.turn == "your":
        return owner == s.attacker
    if step.turn == "opponent":
        return owner != s.attacker
    return True


def _apply_steps(s: State, owner: int, card: _Card, steps: tuple) -> None:
    for step in steps:
        if not _step_applies(s, owner, step):
            s.events.append(f"{card.name}: one of its effects does not apply now.")
            continue
        if step.op == "add_power":
            targets = _targets(s, owner, step.target)
            for t in targets:
                s.bonus[t] += step.amount
            who = ", ".join(_player(t) for t in targets)
            s.events.append(f"{card.name} adds {step.amount:+d} to the power of {who}.")
        elif step.op == "draw":
            deck = s.deck[owner]
            drawn = 0
            for _ in range(step.amount):
                if not deck or s.phase == "over":
                    break
                drawn += 1
                _gain(s, owner, deck.pop())
            s.events.append(f"{card.name}: {_player(owner)} draws {drawn} card(s).")
        elif step.op == "discard":
            for t in _targets(s, owner, step.target):
                if step.amount > 0 and s.hand[t]:
                    s.pending.append([t, step.amount])
        elif step.op == "to_hand":
            s.keep = True
            s.events.append(
                f"{card.name} will go to {_player(owner)}'s hand whatever the result."
            )
        if s.phase == "over":
            return


_SAID_NEW_DECK = tuple(
    f"{who}'s deck is empty: the discard pile is shuffled into a new deck (ruling M6)."
    for who in _PLAYERS
)


def _new_deck(s: State, a: int) -> None:
    """Shuffle the attacker's discard pile into a new deck (ruling M6)."""
    pile = s.discard[a]
    rng = Rng(s.rng)
    rng.shuffle(pile)
    s.rng = rng.state
    s.deck[a] = pile
    s.discard[a] = []
    s.events.append(_SAID_NEW_DECK[a])


def _reveal(s: State) -> None:
    a = s.attacker
    info = s.seats[a]
    if not s.deck[a]:
        _new_deck(s, a)
    card = s.deck[a].pop()
    c = info.cards[card]
    s.turn += 1
    s.card = card
    s.colour = c.launcher
    n = s.players
    if s.variant == "left":
        s.defenders = [(a + 1) % n]
    else:
        s.defenders = [(a + k) % n for k in range(1, n)]
    s.events.append(c.said_reveal)
    if c.slot == EFFECT:
        if c.reveal:
            _apply_steps(s, a, c, c.reveal)
            if s.phase == "over":
                return
        elif c.basic:
            s.events.append(
                f"{c.name}: its text is not one the engine knows; it plays as a plain card."
            )
        elif not (c.from_hand or c.as_booster):
            s.events.append(
                f"{c.name}'s text is not encoded; it plays as a plain card."
            )
    s.resume = "open"
    _settle(s)


# The two-player battle's event in two pieces around the attacker's power.
_POWER_SAID = [
    [
        [(f"Battle power on {colour}: {a} ", f", {d} ") for d in _PLAYERS]
        for a in _PLAYERS
    ]
    for colour in COLOURS
]
_SAID_LOSES = tuple(f"{who} loses the battle." for who in _PLAYERS)
_SAID_TIE = "A tie goes to the defender."
# Who defends against each attacker, by (variant is "left", players).
_DEFENDERS = {
    (left, n): tuple(
        (a + 1 if a + 1 < n else 0,)
        if left
        else tuple((a + k) % n for k in range(1, n))
        for a in range(n)
    )
    for left in (True, False)
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
}


def _forget_results(s: State, colours: tuple[int, ...]) -> None:
    """Forget the kept plain results (``_plain_battles``) of battles in ``colours``.

    A booster changes its owner's power in the colours it fires on, and only
    there; every battle in such a colour is worked out again.
    """
    results = s.plain_results
    if results is not None:
        for colour in range(4):
            if colours[colour]:
                results[colour::4] = [None] * s.players


def _plain_result(
    s: State, a: int, colour: int, defenders: tuple[int, ...]
) -> tuple[bool, str, str]:
    """Return a plain battle's result: (the attacker wins, power event, losing event).

    The powers are ``_battle_power``'s for a battle with no text; the events
    are ``_compare``'s. It can be kept: the seats, their defenders and line-ups
    stay for the whole game, ``bonus`` is zero at every reveal (``_start_turn``
    clears it, and only card text changes it), so only a booster changes the
    result (``_forget_results``).
    """
    seats, boosts, bonus = s.seats, s.boosts, s.bonus
    attack = seats[a].base[colour] + boosts[a][colour] + bonus[a]
    if len(defenders) == 1:
        d = defenders[0]
        best = seats[d].base[colour] + boosts[d][colour] + bonus[d]
        head, middle = _POWER_SAID[colour][a][d]
        said = f"{head}{attack}{middle}{best}."
    else:
        powers = [
            seats[d].base[colour] + boosts[d][colour] + bonus[d] for d in defenders
        ]
        best = max(powers)
        said = ", ".join(
            f"{_PLAYERS[seat]} {p}"
            for seat, p in zip([a, *defenders], [attack, *powers], strict=True)
        )
        said = f"Battle power on {COLOURS[colour]}: {said}."
    lost = _SAID_TIE if attack == best else _SAID_LOSES[a]
    return beats(attack, best), said, lost


def _all_plain(seats: list[_Seat], a: int, defenders: tuple[int, ...]) -> bool:
    """Return whether attacker ``a`` and ``defenders`` all fight plain battles."""
    return seats[a].plain and all(seats[d].plain for d in defenders)


def _plain_battles(s: State, made: list[int] | None = None) -> int:
    """Fight the commonest battles in one go; return how many were fought.

    A plain battle reveals a card that is no Effect, between seats whose
    line-ups carry no text and who own no hand effect: no step, no window, no
    choice but the winner's. Each is logged as a ``reveal`` and its result,
    log and events are exactly those of ``_reveal``, ``_settle`` and
    ``_compare``; a simulation fights most of its battles this way.

    Without ``made`` (``apply``) it fights one battle at most. With it
    (``play_forced``) it goes on while the battles stay plain and the
    attacker loses them (the next attacker's move is again the only legal
    one), counting each battle's reveal in ``made`` for the attacker. It
    stops before a battle that is not plain (0 when the first is not; the
    caller takes the long way), after a battle the attacker wins (the choice
    of ruling M4 is theirs) and at the end of the game.
    """
    seats, decks, discards, events = s.seats, s.deck, s.discard, s.events
    n = s.players
    # The powers stay as they are until a booster is added, so each attacker
    # and colour has one result until then: worked out once (``_plain_result``).
    results = s.plain_results
    if results is None:
        results = s.plain_results = [None] * (4 * n)
    defending = _DEFENDERS[s.variant == "left", n]
    everyone, cards_of = seats.plain, seats.cards
    a = first = s.attacker
    turn = start = s.turn
    while True:
        deck = decks[a]
        if not deck:
            _new_deck(s, a)  # _reveal, should it take over, finds the deck full
            deck = decks[a]
        card = deck.pop()
        c = cards_of[a][card]
        if c.slot == EFFECT or not (everyone or _all_plain(seats, a, defending[a])):
            deck.append(card)  # not a plain battle: left to the long way
            break
        turn += 1
        result = results[c.plain_key]
        if result is None:
            result = _plain_result(s, a, c.launcher, defending[a])
            results[c.plain_key] = result
        wins, said, lost = result
        if wins:
            events += (c.said_reveal, said, c.said_takes)
            s.card, s.colour, s.defenders = card, c.launcher, list(defending[a])
            s.phase = "choose"
            break
        events += (c.said_reveal, said, lost, c.said_discarded)
        discards[a].append(card)
        a = a + 1 if a + 1 < n else 0
        # The turn's fields still hold what _start_turn set (these battles
        # changed none of them), so only its endings are left to check.
        if turn >= TURN_CAP or not (decks[a] or discards[a]):
            s.attacker, s.turn = a, turn
            _start_turn(s)
            break
        if made is None:
            break
    fought = turn - start
    if fought:
        # Only reveals were made, by the seats in turn from the first attacker.
        s.attacker, s.turn = a, turn
        s.resume, s.window_turn, s.passes = "window", 0, len(defending[a]) + 1
        s.log.extend(repeat("reveal", fought))
        if made is not None:
            rounds, extra = divmod(fought, n)
            for k in range(n):
                made[(first + k) % n] += rounds + (k < extra)
    return fought


def _usable(s: State, seat: int) -> list[int]:
    """Return the hand cards ``seat`` may use in the counting window, by number."""
    usable = s.seats[seat].hand_cards
    if not usable:
        return []
    found = [i for i in s.hand[seat] if i in usable]
    if not found:
        return []
    cards = s.seats[seat].cards
    found = [
        i for i in found if any(_step_applies(s, seat, st) for st in cards[i].from_hand)
    ]
    found.sort(key=lambda i: cards[i].number)
    return found


def _settle(s: State) -> None:
    """Resolve pending discards, then run the counting window, then compare."""
    while s.pending:
        seat, count = s.pending[0]
        hand = s.hand[seat]
        if count <= 0 or not hand:
            s.pending.pop(0)
            continue
        if len(hand) <= count:
            names = ", ".join(s.seats[seat].cards[i].name for i in hand)
            s.discard[seat].extend(hand)
            hand.clear()
            s.events.append(f"{_player(seat)} discards {names}.")
            s.pending.pop(0)
            continue
        s.phase = "discard"
        return
    if s.resume == "open":
        s.resume = "window"
        s.window_turn = 0
        s.passes = 0
    involved = [s.attacker, *s.defenders]
    k = len(involved)
    seats = s.seats
    for seat in involved:
        if seats[seat].hand_cards:
            break
    else:
        # Nobody in the battle owns a hand effect: every seat passes at once.
        s.window_turn = (
            (s.window_turn + k - s.passes) % k if s.passes < k else s.window_turn
        )
        s.passes = max(s.passes, k)
        _compare(s, involved)
        return
    while s.passes < k:
        if _usable(s, involved[s.window_turn]):
            s.phase = "window"
            return
        s.passes += 1
        s.window_turn = (s.window_turn + 1) % k
    _compare(s, involved)


def _battle_power(s: State, seat: int, involved: list[int]) -> int:
    """Return ``power(s, seat)[0]`` for a seat in the battle, without its parts."""
    c = s.colour
    seats = s.seats
    total = seats[seat].base[c] + s.boosts[seat][c] + s.bonus[seat]
    for owner in involved:
        steps = seats[owner].lineup_steps
        if steps:
            total += _lineup_effects(s, owner, steps, seat)
    return total


def _lineup_effects(s: State, owner: int, steps: tuple, seat: int) -> int:
    amount = 0
    for step in steps:
        if _step_applies(s, owner, step) and seat in _targets(s, owner, step.target):
            amount += step.amount
    return amount


def power(state: State, seat: int, colour: str | None = None) -> tuple[int, dict]:
    """Return a player's battle power and its parts (ruling M3).

    The colour defaults to the current turn's. Effects count in the battle in
    progress when the player takes part in it; otherwise only the line-up's
    own text that always applies.
    """
    s = state
    c = s.colour if colour is None else _colour_index(colour)
    if c < 0:
        raise ValueError("No colour is set: no card has been revealed this turn.")
    info = s.seats[seat]
    in_battle = s.card >= 0 and s.colour == c and seat in _involved(s)
    if in_battle:
        effects = s.bonus[seat]
        for owner in _involved(s):
            effects += _lineup_effects(s, owner, s.seats[owner].lineup_steps, seat)
    else:
        effects = sum(
            step.amount
            for step in info.lineup_steps
            if _lineup_step_applies(step, c, None) and step.target in ("self", "all")
        )
    parts = {
        "character": info.stats[0][c],
        "beyblade": info.stats[1][c],
        "customizer": info.stats[2][c],
        "emblem": info.emblem,
        "move": info.move[c],
        "boosters": s.boosts[seat][c],
        "effects": effects,
    }
    return sum(parts.values()), parts


def _compare(s: State, involved: list[int]) -> None:
    c = s.colour
    seats = s.seats
    powers = [_battle_power(s, seat, involved) for seat in involved]
    a = s.attacker
    if len(involved) == 2:
        said = f"{_PLAYERS[a]} {powers[0]}, {_PLAYERS[involved[1]]} {powers[1]}"
    else:
        said = ", ".join(
            f"{_PLAYERS[seat]} {p}" for seat, p in zip(involved, powers, strict=True)
        )
    events = s.events
    events.append(f"Battle power on {COLOURS[c]}: {said}.")
    card = seats[a].cards[s.card]
    attack, best = powers[0], max(powers[1:])
    if beats(attack, best):
        s.phase = "choose"
        events.append(card.said_takes)
        return
    if attack == best:
        events.append("A tie goes to the defender.")
    else:
        events.append(f"{_PLAYERS[a]} loses the battle.")
    if s.keep:
        events.append(f"{card.name} goes to {_player(a)}'s hand all the same.")
        index, s.card = s.card, -1
        _gain(s, a, index)
        if s.phase == "over":
            return
    else:
        s.discard[a].append(s.card)
        events.append(card.said_discarded)
    _next_turn(s)


def _boost_slots(s: State) -> tuple[str, ...]:
    card = s.seats[s.attacker].cards[s.card]
    if card.slot != EFFECT:
        return (SLOTS[card.slot],)
    return SLOTS if card.as_booster else ()


# --- the interface ------------------------------------------------------------


def to_act(state: State) -> int | None:
    """Return the seat that acts next (None once the game is over)."""
    s = state
    phase = s.phase
    if phase == "reveal" or phase == "choose":
        return s.attacker
    if phase == "window":
        return _involved(s)[s.window_turn]
    if phase == "discard":
        return s.pending[0][0]
    return None


def legal_actions(state: State) -> list[Action]:
    """Return every action the seat to act may take, in a fixed order."""
    s = state
    phase = s.phase
    if phase == "reveal":
        return [REVEAL]
    if phase == "choose":
        slot = s.seats[s.attacker].cards[s.card].slot
        if slot != EFFECT:  # _boost_slots: the line-up card of its own type
            return [HAND, BOOST[SLOTS[slot]]]
        return [HAND] + [BOOST[slot] for slot in _boost_slots(s)]
    if phase == "window":
        seat = _involved(s)[s.window_turn]
        cards = s.seats[seat].cards
        return [_use(cards[i].number) for i in _usable(s, seat)] + [PASS]
    if phase == "discard":
        seat = s.pending[0][0]
        cards = s.seats[seat].cards
        return [
            _discard_action(n) for n in sorted(cards[i].number for i in s.hand[seat])
        ]
    return []


def _refuse(s: State, action: Action) -> None:
    seat = to_act(s)
    who = _player(seat)
    phase = s.phase
    if phase == "reveal":
        message = f"{who} attacks: the only move is to reveal the top card."
    elif phase == "choose":
        card = s.seats[seat].cards[s.card]
        if action.kind == "boost":
            if card.slot == EFFECT and not card.as_booster:
                message = f"{card.name} is an Effect card whose text does not let it become a booster (ruling M4)."
            else:
                message = (
                    f"{card.name} can only go under the line-up's {SLOTS[card.slot]}."
                )
        else:
            message = (
                f"{who} won {card.name}: put it into the hand or use it as a booster."
            )
    elif phase == "window":
        message = f"{who} may use a 'discard this card from your hand' effect or pass."
    else:
        message = f"{who} must discard a card from their hand."
    raise EngineError(
        "illegal_action", f"That move is not allowed now ({action.text}): {message}"
    )


def apply(state: State, action: Action | str, *, inplace: bool = False) -> State:
    """Return the state after ``action``; refuse it with EngineError when not legal."""
    s = state
    if action is REVEAL and inplace and s.phase == "reveal":
        # A simulation's commonest move: legal, nothing to copy.
        if not _plain_battles(s):
            s.log.append("reveal")
            _reveal(s)
        return s
    if isinstance(action, str):
        action = parse_action(action)
    if s.phase == "over":
        raise EngineError("game_over", "The game is over.")
    kind = action.kind
    phase = s.phase
    if phase == "reveal":
        ok = action is REVEAL or action == REVEAL
    elif phase == "choose":
        ok = (
            kind == "hand"
            and action.arg is None
            or (kind == "boost" and action.arg in _boost_slots(s))
        )
    elif phase == "window":
        if kind == "pass":
            ok = action.arg is None
        elif kind == "use":
            seat = _involved(s)[s.window_turn]
            index = s.seats[seat].by_number.get(action.arg, -1)
            ok = index in _usable(s, seat)
        else:
            ok = False
    else:
        seat = s.pending[0][0]
        ok = (
            kind == "discard"
            and s.seats[seat].by_number.get(action.arg, -1) in s.hand[seat]
        )
    if not ok:
        _refuse(s, action)
    if not inplace:
        s = copy_state(s)
    if phase == "reveal":
        if not _plain_battles(s):  # logs its reveal itself
            s.log.append(action.text)
            _reveal(s)
        return s
    s.log.append(action.text)
    if phase == "choose":
        a = s.attacker
        card = s.seats[a].cards[s.card]
        if kind == "hand":
            s.events.append(card.said_hand)
            index, s.card = s.card, -1
            _gain(s, a, index)
        else:
            slot = SLOTS.index(action.arg)
            s.boosters[a][slot].append(s.card)
            counts = s.boosts[a]
            for c in range(4):
                counts[c] += card.boost[c]
            _forget_results(s, card.boost)
            s.events.append(card.said_boost[action.arg])
        if s.phase != "over":
            _next_turn(s)
    elif phase == "window":
        involved = _involved(s)
        seat = involved[s.window_turn]
        s.window_turn = (s.window_turn + 1) % len(involved)
        if kind == "pass":
            s.passes += 1
        else:
            index = s.seats[seat].by_number[action.arg]
            card = s.seats[seat].cards[index]
            s.hand[seat].remove(index)
            s.discard[seat].append(index)
            s.passes = 0
            s.events.append(
                f"{_player(seat)} discards {card.name} from their hand to use it."
            )
            _apply_steps(s, seat, card, card.from_hand)
            if s.phase == "over":
                return s
        _settle(s)
    else:
        seat = s.pending[0][0]
        index = s.seats[seat].by_number[action.arg]
        s.hand[seat].remove(index)
        s.discard[seat].append(index)
        s.events.append(f"{_player(seat)} discards {s.seats[seat].cards[index].name}.")
        s.pending[0][1] -= 1
        _settle(s)
    return s


def play_forced(state: State) -> list[int]:
    """Apply in place the moves that are the only legal one; return how many per seat.

    Exactly ``bots.play_forced_reference`` (a test holds them equal), which
    the bots' loop ``bots.play_out`` takes to skip its per-move work: a
    reveal is always the only move, and a random game is mostly reveals.
    Runs of plain battles are fought in one call (``_plain_battles``).
    """
    s = state
    made = [0] * s.players
    while True:
        phase = s.phase
        if phase == "reveal":
            if not _plain_battles(s, made):
                made[s.attacker] += 1
                s.log.append("reveal")
                _reveal(s)
            continue
        if phase == "over" or (
            phase == "choose" and s.seats[s.attacker].cards[s.card].slot != EFFECT
        ):
            return made  # a won card that is no Effect: hand or boost, a choice
        actions = legal_actions(s)
        if len(actions) != 1:
            return made
        made[to_act(s)] += 1
        apply(s, actions[0], inplace=True)


def is_over(state: State) -> bool:
    return state.phase == "over"


def winner(state: State) -> int | None:
    return state.winner


def player_count(state: State) -> int:
    return state.players


def length(state: State) -> int:
    """Return the number of battles fought (revealed cards)."""
    return state.turn


def chance_outcomes(state: State) -> list:
    """Return no outcomes: shuffles come from the seed, nothing else is chance."""
    return []


def to_json(state: State) -> dict:
    """Return the whole state as JSON-ready data."""
    return state_to_json(GAME, VERSION, state)


def _restore(values: dict) -> State:
    seats = _seats(values["decks"])
    boosts = []
    for info, piles in zip(seats, values["boosters"], strict=True):
        counts = [0, 0, 0, 0]
        for pile in piles:
            for index in pile:
                for c in range(4):
                    counts[c] += info.cards[index].boost[c]
        boosts.append(counts)
    return State(**values, boosts=boosts, seats=seats)


def from_json(data: dict) -> State:
    """Return the state stored by ``to_json``."""
    return state_from_json(data, GAME, VERSION, State, _restore)


def repeated_numbers(numbers: Iterable) -> set:
    """Return the card numbers that occur more than once (ruling M1 refuses them)."""
    seen: set = set()
    repeated: set = set()
    for number in numbers:
        (repeated if number in seen else seen).add(number)
    return repeated


def beats(attack: int, best: int) -> bool:
    """Return whether an attack of ``attack`` wins against the best defence (M4).

    The one place the tie rule lives: a tie goes to the defender. The engine's
    battles and the table companion (``attacker_wins``) both ask it.
    """
    return attack > best


def attacker_wins(attack: int, defences: Iterable[int]) -> bool:
    """Return whether the attacker's power beats every defender's (M4, M9)."""
    return beats(attack, max(defences))


# The valuation and the view read the rules above: imported last, they find
# every name they import from this module already defined.
from .valuation import RACE_ALMOST, RACE_CARD, RACE_NEAR, score  # noqa: E402, F401
from .view import action_cards, describe, determinize, view, why_not  # noqa: E402, F401
