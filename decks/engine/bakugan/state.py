"""The Bakugan table: actions, card data, the state, set-up, turn order."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cards.effects import (
    Effect,
    effect_sentence,
)
from cards.games import GAMES

from ..core import (
    CHANCE,
    DeckReads,
    EngineError,
    Rng,
    checked_options,
    derived,
    marked,
    parse_effects,
    seed_state,
)

GAME = GAMES["bakugan"]
SLUG = GAME.slug
NAME = GAME.name
VERSION = "1"
MIN_PLAYERS = GAME.min_players
MAX_PLAYERS = GAME.max_players
SEAT_COUNTS = GAME.seat_counts
TURN_CAP = 300
GATES_TO_WIN = 3

ATTRIBUTES = ("pyrus", "aquos", "subterra", "haos", "darkus", "ventus")
ZONES = ("bakugan", "gate", "ability")
WINDOWS = ("before_roll", "after_roll", "before_battle", "in_battle", "after_battle")
BATTLE_WINDOWS = ("before_battle", "in_battle", "after_battle")
WINDOW_WORDS = {
    "before_roll": "before the roll",
    "after_roll": "after the roll",
    "before_battle": "before the battle",
    "in_battle": "in battle",
    "after_battle": "after the battle",
}
OPS = {
    "add_g_power",
    "swap_g_power",
    "lower_wins",
    "remove_bakugan",
    "cancel_gate",
    "win_gate",
    "no_effect",
    "attribute_bonus",
    "gate_bonus_again",
    "no_gate_bonus",
    "nullify_gate",
    "no_abilities",
    "double_ability_bonus",
    "zero_ability_bonus",
    "return_abilities",
    "discard_ability",
    "reroll",
    "extra_turn",
    "take_gate",
    "keep_gate",
    "return_bakugan",
    "clear_field",
    "zero_printed",
    "move_bakugan",
    "reroll_on_miss",
    "best_gate_bonus",
    "cap_gate_bonus",
    "change_attribute",
    "clear_bonuses",
    "no_traps",
    "discard_traps",
    "return_traps",
    "copy_printed",
    "bank_gate",
    "place_gate",
    "join_gate",
    "swap_battler",
    "arm",
    "send_used",
    "peek_gates",
    "face_up_gates",
}
# What a card whose text is not encoded does: its printed bonus, in battle.
BONUS_ALONE = Effect("attribute_bonus", "in_battle")
NOT_ENCODED = "its text is not encoded"
GATE_TIMINGS = ("gate_open", "after_battle", "passive", "used_pile")
ABILITY_TIMINGS = (*WINDOWS, "used_pile")


# --- actions ---------------------------------------------------------------


_LABELS = tuple(f"P{code // 3 + 1}-G{code % 3 + 1}" for code in range(12))
_SEAT_WORDS = tuple(f"Player {seat + 1}" for seat in range(4))


def _gate_label(code: int) -> str:
    return _LABELS[code]


@dataclass(frozen=True, slots=True)
class Action:
    """One move; ``text`` is its stable log form."""

    kind: str
    seat: int = -1
    arg: int = -1
    arg2: int = -1
    text: str = field(default="", compare=False, repr=False)

    def __post_init__(self):
        # Written once: the log takes it on every move.
        object.__setattr__(self, "text", _text_of(self))


def _text_of(action: Action) -> str:
    kind, who = action.kind, f"P{action.seat + 1}"
    if kind == "miss":
        return "missed"
    if kind == "land":
        return f"landed on gate {_gate_label(action.arg)}"
    if kind == "place":
        return f"{who} places G{action.arg + 1}"
    if kind == "roll":
        return f"{who} rolls B{action.arg + 1}"
    if kind == "play":
        return f"{who} plays A{action.arg + 1}"
    if kind == "pass":
        return f"{who} passes"
    if kind == "move":
        return f"{who} moves to {_gate_label(action.arg)}"
    if kind == "shift":
        return f"{who} moves B{action.arg + 1} to {_gate_label(action.arg2)}"
    if kind == "clear":
        return f"{who} clears {_gate_label(action.arg)}"
    return f"{who} skips"


MISS = Action("miss")
# Every action exists once: legal_actions hands out these shared objects, which
# is much cheaper than building frozen dataclasses on each call.
_LAND = [Action("land", -1, g) for g in range(12)]
_PLACE = [[Action("place", s, i) for i in range(3)] for s in range(4)]
_ROLL = [[Action("roll", s, i) for i in range(3)] for s in range(4)]
_PLAY = [[Action("play", s, i) for i in range(3)] for s in range(4)]
_PASS = [Action("pass", s) for s in range(4)]
_SKIP = [Action("skip", s) for s in range(4)]
_MOVE = [[Action("move", s, g) for g in range(12)] for s in range(4)]
_CLEAR = [[Action("clear", s, g) for g in range(12)] for s in range(4)]
_SHIFT = [
    [[Action("shift", s, b, g) for g in range(12)] for b in range(3)] for s in range(4)
]
_ORDERS = {n: [[(t + k) % n for k in range(n)] for t in range(n)] for n in (2, 4)}
_GATE = r"P([1-4])-G([1-3])"
_PATTERNS = (
    (re.compile(r"P([1-4]) places G([1-3])"), "place"),
    (re.compile(r"P([1-4]) rolls B([1-3])"), "roll"),
    (re.compile(r"P([1-4]) plays A([1-3])"), "play"),
    (re.compile(r"P([1-4]) moves to " + _GATE), "move"),
    (re.compile(r"P([1-4]) moves B([1-3]) to " + _GATE), "shift"),
    (re.compile(r"P([1-4]) clears " + _GATE), "clear"),
    (re.compile(r"landed on gate " + _GATE), "land"),
)


def parse_action(text: str) -> Action:
    """Return the action whose log form is ``text``."""
    if not isinstance(text, str):
        raise EngineError("bad_action", "An action is a line of text.")
    text = text.strip()
    if text == "missed":
        return MISS
    match = re.fullmatch(r"P([1-4]) (passes|skips)", text)
    if match:
        kind = "pass" if match.group(2) == "passes" else "skip"
        return Action(kind, int(match.group(1)) - 1)
    for pattern, kind in _PATTERNS:
        match = pattern.fullmatch(text)
        if not match:
            continue
        n = [int(g) - 1 for g in match.groups()]
        if kind == "land":
            return Action("land", -1, n[0] * 3 + n[1])
        if kind in ("move", "clear"):
            return Action(kind, n[0], n[1] * 3 + n[2])
        if kind == "shift":
            return Action(kind, n[0], n[1], n[2] * 3 + n[3])
        return Action(kind, n[0], n[1])
    raise EngineError("bad_action", f"Not a Bakugan move: {text!r}.")


# --- card data -------------------------------------------------------------


def _bonus(gate: dict, attribute: str) -> int | None:
    key = f"bonus_{attribute}"
    value = gate.get(key)
    if value is None and key in (gate.get("not_printed") or ()):
        return 0
    return value


def g_power_on_gate(bakugan_card: dict, gate_card: dict) -> int | None:
    """Return the Bakugan's G-Power plus the gate's bonus for its attribute."""
    g_power, attribute = bakugan_card.get("g_power"), bakugan_card.get("attribute")
    if g_power is None or attribute not in ATTRIBUTES:
        return None
    bonus = _bonus(gate_card, attribute)
    return None if bonus is None else g_power + bonus


def _kind_of(card: dict) -> str | None:
    kind = card.get("card_type")
    if kind in ZONES:
        return kind
    if card.get("gate_class") is not None:
        return "gate"
    if card.get("colour") is not None or card.get("timing") is not None:
        return "ability"
    if "g_power" in card or "attribute" in card:
        return "bakugan"
    if any(f"bonus_{a}" in card for a in ATTRIBUTES):
        return "gate"
    return None


def _problems(card: dict, kind: str | None, effects: bool = True) -> list[str]:
    if not isinstance(card, dict):
        return ["It is not a card record."]
    problems = []
    if kind is None:
        return ["It is not a Bakugan, a Gate card or an Ability card."]
    if kind == "bakugan":
        attribute = card.get("attribute")
        if attribute is None:
            problems.append("Its attribute is unknown.")
        elif attribute not in ATTRIBUTES:
            problems.append(f"Its attribute {attribute!r} is not a Bakugan attribute.")
        g_power = card.get("g_power")
        if g_power is None:
            problems.append("Its G-Power is unknown.")
        elif not isinstance(g_power, int) or isinstance(g_power, bool):
            problems.append("Its G-Power is not a whole number.")
        return problems
    if kind == "gate":
        unknown = [a.capitalize() for a in ATTRIBUTES if _bonus(card, a) is None]
        if unknown:
            problems.append("Its G-Power bonus is unknown for " + ", ".join(unknown))
    if effects:
        try:
            parse_effects(card.get("effects"))
        except EngineError as error:
            problems.append(f"Its encoded text is malformed: {error.message}")
    return problems


def card_problems(card: dict) -> list[str]:
    """Return the plain-words reasons a card cannot be played (empty when fine)."""
    return _problems(card, _kind_of(card) if isinstance(card, dict) else None)


def _card_name(card: dict, fallback: str) -> str:
    return card.get("name") or fallback


def _supported(steps, timings) -> bool:
    return all(s.op in OPS and s.timing in timings for s in steps)


class _CardError(Exception):
    """A card whose encoded text cannot be read."""


def _parse(card: dict, where: str):
    try:
        return parse_effects(card.get("effects"))
    except EngineError as error:
        raise _CardError(
            f"{where} {card.get('name') or '(no name)'} (id {card.get('id')}) "
            f"cannot be played: its encoded text is malformed: {error.message}"
        ) from None


class _Static:
    """Play data derived from the decks; shared by every copy of a state."""

    __slots__ = (
        "bak_name",
        "bak_attr",
        "bak_g",
        "bak_full",
        "gate_name",
        "gate_bonus",
        "gate_steps",
        "gate_note",
        "ab_name",
        "ab_window",
        "ab_by_window",
        "ab_steps",
        "ab_note",
        "ab_bonus",
        "ab_colour",
        "gate_class",
        "bak_lname",
        "gate_text",
        "ab_text",
        "gate_pile",
        "ab_pile",
        "any_pile",
        "ab_arm",
        "field_bonus",
        "on_gate",
        "field_terms",
        "gate_full",
    )

    def __init__(self, decks):
        self.bak_name, self.bak_attr, self.bak_g = [], [], []
        self.gate_name, self.gate_bonus, self.gate_steps, self.gate_note = (
            [],
            [],
            [],
            [],
        )
        self.ab_name, self.ab_window, self.ab_steps, self.ab_note = [], [], [], []
        self.ab_bonus, self.ab_colour, self.gate_class = [], [], []
        self.gate_text, self.ab_text = [], []
        for seat, deck in enumerate(decks):
            who = f"Player {seat + 1}"
            for i, card in enumerate(deck["bakugan"]):
                self.bak_name.append(_card_name(card, f"{who}'s Bakugan {i + 1}"))
                self.bak_attr.append(card["attribute"])
                self.bak_g.append(card["g_power"])
            for i, card in enumerate(deck["gate"]):
                self._read_gate(card, who, i)
            self._read_abilities(deck["ability"], who)
        self._derive()
        self._derive_field(len(decks))

    def _read_gate(self, card: dict, who: str, i: int) -> None:
        self.gate_name.append(_card_name(card, f"{who}'s gate {i + 1}"))
        self.gate_bonus.append({a: _bonus(card, a) for a in ATTRIBUTES})
        self.gate_class.append(card.get("gate_class"))
        steps = _parse(card, f"{who}'s gate card")
        ok = bool(steps) and _supported(steps, GATE_TIMINGS)
        self.gate_steps.append(steps if ok else ())
        self.gate_text.append(
            effect_sentence(steps, is_gate=True)
            if ok
            else "Not encoded: it gives its bonus alone."
        )
        self.gate_note.append(
            ""
            if ok
            else (
                NOT_ENCODED if not steps else "its encoded text is not supported here"
            )
        )

    def _read_abilities(self, cards: list, who: str) -> None:
        windows, names, all_steps, notes = [], [], [], []
        grids, colours, texts = [], [], []
        for i, card in enumerate(cards):
            names.append(_card_name(card, f"{who}'s ability {i + 1}"))
            grid = {a: card.get(f"bonus_{a}") for a in ATTRIBUTES}
            grids.append({a: v or 0 for a, v in grid.items()})
            colours.append(card.get("colour"))
            steps = _parse(card, f"{who}'s ability card")
            timing = card.get("timing")
            window = timing.replace("-", "_") if timing else None
            if window not in WINDOWS:
                first = steps[0].timing if steps else None
                window = first if first in WINDOWS else "in_battle"
            windows.append(window)
            ok = bool(steps) and _supported(steps, ABILITY_TIMINGS)
            printed = any(v is not None for v in grid.values())
            texts.append(
                effect_sentence(steps)
                if ok
                else (
                    "Not encoded: it plays as its printed bonus alone."
                    if printed
                    else "Not encoded: it only goes to the used pile."
                )
            )
            if ok:
                all_steps.append(steps)
                notes.append("")
            else:
                # Not encoded yet: the card plays as its printed bonus alone.
                all_steps.append((BONUS_ALONE,) if printed else ())
                why = NOT_ENCODED if not steps else "its text is not supported here"
                notes.append(
                    f"{why}, so it plays as its printed bonus alone"
                    if printed
                    else f"{why}, so it only goes to the used pile"
                )
                if printed and not timing:
                    windows[-1] = "in_battle"
        self.ab_name.append(names)
        self.ab_bonus.append(grids)
        self.ab_colour.append(colours)
        self.ab_text.append(texts)
        self.ab_window.append(windows)
        self.ab_steps.append(all_steps)
        self.ab_note.append(notes)

    def _derive(self) -> None:
        # The steps that act while a card lies in a used pile (most have none).
        self.gate_pile = [
            tuple(k for k, st in enumerate(steps) if st.timing == "used_pile")
            for steps in self.gate_steps
        ]
        self.ab_pile = [
            [
                tuple(k for k, st in enumerate(steps) if st.timing == "used_pile")
                for steps in seat_steps
            ]
            for seat_steps in self.ab_steps
        ]
        self.any_pile = any(self.gate_pile) or any(any(p) for p in self.ab_pile)
        # Abilities whose used-pile steps act only if the card was played as
        # its "arm" step allows.
        self.ab_arm = [
            [any(st.op == "arm" for st in steps) for steps in seat_steps]
            for seat_steps in self.ab_steps
        ]
        # Per seat and window, the abilities that play in it (most hold none).
        self.ab_by_window = [
            {w: tuple(i for i in range(3) if windows[i] == w) for w in WINDOWS}
            for windows in self.ab_window
        ]
        # Events name them on every move: written once.
        self.bak_full = [
            f"{_SEAT_WORDS[code // 3]}'s {name}"
            for code, name in enumerate(self.bak_name)
        ]
        self.bak_lname = [name.lower() for name in self.bak_name]
        self.gate_full = [
            [
                f"{_LABELS[code]} ({self.gate_name[code - code % 3 + k]})"
                for k in (0, 1, 2, -1)
            ]
            for code in range(len(self.gate_name))
        ]

    def _derive_field(self, seats: int) -> None:
        # The greedy score reads, for every gate on the field and every Bakugan,
        # the gate's bonus for its attribute (0 when unknown) and its G-Power on
        # the gate: looked up here once, [gate card][Bakugan code].
        field_bonus = [
            [bonus[attribute] or 0 for attribute in self.bak_attr]
            for bonus in self.gate_bonus
        ]
        self.field_bonus = [  # [card][seat][Bakugan index]
            [row[seat * 3 : seat * 3 + 3] for seat in range(seats)]
            for row in field_bonus
        ]
        self.on_gate = [
            [g + b for g, b in zip(self.bak_g, row, strict=True)] for row in field_bonus
        ]
        # And what each seat's Bakugan left (unused and used, as a set of bits)
        # make of each gate: the term ``_prospects_reference`` adds, computed as
        # it computes it, (for the seat scored, for another seat), [card][seat][bits].
        others = seats - 1
        self.field_terms = []
        for row in self.field_bonus:
            per_seat = []
            for bonuses in row:
                terms = [None]
                for bits in range(1, 8):
                    left = [i for i in range(3) if bits >> i & 1]
                    edge = sum(bonuses[i] for i in left)
                    edge *= PROSPECT_FIELD / len(left)
                    terms.append((edge, -edge / others))
                per_seat.append(terms)
            self.field_terms.append(per_seat)


# --- state -----------------------------------------------------------------


@dataclass
class Battle:
    """A battle in progress (or just decided, for the after-battle window)."""

    gate: int
    attacker: int
    defender: int
    # (owner, is_gate, op, amount, targets)
    steps: list = marked("tuples", factory=list)
    after: list = marked("tuples", factory=list)  # (owner, is_gate, card, step)
    cancelled: bool = False
    nullified: bool = False  # the gate's text does not count; its bonus does
    barred: list = marked("list", factory=list)  # seats that may not play cards
    decided: bool = False
    winner: int = -1  # Bakugan code; -1 none
    removed: list = marked("list", factory=list)
    powers: list = marked("list", factory=list)  # final [attacker, defender]
    played: list = marked("list", factory=list)  # seat of each card played in it
    # [attacker, defender] attributes once an effect changes one ("" is none)
    attrs: list = marked("list", factory=list)
    banned: list = marked("list", factory=list)  # "<seat><colour letter>" barred
    cleared: int = 0  # Bakugan the gate sent from the field to used piles


@dataclass
class State:
    """The whole game: decks, options, seed, log and the table."""

    seed: int
    options: dict
    decks: list
    n: int = marked(derived=True)
    table: bool = marked(derived=True)
    # chance a solo roll lands on a gate
    land_odds: float = marked(derived=True)
    first: int = marked(derived=True)
    rng: int
    unused: list = marked("rows")  # per seat: Bakugan indices ready to roll
    used: list = marked("rows")  # per seat: Bakugan indices in the used pile
    removed: list = marked("rows")  # per seat: Bakugan indices out of the game (B12)
    gate_hand: list = marked("rows")  # per seat: gate indices not yet placed
    won: list = marked("rows")  # per seat: gate codes in the used pile
    ability_hand: list = marked("rows")  # per seat: unused ability indices
    abilities_used: list = marked("rows")  # per seat: used ability indices
    pending: list = marked("rows")  # per seat: abilities held for a battle this turn
    field_gates: list = marked("list")  # gates in play (codes), in placement order
    field_open: list = marked("list")  # 1 when that gate has been opened
    # Bakugan code standing on that gate, -1 when empty
    field_bakugan: list = marked("list")
    queue: list = marked("list")  # seats still to place a gate
    opened: list = marked("list", factory=list)  # gate codes ever opened
    # per gate code (seat * 3 + the order its owner placed it): the deck index of
    # the gate card lying there, -1 while that place is unfilled
    gate_card: list = marked("list", factory=list)
    phase: str = "place"
    turn_player: int = 0
    turns: int = 0
    rolling: int = -1  # Bakugan code in hand, rolled or about to be
    landed: int = -1  # gate code the roll landed on; -1 for a miss
    window_kind: str = ""  # the ability window open now ("" when none)
    # who may answer, in order
    window_seats: list = marked("list", factory=list)
    window_turn: int = 0  # index in window_seats of the seat to answer
    window_passes: int = 0  # passes in a row; all passing closes it
    window_then: str = ""  # the phase that follows the window
    battle: Battle | None = marked("record", None, record=Battle)
    reroll: bool = False  # an after-roll card has the roll made again
    shift: bool = False  # an after-roll card moves the landed Bakugan elsewhere
    extra: int = -1  # the seat taking another turn if no battle comes this turn
    battled: bool = False  # a battle started this turn
    miss_rerolls: int = 0  # re-rolls left to the rolled Bakugan if it misses
    rerolled: bool = False  # the rolled Bakugan has been rolled again this turn
    # seat * 3 + ability index: used cards whose lasting effect has started
    armed: list = marked("list", factory=list)
    # player * 12 + gate code: a face-down gate that player has looked at
    seen: list = marked("list", factory=list)
    face_up: list = marked("list", factory=list)  # seats whose gates lie face up
    over: bool = False
    winner_seat: int | None = None
    reason: str = ""
    log: list = marked("list", factory=list)
    # What happened, in words: not saved, a replay of the log reproduces it.
    events: list = marked("list", factory=list, derived=True)
    static: _Static | None = derived(None)


def new_game(decks, options: dict | None = None, seed: int = 0) -> State:
    """Return a new game: decks checked, first player chosen, gates to place."""
    checked = checked_options(GAME, options)
    options = dict(options or {})
    if not isinstance(decks, (list, tuple)):
        raise EngineError("bad_deck", "Decks come as one deck per seat.")
    n = checked["players"] or len(decks)
    if n not in SEAT_COUNTS:
        raise EngineError("bad_options", "Bakugan is played by two or four players.")
    if len(decks) != n:
        raise EngineError("bad_deck", f"{n} players need {n} decks, not {len(decks)}.")
    own_decks, static = _read_decks(decks)
    table = checked["table"]
    land_odds = checked["land_probability"]
    rng = Rng(seed_state(seed, 1))
    first = checked["first"]
    if first is None:
        first = rng.below(n)  # ruling B9: the seed decides when nobody says
    elif first not in range(n):
        raise EngineError(
            "bad_options", f"The first player is a seat from 0 to {n - 1}."
        )
    state = State(
        seed=seed,
        options=options,
        decks=own_decks,
        n=n,
        table=table,
        land_odds=float(land_odds),
        first=first,
        rng=rng.state,
        unused=[[0, 1, 2] for _ in range(n)],
        used=[[] for _ in range(n)],
        removed=[[] for _ in range(n)],
        gate_hand=[[0, 1, 2] for _ in range(n)],
        won=[[] for _ in range(n)],
        ability_hand=[[0, 1, 2] for _ in range(n)],
        abilities_used=[[] for _ in range(n)],
        pending=[[] for _ in range(n)],
        field_gates=[],
        field_open=[],
        field_bakugan=[],
        queue=_ORDERS[n][first][:],
        turn_player=first,
        gate_card=[-1] * (3 * n),
    )
    state.static = static
    state.events.append(f"Player {first + 1} goes first; each player places a gate.")
    return state


def _read(decks) -> tuple[list, _Static]:
    """Return the decks as a state keeps them and their play data."""
    _check_decks(decks)
    kept = [{z: list(d[z]) for z in ZONES} for d in decks]
    try:
        static = _Static(kept)
    except _CardError as error:
        raise EngineError("bad_deck", str(error)) from None
    return kept, static


_read_decks = DeckReads(_read)


def _check_decks(decks) -> None:
    for seat, deck in enumerate(decks):
        who = f"Player {seat + 1}"
        if not isinstance(deck, dict):
            raise EngineError("bad_deck", f"{who}'s deck is not a set of zones.")
        for zone in ZONES:
            cards = deck.get(zone)
            if not isinstance(cards, (list, tuple)) or len(cards) != 3:
                raise EngineError(
                    "bad_deck", f"{who}'s deck needs exactly three {zone} cards."
                )
            for card in cards:
                problems = _problems(card, zone, effects=False)
                if problems:
                    name = card.get("name") if isinstance(card, dict) else None
                    ident = card.get("id") if isinstance(card, dict) else None
                    raise EngineError(
                        "bad_deck",
                        f"{who}'s {zone} card {name or '(no name)'} (id {ident}) "
                        f"cannot be played: " + " ".join(problems),
                    )


# --- queries ---------------------------------------------------------------


def player_count(state: State) -> int:
    return state.n


def length(state: State) -> int:
    return state.turns


def is_over(state: State) -> bool:
    return state.over


def winner(state: State) -> int | None:
    return state.winner_seat if state.over else None


def to_act(state: State) -> int:
    """Return the seat to act, or CHANCE while a roll is in the air."""
    phase = state.phase
    if phase == "window":
        return state.window_seats[state.window_turn]
    if phase == "place":
        return state.queue[0]
    if phase == "roll":
        return state.turn_player if state.table else CHANCE
    if phase == "over":
        return CHANCE
    return state.turn_player


def _roll_outcomes(state: State) -> list[Action]:
    return [MISS] + [_LAND[g] for g in state.field_gates]


def _move_targets(state: State, seat: int, pos: int) -> list[int]:
    # Ruling B11: a gate holding one's own Bakugan is no place to move to.
    return [
        g
        for k, g in enumerate(state.field_gates)
        if k != pos
        and (state.field_bakugan[k] < 0 or state.field_bakugan[k] // 3 != seat)
    ]


def _seat_word(seat: int) -> str:
    return _SEAT_WORDS[seat]


def _bname(state: State, code: int) -> str:
    return state.static.bak_full[code]


def _card_of(state: State, code: int) -> int:
    """Return the static (deck) index of the gate card placed as ``code``."""
    return code - code % 3 + state.gate_card[code]


def _gname(state: State, code: int) -> str:
    """Return ``_gname_reference(state, code)``, written once per gate and card.

    Events name gates on most moves. ``gate_full[code][k]`` is the gate placed
    as ``code`` holding its owner's card ``k``; entry 3 is what the reference
    makes of an unfilled place (-1), so an index of -1 reads it.
    """
    return state.static.gate_full[code][state.gate_card[code]]


def _gname_reference(state: State, code: int) -> str:
    return f"{_LABELS[code]} ({state.static.gate_name[_card_of(state, code)]})"


def _start_turn(state: State) -> None:
    seat = state.turn_player
    if not state.unused[seat] and state.used[seat]:
        state.unused[seat] = sorted(state.used[seat])
        state.used[seat] = []
        state.events.append(f"{_seat_word(seat)} takes back the used Bakugan.")
    state.phase = "choose"


# --- turn order: windows (ruling B10), turns, gates won -------------------


def _window_order(state: State) -> list[int]:
    """Return who answers a window anyone may play in, first to last.

    With two players the player whose turn it is goes first (B10); with four,
    the player whose turn is next (the four-player text: "the person whose turn
    is next gets to play their card first"). Battle windows go otherwise
    (``_open_window``).
    """
    if state.n == 2:
        return _ORDERS[2][state.turn_player]
    return _ORDERS[state.n][(state.turn_player + 1) % state.n]


# ``_window_order`` for each seat count and player whose turn it is.
_WINDOW_ORDERS = {
    n: [_ORDERS[n][t if n == 2 else (t + 1) % n] for t in range(n)] for n in (2, 4)
}


def _open_window(state: State, kind: str, then: str) -> None:
    # Every window opens and goes round every seat that may play in it, whether
    # or not it holds a card for it: skipping a seat would tell the others what
    # kinds of ability card it still holds.
    if kind in BATTLE_WINDOWS:
        # The two battlers alternate from the player whose turn it is, with four
        # players too (B10); "whose turn is next" is for the open windows.
        battlers = (state.battle.attacker // 3, state.battle.defender // 3)
        order = [s for s in _ORDERS[state.n][state.turn_player] if s in battlers]
    else:
        order = _WINDOW_ORDERS[state.n][state.turn_player]  # ``_window_order``
    state.phase = "window"
    state.window_kind, state.window_seats, state.window_turn = kind, list(order), 0
    state.window_passes, state.window_then = 0, then


def _turn_order(state: State) -> list[int]:
    return _ORDERS[state.n][state.turn_player]


def _take_gate(state: State, seat: int, pos: int) -> None:
    gate = state.field_gates.pop(pos)
    state.field_open.pop(pos)
    state.field_bakugan.pop(pos)
    state.won[seat].append(gate)
    if len(state.won[seat]) >= GATES_TO_WIN:
        _finish(state, seat, f"{_seat_word(seat)} has won three gates.")


def _finish(state: State, seat: int | None, reason: str) -> None:
    state.over = True
    state.winner_seat = seat
    state.reason = reason
    state.phase = "over"
    state.events.append(reason)


def _end_turn(state: State) -> None:
    if state.over:
        return
    state.battle = None
    state.rolling = state.landed = -1
    again = state.extra if not state.battled else -1
    state.extra, state.battled, state.reroll, state.shift = -1, False, False, False
    state.miss_rerolls, state.rerolled = 0, False
    for seat in range(state.n):
        if state.pending[seat]:
            state.events.append(
                f"{_seat_word(seat)}'s held ability steps lapse: no battle came."
            )
            state.pending[seat] = []
    state.turns += 1
    if state.turns >= TURN_CAP:
        _finish(
            state, None, f"The turn cap ({TURN_CAP} turns) is reached: a draw (E3)."
        )
        return
    if again == state.turn_player:
        state.events.append(f"{_seat_word(again)} takes another turn.")
    else:
        state.turn_player = (state.turn_player + 1) % state.n
    if not state.field_gates:
        queue = [s for s in _turn_order(state) if state.gate_hand[s]]
        if not queue:
            counts = [len(w) for w in state.won]
            best = max(counts)
            leaders = [s for s in range(state.n) if counts[s] == best]
            seat = leaders[0] if len(leaders) == 1 else None
            _finish(
                state,
                seat,
                "No gate is left to place (B7): "
                + (
                    f"{_seat_word(seat)} has won the most gates."
                    if seat is not None
                    else "equal gates won, a draw."
                ),
            )
            return
        state.events.append("The field is empty: new gates are placed (B7).")
        state.queue = queue
        state.phase = "place"
        return
    _start_turn(state)


def _known(state: State, code: int, player: int) -> bool:
    """Return whether ``player`` may see gate ``code``'s face.

    Its owner placed it and knows it; everyone sees it once it has opened; a
    player who took it into their used pile unopened holds it and may look.
    """
    return (
        code // 3 == player
        or code in state.opened
        or (0 <= player < state.n and code in state.won[player])
        or (code // 3 in state.face_up)
        or (player * 12 + code in state.seen)
    )


# --- what the bots read (the valuation's weights; card data reads one) -----

# What the greedy bot (and the search bot's leaf values) see coming: a battle
# not yet decided, a roll in the air, Bakugan standing on the gates. Gate cards
# are read as the engine holds them: the log names every gate placed (see the
# module text), so a seat may know each one.
PROSPECT_BATTLE = 45.0  # the battler ahead in an undecided battle
PROSPECT_ROLL = 30.0  # a rolled Bakugan that would beat the one standing there
PROSPECT_STAND = 4.0  # an empty gate taken
PROSPECT_GUARD = 0.05  # per G of a standing Bakugan's margin over the field
PROSPECT_FIELD = 0.05  # per G of gate bonus the field gives a seat's Bakugan
