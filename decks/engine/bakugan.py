"""Bakugan Battle Brawlers (Spin Master, 2007-2012): the rules engine.

What it models: the current rule book for two players and the four-player cross.
Each seat brings three Bakugan, three Gate cards and three Ability cards
(exactly three of each; another shape is a bad deck).

- Set-up (ruling B1): in turn order from the first player, each player chooses
  which of their gates to place face down in front of the opponent (four
  players: in the centre cross, ruling B8). The owner knows a face-down gate;
  the others see its back.
- First player (ruling B9): option ``"first"`` (a seat index), else the seed.
  Turns go clockwise (seat order) from there; four players likewise (B8).
- A turn: the player chooses an unused Bakugan to roll; with none unused the
  used pile is recycled first (the text says so). The roll is a chance step
  (ruling B2) with outcomes "missed" and "landed on gate X" for each gate in
  play: a roll lands with probability ``options["land_probability"]`` (default
  0.6) spread evenly over the gates. With ``options["table"]`` the rolling
  player enters the outcome instead: ``to_act`` is that player and the outcomes
  are their legal actions. A Bakugan touching two gates counts for the one it
  rests on most (B11): the outcome names one gate either way.
- Landing: a missed Bakugan goes to the used pile. On an empty gate it stands
  and the turn ends. On a gate holding the player's own Bakugan it moves to
  another gate; a gate holding one's own Bakugan is no place to move to (B11);
  with several places the player chooses (B3, an action), with one it goes
  there; with none the player wins the gate landed on, both Bakugan going to
  the used pile (B11). Moving onto an empty gate ends the turn; onto an
  opponent's Bakugan starts a battle, as does landing on one.
- Battle: both Bakugan leave the gate; the "before a battle" window; the gate
  opens and its ``gate_open`` steps apply; steps held from cards played before
  or after the roll apply; the "in battle" window; then each Bakugan adds the
  gate bonus for its own attribute (B5); the higher G-Power wins (unless a
  ``lower_wins`` step says the lower); a tie goes to the Bakugan that stood on
  the gate first (the defender). The winner takes the gate to their used pile
  and both Bakugan go to their owners' used piles (B6); then the gate's and the
  cards' after-battle steps apply and the "after a battle" window opens.
- Ability windows (B10): before a roll and after a roll (every player may
  play), before a battle, in battle and after a battle (only the two
  battlers). Every window opens and goes round every seat that may play in
  it, holding a card for it or not: each player plays one card or passes, and
  the window closes when every one of them has passed in a row. A seat with
  nothing to play has one choice, to pass, and its pass reads exactly like a
  chosen one ("P2 passes"), so nobody learns from a window what kinds of
  ability card another player still holds (the playtest may play such a
  forced pass by itself). With two players the window starts with the player
  whose turn it is (B10); with four it starts with the player whose turn is
  next, as the four-player text says ("If two people want to play a card at
  the same time, the person whose turn is next gets to play their card
  first"), and goes round in turn order from there. Each ability card is
  played once per game and goes to the used pile (B4). A card plays in the
  window its ``timing`` names; without one, in the window of its first step's
  timing, else in battle.
- New gates (B7): when the field is empty at the end of a turn, each player
  holding a gate places one, in turn order from the next player; a player
  with none places none; when nobody can place, the game ends: most gates won
  wins, a tie for most is a draw. Three gates won wins at once.
- No Bakugan to roll (four-player text, applied to every game): a player with
  no unused or used Bakugan may move a standing Bakugan onto a gate holding
  an enemy Bakugan (a battle, the moved one attacking); with no enemy Bakugan
  standing, they move a gate on which they stand to their used pile (it counts
  as won) with all their standing Bakugan. A player with no Bakugan at all
  (all removed, B12) skips the turn.
- Every game ends (ruling E3): after ``TURN_CAP`` turns the game is a draw
  and the log says so.

Effect encoding (card "effects", core vocabulary). An ability card's steps run
when it is played; a gate's ``gate_open`` steps run when it opens and its
``after_battle`` steps once the battle is decided.

The official cards (issue 18) add to that vocabulary (``cards.effects``):
``attribute_bonus`` (the card's printed bonus for the Bakugan's attribute, or
its opponent's with ``of``), ``gate_bonus_again`` (the gate bonus once more, or
``amount`` more times; -2 subtracts it), ``no_gate_bonus``, ``nullify_gate``
(the gate's steps stop counting, its bonus does not), ``no_abilities`` (those
players may not play in the rest of the battle: each battle window still asks
them in turn, and passing is their only choice), ``double_ability_bonus`` and
``zero_ability_bonus`` (G-Power from Ability cards, optionally of colours),
``zero_printed``, ``return_abilities``/``discard_ability`` (``amount`` 0 is
all; the last used come back first, hand order goes first), ``take_gate``
(the gate an opponent won last), ``keep_gate`` (after the battle: the gate
goes back to the field, open), ``reroll`` and ``move_bakugan`` (after the roll:
the roll is made again, or the landed Bakugan moves to another gate as in
B3), ``extra_turn`` (if no battle comes this turn), ``return_bakugan`` and
``clear_field`` (before the roll, at once). Each step may carry ``if``
conditions (``cards.effects.EFFECT_CONDITIONS``: the target's attribute, the
gate's class and owner, printed G-Power, the win margin, ...), all of which
must hold for the target Bakugan, and ``per`` (``amount`` times a count). A
card not encoded, or encoded with a step this engine lacks, plays as its bonus
alone: a gate gives its bonus, an ability its printed bonus for its owner's
Bakugan in battle (issue 18; B4 otherwise stands: printed numbers act only
through the encoding), or nothing when it prints none. "Lowest"/"highest"
printed G-Power is strict.

The later series (issue 18) add: ``reroll_on_miss`` (before the roll: a miss
is rolled again, ``amount`` times), ``best_gate_bonus`` and ``cap_gate_bonus``,
``change_attribute`` (``to``: best, own_best, worst, none, swap, opposite, or a
Trap's), ``clear_bonuses`` (what was given before it, the gate bonus too, no
longer counts), ``copy_printed``, ``swap_battler`` (``of`` the pile, ``to``
best: its owner brings its strongest; worst: the card's player forces the
weakest, only to gain), ``join_gate`` (after an opponent's roll lands on an
empty gate: the owner's strongest unused Bakugan of those attributes stands
there first, so a battle follows), ``place_gate`` and ``bank_gate`` (the
first gate of the hand into the field, or into the used pile as won),
``send_used``, ``peek_gates`` and ``face_up_gates`` (what a player may see),
``clear_field`` at a gate's opening (Galeforce, counted by ``cleared_bakugan``),
``no_abilities`` with ``colours`` (those colours only), counts read when the
battle is decided (``cards.effects.LATE_COUNTS``: cards played in the battle),
and the ``used_pile`` timing: the step acts in every battle while the card
lies in a used pile (a won gate, a used Ability card; ``reroll_on_miss`` when
its owner rolls). An ``arm`` step makes those lasting steps start only if its
conditions held when the card was played. The site's decks hold no Bakugan
Traps: a ``trap`` condition never holds and the Trap ops find none. Where a
card lets its player choose, the engine chooses what serves them (the help
page lists each such reading).

- ``add_g_power`` (amount, target, optional attribute): adds to the battle
  G-Power of each target Bakugan (of that attribute only, when given).
- ``swap_g_power``: exchanges the two battlers' G-Power as it stands then
  (printed plus additions so far); the gate bonus is added after it.
- ``lower_wins``: the lower G-Power wins this battle (a tie still goes to the
  defender).
- ``cancel_gate``: the gate's bonus and its not yet decided steps do not count
  (its immediate ``remove_bakugan``/``win_gate`` steps have already happened).
- ``win_gate`` (target): that Bakugan wins the battle at once.
- ``remove_bakugan`` (target): that Bakugan leaves the game for good (B12).
  In a battle its opponent wins at once; with both removed nobody wins and
  the gate stays in play, open.
- Targets: ``self`` is the card owner's battler, ``opponent``/``each_opponent``
  the other battler, ``attacker`` the Bakugan that arrived, ``defender`` the
  one that stood there, ``all`` both. For a gate, ``self`` is its owner's
  battler, except in ``after_battle`` steps, where ``self`` is the winner and
  ``opponent`` the loser (so a Doom Card is
  ``{"op": "remove_bakugan", "timing": "after_battle", "target": "opponent"}``).
- ``turn``: ``your`` runs the step only in its owner's turn, ``opponent`` only
  in another player's turn.
- Cards played before or after a roll hold their steps for their owner's
  next battle this turn; unused, they lapse at the end of the turn (logged).
  A step timed ``after_battle`` on a card played earlier waits until the
  battle is decided. After a battle only ``remove_bakugan`` still acts on the
  two battlers; other steps have no effect there.
- A card with no steps, or with a step whose op or timing this engine does not
  support, plays as its basic self: an ability card is just used up, a gate
  gives its bonus only; the log says the text is not encoded.

Card data: Bakugan need ``attribute`` and ``g_power``; a gate needs all six
bonuses (B5); null is unknown and blocks play (``card_problems``); a bonus
named in the card's ``not_printed`` list counts 0 (E4). Printed ability
bonuses are shown only; they act only through encoded steps (B4).

Gate labels: a gate on the field is labelled by its owner and the order in
which its owner put it on the field ("P2-G1" is the first gate Player 2
placed), never by its place in the deck, so the label says nothing of which
card it is. The place action names the gate by its place in its owner's hand
("P2 places G3"); the view's copy of the action log shows another player's
placement as "P2 places a gate".

Hidden information: ``view(state, player)`` shows a face-down gate's name,
bonuses and text only to its owner; everyone sees it once it has opened in a
battle. A gate taken into a used pile without ever opening (B11, the "no
Bakugan to roll" clear, a battle decided before the gate opens) stays face
down to the others, but the player who took it may look at it. The stored
event log names gates in full (replays and tests read it); the view's copy
names a gate the viewer may not see by its label only ("P2-G1"), and so does
``describe`` for whoever chooses a move or enters a roll. Other players'
gate and ability hands are counts.

Readings where the rulings are silent: the "no Bakugan to roll" rule holds in
two-player games too, and "all of his standing Bakugan" means every one the
player has standing; the B7 placement starts with the next player to take a
turn; held steps apply after the gate's own steps.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import permutations

from cards.effects import (
    EFFECT_COUNTS,
    LATE_COUNTS,
    OPPOSITES,
    Effect,
    effect_sentence,
)
from cards.games import GAMES

from .core import (
    CHANCE,
    DeckReads,
    EngineError,
    Rng,
    View,
    checked_options,
    copy_state,
    derived,
    envelope,
    marked,
    parse_effects,
    seed_state,
    state_from_json,
    state_to_json,
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
                        NOT_ENCODED
                        if not steps
                        else "its encoded text is not supported here"
                    )
                )
            windows, names, all_steps, notes = [], [], [], []
            grids, colours, texts = [], [], []
            for i, card in enumerate(deck["ability"]):
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
        # The greedy score reads, for every gate on the field and every Bakugan,
        # the gate's bonus for its attribute (0 when unknown) and its G-Power on
        # the gate: looked up here once, [gate card][Bakugan code].
        field_bonus = [
            [bonus[attribute] or 0 for attribute in self.bak_attr]
            for bonus in self.gate_bonus
        ]
        self.field_bonus = [  # [card][seat][Bakugan index]
            [row[seat * 3 : seat * 3 + 3] for seat in range(len(decks))]
            for row in field_bonus
        ]
        self.on_gate = [
            [g + b for g, b in zip(self.bak_g, row, strict=True)] for row in field_bonus
        ]
        # And what each seat's Bakugan left (unused and used, as a set of bits)
        # make of each gate: the term ``_prospects_reference`` adds, computed as
        # it computes it, (for the seat scored, for another seat), [card][seat][bits].
        others = len(decks) - 1
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


def _barred(state: State, seat: int, window: str) -> bool:
    """Return whether a "no abilities" effect bars ``seat`` from ``window``.

    A barred seat is still asked in the window (every seat that may play in it
    is, B10 as played here), but its only choice is to pass.
    """
    battle = state.battle
    return window in BATTLE_WINDOWS and battle is not None and seat in battle.barred


def _banned(state: State, seat: int, idx: int) -> bool:
    """Return whether an effect bars that colour of card from this battle."""
    battle = state.battle
    if battle is None or not battle.banned:
        return False
    colour = state.static.ab_colour[seat][idx] or "-"
    return f"{seat}{colour[0]}" in battle.banned


def _has_card(state: State, seat: int, window: str) -> bool:
    if _barred(state, seat, window):
        return False
    held = state.static.ab_by_window[seat][window]
    if held:
        hand = state.ability_hand[seat]
        for i in held:
            if i in hand and not _banned(state, seat, i):
                return True
    return False


def _roll_outcomes(state: State) -> list[Action]:
    return [MISS] + [_LAND[g] for g in state.field_gates]


def legal_actions(state: State) -> list[Action]:
    """Return every legal action of whoever acts, in a fixed order."""
    phase = state.phase
    if phase == "window":
        seat = state.window_seats[state.window_turn]
        kind = state.window_kind
        if not state.static.ab_by_window[seat][kind]:
            return [_PASS[seat]]  # no card of the seat's plays here: pass alone
        if _barred(state, seat, kind):
            return [_PASS[seat]]  # "no abilities": asked all the same, may only pass
        windows = state.static.ab_window[seat]
        acts = [_PLAY[seat][i] for i in state.ability_hand[seat] if windows[i] == kind]
        if acts and state.battle is not None and state.battle.banned:
            acts = [a for a in acts if not _banned(state, seat, a.arg)]
        acts.append(_PASS[seat])
        return acts
    if phase == "roll":
        return _roll_outcomes(state)
    if phase == "place":
        seat = state.queue[0]
        return [_PLACE[seat][i] for i in state.gate_hand[seat]]
    seat = state.turn_player
    if phase == "move":
        pos = state.field_gates.index(state.landed)
        return [_MOVE[seat][g] for g in _move_targets(state, seat, pos)]
    if phase == "choose":
        if state.unused[seat]:
            return [_ROLL[seat][i] for i in state.unused[seat]]
        own = [
            k for k, b in enumerate(state.field_bakugan) if b >= 0 and b // 3 == seat
        ]
        enemy = [
            k for k, b in enumerate(state.field_bakugan) if b >= 0 and b // 3 != seat
        ]
        if own and enemy:
            return [
                _SHIFT[seat][state.field_bakugan[k] % 3][state.field_gates[e]]
                for k in own
                for e in enemy
            ]
        if own:
            return [_CLEAR[seat][state.field_gates[k]] for k in own]
        return [_SKIP[seat]]
    return []


def _move_targets(state: State, seat: int, pos: int) -> list[int]:
    # Ruling B11: a gate holding one's own Bakugan is no place to move to.
    return [
        g
        for k, g in enumerate(state.field_gates)
        if k != pos
        and (state.field_bakugan[k] < 0 or state.field_bakugan[k] // 3 != seat)
    ]


def chance_outcomes(state: State) -> list:
    """Return the roll's outcomes with their odds (ruling B2), when CHANCE acts."""
    if state.phase != "roll" or state.table or state.over:
        return []
    key = (state.land_odds, *state.field_gates)
    known = _OUTCOMES.get(key)
    if known is None:
        if len(_OUTCOMES) >= 4096:  # the odds are an option: keep the cache small
            _OUTCOMES.clear()
        known = _OUTCOMES[key] = tuple(_chance_outcomes_reference(state))
    return list(known)


# Each roll asks for its outcomes: the same few lists all game, so they are
# made once per odds and field (``_chance_outcomes_reference`` makes them).
_OUTCOMES: dict[tuple, tuple] = {}


def _chance_outcomes_reference(state: State) -> list:
    """Return the roll's outcomes with their odds: ``chance_outcomes`` written plainly."""
    if state.phase != "roll" or state.table or state.over:
        return []
    gates = len(state.field_gates)
    land = state.land_odds if gates else 0.0
    outcomes = [(MISS, 1.0 - land)]
    outcomes += [(_LAND[g], land / gates) for g in state.field_gates]
    return outcomes


# --- applying --------------------------------------------------------------


def apply(state: State, action: Action, *, inplace: bool = False) -> State:
    """Return the state after ``action``; refuse it with EngineError if illegal.

    The moves of nearly every turn are checked here in a few tests and done at
    once: a pass by the seat a window asks (two moves in three of a game, B10:
    every seat that may play is asked, a card held or not), a roll's outcome
    and the roll itself. Any other move, and any move that fails these tests,
    goes to ``apply_reference``, the plain definition, which checks and does
    exactly the same (a test holds the two equal, refusals included).
    """
    if action.__class__ is Action and not state.over:
        kind, phase = action.kind, state.phase
        if phase == "window":
            if kind == "pass" and state.window_seats[state.window_turn] == action.seat:
                if not inplace:
                    state = copy_state(state)
                _pass_in_window(state, action)
                return state
        elif phase == "roll":
            if kind == "miss" or (kind == "land" and action.arg in state.field_gates):
                if not inplace:
                    state = copy_state(state)
                state.log.append(action.text)
                _do_outcome(state, action)
                return state
        elif phase == "choose":
            seat = action.seat
            if (
                kind == "roll"
                and seat == state.turn_player
                and action.arg in state.unused[seat]
            ):
                if not inplace:
                    state = copy_state(state)
                state.log.append(action.text)
                _do_roll(state, action)
                return state
    return apply_reference(state, action, inplace=inplace)


def apply_reference(state: State, action: Action, *, inplace: bool = False) -> State:
    """Return the state after ``action``: ``apply`` written plainly, every check made."""
    if state.over:
        raise EngineError("game_over", "The game is over.")
    if type(action) is not Action and not isinstance(action, Action):
        raise EngineError("bad_action", "That is not a Bakugan move.")
    kind = action.kind
    if kind == "miss" or kind == "land":
        if state.phase != "roll":
            raise EngineError("illegal_action", "No Bakugan is being rolled now.")
    elif (actor := to_act(state)) == CHANCE:
        raise EngineError(
            "not_your_turn", "The roll is in the air: its outcome comes first."
        )
    elif action.seat != actor:
        raise EngineError("not_your_turn", f"It is Player {actor + 1}'s move.")
    if not _is_legal(state, action):
        raise EngineError("illegal_action", _why_illegal(state, action))
    if not inplace:
        state = copy_state(state)
    state.log.append(action.text)
    _HANDLERS[kind](state, action)
    return state


def _pass_in_window(state: State, action: Action) -> None:
    """Log and do a pass by the seat the open window asks: ``_do_pass``, at once.

    ``apply`` and ``play_forced`` take it for the window passes that make up
    most of a game; it leaves the window open without ``_advance_window``'s
    call while other seats are still to answer.
    """
    state.log.append(action.text)
    passes = state.window_passes = state.window_passes + 1
    seats = len(state.window_seats)
    if passes < seats:  # the window asks the next seat
        state.window_turn = (state.window_turn + 1) % seats
    else:
        _advance_window(state)


def play_forced(state: State) -> list[int]:
    """Apply in place the moves that are the only legal one; return how many per seat.

    Exactly ``bots.play_forced_reference`` (a test holds them equal at every
    state of whole games), without listing the legal moves where the state
    answers at once. Two moves in three of a random game are window passes
    and most are forced: the seat asked holds no card it may play in that
    window (``_has_card`` is false exactly when ``legal_actions`` is the pass
    alone). The roll of a seat's last unused Bakugan is forced too and done
    at once; any other phase (a seat's last gate to place, a single place to
    move to, a skip) asks ``legal_actions``. It stops at the end of the game,
    at a roll in the air (a chance step: the loop draws it) and at a move
    with a choice.
    """
    made = [0] * state.n
    by_window = state.static.ab_by_window
    while not state.over:
        phase = state.phase
        if phase == "window":
            seat, kind = state.window_seats[state.window_turn], state.window_kind
            # A seat holds no card for most windows: ``_has_card`` only if it may.
            if by_window[seat][kind] and _has_card(state, seat, kind):
                break
            _pass_in_window(state, _PASS[seat])
        elif phase == "roll" and not state.table:
            break  # the roll is in the air: the loop's chance step (``to_act``)
        elif phase == "choose" and state.unused[state.turn_player]:
            seat = state.turn_player
            unused = state.unused[seat]
            if len(unused) != 1:
                break
            action = _ROLL[seat][unused[0]]
            state.log.append(action.text)
            _do_roll(state, action)
        else:
            seat = to_act(state)
            if seat == CHANCE:
                break
            actions = legal_actions(state)
            if len(actions) != 1:
                break
            apply(state, actions[0], inplace=True)
        made[seat] += 1
    return made


def _is_legal(state: State, action: Action) -> bool:
    """Return whether ``action`` is among ``legal_actions``, without listing them."""
    phase, kind, arg = state.phase, action.kind, action.arg
    if phase == "roll":
        return kind == "miss" or (kind == "land" and arg in state.field_gates)
    if phase == "window":
        if kind == "pass":
            return True
        return (
            kind == "play"
            and arg in state.ability_hand[action.seat]
            and state.static.ab_window[action.seat][arg] == state.window_kind
            and not _barred(state, action.seat, state.window_kind)
            and not _banned(state, action.seat, arg)
        )
    if phase == "place":
        return kind == "place" and arg in state.gate_hand[action.seat]
    if phase == "choose" and kind == "roll":
        return arg in state.unused[action.seat]
    return action in legal_actions(state)


def _why_illegal(state: State, action: Action) -> str:
    phase, kind = state.phase, action.kind
    if kind == "land":
        return f"Gate {_gate_label(action.arg)} is not in play."
    if kind in ("play", "pass") and phase != "window":
        return "No player may play ability cards now."
    if kind == "play" and _barred(state, action.seat, state.window_kind):
        return "You may not play Ability cards in this battle."
    if kind == "play" and _banned(state, action.seat, action.arg):
        return "You may not play Ability cards of that colour in this battle."
    if kind == "play":
        return (
            f"Ability A{action.arg + 1} cannot be played {WINDOW_WORDS[state.window_kind]}:"
            " it is used, or its timing is another window."
        )
    if kind == "place":
        return "That gate is not in your hand, or no gate is placed now."
    if kind == "roll":
        return "That Bakugan is not ready to roll, or this is no time to roll."
    if kind == "move":
        return "Your Bakugan cannot move to that gate (B11)."
    return f"That move is not allowed now: {action.text}."


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


def _do_place(state: State, action: Action) -> None:
    seat, idx = action.seat, action.arg
    state.gate_hand[seat].remove(idx)
    # The gate is labelled by its owner and the order it came onto the field,
    # never by its place in the deck: a face-down gate gives nothing away.
    code = seat * 3 + state.gate_card[seat * 3 : seat * 3 + 3].index(-1)
    state.gate_card[code] = idx
    state.field_gates.append(code)
    state.field_open.append(0)
    state.field_bakugan.append(-1)
    state.queue.pop(0)
    state.events.append(
        f"{_seat_word(seat)} places gate {_gate_label(code)} face down."
    )
    if not state.queue:
        _start_turn(state)


def _start_turn(state: State) -> None:
    seat = state.turn_player
    if not state.unused[seat] and state.used[seat]:
        state.unused[seat] = sorted(state.used[seat])
        state.used[seat] = []
        state.events.append(f"{_seat_word(seat)} takes back the used Bakugan.")
    state.phase = "choose"


def _do_roll(state: State, action: Action) -> None:
    seat = action.seat
    state.unused[seat].remove(action.arg)
    state.rolling = seat * 3 + action.arg
    state.events.append(f"{_bname(state, state.rolling)} is rolled.")
    if state.static.any_pile:
        _pile_rerolls(state, seat)
    _open_window(state, "before_roll", "roll")


def _do_outcome(state: State, action: Action) -> None:
    if action.kind == "miss":
        state.landed = -1
        state.events.append(f"{_bname(state, state.rolling)} misses every gate.")
        if state.miss_rerolls > 0:
            # A card played before the roll gives the missed Bakugan another go.
            state.miss_rerolls -= 1
            state.rerolled = True
            state.phase = "roll"
            state.events.append(f"{_bname(state, state.rolling)} is rolled again.")
            return
    else:
        state.landed = action.arg
        state.events.append(
            f"{_bname(state, state.rolling)} lands on {_gname(state, action.arg)}."
        )
    _open_window(state, "after_roll", "land")


def _do_move(state: State, action: Action) -> None:
    _arrive(state, action.arg)


def _do_shift(state: State, action: Action) -> None:
    seat = action.seat
    code = seat * 3 + action.arg
    state.field_bakugan[state.field_bakugan.index(code)] = -1
    state.rolling = code
    state.events.append(f"{_bname(state, code)} moves to {_gname(state, action.arg2)}.")
    _arrive(state, action.arg2)


def _do_clear(state: State, action: Action) -> None:
    seat = action.seat
    pos = state.field_gates.index(action.arg)
    state.events.append(
        f"{_seat_word(seat)} has no Bakugan to roll and no enemy stands: "
        f"{_gname(state, action.arg)} goes to their used pile with their Bakugan."
    )
    for k, b in enumerate(state.field_bakugan):
        if b >= 0 and b // 3 == seat:
            state.field_bakugan[k] = -1
            state.used[seat].append(b % 3)
    _take_gate(state, seat, pos)
    _end_turn(state)


def _do_skip(state: State, action: Action) -> None:
    state.events.append(f"{_seat_word(action.seat)} has no Bakugan left and skips.")
    _end_turn(state)


def _do_play(state: State, action: Action) -> None:
    seat, idx = action.seat, action.arg
    static = state.static
    state.ability_hand[seat].remove(idx)
    state.abilities_used[seat].append(idx)
    state.window_passes = 0
    name = static.ab_name[seat][idx]
    note = static.ab_note[seat][idx]
    state.events.append(
        f"{_seat_word(seat)} plays {name}" + (f": {note}." if note else ".")
    )
    steps = static.ab_steps[seat][idx]
    kind = state.window_kind
    if kind == "before_battle" or kind == "in_battle":
        state.battle.played.append(seat)
    if static.ab_arm[seat][idx]:
        _arm(state, seat, idx, steps)
    if kind in ("before_roll", "after_roll"):
        if _roll_steps(state, seat, steps):
            state.pending[seat].append(idx)
    elif kind == "after_battle":
        for k, step in enumerate(steps):
            if _turn_ok(state, seat, step):
                _after_step(state, seat, False, idx, k)
    else:
        for k in range(len(steps)):
            if state.battle.decided:
                break
            _battle_step(state, seat, False, idx, k)
    battle = state.battle
    if state.over:
        return
    if battle is not None and battle.decided and not battle.powers:
        if state.window_kind in ("before_battle", "in_battle"):
            _resolve_battle(state)
            return
    _advance_window(state)


def _arm(state: State, seat: int, idx: int, steps) -> None:
    """Start the card's lasting (used-pile) effect if its "arm" steps hold."""
    kind = state.window_kind
    b = state.rolling if kind in ("before_roll", "after_roll") else -1
    if b < 0 and state.battle is not None:
        b = _battler_of(state, seat)
        if b // 3 != seat:
            b = -1
    if all(_holds(state, seat, st, b) for st in steps if st.op == "arm"):
        state.armed.append(seat * 3 + idx)
        state.events.append(
            f"{state.static.ab_name[seat][idx]}: its lasting effect starts."
        )
    else:
        state.events.append(
            f"{state.static.ab_name[seat][idx]}: its condition does not hold, "
            "so its lasting effect never starts."
        )


def _do_pass(state: State, action: Action) -> None:
    state.window_passes += 1
    _advance_window(state)


_HANDLERS = {
    "place": _do_place,
    "roll": _do_roll,
    "miss": _do_outcome,
    "land": _do_outcome,
    "move": _do_move,
    "shift": _do_shift,
    "clear": _do_clear,
    "skip": _do_skip,
    "play": _do_play,
    "pass": _do_pass,
}


# --- windows (ruling B10) --------------------------------------------------


def _window_order(state: State) -> list[int]:
    """Return who answers a window first: with two players the player whose turn
    it is (B10); with four, the player whose turn is next (the four-player
    text: "the person whose turn is next gets to play their card first")."""
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
    order = _WINDOW_ORDERS[state.n][state.turn_player]  # ``_window_order``
    if kind in BATTLE_WINDOWS:
        battlers = (state.battle.attacker // 3, state.battle.defender // 3)
        order = [s for s in order if s in battlers]
    state.phase = "window"
    state.window_kind, state.window_seats, state.window_turn = kind, list(order), 0
    state.window_passes, state.window_then = 0, then


def _advance_window(state: State) -> None:
    seats = state.window_seats
    if state.window_passes >= len(seats):
        state.window_kind, state.window_seats = "", []
        state.window_turn = state.window_passes = 0
        _continue(state, state.window_then)
        return
    state.window_turn = (state.window_turn + 1) % len(seats)


def _continue(state: State, then: str) -> None:
    state.window_then = ""
    if then == "roll":
        state.phase = "roll"
    elif then == "land" and state.reroll:
        state.reroll, state.landed, state.phase = False, -1, "roll"
        state.rerolled = True
        state.events.append(f"{_bname(state, state.rolling)} is rolled again.")
    elif then == "land" and state.shift:
        state.shift = False
        pos = state.field_gates.index(state.landed)
        targets = _move_targets(state, state.turn_player, pos)
        if len(targets) > 1:
            state.phase = "move"  # the player chooses where it goes (B3)
        elif targets:
            _arrive(state, targets[0])
        else:
            _land(state)
    elif then == "land":
        _land(state)
    elif then == "open_gate":
        _open_gate(state)
    elif then == "resolve":
        _resolve_battle(state)
    else:
        _end_turn(state)


# --- landing ---------------------------------------------------------------


def _land(state: State) -> None:
    seat, code = state.turn_player, state.rolling
    if state.landed < 0:
        state.used[seat].append(code % 3)
        state.rolling = -1
        _end_turn(state)
        return
    pos = state.field_gates.index(state.landed)
    standing = state.field_bakugan[pos]
    if standing < 0 or standing // 3 != seat:
        _arrive(state, state.landed)
        return
    targets = _move_targets(state, seat, pos)
    if not targets:
        # Ruling B11: nowhere to move, so the player wins this gate.
        state.events.append(
            f"{_bname(state, code)} has nowhere to move: {_seat_word(seat)} wins "
            f"{_gname(state, state.landed)} with both Bakugan."
        )
        state.field_bakugan[pos] = -1
        state.used[seat] += [standing % 3, code % 3]
        state.rolling = -1
        _take_gate(state, seat, pos)
        _end_turn(state)
    elif len(targets) == 1:
        state.events.append(f"{_bname(state, code)} must move off its own gate.")
        _arrive(state, targets[0])
    else:
        state.phase = "move"  # ruling B3: the player chooses


def _arrive(state: State, gate: int) -> None:
    """Put the rolled or moved Bakugan on ``gate``: stand there or battle."""
    code = state.rolling
    pos = state.field_gates.index(gate)
    standing = state.field_bakugan[pos]
    if standing < 0:
        state.field_bakugan[pos] = code
        state.rolling = -1
        state.events.append(f"{_bname(state, code)} stands on {_gname(state, gate)}.")
        _end_turn(state)
        return
    state.field_bakugan[pos] = -1
    state.rolling = -1
    state.battled = True
    state.battle = Battle(gate, code, standing)
    state.events.append(
        f"Battle on {_gname(state, gate)}: {_bname(state, code)} "
        f"({state.static.bak_g[code]} G) against {_bname(state, standing)} "
        f"({state.static.bak_g[standing]} G)."
    )
    _open_window(state, "before_battle", "open_gate")


# --- battles ---------------------------------------------------------------


def _turn_ok(state: State, owner: int, step) -> bool:
    if step.turn == "your":
        return owner == state.turn_player
    if step.turn == "opponent":
        return owner != state.turn_player
    return True


def _targets(state: State, owner: int, target: str, attribute) -> tuple:
    battle = state.battle
    pair = (battle.attacker, battle.defender)
    if target == "self":
        found = tuple(b for b in pair if b // 3 == owner)
    elif target in ("opponent", "each_opponent"):
        found = tuple(b for b in pair if b // 3 != owner)
    elif target == "attacker":
        found = (battle.attacker,)
    elif target == "defender":
        found = (battle.defender,)
    else:
        found = pair
    if attribute:
        found = tuple(b for b in found if _attr(state, b) == attribute)
    return tuple(b for b in found if b not in battle.removed)


def _attr(state: State, b: int) -> str:
    """Return the attribute of Bakugan ``b`` now ("" once an effect took it)."""
    battle = state.battle
    if battle is not None and battle.attrs:
        if b == battle.attacker:
            return battle.attrs[0]
        if b == battle.defender:
            return battle.attrs[1]
    return state.static.bak_attr[b]


def _other(battle: Battle, b: int) -> int:
    return battle.defender if b == battle.attacker else battle.attacker


def _battler_of(state: State, seat: int) -> int:
    battle = state.battle
    if battle is None:
        return state.rolling
    for b in (battle.attacker, battle.defender):
        if b // 3 == seat:
            return b
    return battle.attacker


def _holds(state: State, owner: int, step, b: int) -> bool:
    """Return whether every condition of ``step`` holds for Bakugan ``b``.

    ``b`` is a battler (or, in a roll window, the rolled Bakugan); the
    conditions about "its owner" read the seat of ``b``.
    """
    if not step.when:
        return True
    static, battle = state.static, state.battle
    seat = b // 3 if b >= 0 else owner
    attr = _attr(state, b) if b >= 0 else None
    other = _other(battle, b) if battle is not None and b >= 0 else -1
    for name, value in step.when:
        if name == "attribute":
            ok = attr in value
        elif name == "rolled":
            rolled = battle.attacker if battle is not None else state.rolling
            ok = (
                rolled >= 0
                and rolled // 3 == owner
                and static.bak_attr[rolled] in value
            )
        elif name == "landed":
            ok = (state.landed >= 0) == value
        elif name == "standing_elsewhere":
            ok = any(
                x >= 0 and (x // 3 == seat) == (value == "self")
                for x in state.field_bakugan
            )
        elif name == "gates_won":
            mine = len(state.won[seat])
            others = [len(w) for s, w in enumerate(state.won) if s != seat]
            if value == "fewest":
                ok = mine < min(others)
            elif value == "most":
                ok = mine > max(others)
            elif value == "not_most":
                ok = not mine > max(others)
            else:
                ok = max(others) > mine
        elif name == "attributes_min":
            ok = len({static.bak_attr[seat * 3 + i] for i in range(3)}) >= value
        elif name == "duplicate_species":
            ok = len({static.bak_lname[seat * 3 + i] for i in range(3)}) < 3
        elif name == "duplicate_attribute":
            ok = len({static.bak_attr[seat * 3 + i] for i in range(3)}) < 3
        elif name == "won_gate_named":
            ok = any(
                v.lower() in static.gate_name[_card_of(state, g)].lower()
                for g in state.won[seat]
                for v in value
            )
        elif name == "abilities_over_gates":
            ok = len(state.abilities_used[seat]) > len(state.won[seat])
        elif name in ("used_bakugan", "abilities_left"):
            rows = state.used if name == "used_bakugan" else state.ability_hand
            mine = len(rows[seat])
            others = [len(r) for s, r in enumerate(rows) if s != seat]
            ok = mine > max(others) if value == "most" else mine < min(others)
        elif name == "in_piles":
            ok = any(
                static.bak_attr[seat * 3 + i] in value
                for i in state.unused[seat] + state.used[seat]
            )
        elif name == "used_species" or name == "unused_species":
            pile = state.used[seat] if name == "used_species" else state.unused[seat]
            ok = any(
                v.lower() in static.bak_lname[seat * 3 + i] for i in pile for v in value
            )
        elif name == "standing_species":
            ok = any(
                x >= 0 and x // 3 == seat and v.lower() in static.bak_lname[x]
                for x in state.field_bakugan
                for v in value
            )
        elif name == "used_other_attribute" or name == "used_same_attribute":
            same = name == "used_same_attribute"
            ok = b >= 0 and any(
                (static.bak_attr[seat * 3 + i] == attr) == same
                for i in state.used[seat]
                if seat * 3 + i != b
            )
        elif name == "trap":
            ok = False  # the site's decks hold no Bakugan Traps
        elif name == "first_roll":
            ok = not state.rerolled
        elif name == "abilities_used_max":
            ok = len(state.abilities_used[seat]) <= value
        elif name == "only_gate":
            ok = len(state.field_gates) == 1
        elif name == "own_standing":
            ok = any(
                x >= 0 and x // 3 == owner and static.bak_attr[x] in value
                for x in state.field_bakugan
            )
        elif battle is None:
            return False  # the rest speak of a battle
        elif name == "opponent_attribute":
            ok = other >= 0 and _attr(state, other) in value
        elif name == "battle_has":
            ok = any(
                _attr(state, x) in value for x in (battle.attacker, battle.defender)
            )
        elif name == "battle_lacks":
            ok = not any(
                _attr(state, x) in value for x in (battle.attacker, battle.defender)
            )
        elif name == "gate_class":
            ok = static.gate_class[_card_of(state, battle.gate)] in value
        elif name == "gate_owner":
            ok = (battle.gate // 3 == seat) == (value == "self")
        elif name == "own_attribute":
            mine = _battler_of(state, owner)
            ok = mine // 3 == owner and _attr(state, mine) in value
        elif name == "own_species":
            mine = _battler_of(state, owner)
            ok = mine // 3 == owner and any(
                v.lower() in static.bak_lname[mine] for v in value
            )
        elif name == "opponent_gate_best":
            grid = static.gate_bonus[_card_of(state, battle.gate)]
            ok = other >= 0 and (grid.get(_attr(state, other)) or 0) == max(
                grid.values()
            )
        elif name == "tied":
            ok = bool(battle.powers) and battle.powers[0] == battle.powers[1] >= 0
        elif name == "printed_gap":
            ok = (
                abs(static.bak_g[battle.attacker] - static.bak_g[battle.defender])
                >= value
            )
        elif b < 0 or other < 0:
            return False
        elif name == "printed":
            mine, theirs = static.bak_g[b], static.bak_g[other]
            if value == "lowest":
                ok = mine < theirs
            elif value == "highest":
                ok = mine > theirs
            else:
                ok = not mine < theirs
        elif name == "ahead_by":
            ok = static.bak_g[b] - static.bak_g[other] >= value
        elif name == "behind_under":
            ok = 0 < static.bak_g[other] - static.bak_g[b] < value
        elif name == "opponent_repeats":
            them, kind = other // 3, _attr(state, other)
            ok = any(
                static.bak_attr[them * 3 + i] == kind
                for i in state.used[them]
                if them * 3 + i != other
            )
        elif name == "printed_max":
            ok = static.bak_g[b] <= value
        elif name == "printed_min":
            ok = static.bak_g[b] >= value
        elif name == "behind_by":
            ok = static.bak_g[other] - static.bak_g[b] >= value
        elif name == "species":
            ok = any(v.lower() in static.bak_lname[b] for v in value)
        elif name == "not_species":
            ok = not any(v.lower() in static.bak_lname[b] for v in value)
        elif name == "opposite":
            ok = OPPOSITES.get(attr) == _attr(state, other)
        elif name == "result":
            won = battle.winner == b
            ok = won if value == "win" else (battle.winner >= 0 and not won)
        elif name in ("margin_over", "margin_under"):
            powers = battle.powers
            if not powers or powers[0] < 0:
                return False
            margin = abs(powers[0] - powers[1])
            ok = margin > value if name == "margin_over" else margin < value
        else:
            ok = False
        if not ok:
            return False
    return True


def _count(state: State, seat: int, per: str, colours) -> int:
    won, static = state.won, state.static
    if per == "own_gates":
        return len(won[seat])
    if per == "opponent_gates":
        return sum(len(w) for s, w in enumerate(won) if s != seat)
    if per == "gates":
        return sum(len(w) for w in won)
    if per == "own_attributes":
        return len({static.bak_attr[seat * 3 + i] for i in range(3)})
    if per == "other_gates":
        return max(len(state.field_gates) - 1, 0)
    if per == "own_species":
        return len({static.bak_lname[seat * 3 + i] for i in range(3)})
    if per == "own_used_bakugan":
        return len(state.used[seat])
    if per == "opponent_used_bakugan":
        return sum(len(u) for s, u in enumerate(state.used) if s != seat)
    if per == "opponent_unused_bakugan":
        return sum(len(u) for s, u in enumerate(state.unused) if s != seat)
    if per == "standing_attributes":
        battle = state.battle
        kinds = {static.bak_attr[x] for x in state.field_bakugan if x >= 0}
        if battle is not None:
            kinds.update(_attr(state, x) for x in (battle.attacker, battle.defender))
        kinds.discard("")
        return len(kinds)
    if per == "cleared_bakugan":
        return state.battle.cleared if state.battle is not None else 0
    if per == "game_attributes":
        return len(set(static.bak_attr))
    if per == "opponent_used_traps":
        return 0  # the site's decks hold no Bakugan Traps
    if per == "ability_lead":
        mine = len(state.abilities_used[seat])
        theirs = max(len(u) for s, u in enumerate(state.abilities_used) if s != seat)
        return max(theirs - mine, 0)
    if per == "battle_abilities_own" or per == "battle_abilities_opponent":
        played = state.battle.played if state.battle is not None else ()
        own = per == "battle_abilities_own"
        return sum(1 for s in played if (s == seat) == own)
    if per == "opponent_used_abilities_end":
        per = "opponent_used_abilities"
    if per == "own_used_abilities":
        seats = (seat,)
    elif per == "opponent_used_abilities":
        seats = tuple(s for s in range(state.n) if s != seat)
    else:
        seats = range(state.n)
    return sum(
        1
        for s in seats
        for i in state.abilities_used[s]
        if not colours or static.ab_colour[s][i] in colours
    )


def _card_steps(state: State, owner: int, is_gate: bool, card: int):
    static = state.static
    return static.gate_steps[card] if is_gate else static.ab_steps[owner][card]


def _roll_steps(state: State, seat: int, steps) -> bool:
    """Apply the steps of a card played before or after a roll that act now.

    Return whether steps remain to be held for the seat's battle this turn.
    """
    held = False
    for step in steps:
        if step.timing == "used_pile":
            continue  # it acts from the used pile, in later battles
        if step.op == "reroll_on_miss":
            if (
                state.window_kind == "before_roll"
                and state.rolling // 3 == seat
                and _holds(state, seat, step, state.rolling)
            ):
                state.miss_rerolls += step.amount
                state.events.append(
                    f"{_bname(state, state.rolling)} rolls again if it misses."
                )
            else:
                state.events.append("That re-roll does not apply to this roll.")
            continue
        if step.op in _TRAP_OPS:
            state.events.append("No Bakugan Trap is in play: no effect.")
            continue
        if step.op == "arm":
            continue
        if step.op == "send_used":
            if _holds(state, seat, step, state.rolling):
                _send_used(state, seat, step.target)
            else:
                state.events.append("Its condition does not hold: no effect.")
            continue
        if step.op == "peek_gates":
            _peek(state, seat, step.amount)
            continue
        mine = (state.rolling // 3 == seat) != (step.target == "opponent")
        if step.op == "place_gate":
            if _holds(state, seat, step, state.rolling):
                _place_from_hand(state, seat)
            else:
                state.events.append("Its condition does not hold: no effect.")
            continue
        if step.op == "join_gate":
            _join_gate(state, seat, step)
            continue
        if step.op == "reroll":
            if (
                state.window_kind == "after_roll"
                and mine
                and state.rolling >= 0
                and _holds(state, seat, step, state.rolling)
            ):
                state.reroll = True
                state.events.append(f"{_bname(state, state.rolling)} will roll again.")
            else:
                state.events.append("That re-roll does not apply to this roll.")
        elif step.op == "extra_turn":
            if state.rolling // 3 == seat and _holds(state, seat, step, state.rolling):
                state.extra = seat
                state.events.append(
                    f"{_seat_word(seat)} takes another turn if no battle comes."
                )
            else:
                state.events.append("That extra turn does not apply now.")
        elif step.op == "move_bakugan":
            if (
                state.window_kind == "after_roll"
                and mine
                and state.rolling >= 0
                and state.landed >= 0
                and _holds(state, seat, step, state.rolling)
            ):
                state.shift = True
                state.events.append(
                    f"{_bname(state, state.rolling)} will move to another gate."
                )
            else:
                state.events.append("That move does not apply to this roll.")
        elif step.op in ("discard_ability", "return_abilities", "take_gate"):
            # A player's cards and gates: the step acts when the card is played.
            if not _holds(state, seat, step, state.rolling):
                state.events.append("Its condition does not hold: no effect.")
                continue
            if step.target == "self":
                seats = [seat]
            elif step.target == "all":
                seats = list(range(state.n))
            else:
                seats = [s for s in _turn_order(state) if s != seat]
            _seat_step(state, step, seats)
        elif step.op == "return_bakugan":
            kinds = step.condition("attribute")
            back = [
                i
                for i in state.used[seat]
                if not kinds or state.static.bak_attr[seat * 3 + i] in kinds
            ]
            for i in back:
                state.used[seat].remove(i)
                state.unused[seat].append(i)
            state.unused[seat].sort()
            state.events.append(
                f"{_seat_word(seat)} puts {len(back)} used Bakugan back to roll."
            )
        elif step.op == "clear_field":
            if state.rolling // 3 != seat or not _holds(
                state, seat, step, state.rolling
            ):
                state.events.append("Its condition does not hold: no effect.")
                continue
            for k, b in enumerate(state.field_bakugan):
                if b >= 0:
                    state.field_bakugan[k] = -1
                    state.used[b // 3].append(b % 3)
            state.events.append("Every standing Bakugan goes to its owner's used pile.")
        else:
            held = True
    return held


def _send_used(state: State, seat: int, target: str) -> None:
    """Each target player's standing Bakugan goes to its used pile, one each:
    the card's player takes an opponent's strongest; a player sending one of
    their own sends their weakest."""
    static = state.static
    seats = [seat] if target == "self" else list(range(state.n))
    if target == "opponent":
        seats = [s for s in _turn_order(state) if s != seat]
    for s in seats:
        standing = [
            k for k, b in enumerate(state.field_bakugan) if b >= 0 and b // 3 == s
        ]
        if not standing:
            continue
        pick = (min if s == seat else max)(
            standing, key=lambda k: static.bak_g[state.field_bakugan[k]]
        )
        b = state.field_bakugan[pick]
        state.field_bakugan[pick] = -1
        state.used[s].append(b % 3)
        state.events.append(f"{_bname(state, b)} goes to the used pile.")
        if target == "opponent":
            break


def _peek(state: State, seat: int, amount: int) -> None:
    """Let ``seat`` look at face-down gates (``amount`` 0: all; else the first
    of an opponent's)."""
    looked = 0
    for code in state.field_gates:
        if _known(state, code, seat) or (amount and code // 3 == seat):
            continue
        state.seen.append(seat * 12 + code)
        looked += 1
        if amount and looked >= amount:
            break
    state.events.append(f"{_seat_word(seat)} looks at {looked} face-down gate(s).")


def _place_from_hand(state: State, seat: int) -> None:
    """Put the first gate of the seat's hand face down into the field."""
    if not state.gate_hand[seat]:
        state.events.append(f"{_seat_word(seat)} has no unused gate to put down.")
        return
    idx = state.gate_hand[seat].pop(0)
    code = seat * 3 + state.gate_card[seat * 3 : seat * 3 + 3].index(-1)
    state.gate_card[code] = idx
    state.field_gates.append(code)
    state.field_open.append(0)
    state.field_bakugan.append(-1)
    state.events.append(
        f"{_seat_word(seat)} places gate {_gate_label(code)} face down."
    )


def _join_gate(state: State, seat: int, step) -> None:
    """Stand the seat's strongest unused Bakugan of the card's attributes on the
    empty gate an opponent's Bakugan just landed on: the landing makes a battle."""
    static = state.static
    pos = (
        state.field_gates.index(state.landed)
        if state.window_kind == "after_roll" and state.landed >= 0
        else -1
    )
    if pos < 0 or state.rolling // 3 == seat or state.field_bakugan[pos] >= 0:
        state.events.append("Its condition does not hold: no effect.")
        return
    kinds = step.condition("attribute") or ATTRIBUTES
    ready = [i for i in state.unused[seat] if static.bak_attr[seat * 3 + i] in kinds]
    if not ready:
        state.events.append(f"{_seat_word(seat)} has no such Bakugan unused.")
        return
    pick = max(ready, key=lambda i: static.bak_g[seat * 3 + i])
    state.unused[seat].remove(pick)
    state.field_bakugan[pos] = seat * 3 + pick
    state.events.append(
        f"{_bname(state, seat * 3 + pick)} stands on {_gname(state, state.landed)}."
    )


def _swap_battler(state: State, step, targets) -> None:
    """Replace each target with a Bakugan from its owner's piles: its owner
    chooses the strongest here ("best"), or the card's player the weakest, and
    only to gain ("worst"). The one replaced goes to the used pile."""
    battle, static = state.battle, state.static
    grid = static.gate_bonus[_card_of(state, battle.gate)]

    def value(code: int) -> int:
        return static.bak_g[code] + (grid.get(static.bak_attr[code]) or 0)

    for b in targets:
        seat = b // 3
        pool = []
        if step.of in ("unused", "piles"):
            pool += [(state.unused[seat], i) for i in state.unused[seat]]
        if step.of in ("used", "piles"):
            pool += [(state.used[seat], i) for i in state.used[seat]]
        if not pool:
            state.events.append(f"{_bname(state, b)} has none to swap with.")
            continue
        pick = (max if step.to == "best" else min)(
            pool, key=lambda p: value(seat * 3 + p[1])
        )
        new = seat * 3 + pick[1]
        if step.to == "worst" and value(new) >= value(b):
            state.events.append("No swap would help: no swap.")
            continue
        pick[0].remove(pick[1])
        state.used[seat].append(b % 3)
        i = 0 if battle.attacker == b else 1
        if i == 0:
            battle.attacker = new
        else:
            battle.defender = new
        if battle.attrs:
            battle.attrs[i] = static.bak_attr[new]
        state.events.append(f"{_bname(state, b)} is replaced by {_bname(state, new)}.")


def _seats_back(state: State, seat: int, amount: int, colours) -> int:
    """Return used abilities to the hand (the latest used first); return how many."""
    used, static = state.abilities_used[seat], state.static
    picked = [
        i for i in reversed(used) if not colours or static.ab_colour[seat][i] in colours
    ]
    if amount:
        picked = picked[:amount]
    for i in picked:
        used.remove(i)
        state.ability_hand[seat].append(i)
    state.ability_hand[seat].sort()
    return len(picked)


def _seat_step(state: State, step, seats) -> None:
    """Apply a step that acts on players (their cards and gates)."""
    op = step.op
    for seat in seats:
        who = _seat_word(seat)
        if op == "return_abilities":
            n = _seats_back(state, seat, step.amount, step.colours)
            state.events.append(f"{who} takes back {n} used Ability card(s).")
        elif op == "discard_ability":
            hand = state.ability_hand[seat]
            moved = hand[: step.amount] if step.amount else hand[:]
            for i in moved:
                hand.remove(i)
                state.abilities_used[seat].append(i)
            state.events.append(
                f"{who} puts {len(moved)} unused Ability card(s) into the used pile."
            )
        elif op == "take_gate":
            for other in _turn_order(state):
                if other != seat and state.won[other]:
                    gate = state.won[other].pop()
                    state.won[seat].append(gate)
                    state.events.append(
                        f"{who} takes {_gname(state, gate)} from "
                        f"{_seat_word(other)}'s used pile."
                    )
                    if len(state.won[seat]) >= GATES_TO_WIN:
                        _finish(state, seat, f"{who} has won three gates.")
                    break
            else:
                state.events.append(f"{who} finds no gate to take.")


def _battle_step(state: State, owner: int, is_gate: bool, card: int, k: int) -> None:
    """Apply step ``k`` of a card during a battle (before it is decided)."""
    step = _card_steps(state, owner, is_gate, card)[k]
    if not _turn_ok(state, owner, step):
        return
    battle = state.battle
    op = step.op
    if step.timing == "after_battle":
        battle.after.append((owner, is_gate, card, k))
        return
    if op == "clear_field" and is_gate:
        # Galeforce: every Bakugan standing on another gate goes to a used pile.
        for pos, b in enumerate(state.field_bakugan):
            if b >= 0:
                state.field_bakugan[pos] = -1
                state.used[b // 3].append(b % 3)
                battle.cleared += 1
        state.events.append(
            f"{battle.cleared} standing Bakugan go to their owners' used piles."
        )
        return
    if step.timing == "used_pile" or op in _NOT_IN_BATTLE:
        return
    if op in _TRAP_OPS:
        state.events.append("No Bakugan Trap is in play: no effect.")
        return
    lead = _battler_of(state, owner)
    if op in (
        "cancel_gate",
        "nullify_gate",
        "lower_wins",
        "swap_g_power",
        "zero_printed",
        "zero_ability_bonus",
        "cap_gate_bonus",
        "clear_bonuses",
    ):
        if not _holds(state, owner, step, lead):
            state.events.append("Its condition does not hold: no effect.")
            return
    if op == "cancel_gate":
        battle.cancelled = True
        state.events.append(f"The gate {_gname(state, battle.gate)} is cancelled.")
        return
    if op == "nullify_gate":
        battle.nullified = True
        state.events.append(
            f"The text of {_gname(state, battle.gate)} does not count; its bonus does."
        )
        return
    if op == "lower_wins":
        battle.steps.append((owner, is_gate, op, 0, ()))
        state.events.append("In this battle the lower G-Power wins.")
        return
    if op == "swap_g_power":
        battle.steps.append((owner, is_gate, op, 0, ()))
        state.events.append("The two Bakugan exchange G-Power.")
        return
    if op == "zero_ability_bonus":
        battle.steps.append((owner, is_gate, op, 0, ()))
        state.events.append("Ability cards add no G-Power in this battle.")
        return
    if op == "zero_printed":
        battle.steps.append((owner, is_gate, op, 0, ()))
        state.events.append("Printed G-Power counts as zero in this battle.")
        return
    if op == "cap_gate_bonus":
        battle.steps.append((owner, is_gate, op, step.amount, ()))
        state.events.append(
            f"Gate bonuses above {step.amount} count as {step.amount} in this battle."
        )
        return
    if op == "clear_bonuses":
        battle.steps.append((owner, is_gate, op, 0, ()))
        state.events.append("Every G-Power bonus so far in this battle is lost.")
        return
    found = _targets(state, owner, step.target, step.attribute)
    targets = tuple(b for b in found if _holds(state, owner, step, b))
    if not targets:
        if step.when:
            state.events.append("Its condition does not hold: no effect.")
        return
    static = state.static
    if op == "add_g_power" and step.per in LATE_COUNTS:
        # Counted when the battle is decided ("for each card played in it").
        letter = "" if is_gate else (static.ab_colour[owner][card] or "-")[0]
        for b in targets:
            battle.steps.append(
                (owner, is_gate, f"late/{step.per}/{letter}", step.amount, (b,))
            )
            state.events.append(
                f"{_bname(state, b)}: {step.amount:+d} G-Power for each "
                f"{EFFECT_COUNTS[step.per]}."
            )
    elif op == "add_g_power" or op == "attribute_bonus":
        tag = op if is_gate else f"add_g_power/{static.ab_colour[owner][card]}"
        tag = "add_g_power" if is_gate else tag
        for b in targets:
            if op == "attribute_bonus":
                grid = (
                    static.gate_bonus[card] if is_gate else static.ab_bonus[owner][card]
                )
                if step.of == "own_piles":
                    seat = b // 3
                    kinds = {
                        static.bak_attr[seat * 3 + i]
                        for i in state.unused[seat] + state.used[seat]
                    }
                    amount = sum(grid.get(k) or 0 for k in kinds) * step.amount
                elif step.of == "opponent_used":
                    them = _other(battle, b) // 3
                    best = [
                        grid.get(static.bak_attr[them * 3 + i]) or 0
                        for i in state.used[them]
                    ]
                    amount = max(best, default=0) * step.amount
                else:
                    whose = _other(battle, b) if step.of == "opponent" else b
                    amount = (grid.get(_attr(state, whose)) or 0) * step.amount
                if step.per:
                    amount *= _count(state, b // 3, step.per, step.colours)
            else:
                amount = step.amount
                if step.per:
                    amount *= _count(state, b // 3, step.per, step.colours)
            battle.steps.append((owner, is_gate, tag, amount, (b,)))
            state.events.append(f"{_bname(state, b)}: {amount:+d} G-Power.")
    elif op == "best_gate_bonus":
        battle.steps.append((owner, is_gate, op, 0, targets))
        names = " and ".join(_bname(state, b) for b in targets)
        state.events.append(
            f"{names}: the gate's highest bonus, whatever the attribute."
        )
    elif op == "change_attribute":
        _change_attribute(state, step, targets)
    elif op == "swap_battler":
        _swap_battler(state, step, targets)
    elif op == "copy_printed":
        for b in targets:
            them = _other(battle, b) // 3
            printed = [static.bak_g[them * 3 + i] for i in state.used[them]]
            if not printed:
                state.events.append("No Bakugan in the opponent's used pile to copy.")
                continue
            battle.steps.append((owner, is_gate, "set_printed", max(printed), (b,)))
            state.events.append(
                f"{_bname(state, b)}: printed G-Power {max(printed)} from now."
            )
    elif op == "gate_bonus_again":
        for b in targets:
            times = step.amount
            if step.per:
                times *= _count(state, b // 3, step.per, step.colours)
            battle.steps.append((owner, is_gate, op, times, (b,)))
        names = " and ".join(_bname(state, b) for b in targets)
        state.events.append(f"{names}: the gate bonus counts again.")
    elif op == "no_gate_bonus":
        battle.steps.append((owner, is_gate, op, 0, targets))
        names = " and ".join(_bname(state, b) for b in targets)
        state.events.append(f"{names}: no gate bonus.")
    elif op == "double_ability_bonus":
        tag = "double_ability_bonus/" + "".join(c[0] for c in step.colours)
        battle.steps.append((owner, is_gate, tag, 0, targets))
        state.events.append("G-Power from Ability cards is doubled.")
    elif op == "no_abilities" and step.colours:
        words = _or_words([c.capitalize() for c in step.colours])
        for b in targets:
            seat = b // 3
            for colour in step.colours:
                if f"{seat}{colour[0]}" not in battle.banned:
                    battle.banned.append(f"{seat}{colour[0]}")
            state.events.append(
                f"{_seat_word(seat)} may not play {words} Ability cards in this battle."
            )
    elif op == "no_abilities":
        for b in targets:
            if b // 3 not in battle.barred:
                battle.barred.append(b // 3)
                state.events.append(
                    f"{_seat_word(b // 3)} may not play Ability cards in this battle."
                )
    elif op in ("return_abilities", "discard_ability", "take_gate"):
        seats = []
        for b in targets:
            if b // 3 not in seats:
                seats.append(b // 3)
        _seat_step(state, step, seats)
        if state.over:
            battle.decided = True
    elif op == "win_gate":
        if len(targets) == 1:
            battle.decided, battle.winner = True, targets[0]
            state.events.append(f"{_bname(state, targets[0])} wins the battle at once.")
    elif op == "remove_bakugan":
        for b in targets:
            battle.removed.append(b)
            state.removed[b // 3].append(b % 3)
            state.events.append(f"{_bname(state, b)} is removed from the game (B12).")
        left = [
            b for b in (battle.attacker, battle.defender) if b not in battle.removed
        ]
        battle.decided = True
        battle.winner = left[0] if len(left) == 1 else -1
    else:
        state.events.append("That has no effect in a battle.")


# The site's decks hold no Bakugan Traps: these steps find none to act on.
_TRAP_OPS = frozenset(("no_traps", "discard_traps", "return_traps"))
_NOT_IN_BATTLE = frozenset(
    (
        "arm",
        "send_used",
        "peek_gates",
        "no_effect",
        "reroll",
        "extra_turn",
        "return_bakugan",
        "clear_field",
        "move_bakugan",
        "reroll_on_miss",
    )
)


def _or_words(words) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _change_attribute(state: State, step, targets) -> None:
    """Change the attribute of each target for this battle (where the card lets
    its player choose, choose what serves the card's owner best)."""
    battle, static = state.battle, state.static
    pair = (battle.attacker, battle.defender)
    if not battle.attrs:
        battle.attrs = [static.bak_attr[pair[0]], static.bak_attr[pair[1]]]
    grid = static.gate_bonus[_card_of(state, battle.gate)]
    if step.to in ("own_trap", "opposing_trap"):
        state.events.append("No Bakugan Trap is in play: no effect.")
        return
    if step.to == "swap":
        # Two of the same kind (El Condor against El Condor): no swap. A player
        # swaps only to gain: the target's gate bonus against its opponent's.
        if len(targets) != 1:
            state.events.append("Its condition does not hold: no effect.")
            return
        i = pair.index(targets[0])
        mine, theirs = battle.attrs[i], battle.attrs[1 - i]
        now = (grid.get(mine) or 0) - (grid.get(theirs) or 0)
        if (grid.get(theirs) or 0) - (grid.get(mine) or 0) <= now:
            state.events.append("Swapping attributes would not help: no swap.")
            return
        battle.attrs.reverse()
        state.events.append("The two battling Bakugan swap attributes.")
        return
    for b in targets:
        i = pair.index(b)
        now = battle.attrs[i]
        if step.to == "none":
            new = ""
        elif step.to == "opposite":
            new = OPPOSITES.get(now, now)
        else:
            seat = b // 3
            kinds = (
                tuple(dict.fromkeys(static.bak_attr[seat * 3 : seat * 3 + 3]))
                if step.to == "own_best"
                else ATTRIBUTES
            )
            pick = min if step.to == "worst" else max
            new = pick(kinds, key=lambda a: grid.get(a) or 0)
        battle.attrs[i] = new
        state.events.append(
            f"{_bname(state, b)} "
            + (f"is now {new.capitalize()}." if new else "has no attribute now.")
        )


def _pile_steps(state: State) -> None:
    """Apply the steps of the cards lying in used piles ("while this card is in
    a used pile"): won gates and used Ability cards, in turn order."""
    static = state.static
    for seat in _turn_order(state):
        for gate in state.won[seat]:
            card = _card_of(state, gate)
            for k in static.gate_pile[card]:
                _pile_step(state, seat, static.gate_steps[card][k])
        for idx in state.abilities_used[seat]:
            if static.ab_arm[seat][idx] and seat * 3 + idx not in state.armed:
                continue
            for k in static.ab_pile[seat][idx]:
                _pile_step(state, seat, static.ab_steps[seat][idx][k])


def _pile_rerolls(state: State, seat: int) -> None:
    """Give the rolled Bakugan the re-rolls its owner's used cards grant."""
    static = state.static
    for idx in state.abilities_used[seat]:
        if static.ab_arm[seat][idx] and seat * 3 + idx not in state.armed:
            continue
        for k in static.ab_pile[seat][idx]:
            step = static.ab_steps[seat][idx][k]
            if step.op == "reroll_on_miss" and _holds(state, seat, step, state.rolling):
                state.miss_rerolls += step.amount
                state.events.append(
                    f"{_bname(state, state.rolling)} rolls again if it misses "
                    f"({static.ab_name[seat][idx]}, in the used pile)."
                )


def _pile_step(state: State, owner: int, step) -> None:
    battle = state.battle
    if step.op not in ("add_g_power", "no_gate_bonus", "gate_bonus_again"):
        return
    found = _targets(state, owner, step.target, step.attribute)
    targets = tuple(b for b in found if _holds(state, owner, step, b))
    for b in targets:
        if step.op == "add_g_power":
            amount = step.amount
            if step.per:
                amount *= _count(state, b // 3, step.per, step.colours)
            battle.steps.append((owner, False, "add_g_power", amount, (b,)))
            state.events.append(
                f"{_bname(state, b)}: {amount:+d} G-Power (a card in a used pile)."
            )
        elif step.op == "no_gate_bonus":
            battle.steps.append((owner, False, "no_gate_bonus", 0, (b,)))
            state.events.append(
                f"{_bname(state, b)}: no gate bonus (a card in a used pile)."
            )
        else:
            battle.steps.append((owner, False, "gate_bonus_again", step.amount, (b,)))
            state.events.append(
                f"{_bname(state, b)}: the gate bonus counts again (a card in a used "
                "pile)."
            )


def _open_gate(state: State) -> None:
    battle = state.battle
    gate = battle.gate
    pos = state.field_gates.index(gate)
    state.field_open[pos] = 1
    if gate not in state.opened:
        state.opened.append(gate)
    static = state.static
    card = _card_of(state, gate)
    note = static.gate_note[card]
    state.events.append(
        f"{_gname(state, gate)} opens" + (f": {note}, bonus only." if note else ".")
    )
    owner = gate // 3
    for k, step in enumerate(static.gate_steps[card]):
        if battle.decided:
            break
        if step.timing == "gate_open" or step.timing == "after_battle":
            _battle_step(state, owner, True, card, k)
    if not battle.decided and state.static.any_pile:
        _pile_steps(state)
    for seat in _turn_order(state):
        for idx in state.pending[seat]:
            if seat not in (battle.attacker // 3, battle.defender // 3):
                continue
            for k in range(len(static.ab_steps[seat][idx])):
                if battle.decided:
                    break
                _battle_step(state, seat, False, idx, k)
        if seat in (battle.attacker // 3, battle.defender // 3):
            state.pending[seat] = []
    if battle.decided:
        _resolve_battle(state)
    else:
        _open_window(state, "in_battle", "resolve")


def _turn_order(state: State) -> list[int]:
    return _ORDERS[state.n][state.turn_player]


def _powers(state: State, battle: Battle) -> tuple[list, bool]:
    """Return the battlers' final G-Power [attacker, defender] and lower-wins."""
    static = state.static
    att, dfn = battle.attacker, battle.defender
    pair = (att, dfn)
    power = [static.bak_g[att], static.bak_g[dfn]]
    lower = False
    skip_gate = battle.cancelled or battle.nullified
    factor = [1, 1]  # what ability G-Power counts, per battler
    doubled: list = [(), ()]  # colours doubled per battler ("" is every colour)
    again, no_bonus = [0, 0], [False, False]
    best, cap = [False, False], None
    steps = battle.steps
    for k in range(len(steps) - 1, -1, -1):
        if steps[k][2] == "clear_bonuses" and not (steps[k][1] and skip_gate):
            # Abisomega: what was given before it is lost, the gate bonus too.
            steps = steps[k + 1 :]
            no_bonus = [True, True]
            break
    for _owner, is_gate, op, _amount, targets in steps:
        if is_gate and skip_gate:
            continue
        if op == "best_gate_bonus":
            for i in (0, 1):
                if pair[i] in targets:
                    best[i] = True
        elif op == "set_printed":
            for i in (0, 1):
                if pair[i] in targets:
                    power[i] = _amount
        elif op == "cap_gate_bonus":
            cap = _amount if cap is None else min(cap, _amount)
        elif op == "zero_ability_bonus":
            factor = [0, 0]
        elif op == "zero_printed":
            power = [0, 0]
        elif op.startswith("double_ability_bonus"):
            letters = op.partition("/")[2]
            for i in (0, 1):
                if pair[i] in targets:
                    doubled[i] += (letters or "*",)
        elif op == "gate_bonus_again":
            for i in (0, 1):
                if pair[i] in targets:
                    again[i] += _amount
        elif op == "no_gate_bonus":
            for i in (0, 1):
                if pair[i] in targets:
                    no_bonus[i] = True
    for _owner, is_gate, op, amount, targets in steps:
        if is_gate and skip_gate:
            continue
        if op == "add_g_power":
            if att in targets:
                power[0] += amount
            if dfn in targets:
                power[1] += amount
        elif op.startswith("add_g_power/"):
            letter = op[12:13]
            for i in (0, 1):
                if pair[i] in targets:
                    times = factor[i]
                    for letters in doubled[i]:
                        if letters == "*" or letter in letters:
                            times *= 2
                    power[i] += amount * times
        elif op.startswith("late/"):
            _, per, letter = op.split("/")
            for i in (0, 1):
                if pair[i] in targets:
                    times = factor[i] if letter else 1
                    power[i] += amount * times * _count(state, pair[i] // 3, per, ())
        elif op == "swap_g_power":
            power.reverse()
        elif op == "lower_wins":
            lower = True
    if not battle.cancelled:
        bonus = static.gate_bonus[_card_of(state, battle.gate)]
        attrs = battle.attrs or (static.bak_attr[att], static.bak_attr[dfn])
        for i in (0, 1):
            if not no_bonus[i]:
                if best[i]:
                    value = max(bonus.values())
                else:
                    value = bonus.get(attrs[i]) or 0
                if cap is not None and value > cap:
                    value = cap
                power[i] += value * (1 + again[i])
    return power, lower


def _resolve_battle(state: State) -> None:
    battle = state.battle
    state.window_kind, state.window_seats, state.window_turn, state.window_passes = (
        "",
        [],
        0,
        0,
    )
    att, dfn = battle.attacker, battle.defender
    if state.over:
        return
    if not battle.decided:
        power, lower = _powers(state, battle)
        battle.powers = power
        if power[0] == power[1]:
            battle.winner = dfn  # the Bakugan that landed first wins a tie
        elif (power[0] < power[1]) == lower:
            battle.winner = att
        else:
            battle.winner = dfn
        battle.decided = True
        state.events.append(
            f"{_bname(state, att)} {power[0]} G against {_bname(state, dfn)} "
            f"{power[1]} G" + (" (lower wins)" if lower else "") + "."
        )
    else:
        battle.powers = [-1, -1]
    pos = state.field_gates.index(battle.gate)
    for b in (att, dfn):
        if b not in battle.removed:
            state.used[b // 3].append(b % 3)  # ruling B6
    if battle.winner >= 0:
        seat = battle.winner // 3
        state.events.append(
            f"{_bname(state, battle.winner)} wins: {_seat_word(seat)} takes "
            f"{_gname(state, battle.gate)}."
        )
        _take_gate(state, seat, pos)
    else:
        state.events.append(f"Nobody wins; {_gname(state, battle.gate)} stays in play.")
    if state.over:
        return
    for owner, is_gate, card, k in battle.after:
        if is_gate and (battle.cancelled or battle.nullified):
            continue
        _after_step(state, owner, is_gate, card, k)
        if state.over:
            return
    _open_window(state, "after_battle", "end_turn")


def _after_step(state, owner: int, is_gate: bool, card: int, k: int) -> None:
    """Apply step ``k`` of a card once the battle is decided."""
    battle = state.battle
    if battle is None:
        return
    step = _card_steps(state, owner, is_gate, card)[k]
    op, target = step.op, step.target
    if op == "no_effect" or op == "arm":
        return
    pair = (battle.attacker, battle.defender)
    if is_gate and target in ("self", "opponent", "each_opponent"):
        if battle.winner < 0:
            return
        loser = pair[1] if battle.winner == pair[0] else pair[0]
        found = (battle.winner,) if target == "self" else (loser,)
        found = tuple(b for b in found if b not in battle.removed)
    else:
        found = _targets(state, owner, target, None)
    found = tuple(
        b
        for b in found
        if (not step.attribute or state.static.bak_attr[b] == step.attribute)
        and _holds(state, owner, step, b)
    )
    if not found:
        state.events.append("Its condition does not hold: no effect.")
        return
    if op == "remove_bakugan":
        for b in found:
            seat = b // 3
            battle.removed.append(b)
            if b % 3 in state.used[seat]:
                state.used[seat].remove(b % 3)
            state.removed[seat].append(b % 3)
            state.events.append(f"{_bname(state, b)} is removed from the game (B12).")
    elif op in ("return_abilities", "discard_ability", "take_gate"):
        seats = []
        for b in found:
            if b // 3 not in seats:
                seats.append(b // 3)
        _seat_step(state, step, seats)
    elif op == "face_up_gates":
        for seat in dict.fromkeys(b // 3 for b in found):
            if seat not in state.face_up:
                state.face_up.append(seat)
                state.events.append(
                    f"{_seat_word(seat)}'s gates lie face up from now on."
                )
    elif op == "place_gate" or op == "bank_gate":
        for seat in dict.fromkeys(b // 3 for b in found):
            if op == "place_gate":
                _place_from_hand(state, seat)
            elif state.gate_hand[seat]:
                idx = state.gate_hand[seat].pop(0)
                code = seat * 3 + state.gate_card[seat * 3 : seat * 3 + 3].index(-1)
                state.gate_card[code] = idx
                state.won[seat].append(code)
                state.events.append(
                    f"{_seat_word(seat)} puts an unused gate into the used pile."
                )
                if len(state.won[seat]) >= GATES_TO_WIN:
                    _finish(state, seat, f"{_seat_word(seat)} has won three gates.")
    elif op == "keep_gate":
        winner = battle.winner // 3 if battle.winner >= 0 else -1
        if winner >= 0 and battle.gate in state.won[winner]:
            state.won[winner].remove(battle.gate)
            state.field_gates.append(battle.gate)
            state.field_open.append(1)
            state.field_bakugan.append(-1)
            state.events.append(
                f"{_gname(state, battle.gate)} stays in the field: "
                f"{_seat_word(winner)} does not take it."
            )
    else:
        state.events.append("That has no effect after the battle.")


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


# --- describing, viewing, serialising --------------------------------------


def describe(state: State, action: Action) -> str:
    """Return the action in plain words."""
    static = state.static
    kind, seat = action.kind, action.seat
    who = _seat_word(seat) if seat >= 0 else ""
    if kind == "miss":
        return "The Bakugan misses every gate."
    if kind == "land":
        # Whoever enters a roll may not know the gate: name it only once open.
        return f"The Bakugan lands on {_gname_for(state, action.arg, -1)}."
    if kind == "place":
        return f"{who} places {static.gate_name[seat * 3 + action.arg]} face down."
    if kind == "roll":
        return f"{who} rolls {static.bak_name[seat * 3 + action.arg]}."
    if kind == "play":
        return f"{who} plays {static.ab_name[seat][action.arg]}."
    if kind == "pass":
        return f"{who} plays no more ability cards now."
    if kind == "move":
        return f"{who} moves the Bakugan to {_gname_for(state, action.arg, seat)}."
    if kind == "shift":
        return (
            f"{who} moves {static.bak_name[seat * 3 + action.arg]} to "
            f"{_gname_for(state, action.arg2, seat)}."
        )
    if kind == "clear":
        return f"{who} moves {_gname_for(state, action.arg, seat)} to their used pile."
    return f"{who} has no Bakugan and skips the turn."


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


def _gname_for(state: State, code: int, player: int) -> str:
    """Return the gate's label, with its name only when ``player`` may see it."""
    if _known(state, code, player):
        return _gname(state, code)
    return _gate_label(code)


def _events_for(state: State, player: int) -> list[str]:
    """Return the event log as ``player`` may read it.

    Events name a gate as "P2-G1 (Sunforge)" even while it lies face down (the
    stored log is the whole truth, for replays and tests); a player who may
    not see that gate reads only its label.
    """
    hidden = [
        (_gname(state, g), _gate_label(g))
        for g in range(3 * state.n)
        if state.gate_card[g] >= 0 and not _known(state, g, player)
    ]
    if not hidden:
        return state.events[:]
    shown = []
    for text in state.events:
        for full, label in hidden:
            if full in text:
                text = text.replace(full, label)
        shown.append(text)
    return shown


def _bak_view(state: State, code: int) -> dict:
    static = state.static
    return {
        "id": f"P{code // 3 + 1}-B{code % 3 + 1}",
        "name": static.bak_name[code],
        "attribute": static.bak_attr[code],
        "g_power": static.bak_g[code],
    }


def _gate_data(state: State, data: dict, card: int) -> dict:
    static = state.static
    data["ref"] = f"P{card // 3 + 1}-G{card % 3 + 1}"  # the card's deck place
    data["name"] = static.gate_name[card]
    data["bonus"] = dict(static.gate_bonus[card])
    data["encoded"] = not static.gate_note[card]
    data["effect"] = static.gate_text[card]
    return data


def _gate_view(state: State, code: int, shown: bool) -> dict:
    """A placed gate: its field label and owner; its face only when ``shown``."""
    data = {"id": _gate_label(code), "owner": code // 3}
    if shown:
        _gate_data(state, data, _card_of(state, code))
    return data


def _hand_gate_view(state: State, seat: int, idx: int) -> dict:
    """A gate in its owner's hand, named as the place action names it (G1-G3)."""
    return _gate_data(state, {"id": f"G{idx + 1}", "owner": seat}, seat * 3 + idx)


_PLACED = re.compile(r"P([1-4]) places G[1-3]")


def _log_for(state: State, player: int) -> list[str]:
    """Return the action log as ``player`` may read it: which gate of their hand
    another player placed is that player's secret ("P2 places a gate")."""
    shown = []
    for text in state.log:
        match = _PLACED.fullmatch(text)
        if match and int(match.group(1)) - 1 != player:
            text = f"P{match.group(1)} places a gate"
        shown.append(text)
    return shown


def view(state: State, player: int) -> View:
    """Return what ``player`` may see: hidden hands as counts, face-down gates."""
    static = state.static
    players = []
    for seat in range(state.n):
        own = seat == player
        deck = state.decks[seat]
        entry = {
            "seat": seat,
            "unused": [_bak_view(state, seat * 3 + i) for i in state.unused[seat]],
            "used": [_bak_view(state, seat * 3 + i) for i in state.used[seat]],
            "removed": [_bak_view(state, seat * 3 + i) for i in state.removed[seat]],
            "gates_won": [
                _gate_view(state, g, _known(state, g, player)) for g in state.won[seat]
            ],
            "abilities_used": [
                {"id": f"A{i + 1}", "name": static.ab_name[seat][i]}
                for i in state.abilities_used[seat]
            ],
        }
        if own:
            entry["gate_hand"] = [
                _hand_gate_view(state, seat, i) for i in state.gate_hand[seat]
            ]
            entry["ability_hand"] = [
                {
                    "id": f"A{i + 1}",
                    "name": static.ab_name[seat][i],
                    "window": static.ab_window[seat][i],
                    "colour": deck["ability"][i].get("colour"),
                    "encoded": not static.ab_note[seat][i],
                    "effect": static.ab_text[seat][i],
                }
                for i in state.ability_hand[seat]
            ]
        else:
            entry["gate_hand"] = len(state.gate_hand[seat])
            entry["ability_hand"] = len(state.ability_hand[seat])
        players.append(entry)
    field_view = []
    for g, opened, b in zip(
        state.field_gates, state.field_open, state.field_bakugan, strict=True
    ):
        item = _gate_view(state, g, _known(state, g, player))
        item["open"] = bool(opened)
        item["bakugan"] = _bak_view(state, b) if b >= 0 else None
        field_view.append(item)
    battle = None
    if state.battle is not None:
        b = state.battle
        battle = {
            "gate": _gate_label(b.gate),
            "attacker": _bak_view(state, b.attacker),
            "defender": _bak_view(state, b.defender),
            "decided": b.decided,
            "winner": _bak_view(state, b.winner) if b.winner >= 0 else None,
            "powers": b.powers[:],
        }
    acting = to_act(state) if not state.over else None
    return envelope(
        SLUG,
        player,
        to_act=acting,
        legal_actions=[a.text for a in legal_actions(state)]
        if acting == player
        else [],
        over=state.over,
        winner=winner(state),
        reason=state.reason,
        events=_events_for(state, player),
        turn=state.turns,
        seats=players,
        field=field_view,
        phase=state.phase,
        window=state.window_kind or None,
        turn_player=state.turn_player,
        rolling=_bak_view(state, state.rolling) if state.rolling >= 0 else None,
        battle=battle,
        log=_log_for(state, player),
    )


def to_json(state: State) -> dict:
    """Return the state as JSON-ready data (schema, seed, options, decks, log)."""
    return state_to_json(GAME, VERSION, state)


def _restore(values: dict) -> State:
    # A new game from the same decks, options and seed rebuilds what is derived.
    state = new_game(values["decks"], values["options"], values["seed"])
    for name in ("decks", "options", "seed"):
        del values[name]
    state.__dict__.update(values, events=[])  # events are not saved
    return state


def from_json(data: dict) -> State:
    """Rebuild a state from ``to_json`` data."""
    return state_from_json(data, GAME, VERSION, State, _restore)


def score(state: State, player: int) -> float:
    """Return a heuristic value of the position for ``player`` (greedy bot)."""
    if state.over:
        if state.winner_seat is None:
            return 0.0
        return 1000.0 if state.winner_seat == player else -1000.0
    won = state.won
    mine = len(won[player])
    best_other = max(map(len, won[:player] + won[player + 1 :]))
    value = 100.0 * mine - 60.0 * best_other
    value += 5.0 * len(state.ability_hand[player]) - 40.0 * len(state.removed[player])
    battle = state.battle
    if battle is not None and battle.decided and battle.winner >= 0:
        value += 20.0 if battle.winner // 3 == player else -20.0
    return value + _prospects(state, player)


def scores_after(state: State, actions, player: int) -> list[float]:
    """Return ``player``'s score after each action: ``search.scores_after_reference``.

    The greedy bot's lookahead (``search.greedy_choice``), made cheaper in ways
    that change no score. ``score`` reads neither the log, nor the event text,
    nor who a window asks next: so a pass that leaves the window open, or closes
    the before-roll window (the roll is then in the air, which scores as the
    window did), scores as the state itself; a plain roll or gate placement is
    scored on the state changed in place for it and restored
    (``_score_after_roll``, ``_score_after_place``); any other action is applied
    to a copy made without the log and the event text (which grow all game). A
    test holds it to the plain definition.
    """
    values = []
    here = None
    for action in actions:
        kind = action.kind
        if state.over:  # nothing is legal: apply refuses it as the reference's does
            apply(state, action)
        if kind == "pass" and _scores_as_it_stands(state, action):
            if here is None:
                here = score(state, player)
            values.append(here)
        elif kind == "roll" and _rolls_plainly(state, action):
            values.append(_score_after_roll(state, action, player))
        elif kind == "place" and _places_plainly(state, action):
            values.append(_score_after_place(state, action, player))
        else:
            values.append(
                score(apply(_scratch_copy(state), action, inplace=True), player)
            )
    return values


def _scores_as_it_stands(state: State, action: Action) -> bool:
    """Return whether ``action`` is a legal pass that leaves the window open, or
    closes the before-roll window (``_continue`` then only puts the roll in the air)."""
    if not (
        action.kind == "pass"
        and state.phase == "window"
        and state.window_seats[state.window_turn] == action.seat
    ):
        return False
    if state.window_passes + 1 < len(state.window_seats):
        return True
    return state.window_kind == "before_roll" and state.window_then == "roll"


def _places_plainly(state: State, action: Action) -> bool:
    """Return whether ``action`` is a legal placement with no Bakugan rolled or battling."""
    return (
        state.phase == "place"
        and state.rolling < 0
        and state.battle is None
        and state.queue[0] == action.seat
        and action.arg in state.gate_hand[action.seat]
    )


def _score_after_place(state: State, action: Action, player: int) -> float:
    """Return ``score`` after a legal placement, the state changed for it and restored.

    Of what ``_do_place`` changes, ``score`` reads the gates on the field, the
    card lying at each and the Bakugan on them (the new gate empty); the turn it
    may start (``_start_turn``) moves a player's used Bakugan back to unused,
    which changes no sum ``score`` makes, and with no Bakugan rolled the phase
    counts for nothing. Only those fields are set, then put back.
    """
    seat = action.seat
    code = seat * 3 + state.gate_card[seat * 3 : seat * 3 + 3].index(-1)
    state.gate_card[code] = action.arg
    state.field_gates.append(code)
    state.field_bakugan.append(-1)
    try:
        return score(state, player)
    finally:
        state.field_bakugan.pop()
        state.field_gates.pop()
        state.gate_card[code] = -1


def _rolls_plainly(state: State, action: Action) -> bool:
    """Return whether ``action`` is a legal roll that only opens the before-roll window.

    So it is unless a card in a used pile grants re-rolls (``_pile_rerolls``).
    """
    return (
        state.phase == "choose"
        and state.battle is None
        and not state.static.any_pile
        and action.seat == state.turn_player
        and action.arg in state.unused[action.seat]
    )


def _score_after_roll(state: State, action: Action, player: int) -> float:
    """Return ``score`` after a plain roll, the state changed for it and restored.

    Of what ``_do_roll`` changes, ``score`` reads the Bakugan ready to roll, the
    one rolled, the phase and the window kind: only those are set, then put back.
    """
    seat = action.seat
    unused = state.unused[seat]
    kept = state.rolling, state.phase, state.window_kind
    ready = unused[:]
    ready.remove(action.arg)
    state.unused[seat] = ready
    state.rolling, state.phase = seat * 3 + action.arg, "window"
    state.window_kind = "before_roll"
    try:
        return score(state, player)
    finally:
        state.unused[seat] = unused
        state.rolling, state.phase, state.window_kind = kept


def _scratch_copy(state: State) -> State:
    """Return ``copy_state(state)`` with an empty log and event text (for a lookahead)."""
    log, events = state.log, state.events
    state.log, state.events = [], []
    try:
        return copy_state(state)
    finally:
        state.log, state.events = log, events


# What the greedy bot (and the search bot's leaf values) see coming: a battle
# not yet decided, a roll in the air, Bakugan standing on the gates. Gate cards
# are read as the engine holds them: the log names every gate placed (see the
# module text), so a seat may know each one.
PROSPECT_BATTLE = 45.0  # the battler ahead in an undecided battle
PROSPECT_ROLL = 30.0  # a rolled Bakugan that would beat the one standing there
PROSPECT_STAND = 4.0  # an empty gate taken
PROSPECT_GUARD = 0.05  # per G of a standing Bakugan's margin over the field
PROSPECT_FIELD = 0.05  # per G of gate bonus the field gives a seat's Bakugan
# Every list of distinct Bakugan indices (0-2), in any order, as a set of bits.
_BITS = {
    tuple(order): sum(1 << i for i in order)
    for size in range(4)
    for order in permutations(range(3), size)
}


def _on_gate(state: State, code: int, gate: int) -> int:
    """Return a Bakugan's G-Power on a gate: printed plus the gate's bonus."""
    static = state.static
    bonus = static.gate_bonus[_card_of(state, gate)][static.bak_attr[code]] or 0
    return static.bak_g[code] + bonus


def _battle_prospect(state: State, battle, player: int) -> float:
    """Return the undecided battle's term: for the seat ahead, against the other side.

    Shared by ``_prospects`` and its reference: the battle is scored the same
    way by both, only the field terms have a fast path.
    """
    if battle is None or battle.decided:
        return 0.0
    power, lower = _powers(state, battle)
    ahead = battle.attacker if power[0] > power[1] else battle.defender
    if lower and power[0] != power[1]:
        ahead = battle.defender if ahead == battle.attacker else battle.attacker
    if ahead // 3 == player:
        return PROSPECT_BATTLE
    if player in (battle.attacker // 3, battle.defender // 3):
        return -PROSPECT_BATTLE
    return 0.0


def _prospects(state: State, player: int) -> float:
    """Return ``_prospects_reference(state, player)``, the same sums in the same order.

    The greedy bot scores every move it weighs, and the field terms are most
    of a score: here each gate's bonuses and G-Powers come from the tables of
    ``_Static`` (``field_bonus``, ``on_gate``) and each seat's Bakugan left are
    listed once, not once per gate. A test holds it to the reference.
    """
    battle = state.battle
    value = _battle_prospect(state, battle, player)
    gates, standing = state.field_gates, state.field_bakugan
    if not gates:
        return value
    static = state.static
    cards = state.gate_card
    if state.rolling >= 0 and battle is None:
        code, seat = state.rolling, state.turn_player
        sign = 1.0 if seat == player else -1.0 if state.n == 2 else 0.0
        if state.phase == "roll" or state.window_kind == "before_roll":
            land, places = state.land_odds / len(gates), enumerate(gates)
        elif state.landed >= 0:  # landed: where it is, moving on from one's own
            land, places = 1.0, [(gates.index(state.landed), state.landed)]
        else:
            land, places = 0.0, []
        for pos, gate in places:
            other = standing[pos]
            if other < 0:
                value += sign * land * PROSPECT_STAND
            elif other // 3 != seat:
                on_gate = static.on_gate[gate - gate % 3 + cards[gate]]
                wins = on_gate[code] > on_gate[other]
                value += sign * land * (PROSPECT_ROLL if wins else -PROSPECT_ROLL)
    lefts = []  # (seat, its Bakugan left as bits, 0 for the seat scored else 1)
    for seat, left in enumerate(map(list.__add__, state.unused, state.used)):
        bits = _BITS.get(tuple(left))
        if bits is None:  # never in play: each Bakugan lies in one place
            return _prospects_reference(state, player)
        if bits:
            lefts.append((seat, bits, seat != player))
    for pos, gate in enumerate(gates):
        card = gate - gate % 3 + cards[gate]
        terms = static.field_terms[card]
        for seat, bits, theirs in lefts:
            value += terms[seat][bits][theirs]
        mine = standing[pos]
        if mine >= 0 and mine // 3 == player:
            value += PROSPECT_STAND + PROSPECT_GUARD * (
                static.on_gate[card][mine] - 350
            )
    return value


def _prospects_reference(state: State, player: int) -> float:
    """Return the score of what is under way for ``player`` (see above)."""
    battle = state.battle
    value = _battle_prospect(state, battle, player)
    gates, standing = state.field_gates, state.field_bakugan
    if state.rolling >= 0 and battle is None and gates:
        code, seat = state.rolling, state.turn_player
        sign = 1.0 if seat == player else -1.0 if state.n == 2 else 0.0
        if state.phase == "roll" or state.window_kind == "before_roll":
            land, places = state.land_odds / len(gates), enumerate(gates)
        elif state.landed >= 0:  # landed: where it is, moving on from one's own
            land, places = 1.0, [(gates.index(state.landed), state.landed)]
        else:
            land, places = 0.0, []
        for pos, gate in places:
            other = standing[pos]
            if other < 0:
                value += sign * land * PROSPECT_STAND
            elif other // 3 != seat:
                wins = _on_gate(state, code, gate) > _on_gate(state, other, gate)
                value += sign * land * (PROSPECT_ROLL if wins else -PROSPECT_ROLL)
    static = state.static
    for pos, gate in enumerate(gates):
        bonus = static.gate_bonus[_card_of(state, gate)]
        for seat in range(state.n):
            left = state.unused[seat] + state.used[seat]
            if left:
                edge = sum(bonus[static.bak_attr[seat * 3 + i]] or 0 for i in left)
                edge *= PROSPECT_FIELD / len(left)
                value += edge if seat == player else -edge / (state.n - 1)
        mine = standing[pos]
        if mine >= 0 and mine // 3 == player:
            value += PROSPECT_STAND + PROSPECT_GUARD * (
                _on_gate(state, mine, gate) - 350
            )
    return value


# --- the board: which card a move plays, and why a card cannot be played ------


def action_cards(state: State, action: Action) -> tuple[str, ...]:
    """Return the board keys of the cards ``action`` plays (the view's ids).

    A Bakugan is keyed "P1-B2" (rolled from the unused ones, or moved from a
    gate), a gate in hand "G1", an ability card "A1", a gate on the field by
    its field label (where a Bakugan lands, moves or which is cleared). A
    miss, a pass or a skip names no card.
    """
    kind, seat = action.kind, action.seat
    if kind == "roll":
        return (f"P{seat + 1}-B{action.arg + 1}",)
    if kind == "place":
        return (f"G{action.arg + 1}",)
    if kind == "play":
        return (f"A{action.arg + 1}",)
    if kind in ("move", "clear", "land"):
        return (_gate_label(action.arg),)
    if kind == "shift":
        return (f"P{seat + 1}-B{action.arg + 1}", _gate_label(action.arg2))
    return ()


def why_not(state: State, seat: int, key: str) -> str | None:
    """Return why ``seat`` cannot play its card ``key`` now, or None when it can.

    Ability cards follow ``_is_legal``'s checks (an open window of the card's
    timing, the seat's turn in it, no "no abilities" bar: B4, B10) and their
    refusals (``_why_illegal``); a Bakugan is rolled when its owner's turn
    begins; a gate in hand is placed at set-up and when the field is empty
    (B1, B7).
    """
    if state.over:
        return "The game is over."
    acting = to_act(state)
    if acting == seat and any(
        key in action_cards(state, a) for a in legal_actions(state)
    ):
        return None
    key = str(key)
    if len(key) == 2 and key[0] in "AG" and key[1] in "123":
        index = int(key[1]) - 1
    elif re.fullmatch(r"P[1-4]-B[1-3]", key) and int(key[1]) - 1 == seat:
        index = int(key[-1]) - 1
        key = "B"
    else:
        return "That is not one of your cards in hand."
    phase = state.phase
    if key[0] == "A":
        if index not in state.ability_hand[seat]:
            return "That ability card is used: each is played once a game (B4)."
        if phase != "window":
            return _why_illegal(state, _PLAY[seat][index])
        kind = state.window_kind
        if seat not in state.window_seats:
            return f"Only the two battlers play {WINDOW_WORDS[kind]} (B10)."
        if _barred(state, seat, kind):
            return _why_illegal(state, _PLAY[seat][index])
        timing = state.static.ab_window[seat][index]
        if timing != kind:
            return (
                f"{state.static.ab_name[seat][index]} is played "
                f"{WINDOW_WORDS.get(timing, timing)}; this window is "
                f"{WINDOW_WORDS[kind]}."
            )
        return f"Wait for your turn in the window: Player {acting + 1} first."
    if key[0] == "G":
        if index not in state.gate_hand[seat]:
            return "That gate is not in your hand."
        if phase != "place":
            return "Gates are placed at the start and when the field is empty (B1, B7)."
        return f"Wait for your turn to place a gate: Player {acting + 1} first."
    if index not in state.unused[seat]:
        return "That Bakugan is not ready to roll."
    if phase == "place":
        return "The gates go down first; Bakugan roll once they are placed (B1)."
    if state.turn_player != seat:
        return f"Not your turn: Player {state.turn_player + 1} rolls now."
    if phase == "window":
        return f"The ability window {WINDOW_WORDS[state.window_kind]} is open."
    return _why_illegal(state, _ROLL[seat][index])


def battle_winner(first_landed: int, second: int) -> int:
    """Return 0 when the Bakugan that landed first wins a plain battle (ties), else 1."""
    return 0 if first_landed >= second else 1
