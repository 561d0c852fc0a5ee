"""Beyblade Collision (Decipher, 2002): the basic and the advanced game.

What is modelled
    Two to four players, each with a Blade (never shuffled, never in hand) and
    a deck. Set-up follows ruling C2: the Blade is out, the rest is shuffled,
    the spin pile gets as many cards as the Blade's spin strength, then five
    cards are drawn. The first player is ``options["first"]`` (a seat), or
    the cut tiebreak of ruling C3 (``"cut"``: a random card of each remaining
    deck is revealed without moving it, most live pieces goes first, tied
    players cut again), or, when absent, the seed picks. Play passes to the
    left (seat + 1), skipping players who are out.

    A turn is one card or a pass. In the basic game any card opens a battle;
    with three or more players left the attacker names the defender. Stops
    must be exactly the next colour after the opposing top card (ruling C9),
    are always optional (``nostop``), and alternate until someone does not
    stop; that player loses the battle. Only an attacker's win costs
    anything: the two top cards are compared under ruling C4 (the player
    whose turn it is counts live and strike pieces, the other card live and
    empty pieces), or the attacking card against the defender's Blade edge
    when nobody stopped (ruling C5). Hits beyond the spin pile are lost and
    the player is out at once (ruling C6). Then both battle piles go to their
    owners' discard piles and every player still in refills to five, one card
    at a time in turn order starting with the player whose turn it is
    (ruling C7). Every turn ends so, one whose player card text knocked out
    at its start (three or more players) included. A pass discards the whole hand before the refill. A player
    whose spin pile is empty is out; the last player left wins, and if every
    remaining player goes out at the same moment the game is a draw (ruling
    C8).

    The advanced game (``options["advanced"] = True``) switches card text on.
    Only Actions open battles; a Character or an Event is tested against the
    top card of the chosen opponent's deck (ruling C11: tested card versus
    test card under C4 with the tester as the player whose turn it is; one
    matched notch passes). The test card goes to its owner's discard pile
    (ruling C16) and the turn goes to the refill. A passing Character stays
    in play (one per title per player; an opponent's copy does not block); a
    passing Event fires once and is discarded; a failing card is discarded.
    Any card of the right colour stops, text off, including a Character in
    play, which is picked up from the table. An Action's text is on for
    whichever side plays it (ruling C10). The refill also discards down to
    five, one card per action, the owner choosing (ruling C12).

Encoded card text (the card's ``effects`` list, core vocabulary)
    Supported ops: ``draw``, ``discard``, ``gain_spin``, ``lose_spin`` and
    ``remove``; targets ``self``, ``opponent``, ``each_opponent``, ``all``,
    ``attacker``, ``defender``; ``turn`` ``"your"`` / ``"opponent"`` is the
    YOUR TURN: / OPPONENT'S TURN: header (ruling C19: "opponent" is on during
    every turn that is not the owner's). A discard step may carry
    ``"random": true``: the hand is hidden and shuffled and an opponent of
    the discarding player picks positions (ruling C15; ``pick n``). Timings
    by card type:

    - Action: ``play`` fires the moment it is played (as the opener or as a
      stopper); ``win`` fires only if it is on top of its owner's pile when
      the owner wins the battle, after the hits are paid (rulings C10, C18).
    - Character: ``play`` fires once when it passes its test and enters
      play; ``passive`` steps work while it is in play (see below).
    - Event: ``play`` steps fire once when it passes its test.
    - Blade: ``passive`` steps work all game.

    Passive steps are ops that happen, not standing modifiers, so they fire
    once per turn, at the start of each turn, for every player still in, in
    turn order from the player whose turn it is (Blade first, then
    Characters in the order they entered play), subject to their ``turn``
    limit. A card whose list is empty, or holds any other op, timing, key or
    a non-positive amount, plays as its basic self and the log says so; the
    core op ``test`` is not supported.

    "opponent" means: for the player whose turn it is, the opponent chosen
    this turn (defender or tested player), or before a choice the next
    player to the left; for anybody else, the player whose turn it is; an
    opponent who is out is nobody, and text of a player who is out no longer
    resolves.
    "attacker" is the player whose turn it is; "defender" is that player's
    opponent. A discard or remove step that needs a choice is an action:
    the discarding player picks the cards (``discard k``), the text's owner
    picks the Character to remove (``remove k``); no choice is asked when
    every candidate goes anyway. Options other than ``advanced`` and
    ``first`` are ignored. A player knocked out by play-symbol text
    during a battle ends that battle at once, no hits counted, no win text
    (ruling C17); text that knocks out several players at once counts them
    out together (ruling C8).

Edge cases
    Deck lists keep the top card at the end; so do spin piles and battle
    piles. Whenever a deck gives up its last card (a draw, gained spin, a
    test card) the discard pile is shuffled at once into the new deck, the
    card just taken not included; a player who must draw with an empty deck
    and a non-empty discard pile shuffles it first; with neither, nothing is
    drawn (ruling C7). Gained spin never makes a pile exceed the spin
    strength (ruling C14). A test against an opponent with no card to turn
    over fails. The cut tiebreak gives up after 50 tied cuts and lets the
    seed pick among the tied players, since identical decks could tie
    forever. The game ends as a draw when turn 301 would start (ruling E3,
    cap 300 turns). Deck legality (sixty cards with the Blade counted,
    ruling C1; four per title, ruling C20) belongs to the deck builder; the
    engine only needs one Blade and enough cards to set up (spin strength
    plus six). Two-player best-of-three matches (ruling C13) use the helpers
    ``Match``, ``match_record``, ``match_winner``, ``next_game_first`` and
    ``first_player``; after a drawn game the player who went second goes
    first, and the drawn game counts for nobody (the site's playtest matches,
    ``cards.games`` ``Game.match``, call them).

Speed (issue 21, item 4)
    The greedy bot's lookahead is ``scores_after``: most moves (quiet plays
    and stops, one-step draw and spin text, chosen discards, passes and
    unstopped battles that end the turn without a reshuffle) are valued from
    the state as it is, without making them; the rest are made on a copy
    without the log and events. It equals ``search.scores_after_reference``
    (``tests/engine/test_collision_speed.py``), and ``score`` equals the
    heuristic as first written (its spin term takes the one rival of a
    two-player game without the loop); each card keeps the steps of its
    play and win text that fire on its owner's turn and on the others'
    (``_firing``), which the valuation asks at most decisions; none of it
    changes a game.

    The turn flow skips two look-ups that usually find nothing: a game none
    of whose cards has passive text (``State.passive_text``, read with the
    decks) does not look for it at each turn's start, nor does
    ``scores_after``; and a refill that drew every hand up to five from decks
    that keep a card (``_refill``'s fast path) tells the trim that no hand
    holds more than five. A test plays whole games both ways
    (``test_the_turn_flows_shortcuts_play_the_games_of_the_long_way``).

    There is no ``play_forced`` hook for ``bots.play_out``: a sixth of a
    random game's moves are forced (a stop step where the responder holds
    no card of the colour needed), and checking for one after every move
    cost more than the forced moves saved (cachegrind: a tenth more
    instructions a random basic game, and more for greedy games too), so
    the bots play Collision by ``play_out_reference``.

The rules are this module; ``valuation`` (the bots' scores) and ``view`` (what a
player sees, the hidden cards guessed, the board) read them.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from cards.games import GAMES

from ..core import (
    DeckReads,
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

GAME = GAMES["collision"]
SLUG = GAME.slug
# Below its tree the search bot plays four greedy moves before the score
# decides: a battle under way is mostly settled by then, which the score reads
# poorly (docs/bots.md: against greedy, Collision basic 63.3% to 67.3% over
# 400 games at --seed 2001, where it was chosen, and 62.5% to 66.0% at 1).
SEARCH_BELOW = ("greedy", 4)
NAME = GAME.name
VERSION = "1.0"
MIN_PLAYERS = GAME.min_players
MAX_PLAYERS = GAME.max_players
SEAT_COUNTS = GAME.seat_counts
TURN_CAP = 300
HAND_SIZE = 5
CUT_LIMIT = 50

COLOURS = ("red", "yellow", "green", "blue")
_WHO = tuple(f"Player {seat + 1}" for seat in range(4))
# Event texts written once rather than on every turn.
_TURN_SAID = [[f"Turn {turn}: {who}." for who in _WHO] for turn in range(TURN_CAP + 1)]
_DRAWS_SAID = [[f"{who} draws {k}." for k in range(8)] for who in _WHO]
_NOSTOP_SAID = [
    [f"{loser} does not stop: {winner} wins the battle." for winner in _WHO]
    for loser in _WHO
]
_PASS_SAID = tuple(f"{who} passes and discards the whole hand." for who in _WHO)
_COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}
KINDS = ("blade", "action", "character", "event")
_OPS = ("draw", "discard", "gain_spin", "lose_spin", "remove")
_STEP_KEYS = {"op", "timing", "amount", "target", "turn", "random"}
_TIMINGS = {
    "action": ("play", "win"),
    "character": ("play", "passive"),
    "event": ("play",),
    "blade": ("passive",),
}


# --- cards -------------------------------------------------------------------


class _Card:
    """The play data of one physical card, shared by every copy of a state."""

    __slots__ = (
        "uid",
        "owner",
        "id",
        "name",
        "title",
        "kind",
        "colour",
        "edge",
        "on",
        "off",
        "live",
        "spin",
        "play",
        "win",
        "passive",
        "note",
        "plays",  # play action per target seat
        "tests",  # test action per target seat
        "stop",  # its stop action
        "discard",  # its discard action (a choice)
        "plays_all",  # per attacker: plays against every other seat, in turn order
        "tests_all",  # likewise tests
        "said_play",  # the event of playing it, per target seat
        "play_firing",  # its play steps that fire (``_firing``): other's turn, own
        "win_firing",  # likewise its win steps
        "said_stop",  # the event of stopping with it: from hand, from the table
    )

    def public(self) -> dict:
        data = {"uid": self.uid, "id": self.id, "name": self.name}
        data["type"] = self.kind
        data["colour"] = COLOURS[self.colour] if self.colour >= 0 else None
        data["edge"] = self.edge
        return data


def _title(card: dict) -> str | None:
    # Ruling C20: the title field decides; a comma in a name is no split.
    return card.get("title") or None


def _label(card: dict) -> str:
    return card.get("name") or card.get("title") or f"card {card.get('id')}"


def card_problems(card: dict) -> list[str]:
    """Return the reasons, in plain words, why this card cannot be played."""
    problems = []
    kind = card.get("card_type")
    if kind is None:
        problems.append("its card type is unknown")
    elif kind not in KINDS:
        problems.append(f"{kind!r} is not a Collision card type")
    edge = card.get("battle_edge")
    if edge is None:
        problems.append("its battle edge is unknown")
    elif edge not in _EDGES:
        problems.append("its battle edge is not six notches of . L S E")
    if kind == "blade":
        spin = card.get("spin_strength")
        if spin is None:
            problems.append("its spin strength is unknown")
        elif not isinstance(spin, int) or isinstance(spin, bool) or spin < 1:
            problems.append("its spin strength is not a whole number above 0")
    elif kind in KINDS:
        colour = card.get("colour")
        if colour is None:
            problems.append("its colour is unknown")
        elif colour not in _COLOUR_INDEX:
            problems.append(f"{colour!r} is not a Collision colour")
        if kind == "character" and not _title(card):
            problems.append("its title is unknown (the one-in-play rule needs it)")
    try:
        parse_effects(card.get("effects"))
    except EngineError as error:
        problems.append(f"its encoded text is malformed: {error.message}")
    return problems


def _encode(kind: str, raw_steps) -> tuple[tuple, tuple, tuple, str]:
    """Return the play, win and passive steps of a card and a note when text is off."""
    if not raw_steps:
        return (), (), (), "its text is not encoded"
    effects = parse_effects(raw_steps)
    steps = {"play": [], "win": [], "passive": []}
    for raw, effect in zip(raw_steps, effects, strict=True):
        random_pick = raw.get("random", False)
        supported = (
            effect.op in _OPS
            and effect.timing in _TIMINGS[kind]
            and effect.amount >= 1
            and effect.attribute is None
            and not set(raw) - _STEP_KEYS
            and isinstance(random_pick, bool)
            and (not random_pick or effect.op == "discard")
        )
        if not supported:
            return (
                (),
                (),
                (),
                f"its text step {effect.op}/{effect.timing} is unsupported",
            )
        steps[effect.timing].append(
            (effect.op, effect.amount, effect.target, effect.turn, random_pick)
        )
    return tuple(steps["play"]), tuple(steps["win"]), tuple(steps["passive"]), ""


def _edge_masks(edge: str) -> tuple[int, int, int]:
    on = sum(1 << i for i, piece in enumerate(edge) if piece in "LS")
    off = sum(1 << i for i, piece in enumerate(edge) if piece in "LE")
    return on, off, edge.count("L")


# Every possible edge, so that building a game's cards is a look-up.
_EDGES = {
    edge: _edge_masks(edge)
    for edge in ("".join(notches) for notches in product(".LSE", repeat=6))
}


def _make_card(uid: int, owner: int, raw: dict) -> _Card:
    card = _Card()
    card.uid = uid
    card.owner = owner
    card.id = raw.get("id")
    card.name = _label(raw)
    card.title = _title(raw)
    card.kind = raw["card_type"]
    card.colour = _COLOUR_INDEX.get(raw.get("colour"), -1)
    card.edge = edge = raw["battle_edge"]
    card.on, card.off, card.live = _EDGES[edge]
    card.spin = raw.get("spin_strength") or 0
    card.play, card.win, card.passive, card.note = _encode(
        card.kind, raw.get("effects")
    )
    # Indexed by whether it is the owner's turn (False 0, True 1).
    card.play_firing = (_firing(card.play, False), _firing(card.play, True))
    card.win_firing = (_firing(card.win, False), _firing(card.win, True))
    # Battles log these on every move: written once.
    shown = f"{card.name} ({COLOURS[card.colour]})" if card.colour >= 0 else ""
    card.said_play = tuple(
        f"{_WHO[owner]} plays {shown} against {who}." for who in _WHO
    )
    card.said_stop = (
        f"{_WHO[owner]} stops with {shown}.",
        f"{_WHO[owner]} stops with {shown} from the table.",
    )
    return card


def _plain_card_ok(raw: dict) -> bool:
    """Return whether a coloured card without text is playable (fast path)."""
    kind = raw.get("card_type")
    return (
        (kind == "action" or kind == "event" or (kind == "character" and _title(raw)))
        and raw.get("battle_edge") in _EDGES
        and raw.get("colour") in _COLOUR_INDEX
        and not raw.get("effects")
    )


def _read(decks) -> tuple[list[_Card], list[int], list[list[int]], bool]:
    """Return the card table, each seat's Blade and deck (uids), and a flag.

    The flag says whether any card has passive text (only Blades and
    Characters may): a game without any need not look for it.
    """
    if not isinstance(decks, (list, tuple)):
        raise EngineError("bad_deck", "Decks must be a list with one deck per player.")
    if not MIN_PLAYERS <= len(decks) <= MAX_PLAYERS:
        raise EngineError(
            "bad_deck",
            f"Collision is for {MIN_PLAYERS} to {MAX_PLAYERS} players, "
            f"not {len(decks)}.",
        )
    cards: list[_Card] = []
    blades, lists = [], []
    for seat, deck in enumerate(decks):
        who = f"Player {seat + 1}'s deck"
        if not isinstance(deck, dict):
            raise EngineError("bad_deck", f"{who} must map zones to card lists.")
        blade_zone, main = deck.get("blade"), deck.get("deck")
        if not isinstance(blade_zone, list) or len(blade_zone) != 1:
            raise EngineError("bad_deck", f"{who} needs exactly one Blade.")
        if not isinstance(main, list):
            raise EngineError("bad_deck", f"{who} has no deck zone.")
        for raw in blade_zone + main:
            if type(raw) is dict and _plain_card_ok(raw):
                continue
            if not isinstance(raw, dict):
                raise EngineError("bad_deck", f"{who} holds something that is no card.")
            problems = card_problems(raw)
            if problems:
                raise EngineError(
                    "bad_deck",
                    f"{_label(raw)} in {who} cannot be played: {'; '.join(problems)}.",
                )
        if blade_zone[0]["card_type"] != "blade":
            raise EngineError(
                "bad_deck", f"{_label(blade_zone[0])} in {who} is not a Blade."
            )
        for raw in main:
            if raw["card_type"] == "blade":
                raise EngineError(
                    "bad_deck",
                    f"{who} holds a second Blade, {_label(raw)}; a deck has one.",
                )
        spin = blade_zone[0]["spin_strength"]
        if len(main) < spin + HAND_SIZE + 1:
            raise EngineError(
                "bad_deck",
                f"{who} has {len(main)} cards besides the Blade; set-up needs at "
                f"least {spin + HAND_SIZE + 1} (spin pile, hand and one more).",
            )
        blades.append(len(cards))
        cards.append(_make_card(len(cards), seat, blade_zone[0]))
        uids = []
        for raw in main:
            uids.append(len(cards))
            cards.append(_make_card(len(cards), seat, raw))
        lists.append(uids)
    seats = range(len(decks))
    n = len(decks)
    for card in cards:
        card.plays = tuple(Action("play", card.uid, t) for t in seats)
        card.tests = tuple(Action("test", card.uid, t) for t in seats)
        card.stop = Action("stop", card.uid)
        card.discard = Action("discard", card.uid)
        card.plays_all = tuple(
            tuple(card.plays[(tp + i) % n] for i in range(1, n)) for tp in seats
        )
        card.tests_all = tuple(
            tuple(card.tests[(tp + i) % n] for i in range(1, n)) for tp in seats
        )
    return cards, blades, lists, any(card.passive for card in cards)


_build = DeckReads(_read)


# --- actions -----------------------------------------------------------------


_ACTIONS: dict = {}
_ARGS = {"play": 2, "test": 2, "stop": 1, "discard": 1, "remove": 1, "pick": 1}


@dataclass(frozen=True, eq=False)
class Action:
    """One move: ``kind`` with a card uid (or pick position) and a target seat.

    Actions are interned: equal moves are the same object, so equality is
    identity and legal-list look-ups stay cheap. ``text`` is the stable log
    form, e.g. ``play 12 vs 1``.
    """

    kind: str
    card: int = -1
    target: int = -1

    def __new__(cls, kind: str, card: int = -1, target: int = -1):
        key = (kind, card, target)
        action = _ACTIONS.get(key)
        if action is None:
            action = _ACTIONS[key] = object.__new__(cls)
            if kind in ("play", "test"):
                text = f"{kind} {card} vs {target}"
            elif kind in ("stop", "discard", "remove", "pick"):
                text = f"{kind} {card}"
            else:
                text = kind
            object.__setattr__(action, "text", text)
        return action

    def __getnewargs__(self):
        return (self.kind, self.card, self.target)


def _act(kind: str, card: int = -1, target: int = -1) -> Action:
    action = _ACTIONS.get((kind, card, target))
    return action if action is not None else Action(kind, card, target)


PASS = _act("pass")
NOSTOP = _act("nostop")


def parse_action(text: str) -> Action:
    """Return the action written as ``text`` (the log form)."""
    words = text.split() if isinstance(text, str) else []
    if not words:
        raise EngineError("bad_action", f"Not a Collision move: {text!r}.")
    kind = words[0]
    try:
        if kind in ("pass", "nostop") and len(words) == 1:
            return _act(kind)
        if _ARGS.get(kind) == 1 and len(words) == 2:
            return _act(kind, _number(words[1]))
        if _ARGS.get(kind) == 2 and len(words) == 4 and words[2] == "vs":
            return _act(kind, _number(words[1]), _number(words[3]))
    except ValueError:
        pass
    raise EngineError("bad_action", f"Not a Collision move: {text!r}.")


def _number(word: str) -> int:
    if not word.isdigit():
        raise ValueError(word)
    return int(word)


# --- state -------------------------------------------------------------------


@dataclass(eq=False)
class State:
    """A Collision game in progress; zones hold card uids, tops at the end."""

    cards: list = marked(derived=True)  # the card table, read from the decks
    seed: int
    options: dict
    decks: list
    n: int = marked(derived=True)
    advanced: bool = marked(derived=True)
    # Whether any card of the game has passive text: none to look for if not.
    passive_text: bool = marked(derived=True)
    rng: Rng = marked("rng")
    blade: list = marked(derived=True)
    deck: list = marked("rows")
    hand: list = marked("rows")
    spin: list = marked("rows")
    discard: list = marked("rows")
    pile: list = marked("rows")
    characters: list = marked("rows")
    out: list = marked("list")
    first: int = 0
    turn: int = 1
    turn_player: int = 0
    chosen_opponent: int = -1  # defender or tested player this turn
    phase: str = "main"
    then: str = "main"  # the step that follows the current one
    attacker: int = -1
    defender: int = -1
    responder: int = -1
    battle: int = 0  # 0 none, 1 running, 2 settled (win text pending)
    queue: list = marked("tuples", None)
    choice: tuple | None = marked("frozen", None)
    winner: int | None = None
    reason: str = ""
    log: list = marked("list", None)
    # What happened, in words: not saved, a replay of the log reproduces it.
    events: list = marked("list", factory=list, derived=True)
    cached: tuple | None = derived(None, "fresh")  # (len(log), legal actions)


def _options(options) -> tuple[bool, object]:
    checked = checked_options(GAME, options)
    return checked["advanced"], checked["first"]


def new_game(decks, options: dict | None = None, seed: int = 0) -> State:
    """Set up a game (ruling C2) and pick the first player (ruling C3)."""
    advanced, first = _options(options)
    cards, blades, lists, passive_text = _build(decks)
    n = len(lists)
    if isinstance(first, int) and not 0 <= first < n:
        raise EngineError(
            "bad_options", f"There is no seat {first} in a {n}-player game."
        )
    s = State(
        cards,
        seed,
        dict(options or {}),
        decks,
        n,
        advanced,
        passive_text,
        Rng(seed_state(seed, 0)),
        blades,
        [],
        [[] for _ in range(n)],
        [[] for _ in range(n)],
        [[] for _ in range(n)],
        [[] for _ in range(n)],
        [[] for _ in range(n)],
        [False] * n,
        queue=[],
        log=[],
        events=[],
    )
    for seat in range(n):
        deck = lists[seat][:]
        s.rng.shuffle(deck)
        strength = cards[blades[seat]].spin
        s.spin[seat] = deck[-strength:][::-1]
        del deck[-strength:]
        s.deck.append(deck)
        # Five draws from the top; the deck keeps at least one card (``_read``
        # asks for spin + 6), so no draw reshuffles and the slice is the same.
        s.hand[seat] = deck[: -HAND_SIZE - 1 : -1]
        del deck[-HAND_SIZE:]
        s.events.append(
            f"Player {seat + 1} stands {cards[blades[seat]].name} up, deals a spin "
            f"pile of {strength} and draws {HAND_SIZE}."
        )
    if first == "cut":
        first = _cut(s)
    elif first is None:
        first = s.rng.below(n)
        s.events.append(f"The seed picks Player {first + 1} to go first.")
    else:
        s.events.append(f"Player {first + 1} goes first.")
    s.first = s.turn_player = first
    if advanced:
        for seat in range(n):
            blade = cards[blades[seat]]
            if blade.note:
                s.events.append(f"{blade.name}: {blade.note}; it is off all game.")
    _begin_turn(s)
    _advance(s)
    return s


def _cut(s: State) -> int:
    """Return the first player by the cut tiebreak (ruling C3)."""
    tied = list(range(s.n))
    for _ in range(CUT_LIMIT):
        shown = {}
        for seat in tied:
            deck = s.deck[seat]
            card = s.cards[deck[s.rng.below(len(deck))]]
            shown[seat] = card.live
            s.events.append(
                f"Cut: Player {seat + 1} shows {card.name} ({card.live} live)."
            )
        best = max(shown.values())
        tied = [seat for seat in tied if shown[seat] == best]
        if len(tied) == 1:
            s.events.append(f"Player {tied[0] + 1} wins the cut and goes first.")
            return tied[0]
    seat = tied[s.rng.below(len(tied))]
    s.events.append(f"The cut stays tied; the seed picks Player {seat + 1}.")
    return seat


# --- zones -------------------------------------------------------------------


def _reshuffle(s: State, p: int) -> None:
    pile = s.discard[p]
    s.rng.shuffle(pile)
    s.deck[p] = pile
    s.discard[p] = []
    s.events.append(f"Player {p + 1} shuffles the discard pile into a new deck.")


def _take_top(s: State, p: int) -> int:
    """Take the top card of a deck (ruling C7); return -1 when there is none."""
    deck = s.deck[p]
    if not deck:
        if not s.discard[p]:
            return -1
        _reshuffle(s, p)
        deck = s.deck[p]
    card = deck.pop()
    if not deck and s.discard[p]:
        _reshuffle(s, p)
    return card


def _draw(s: State, p: int) -> bool:
    card = _take_top(s, p)
    if card < 0:
        return False
    s.hand[p].append(card)
    return True


def _live(s: State) -> list[int]:
    return [p for p in range(s.n) if not s.out[p]]


_ROUNDS = {n: [[(t + i) % n for i in range(n)] for t in range(n)] for n in (2, 3, 4)}


def _order(s: State, start: int) -> list[int]:
    """Return the players still in, in turn order from ``start`` (do not change it)."""
    n, out = s.n, s.out
    if True not in out:
        return _ROUNDS[n][start]
    return [(start + i) % n for i in range(n) if not out[(start + i) % n]]


def _left_of(s: State, p: int) -> int:
    if True not in s.out:
        return (p + 1) % s.n  # everyone is in: the loop below, shortened
    for i in range(1, s.n):
        q = (p + i) % s.n
        if not s.out[q]:
            return q
    return -1


def _opponent_of(s: State, owner: int, chosen: int | None = None) -> int:
    """Return the seat "opponent" text of ``owner`` means now, or -1 for nobody.

    ``chosen`` stands for ``s.chosen_opponent`` when given (``scores_after``
    asks before the play that chooses).
    """
    tp = s.turn_player
    if owner != tp:
        return -1 if s.out[tp] else tp
    if chosen is None:
        chosen = s.chosen_opponent
    if chosen >= 0:
        return -1 if s.out[chosen] else chosen
    return _left_of(s, owner)


def _targets(s: State, owner: int, target, chosen: int | None = None) -> list[int]:
    """Return the seats a text step of ``owner`` aims at (``chosen``: ``_opponent_of``)."""
    out = s.out
    if isinstance(target, int):
        return [] if out[target] else [target]
    if target == "self":
        return [] if out[owner] else [owner]
    if target == "opponent":
        q = _opponent_of(s, owner, chosen)
        return [] if q < 0 else [q]
    if target == "each_opponent":
        return [q for q in _order(s, owner) if q != owner]
    if target == "all":
        return _order(s, s.turn_player)
    if target == "attacker":
        return [] if out[s.turn_player] else [s.turn_player]
    q = _opponent_of(s, s.turn_player, chosen)  # "defender"
    return [] if q < 0 else [q]


def _check_outs(s: State) -> bool:
    """Put out every player whose spin pile is empty (ruling C8); say if any."""
    if all(s.spin):
        return False  # every pile holds a card: nobody to put out (the usual case)
    newly = [p for p in range(s.n) if not s.out[p] and not s.spin[p]]
    if not newly:
        return False
    for p in newly:
        s.out[p] = True
        s.events.append(f"Player {p + 1}'s spin pile is empty: Player {p + 1} is out.")
    live = _live(s)
    if len(live) == 1:
        _finish(s, live[0], f"Player {live[0] + 1} is the last player left and wins.")
    elif not live:
        _finish(s, None, "Every remaining player went out at once: a draw (C8).")
    return True


def _finish(s: State, winner: int | None, reason: str) -> None:
    s.phase = "over"
    s.winner = winner
    s.reason = reason
    s.queue.clear()
    s.choice = None
    s.events.append(reason)


# --- effects -----------------------------------------------------------------


def _fire(s: State, owner: int, uid: int, steps: tuple) -> None:
    """Queue a card's steps whose turn limit is met (ruling C19)."""
    is_owners_turn = s.turn_player == owner
    for op, amount, target, turn, random_pick in steps:
        if turn == "your" and not is_owners_turn:
            continue
        if turn == "opponent" and is_owners_turn:
            continue
        s.queue.append((owner, uid, op, amount, target, random_pick))


def _run(s: State, item: tuple) -> None:
    owner, uid, op, amount, target, random_pick = item
    if s.out[owner]:
        return  # the text of a player who is out no longer resolves
    targets = _targets(s, owner, target)
    name = s.cards[uid].name
    if op in ("discard", "remove") and len(targets) > 1:
        # Each player's choice is asked in turn.
        s.queue[0:0] = [(owner, uid, op, amount, t, random_pick) for t in targets]
        return
    events = s.events
    for p in targets:
        who = _WHO[p]
        if op == "draw":
            drawn = 0
            for _ in range(amount):
                drawn += _draw(s, p)
            events.append(f"{name}: {who} draws {drawn}.")
        elif op == "gain_spin":
            strength = s.cards[s.blade[p]].spin
            gained = 0
            for _ in range(amount):
                if len(s.spin[p]) >= strength:
                    break
                card = _take_top(s, p)
                if card < 0:
                    break
                s.spin[p].insert(0, card)
                gained += 1
            events.append(
                f"{name}: {who} gains {gained} spin"
                + (
                    f" ({amount - gained} lost to the cap, C14)."
                    if gained < amount
                    else "."
                )
            )
        elif op == "lose_spin":
            spin, discard = s.spin[p], s.discard[p]
            lost = min(amount, len(spin))
            for _ in range(lost):
                discard.append(spin.pop())
            events.append(f"{name}: {who} loses {lost} spin.")
        elif op == "discard":
            hand = s.hand[p]
            if len(hand) <= amount:
                s.discard[p].extend(hand)
                hand.clear()
                events.append(f"{name}: {who} discards the whole hand.")
            elif random_pick:
                chooser = owner if owner != p else _opponent_of(s, p)
                if chooser < 0:
                    chooser = _left_of(s, p)
                hidden = hand[:]
                s.rng.shuffle(hidden)
                s.choice = ("pick", chooser, p, amount, tuple(hidden), uid)
                events.append(
                    f"{name}: {who}'s hand is shuffled face down; Player "
                    f"{chooser + 1} picks {amount} to discard (C15)."
                )
            else:
                s.choice = ("discard", p, p, amount, (), uid)
                events.append(f"{name}: {who} chooses {amount} to discard.")
        elif op == "remove":
            characters = s.characters[p]
            if not characters:
                events.append(f"{name}: {who} has no Character in play to remove.")
            elif len(characters) <= amount:
                s.discard[p].extend(characters)
                characters.clear()
                events.append(f"{name}: every Character of {who} is removed.")
            else:
                s.choice = ("remove", owner, p, amount, (), uid)
                events.append(
                    f"{name}: Player {owner + 1} chooses a Character of {who} to remove."
                )


# --- turn flow ---------------------------------------------------------------


def _begin_turn(s: State) -> None:
    if s.turn > TURN_CAP:
        _finish(s, None, f"The {TURN_CAP}-turn cap is reached (E3): a draw.")
        return
    s.chosen_opponent = -1
    s.events.append(_TURN_SAID[s.turn][s.turn_player])
    if s.advanced and s.passive_text:
        cards = s.cards
        for p in _order(s, s.turn_player):
            blade = cards[s.blade[p]]
            if blade.passive:
                _fire(s, p, blade.uid, blade.passive)
            for uid in s.characters[p]:
                if cards[uid].passive:
                    _fire(s, p, uid, cards[uid].passive)
    s.then = "main"


def _advance(s: State) -> None:
    """Run automatic steps until a player must decide or the game is over."""
    while s.phase != "over":
        if s.choice is not None:
            s.phase = "choice"
            return
        if s.queue:
            _run(s, s.queue.pop(0))
            if _check_outs(s) and s.phase != "over" and s.battle == 1:
                s.queue.clear()
                s.events.append(
                    "A player is out mid-battle: the battle ends at once, "
                    "no hits counted (C17)."
                )
                s.then = "sweep"
            continue
        then = s.then
        if then == "stop":
            s.phase = "stop"
            return
        # sweep, refill, trim and end follow one another with nothing queued
        # in between, so they run straight through.
        if then == "main":
            if not s.out[s.turn_player]:
                s.phase = "main"
                return
            # A turn whose player went out at its start still ends as every
            # turn does: piles swept, every hand refilled and trimmed to five.
            then = "sweep"
        if then == "sweep":
            pile, discard = s.pile, s.discard
            for p in range(s.n):
                if pile[p]:
                    discard[p].extend(pile[p])
                    pile[p] = []
            s.battle = 0
            s.attacker = s.defender = s.responder = -1
            then = "refill"
        crowded = True  # a hand may hold more than five
        if then == "refill":
            crowded = _refill(s)
            then = "trim"
        if then == "trim" and crowded:
            hand = s.hand
            for p in _order(s, s.turn_player):
                extra = len(hand[p]) - HAND_SIZE
                if extra > 0:
                    s.choice = ("refill", p, p, extra, (), -1)
                    s.events.append(
                        f"Player {p + 1} discards {extra} down to five (C12)."
                    )
                    break
            if s.choice is not None:
                s.then = "trim"
                continue
        s.then = "end"
        s.turn += 1
        s.turn_player = _left_of(s, s.turn_player)
        _begin_turn(s)


def _refill(s: State) -> bool:
    """Draw everyone up to five, one card at a time in turn order (ruling C7).

    Return False when no hand of a player still in holds more than five,
    so the trim (ruling C12) has nothing to look at; True when one may.
    """
    order = _order(s, s.turn_player)
    hand, decks = s.hand, s.deck
    # Drawing whole shortfalls at once is the same when no deck runs out, and
    # so no reshuffle (which takes from the shared generator) comes between.
    for p in order:
        need = HAND_SIZE - len(hand[p])
        if need > 0 and len(decks[p]) <= need:
            break
    else:
        crowded = False
        for p in order:
            need = HAND_SIZE - len(hand[p])
            if need > 0:
                deck = decks[p]
                hand[p] += deck[: -need - 1 : -1]
                del deck[-need:]
                s.events.append(_DRAWS_SAID[p][need])
            elif need < 0:
                crowded = True
        return crowded
    drawn = [0] * s.n
    while True:
        any_drawn = False
        for p in order:
            if len(hand[p]) < HAND_SIZE and _draw(s, p):
                drawn[p] += 1
                any_drawn = True
        if not any_drawn:
            break
    for p in order:
        if drawn[p]:
            s.events.append(f"Player {p + 1} draws {drawn[p]}.")
    return True  # the trim looks at each hand


# --- the interface -----------------------------------------------------------


def to_act(state: State) -> int | None:
    """Return the seat that must act now, or None when the game is over."""
    phase = state.phase
    if phase == "main":
        return state.turn_player
    if phase == "stop":
        return state.responder
    if phase == "choice":
        return state.choice[1]
    return None


def stopper(colour: str) -> str | None:
    """Return the colour that stops ``colour``: the next one round the bar (C9)."""
    index = _COLOUR_INDEX.get(colour)
    return None if index is None else COLOURS[(index + 1) % 4]


def _needed_colour(s: State) -> int:
    p = s.responder
    other = s.attacker if p == s.defender else s.defender
    return (s.cards[s.pile[other][-1]].colour + 1) % 4


def legal_actions(state: State) -> list[Action]:
    """Return every legal action of the seat to act, in a fixed order."""
    actions = _legal(state)
    # apply() checks against this while the log has not moved on.
    state.cached = (len(state.log), tuple(actions))
    return actions


def _legal(s: State) -> list[Action]:
    phase = s.phase
    cards = s.cards
    if phase == "main":
        tp = s.turn_player
        actions = []
        if True not in s.out:
            # Everyone is in: each card's actions come ready made.
            if s.advanced:
                characters = s.characters[tp]
                titles = {cards[uid].title for uid in characters} if characters else ()
                for uid in s.hand[tp]:
                    card = cards[uid]
                    if card.kind == "action":
                        actions += card.plays_all[tp]
                    elif card.kind == "event" or card.title not in titles:
                        actions += card.tests_all[tp]
            elif s.n == 2:
                q = 1 - tp
                actions = [cards[uid].plays[q] for uid in s.hand[tp]]
            else:
                for uid in s.hand[tp]:
                    actions += cards[uid].plays_all[tp]
            actions.append(PASS)
            return actions
        opponents = [q for q in _order(s, tp) if q != tp]
        if s.advanced:
            titles = {cards[uid].title for uid in s.characters[tp]}
            for uid in s.hand[tp]:
                card = cards[uid]
                if card.kind == "action":
                    actions += [card.plays[q] for q in opponents]
                elif card.kind == "event" or card.title not in titles:
                    actions += [card.tests[q] for q in opponents]
        elif len(opponents) == 1:
            q = opponents[0]
            actions = [cards[uid].plays[q] for uid in s.hand[tp]]
        else:
            for uid in s.hand[tp]:
                plays = cards[uid].plays
                actions += [plays[q] for q in opponents]
        actions.append(PASS)
        return actions
    if phase == "stop":
        p = s.responder
        other = s.attacker if p == s.defender else s.defender
        need = (cards[s.pile[other][-1]].colour + 1) % 4  # _needed_colour
        actions = [cards[u].stop for u in s.hand[p] if cards[u].colour == need]
        if s.advanced and s.characters[p]:
            actions += [
                cards[u].stop for u in s.characters[p] if cards[u].colour == need
            ]
        actions.append(NOSTOP)
        return actions
    if phase == "choice":
        kind, _, subject, _, hidden, _ = s.choice
        if kind == "pick":
            return [_act("pick", i) for i in range(1, len(hidden) + 1)]
        if kind == "remove":
            return [_act("remove", uid) for uid in s.characters[subject]]
        return [cards[uid].discard for uid in s.hand[subject]]
    return []


def _refusal(s: State, action: Action) -> EngineError:
    """Return the error that explains why ``action`` is refused."""
    seat = to_act(s)
    kind, phase = action.kind, s.phase
    card = s.cards[action.card] if 0 <= action.card < len(s.cards) else None
    if card is not None and kind in ("play", "test", "stop", "discard", "remove"):
        owner = card.owner
        held = action.card in s.hand[owner] or action.card in s.characters[owner]
        if owner != seat and held and kind != "remove":
            return EngineError(
                "not_your_turn",
                f"It is Player {seat + 1}'s move, not Player {owner + 1}'s.",
            )
        if phase == "stop" and kind == "stop" and owner == seat and held:
            need = _needed_colour(s)
            return EngineError(
                "illegal_action",
                f"Stop needs a {COLOURS[need]} card: {COLOURS[(need - 1) % 4]} "
                f"is stopped by {COLOURS[need]}.",
            )
        if phase == "main" and action.card in s.hand[seat]:
            target = action.target
            if kind == "play" and s.advanced and card.kind != "action":
                return EngineError(
                    "illegal_action",
                    f"Only an Action opens a battle; a {card.kind} is tested instead.",
                )
            if kind == "test" and not s.advanced:
                return EngineError(
                    "illegal_action", "Tests belong to the advanced game."
                )
            if kind == "test" and card.kind == "action":
                return EngineError(
                    "illegal_action", "An Action opens a battle; it is not tested."
                )
            if kind == "test" and card.kind == "character":
                if card.title in {s.cards[uid].title for uid in s.characters[seat]}:
                    return EngineError(
                        "illegal_action",
                        f"You already have a {card.title} in play; one per title.",
                    )
            if not (0 <= target < s.n) or target == seat or s.out[target]:
                return EngineError(
                    "illegal_action",
                    f"Player {target + 1} is not an opponent still in the game.",
                )
    phase_words = {
        "main": f"Player {seat + 1} plays a card or passes",
        "stop": f"Player {seat + 1} stops or lets the battle end",
        "choice": f"Player {seat + 1} makes a choice for card text or the refill",
    }
    return EngineError(
        "illegal_action",
        f"That move is not allowed now: {action.text}. {phase_words[phase]}.",
    )


def apply(state: State, action: Action, *, inplace: bool = False) -> State:
    """Return the state after ``action``; raise EngineError if it is not legal."""
    if state.phase == "over":
        raise EngineError("game_over", "The game is over.")
    cached = state.cached  # _legal_now, written out: apply runs at every move
    if cached is not None and cached[0] == len(state.log):
        legal = cached[1]
    else:
        legal = _legal(state)
    if action not in legal:
        raise _refusal(state, action)
    s = state if inplace else copy_state(state)
    s.log.append(action.text)
    _move(s, action)
    return s


def _legal_now(state: State):
    """Return the legal actions, from ``legal_actions``' cache while the log stands."""
    cached = state.cached
    if cached is not None and cached[0] == len(state.log):
        return cached[1]
    return _legal(state)


def _move(s: State, action: Action) -> None:
    """Make a legal ``action`` on ``s`` and run on to the next decision (apply's body)."""
    kind = action.kind
    if kind == "stop":
        _stop(s, action.card)
    elif kind == "nostop":
        _no_stop(s)
    elif kind == "play":
        _play(s, action.card, action.target)
    elif kind == "pass":
        tp = s.turn_player
        s.discard[tp].extend(s.hand[tp])
        s.hand[tp].clear()
        s.events.append(_PASS_SAID[tp])
        s.then = "refill"
    elif kind == "test":
        _test(s, action.card, action.target)
    else:
        _choose(s, action)
    _advance(s)


def _play(s: State, uid: int, target: int) -> None:
    tp = s.turn_player
    card = s.cards[uid]
    s.hand[tp].remove(uid)
    s.pile[tp].append(uid)
    s.attacker, s.defender, s.responder = tp, target, target
    s.chosen_opponent = target
    s.battle = 1
    s.events.append(card.said_play[target])
    if s.advanced:
        if card.play:
            _fire(s, tp, uid, card.play)
        elif card.note and not card.win:
            s.events.append(f"{card.name}: {card.note}; it plays as in the basic game.")
    s.then = "stop"


def _stop(s: State, uid: int) -> None:
    p = s.responder
    card = s.cards[uid]
    if uid in s.hand[p]:
        s.hand[p].remove(uid)
        s.events.append(card.said_stop[0])
    else:
        s.characters[p].remove(uid)
        s.events.append(card.said_stop[1])
    s.pile[p].append(uid)
    if s.advanced and card.kind == "action":
        if card.play:
            _fire(s, p, uid, card.play)
        elif card.note and not card.win:
            s.events.append(f"{card.name}: {card.note}; it plays as in the basic game.")
    s.responder = s.attacker if p == s.defender else s.defender
    s.then = "stop"


def hits(attacking: _Card, defending: _Card) -> int:
    """Return the hits of the turn player's card against the other (ruling C4)."""
    return (attacking.on & defending.off).bit_count()


def _no_stop(s: State) -> None:
    loser = s.responder
    attacker, defender = s.attacker, s.defender
    winner = attacker if loser == defender else defender
    s.battle = 2
    s.events.append(_NOSTOP_SAID[loser][winner])
    cards = s.cards
    if winner == attacker:
        top = cards[s.pile[attacker][-1]]
        if s.pile[defender]:
            against = cards[s.pile[defender][-1]]
        else:
            against = cards[s.blade[defender]]  # ruling C5
        count = hits(top, against)
        spin = s.spin[defender]
        paid = min(count, len(spin))
        for _ in range(paid):
            s.discard[defender].append(spin.pop())
        lost = (
            f"; {count - paid} beyond the spin pile are lost (C6)"
            if count > paid
            else ""
        )
        why = (
            ": no notch where a live or strike piece of the attacking card meets "
            "a live or empty piece of the other (C4)"
            if count == 0
            else ""
        )
        s.events.append(
            f"{top.name} against {against.name}: {count} hits{why}; Player "
            f"{defender + 1} loses {paid} spin{lost}."
        )
        _check_outs(s)
        if s.phase == "over":
            return
    if s.advanced:
        top = cards[s.pile[winner][-1]]
        if top.kind == "action" and top.win:
            _fire(s, winner, top.uid, top.win)
        elif top.kind == "action" and top.note and not top.play:
            s.events.append(f"{top.name}: {top.note}; it plays as in the basic game.")
    s.then = "sweep"


def _test(s: State, uid: int, target: int) -> None:
    tp = s.turn_player
    card = s.cards[uid]
    s.hand[tp].remove(uid)
    s.chosen_opponent = target
    test_uid = _take_top(s, target)
    if test_uid < 0:
        passed = False
        s.events.append(
            f"Player {tp + 1} tests {card.name}; Player {target + 1} has no card to "
            "turn over, so the test fails."
        )
    else:
        test_card = s.cards[test_uid]
        count = hits(card, test_card)  # ruling C11
        passed = count > 0
        s.discard[target].append(test_uid)  # ruling C16
        s.events.append(
            f"Player {tp + 1} tests {card.name} against {test_card.name} from Player "
            f"{target + 1}'s deck: {count} matched, "
            + ("it passes." if passed else "it fails.")
        )
    if not passed:
        s.discard[tp].append(uid)
    elif card.kind == "character":
        s.characters[tp].append(uid)
        if card.play:
            _fire(s, tp, uid, card.play)
        if card.note:
            s.events.append(f"{card.name}: {card.note}; it stays in play, text off.")
    else:
        s.pile[tp].append(uid)  # on the table while it fires, then discarded
        if card.play:
            _fire(s, tp, uid, card.play)
        elif card.note:
            s.events.append(f"{card.name}: {card.note}; nothing fires.")
    s.then = "sweep"


def _choose(s: State, action: Action) -> None:
    kind, chooser, subject, remaining, hidden, uid = s.choice
    if action.kind == "pick":
        card = hidden[action.card - 1]
        hidden = hidden[: action.card - 1] + hidden[action.card :]
        s.hand[subject].remove(card)
        s.discard[subject].append(card)
        s.events.append(f"Player {chooser + 1} picks {s.cards[card].name} to discard.")
    elif action.kind == "remove":
        s.characters[subject].remove(action.card)
        s.discard[subject].append(action.card)
        s.events.append(f"{s.cards[action.card].name} is removed from play.")
    else:
        s.hand[subject].remove(action.card)
        s.discard[subject].append(action.card)
        s.events.append(f"Player {subject + 1} discards {s.cards[action.card].name}.")
    remaining -= 1
    if remaining and (hidden or kind != "pick"):
        pool = s.characters[subject] if kind == "remove" else s.hand[subject]
        if pool:
            s.choice = (kind, chooser, subject, remaining, hidden, uid)
            return
    s.choice = None


def describe(state: State, action: Action) -> str:
    """Return the action in plain words."""
    cards = state.cards
    card = cards[action.card] if 0 <= action.card < len(cards) else None
    kind = action.kind
    if kind == "pass":
        return "Pass: discard the whole hand and draw five new cards."
    if kind == "nostop":
        return "Don't stop: let the battle end."
    if kind == "pick":
        return f"Pick face-down card {action.card} to be discarded."
    name = card.name if card else f"card {action.card}"
    if kind == "play":
        return f"Play {name} against Player {action.target + 1}."
    if kind == "test":
        return f"Test {name} against the top card of Player {action.target + 1}'s deck."
    if kind == "stop":
        return f"Stop with {name}."
    if kind == "remove":
        return f"Remove {name} from play."
    return f"Discard {name}."


def is_over(state: State) -> bool:
    """Return whether the game has ended."""
    return state.phase == "over"


def winner(state: State) -> int | None:
    """Return the winning seat, or None for a draw or a game still going."""
    return state.winner


def player_count(state: State) -> int:
    """Return the number of seats."""
    return state.n


def length(state: State) -> int:
    """Return the number of turns played (the current one included)."""
    return min(state.turn, TURN_CAP)


def chance_outcomes(state: State) -> list:
    """Return no chance steps: every random event comes from the seed."""
    return []


def _firing(steps: tuple, own_turn: bool) -> tuple:
    """Return the steps that pass their turn limit (ruling C19), as ``_fire`` queues them.

    Each card keeps them for both turns (``play_firing``, ``win_firing``).
    """
    return tuple(
        step
        for step in steps
        if not (step[3] == "your" and not own_turn)
        and not (step[3] == "opponent" and own_turn)
    )


def to_json(state: State) -> dict:
    """Return the whole state as JSON-ready data."""
    return state_to_json(GAME, VERSION, state)


def _restore(values: dict) -> State:
    advanced, _ = _options(values["options"])
    cards, blades, _, passive_text = _build(values["decks"])
    return State(
        cards=cards,
        n=len(blades),
        advanced=advanced,
        passive_text=passive_text,
        blade=blades,
        **values,
    )


def from_json(data: dict) -> State:
    """Rebuild a state from ``to_json`` data."""
    return state_from_json(data, GAME, VERSION, State, _restore)


# --- best-of-three match (ruling C13) -----------------------------------------


@dataclass(frozen=True)
class Match:
    """A best-of-three match between two players: who went first, who won."""

    firsts: tuple = ()
    winners: tuple = ()  # a seat, or None for a drawn game


def match_record(match: Match, first: int, winner: int | None) -> Match:
    """Return the match with one more finished game."""
    return Match(match.firsts + (first,), match.winners + (winner,))


def match_winner(match: Match) -> int | None:
    """Return the seat that has taken two games, or None while nobody has."""
    for seat in (0, 1):
        if match.winners.count(seat) >= 2:
            return seat
    return None


def next_game_first(match: Match) -> int | str:
    """Return who goes first next: the last game's loser, or "cut" for game one."""
    if not match.winners:
        return "cut"
    last = match.winners[-1]
    if last is None:
        return 1 - match.firsts[-1]
    return 1 - last


def first_player(state: State) -> int:
    """Return the seat that went first in ``state``'s game (a match records it)."""
    return state.first


# The valuation and the view read the rules above: imported last, they find
# every name they import from this module already defined.
from .valuation import score, scores_after  # noqa: E402, F401
from .view import action_cards, determinize, view, why_not  # noqa: E402, F401
