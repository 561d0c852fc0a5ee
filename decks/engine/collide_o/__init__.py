"""Play Collide-O! (Playroom Entertainment, 2004): match colours along a line.

What it models. One shared pack of three-section cards; each section is a
solid colour, a two-colour stripe or the five-colour wild stripe (letters
B Y R G K). The first card after the seeded shuffle is the centre card, turned
up at once; the rest are dealt equally, leftovers set aside face down. Every
player draws five from their own stack. A card played on either end of the
line covers exactly two sections of the end card (ruling O1): its inner end
over the end card's middle, its middle over the end card's outer end, its
own other end becoming the new outer end. Sections match when they share a
colour, a stripe offering both colours and the wild stripe any (ruling O2).
A card may be turned end to end, so every (card, end, orientation) that fits
is its own action. While the centre card is alone with one end covered, a
play at its other end matches the centre card's outer section and, in the
middle position, the section of the card now lying over the centre card's
middle (ruling O7): the engine keeps, for each position of the line, the
section of the newest card lying there.

Real-time play is modelled as rounds (DESIGN.md section 3, ruling O3): in
each round every player, in turn order starting one seat later than the
round before (round 1 starts with Player 1), may play one card or pass.
``length`` counts rounds. Hands refill to the limit after each play while the
stack lasts (five; four after a penalty). A seat whose only legal action is
to pass is passed for automatically: the event log says so and the action
log holds only real choices.

Nobody can play (ruling O4): checked after every action, counting barred
challengers as unable. One card is removed from each end of the line, the
steps attributed to the players in rotation (Player 1 first). With two cards
in the line the last played goes and the other stays. With one card it is
replaced from the top of the set-aside pile and goes under it (ruling O8);
with no set-aside cards the removed cards are shuffled to form the pile. When
every set-aside card has been tried with no play possible, or there is
nothing at all to replace the lone card with, the game is a tie.

Winning (ruling O5): at the end of each round, every player whose stack is
gone and who holds exactly one card wins; two or more tie. ``winner`` gives
the single winner or None (a tie or a draw); ``winners`` lists the tied seats
(empty for a draw). TURN_CAP is 500 rounds (ruling E3): reaching it ends the
game as a draw and the log says why.

Challenges (ruling O6, option ``"challenges"``, off by default). With it on,
playing a card that does not fit is a legal action for every seat, so
``legal_actions`` lists every (card, end, orientation) of the hand, and any
player but the one who played it may ``challenge`` the last card played
while it is still an end card and no other card has been played. A wrong
play goes back to the bottom of its player's stack and that player's hand
limit becomes four for the rest of the game (a second penalty leaves it at
four); the card drawn after the wrong play goes back on top of the stack so
the hand obeys the limit at once, and a hand below the limit refills (with
an otherwise empty stack, the wrong card comes straight back). A wrong
challenger may not play (nor counts as able to play for O4) until a card has
been played at each end; they may still challenge. The misplay rate (option
``"misplay_rate"``, default 0.1) is applied by ``score``: the greedy bot
misplays in that share of its decisions, drawn from the seed; the random bot
picks uniformly among all legal actions, misplays included, so it misplays
far more often.

Choices made where the rules are silent: a lone card reached by removals is
treated like the first card (replaced when nobody can play on it); when a
card open to challenge would be cleared away by O4, every other player
first gets one action to challenge it; a game ended mid-round by the O8
deadlock still awards O5 winners already holding one card; a misplay taken
back after a challenge still counts as a card played at its end for lifting
a challenger's bar; with challenges on, a win whose last card is still open
to challenge at the end of its round waits until every other player has had
one action to challenge it (or another card is played), then stands if the
player still has no stack and one card; meanwhile that player may not play.

Playing again after a tie (the site's reading of the text's note on ties:
"The players will have to play another round to determine who is truly the
best!"). In the "play again after a tie" match, a game that ends with no
single winner (a tie under O5 or O8, or a draw at the cap) is followed by
another game of the whole table, same seats and pack, a fresh shuffle; the
first game with a winner ends the match. There is no first player to pass
on: everyone plays at once. Helpers ``Match``, ``match_record``,
``match_winner``, ``next_game_first`` (the same interface as Collision's).

Left out: the real-time race itself (who is quicker) and hands laid face up.

The rules are this module; ``valuation`` (the bots' scores) reads them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cards.games import GAMES

from ..core import (
    DeckReads,
    EngineError,
    Rng,
    View,
    checked_options,
    copy_state,
    derived,
    envelope,
    marked,
    redeal,
    seed_state,
    state_from_json,
    state_to_json,
)

GAME = GAMES["collide-o"]
SLUG = GAME.slug
NAME = GAME.name
VERSION = "1"
MIN_PLAYERS = GAME.min_players
MAX_PLAYERS = GAME.max_players
SEAT_COUNTS = GAME.seat_counts
TURN_CAP = 500

HAND_LIMIT = 5
PENALTY_LIMIT = 4
COLOURS = "BYRGK"
COLOUR_NAMES = {"B": "blue", "Y": "yellow", "R": "red", "G": "green", "K": "black"}
WILD = (1 << len(COLOURS)) - 1
SECTION_FIELDS = ("section_1", "section_2", "section_3")
ENDS = ("left", "right")
LEFT, RIGHT = 0, 1
_WHO = tuple(f"Player {seat + 1}" for seat in range(MAX_PLAYERS))
_PASSES = tuple(f"{who} passes." for who in _WHO)
_CANNOT = tuple(f"{who} cannot play and passes." for who in _WHO)
_TURNED = (".", ", turned end to end.")


# --- sections ----------------------------------------------------------------


def section_mask(section: str) -> int:
    """Return the colour bits of a section such as "B", "BY" or "BYRGK"."""
    mask = 0
    for letter in section:
        index = COLOURS.find(letter)
        if index < 0:
            raise ValueError(f"{letter!r} is not a colour letter (B Y R G K).")
        mask |= 1 << index
    return mask


def _section_words(mask: int) -> str:
    if mask == WILD:
        return "wild"
    return "-".join(COLOUR_NAMES[c] for i, c in enumerate(COLOURS) if mask >> i & 1)


def _section_letters(mask: int) -> str:
    return "".join(c for i, c in enumerate(COLOURS) if mask >> i & 1)


def card_problems(card: dict) -> list[str]:
    """Return why a card cannot be played: unknown or malformed sections."""
    problems = []
    for name in SECTION_FIELDS:
        value = card.get(name)
        if value is None:
            problems.append(f"{name.replace('_', ' ')} is unknown")
        elif (
            not isinstance(value, str)
            or len(value) not in (1, 2, 5)
            or len(set(value)) != len(value)
            or any(letter not in COLOURS for letter in value)
        ):
            problems.append(
                f"{name.replace('_', ' ')} {value!r} is not one colour, a two-colour"
                " stripe or the five-colour stripe (letters B Y R G K)"
            )
    return problems


# --- actions ----------------------------------------------------------------


@dataclass(frozen=True)
class Play:
    """Play pack card ``card`` on an end, as printed or turned end to end."""

    card: int
    end: int
    turned: bool = False
    text: str = field(default="", compare=False, repr=False)

    def __post_init__(self):
        words = f"play {self.card} {ENDS[self.end]}" + (
            " turned" if self.turned else ""
        )
        object.__setattr__(self, "text", words)


@dataclass(frozen=True)
class Pass:
    """Pass this round."""

    text: str = field(default="pass", compare=False, repr=False)


@dataclass(frozen=True)
class Challenge:
    """Challenge the last card played (ruling O6)."""

    text: str = field(default="challenge", compare=False, repr=False)


PASS = Pass()
CHALLENGE = Challenge()
_PLAYS: list[tuple[Play, Play, Play, Play]] = []


def _plays_of(card: int) -> tuple[Play, Play, Play, Play]:
    """Return a card's four plays: left, left turned, right, right turned."""
    while len(_PLAYS) <= card:
        index = len(_PLAYS)
        _PLAYS.append(
            tuple(
                Play(index, end, turned) for end in (0, 1) for turned in (False, True)
            )
        )
    return _PLAYS[card]


def parse_action(text: str):
    """Return the action written as ``text`` (its log form)."""
    words = text.split() if isinstance(text, str) else []
    if words == ["pass"]:
        return PASS
    if words == ["challenge"]:
        return CHALLENGE
    if (
        len(words) in (3, 4)
        and words[0] == "play"
        and words[1].isascii()
        and words[1].isdigit()
        and words[2] in ENDS
        and words[3:] in ([], ["turned"])
    ):
        return Play(int(words[1]), ENDS.index(words[2]), len(words) == 4)
    raise EngineError("bad_action", f"Not a Collide-O! action: {text!r}.")


# --- state ------------------------------------------------------------------


@dataclass
class State:
    """A Collide-O! game in progress; plain data, JSON via to_json/from_json."""

    seed: int
    options: dict
    decks: list
    rng: int
    # (card, turned, stamp) left to right; a higher stamp lies on top
    line: list = marked("tuples")
    hands: list = marked("rows")  # per seat, in draw order
    stacks: list = marked("rows")  # per seat, bottom first: draws come off the end
    set_aside: list = marked("list")  # bottom first: replacements come off the end
    removed: list = marked("list")
    limits: list = marked("list")
    # per seat: bit 1 awaits a play on the left, bit 2 on the right
    barred: list = marked("list")
    rounds: int  # rounds completed
    step: int  # seats that have acted in the current round
    start: int  # first seat of the current round
    seat: int  # seat to act
    stamp: int
    clears: int  # O4 steps taken so far, for the rotation
    tries: int  # lone-card replacements since the last play (ruling O8)
    open_card: int  # the card open to challenge, or -1
    open_seat: int
    open_end: int
    open_ok: bool
    open_seen: int  # seats that have acted since it was played, as bits
    dirty: bool  # the line, a hand or a bar changed since the last O4 check
    over: bool
    winners: list = marked("list")
    # O5 winners waiting for their last card's challenge window
    pending: list = marked("list")
    reason: str
    log: list = marked("list")
    # What happened, in words: not saved, a replay of the log reproduces it.
    events: list = marked("list", factory=list, derived=True)
    # Derived from the options and the pack on load:
    players: int = derived(0)
    challenges: bool = derived(False)
    read: list = derived()
    names: list = derived()
    plays_said: list = derived()
    play_events: tuple = derived()  # per seat, the whole event of each play
    unions: dict = derived()  # per pack: see _either
    widths: list = derived()  # per card: the colours its sections offer, summed
    ends: tuple = derived((0, 0, 0, 0))
    fit: dict = derived()  # per pack
    left_fit: tuple = derived()
    right_fit: tuple = derived()
    choices: list = derived()  # of ``seat``
    # No challenges, so never a bar, a waiting win or a card open to challenge:
    # ``apply`` may take its short way (``_apply_plain``).
    plain: bool = derived(False)


def _build_tables(pack: list) -> tuple[list, list, dict, list, list, tuple, dict]:
    """Return the section masks (as printed, turned) and names of a valid pack.

    The third table, filled as games need it, holds ``_fit_table`` results;
    the fourth the event words of every play; the fifth each card's width
    (``_prospects``); the sixth, per seat, the whole event of every play;
    the seventh, filled as games need it, ``_either`` results.
    """
    read, names = [], []
    for index, card in enumerate(pack):
        masks = tuple(section_mask(card[name]) for name in SECTION_FIELDS)
        read.append((masks, masks[::-1]))
        label = card.get("name") or f"card {index}"
        words = " | ".join(_section_words(m) for m in masks)
        names.append(f"{label} ({words})")
    # What follows "Player N" in the event of each play (end * 2 + turned).
    plays_said = [
        tuple(
            f" plays {name} on the {end} end{turned}"
            for end in ENDS
            for turned in _TURNED
        )
        for name in names
    ]
    widths = [sum(m.bit_count() for m in printed) for printed, _ in read]
    play_events = tuple(
        [tuple(who + said for said in card) for card in plays_said] for who in _WHO
    )
    return read, names, {}, plays_said, widths, play_events, {}


def _derive(
    st: State, tables: tuple[list, list, dict, list, list, tuple, dict]
) -> None:
    """Fill the fields computed from the pack and options."""
    st.players = st.options["players"]
    st.challenges = st.options["challenges"]
    (st.read, st.names, st.fit, st.plays_said) = tables[:4]
    st.widths, st.play_events, st.unions = tables[4:]
    st.plain = not (st.challenges or any(st.barred) or st.pending or st.open_card >= 0)
    _plays_of(len(st.read) - 1)
    _refresh_ends(st)


def _refresh_ends(st: State) -> None:
    """Store the (middle, outer) sections showing at each end (rulings O1, O7)."""
    ends = st.ends = _line_ends(st.line, st.read)
    st.left_fit, st.right_fit = _end_fits(st, ends)


def _end_fits(st: State, ends: tuple) -> tuple[tuple, tuple]:
    """Return the ``_fit_table`` of each end showing ``ends`` (as ``st.ends``)."""
    fit = st.fit
    key = ends[0] << 5 | ends[1]
    left = fit.get(key) or _fit_table(st, key, LEFT)
    key = 1024 | ends[2] << 5 | ends[3]
    return left, fit.get(key) or _fit_table(st, key, RIGHT)


def _line_ends(line: list, read: list) -> tuple[int, int, int, int]:
    """Return the (middle, outer) sections showing at each end of ``line`` (O1, O7)."""
    c0, t0, p0 = line[0]
    first = read[c0][t0]
    if len(line) == 1:
        return (first[1], first[0], first[1], first[2])
    c1, t1, p1 = line[1]
    left_middle = first[1] if p0 > p1 else read[c1][t1][0]
    cz, tz, pz = line[-1]
    last = read[cz][tz]
    cy, ty, py = line[-2]
    right_middle = last[1] if pz > py else read[cy][ty][2]
    return (left_middle, first[0], right_middle, last[2])


def _fit_table(st: State, key: int, end: int) -> tuple[dict, frozenset, int]:
    """Return, for an end showing these sections, each fitting card's plays.

    ``key`` packs the end's middle and outer sections (and which end); it is
    the table's third part. The plays per card are in ``_choices`` order; the
    set holds the cards that fit at all. Tables
    are kept per pack: play after play asks about the same few ends.
    """
    middle, outer = key >> 5 & 31, key & 31
    plays, found = {}, []
    for card, (printed, _) in enumerate(st.read):
        a, b, c = printed
        if not b & outer:
            continue
        # Left: the card's right end meets the middle (turned: its left end).
        inner = (c, a) if end == LEFT else (a, c)
        fits = tuple(
            _PLAYS[card][2 * end + turned]
            for turned in (0, 1)
            if inner[turned] & middle
        )
        if fits:
            plays[card] = fits
            found.append(card)
    table = st.fit[key] = (plays, frozenset(found), key)
    return table


def _fits(st: State, card: int, end: int, turned: int) -> bool:
    reading = st.read[card][turned]
    left_middle, left_outer, right_middle, right_outer = st.ends
    if end == RIGHT:
        return bool(reading[0] & right_middle and reading[1] & right_outer)
    return bool(reading[2] & left_middle and reading[1] & left_outer)


def _refill(st: State, seat: int) -> None:
    """Bring a hand to its limit from the stack while it lasts (ruling O3)."""
    hand, stack, limit = st.hands[seat], st.stacks[seat], st.limits[seat]
    while len(hand) > limit:
        stack.append(hand.pop())
    while len(hand) < limit and stack:
        hand.append(stack.pop())


# --- set-up -----------------------------------------------------------------


def _options(options: dict | None) -> dict:
    checked = checked_options(GAME, options)
    return {
        "players": checked["players"],
        "challenges": checked["challenges"],
        "misplay_rate": checked["misplay_rate"],
    }


def _pack(decks) -> tuple[list, tuple[list, list]]:
    """Return the validated pack and its tables; a known pack skips the checks."""
    if (
        not isinstance(decks, (list, tuple))
        or len(decks) != 1
        or not isinstance(decks[0], dict)
        or not isinstance(decks[0].get("pack"), (list, tuple))
    ):
        raise EngineError(
            "bad_deck", 'Collide-O! is played with one shared pack: [{"pack": [...]}].'
        )
    # The read is kept by the decks as given: simulations pass the same pinned
    # decks for every game (``core.pinned``), which skips comparing the pack.
    return list(decks[0]["pack"]), _tables(decks)


def _read(decks) -> tuple[list, list, dict, list, list, tuple, dict]:
    """Return the tables of the decks' pack, refusing a card that cannot be played."""
    pack = list(decks[0]["pack"])
    for index, card in enumerate(pack):
        if not isinstance(card, dict):
            raise EngineError("bad_deck", f"Card {index} of the pack is not a card.")
        problems = card_problems(card)
        if problems:
            label = card.get("name") or card.get("id") or index
            raise EngineError(
                "bad_deck", f"Card {label} cannot be played: {'; '.join(problems)}."
            )
    return _build_tables(pack)


_tables = DeckReads(_read, size=8)


def pack_minimum(players: int) -> int:
    """Return the fewest cards a pack needs: the centre card and five per player."""
    return 1 + HAND_LIMIT * players


def new_game(decks, options: dict | None = None, seed: int = 0) -> State:
    """Shuffle the pack, turn up the centre card, deal and draw five each."""
    options = _options(options)
    pack, tables = _pack(decks)
    players = options["players"]
    need = pack_minimum(players)
    if len(pack) < need:
        raise EngineError(
            "bad_deck",
            f"The pack has {len(pack)} cards; {players} players need at least {need}"
            " (the centre card and five for each player).",
        )
    rng = Rng(seed_state(seed, 1))
    order = list(range(len(pack)))
    rng.shuffle(order)
    share = (len(order) - 1) // players
    stacks = [
        order[1 + seat : 1 + share * players : players] for seat in range(players)
    ]
    set_aside = order[1 + share * players :]
    st = State(
        seed=seed,
        options=options,
        decks=[{"pack": pack}],
        rng=rng.state,
        line=[(order[0], 0, 0)],
        hands=[[] for _ in range(players)],
        stacks=stacks,
        set_aside=set_aside,
        removed=[],
        limits=[HAND_LIMIT] * players,
        barred=[0] * players,
        rounds=0,
        step=0,
        start=0,
        seat=0,
        stamp=1,
        clears=0,
        tries=0,
        open_card=-1,
        open_seat=-1,
        open_end=-1,
        open_ok=True,
        open_seen=0,
        dirty=True,
        over=False,
        winners=[],
        pending=[],
        reason="",
        log=[],
        events=[],
    )
    _derive(st, tables)
    for seat in range(players):
        _refill(st, seat)
    st.events.append(
        f"The centre card is turned up: {st.names[order[0]]}. Each player has"
        f" {share} cards; {len(set_aside)} are set aside."
    )
    _settle(st)
    return st


# --- the flow of rounds -----------------------------------------------------


def _finish(st: State, winners: list, reason: str) -> None:
    st.over = True
    st.winners = winners
    st.reason = reason
    st.events.append(reason)


def _o5_winners(st: State) -> list:
    return [
        seat
        for seat in range(st.players)
        if not st.stacks[seat] and len(st.hands[seat]) == 1
    ]


def _declare(st: State, winners: list) -> None:
    if len(winners) == 1:
        _finish(
            st,
            winners,
            f"Player {winners[0] + 1} has no stack left and one card in hand,"
            " and wins (ruling O5).",
        )
    else:
        names = ", ".join(f"Player {seat + 1}" for seat in winners)
        _finish(
            st, winners, f"{names} reach one card in the same round: a tie (ruling O5)."
        )


def _window_open(st: State) -> bool:
    """Return whether the card open to challenge still awaits another player."""
    everyone = (1 << st.players) - 1
    return st.open_card >= 0 and (st.open_seen | 1 << st.open_seat) != everyone


def _end_round(st: State) -> None:
    st.rounds += 1
    st.step = 0
    st.start = (st.start + 1) % st.players
    # Only a player with no stack left can have won.
    winners = [] if all(st.stacks) else _o5_winners(st)
    if winners and st.open_seat in winners and _window_open(st):
        # The winning card may still be challenged (ruling O6): the others
        # get their chance before the win stands.
        st.pending = winners
        st.events.append(
            f"Player {st.open_seat + 1}'s last card can still be challenged; the"
            " result waits until every other player has had the chance."
        )
    elif winners:
        _declare(st, winners)
    elif st.rounds >= TURN_CAP:
        _cap(st)


def _cap(st: State) -> None:
    _finish(
        st,
        [],
        f"The game reached the cap of {TURN_CAP} rounds and is a draw (ruling E3).",
    )


def _settle_pending(st: State) -> None:
    """Decide a win that waited for its challenge window (rulings O5, O6)."""
    still = [
        seat for seat in st.pending if not st.stacks[seat] and len(st.hands[seat]) == 1
    ]
    st.pending = []
    if still:
        _declare(st, still)
    elif st.rounds >= TURN_CAP:
        _cap(st)


def _deadlock(st: State, why: str) -> None:
    winners = _o5_winners(st)
    if winners:
        names = ", ".join(f"Player {seat + 1}" for seat in winners)
        _finish(st, winners, f"{why}; {names} already hold one card (ruling O5).")
    else:
        _finish(st, [], f"{why}: the game is a tie (ruling O8).")


def _anyone_can_play(st: State) -> bool:
    left, right = st.left_fit[1], st.right_fit[1]
    if any(st.barred):
        barred = st.barred
        for seat, hand in enumerate(st.hands):
            if not barred[seat] and not (
                left.isdisjoint(hand) and right.isdisjoint(hand)
            ):
                return True
        return False
    return _some_hand_fits(st.hands, left, right)


def _some_hand_fits(hands: list, left: frozenset, right: frozenset) -> bool:
    """Return whether a hand holds a card of ``left`` or ``right`` (no seat barred)."""
    for hand in hands:
        if not (left.isdisjoint(hand) and right.isdisjoint(hand)):
            return True
    return False


def _clear_ends(line: list) -> tuple:
    """Take off the line what one O4 step removes, from a line of two or more.

    Both end cards of a longer line; of two, the last played (the higher
    stamp), the other staying. Returns the entries taken, left first.
    """
    if len(line) >= 3:
        return line.pop(0), line.pop()
    return (line.pop(0 if line[0][2] > line[1][2] else 1),)


def _resolve_stuck(st: State) -> None:
    """Clear the line while no player can play (rulings O4 and O8)."""
    players = st.players
    while not _anyone_can_play(st):
        who = f"Player {st.clears % players + 1}"
        line = st.line
        if len(line) >= 3:
            left, right = _clear_ends(line)
            st.removed += [left[0], right[0]]
            st.events.append(
                f"Nobody can play: {who} removes {st.names[left[0]]} from the left"
                f" end and {st.names[right[0]]} from the right end (ruling O4)."
            )
        elif len(line) == 2:
            (gone,) = _clear_ends(line)
            st.removed.append(gone[0])
            st.events.append(
                f"Nobody can play: {who} removes the last card played,"
                f" {st.names[gone[0]]}; {st.names[line[0][0]]} stays (ruling O4)."
            )
        else:
            if not st.set_aside:
                if not st.removed:
                    _deadlock(
                        st,
                        "Nobody can play on the lone card and nothing can replace it",
                    )
                    return
                st.set_aside, st.removed = st.removed, []
                rng = Rng(st.rng)
                rng.shuffle(st.set_aside)
                st.rng = rng.state
                st.tries = 0
                st.events.append(
                    f"The {len(st.set_aside)} removed cards are shuffled to form the"
                    " set-aside pile (ruling O4)."
                )
            if st.tries >= len(st.set_aside):
                _deadlock(
                    st, "Every set-aside card has been tried and nobody can play on it"
                )
                return
            old = line[0][0]
            new = st.set_aside.pop()
            st.set_aside.insert(0, old)
            line[0] = (new, 0, st.stamp)
            st.stamp += 1
            st.tries += 1
            st.events.append(
                f"Nobody can play on the lone card: {who} puts {st.names[old]} under"
                f" the set-aside pile and turns up {st.names[new]} (rulings O4, O8)."
            )
        st.clears += 1
        # Every clearing step takes away the last card played, which was an end.
        st.open_card = -1
        _refresh_ends(st)


def _settle(st: State) -> None:
    """Run automatic steps until a seat has a choice or the game ends."""
    players = st.players
    while True:
        if st.pending and not _window_open(st):
            _settle_pending(st)
            if st.over:
                return
        if st.dirty and (st.open_card < 0 or not _window_open(st)):
            st.dirty = False
            if not _anyone_can_play(st):
                _resolve_stuck(st)
                if st.over:
                    return
        if st.step == players:
            _end_round(st)
            if st.over:
                return
        seat = (st.start + st.step) % players
        choices = _choices(st, seat)
        if choices:
            st.seat = seat
            st.choices = choices
            return
        st.events.append(_CANNOT[seat])
        st.step += 1
        if st.open_card >= 0:
            st.open_seen |= 1 << seat


# --- the interface ----------------------------------------------------------


def to_act(state: State) -> int:
    """Return the seat to act."""
    return state.seat


def is_over(state: State) -> bool:
    """Return whether the game has ended."""
    return state.over


def winners(state: State) -> list[int]:
    """Return the winning seat, the tied seats (ruling O5), or [] for a draw."""
    return list(state.winners)


def winner(state: State) -> int | None:
    """Return the single winner, or None for a tie, a draw or a game not over."""
    return state.winners[0] if len(state.winners) == 1 else None


def player_count(state: State) -> int:
    """Return the number of players."""
    return state.players


def length(state: State) -> int:
    """Return the rounds played, counting a round in progress."""
    return state.rounds + (1 if state.step else 0)


def chance_outcomes(state: State) -> list:
    """Return no outcomes: shuffles come from the seed."""
    return []


def _choices(st: State, seat: int) -> list:
    """Return a seat's legal actions (O1, O2; every play with challenges on)."""
    actions = []
    if not st.barred[seat] and seat not in st.pending:
        hand = st.hands[seat]
        plays = _PLAYS  # long enough for the pack: see _derive
        if st.challenges:
            for card in hand:
                actions += plays[card]
        else:
            left, left_cards, _ = st.left_fit
            right, right_cards, _ = st.right_fit
            # A hand that fits neither end (a quarter of the asks) has no play.
            if not (left_cards.isdisjoint(hand) and right_cards.isdisjoint(hand)):
                for card in hand:
                    if card in left:
                        actions += left[card]
                    if card in right:
                        actions += right[card]
    if st.challenges and st.open_card >= 0 and st.open_seat != seat:
        actions.append(CHALLENGE)
    return actions


def legal_actions(state: State) -> list:
    """Return the plays (O1, O2; all with challenges on), pass and challenge."""
    if state.over:
        return []
    choices = state.choices
    if choices is None:
        choices = state.choices = _choices(state, state.seat)
    return [*choices, PASS]


def _refuse_play(state: State, seat: int, action: Play) -> None:
    card, end = action.card, action.end
    if not 0 <= card < len(state.read):
        raise EngineError("illegal_action", f"There is no card {card} in the pack.")
    if card not in state.hands[seat]:
        for other in range(state.players):
            if card in state.hands[other]:
                raise EngineError(
                    "not_your_turn",
                    f"It is Player {seat + 1}'s turn, and that card is in"
                    f" Player {other + 1}'s hand.",
                )
        raise EngineError("illegal_action", f"Card {card} is not in your hand.")
    if state.barred[seat]:
        raise EngineError(
            "illegal_action",
            "You challenged a card that matched: you may play again once a card"
            " has been played at each end (ruling O6).",
        )
    if seat in state.pending:
        raise EngineError(
            "illegal_action",
            "You are down to your last card: the others may still challenge the"
            " card before it.",
        )
    if not state.challenges and not _fits(state, card, end, action.turned):
        middle, outer = state.ends[2 * end], state.ends[2 * end + 1]
        raise EngineError(
            "illegal_action",
            f"That card does not fit the {ENDS[end]} end as laid: its inner end must"
            f" match {_section_words(middle)} and its middle {_section_words(outer)}"
            " (a card may be turned end to end).",
        )


def _check(state: State, action) -> None:
    if state.over:
        raise EngineError("game_over", "The game is over.")
    if action is PASS:
        return
    choices = state.choices
    if choices is not None:
        # The common case: an action object just taken from legal_actions.
        for legal in choices:
            if legal is action:
                return
    kind = type(action)
    if kind is Play:
        if action.end not in (0, 1):
            raise EngineError("bad_action", "A card goes on the left or the right end.")
        _refuse_play(state, state.seat, action)
    elif kind is Challenge:
        if not state.challenges:
            raise EngineError(
                "illegal_action", "Challenges are not played in this game."
            )
        if state.open_card < 0:
            raise EngineError(
                "illegal_action",
                "There is no card to challenge: a card can be challenged only while"
                " it is an end card and before the next card is played.",
            )
        if state.open_seat == state.seat:
            raise EngineError("illegal_action", "You cannot challenge your own card.")
    elif kind is not Pass:
        raise EngineError("bad_action", f"Not a Collide-O! action: {action!r}.")


def apply(state: State, action, *, inplace: bool = False) -> State:
    """Apply one action of the seat to act; refuse anything not legal.

    In a game without challenges (``State.plain``) a pass, or a play just
    taken from ``legal_actions``, goes the short way (``_apply_plain``);
    everything else the whole way (``apply_reference``), which the short way
    equals.
    """
    if state.plain and not state.over and not state.dirty:
        if action is PASS:
            return _apply_plain(state if inplace else copy_state(state), action)
        for legal in state.choices or ():
            if legal is action:
                return _apply_plain(state if inplace else copy_state(state), action)
    return apply_reference(state, action, inplace=inplace)


def apply_reference(state: State, action, *, inplace: bool = False) -> State:
    """Apply one action as the rules run it: every step of ``_settle`` checked."""
    if state.over:
        _check(state, action)
    elif action is not PASS:
        for legal in state.choices or ():
            if legal is action:
                break  # the common case: an action just taken from legal_actions
        else:
            _check(state, action)
    st = state if inplace else copy_state(state)
    seat = st.seat
    who = _WHO[seat]
    kind = type(action)
    if kind is Play:
        card, end, turned = action.card, action.end, int(action.turned)
        fits = _fits(st, card, end, turned) if st.challenges else True
        hand = st.hands[seat]
        hand.remove(card)
        entry = (card, turned, st.stamp)
        st.stamp += 1
        line = st.line
        if end == LEFT:
            line.insert(0, entry)
        else:
            line.append(entry)
        if len(line) > 2:
            # The new card lies on top at its end and the other end is as it
            # was: what _refresh_ends would find, without reading the line.
            reading = st.read[card][turned]
            left_middle, left_outer, right_middle, right_outer = st.ends
            if end == LEFT:
                st.ends = (reading[1], reading[0], right_middle, right_outer)
                key = reading[1] << 5 | reading[0]
                st.left_fit = st.fit.get(key) or _fit_table(st, key, LEFT)
            else:
                st.ends = (left_middle, left_outer, reading[1], reading[2])
                key = 1024 | reading[1] << 5 | reading[2]
                st.right_fit = st.fit.get(key) or _fit_table(st, key, RIGHT)
        else:
            _refresh_ends(st)
        stack, limit = st.stacks[seat], st.limits[seat]
        while len(hand) > limit:  # _refill, inlined: it follows every play
            stack.append(hand.pop())
        while len(hand) < limit and stack:
            hand.append(stack.pop())
        if any(st.barred):
            st.barred = [bars & ~(1 << end) for bars in st.barred]
        st.tries = 0
        if st.challenges:
            st.open_card, st.open_seat, st.open_end = card, seat, end
            st.open_ok, st.open_seen = fits, 0
        st.dirty = True
        st.events.append(who + st.plays_said[card][2 * end + turned])
    elif kind is Challenge:
        _challenge(st, seat)
    else:
        st.events.append(_PASSES[seat])
    st.log.append(action.text)
    st.step += 1
    if st.open_card >= 0 and kind is not Play:
        st.open_seen |= 1 << seat
    _settle(st)
    return st


def _apply_plain(st: State, action) -> State:
    """Apply a legal pass or play of a game without challenges to ``st`` itself.

    ``apply_reference`` and ``_settle`` with the steps that never happen
    without challenges left out (no seat is barred, no win waits for a
    challenge, no card is open to one, the last O4 check is done) and the
    common ones written out in one place: a play, the check
    that someone can still play (O4) and the seats passed for until one has a
    choice, with the round's end (O3). Games are mostly this, so it is a large
    part of every bot's game. Where nobody can play after a play, or a round
    ends with a stack gone or at the cap, ``_settle`` takes over. A test
    holds the two ways equal along whole games.
    """
    seat, players, unions = st.seat, st.players, st.unions
    if action is PASS:
        st.events.append(_PASSES[seat])
        st.log.append("pass")
        left, right = st.left_fit, st.right_fit
        either = unions.get(left[2] << 11 | right[2]) or _either(unions, left, right)
    else:
        card, end = action.card, action.end
        turned = 1 if action.turned else 0
        hand = st.hands[seat]
        hand.remove(card)
        stamp = st.stamp
        st.stamp = stamp + 1
        line = st.line
        if end == LEFT:
            line.insert(0, (card, turned, stamp))
        else:
            line.append((card, turned, stamp))
        if len(line) > 2:
            # As in apply_reference: only the end played on changes.
            reading = st.read[card][turned]
            ends = st.ends
            if end == LEFT:
                st.ends = (reading[1], reading[0], ends[2], ends[3])
                key = reading[1] << 5 | reading[0]
                st.left_fit = st.fit.get(key) or _fit_table(st, key, LEFT)
            else:
                st.ends = (ends[0], ends[1], reading[1], reading[2])
                key = 1024 | reading[1] << 5 | reading[2]
                st.right_fit = st.fit.get(key) or _fit_table(st, key, RIGHT)
        else:
            _refresh_ends(st)
        stack, limit = st.stacks[seat], st.limits[seat]
        while len(hand) > limit:  # the refill (O3), as in apply_reference
            stack.append(hand.pop())
        while len(hand) < limit and stack:
            hand.append(stack.pop())
        st.tries = 0
        st.events.append(st.play_events[seat][card][2 * end + turned])
        st.log.append(action.text)
        left, right = st.left_fit, st.right_fit
        either = unions.get(left[2] << 11 | right[2]) or _either(unions, left, right)
        for hand in st.hands:
            if not either.isdisjoint(hand):
                break
        else:  # nobody can play: the line is cleared (O4, O8)
            _resolve_stuck(st)
            if st.over:
                st.step += 1
                return st
            left, right = st.left_fit, st.right_fit
            either = unions.get(left[2] << 11 | right[2]) or _either(
                unions, left, right
            )
    step = st.step + 1
    while True:
        if step == players:
            if st.rounds + 1 >= TURN_CAP or not all(st.stacks):
                st.step = step
                _end_round(st)  # the cap, or a stack gone: a win to check (O5)
                if st.over:
                    return st
            else:
                st.rounds += 1
                st.start = (st.start + 1) % players
            step = 0
        seat = (st.start + step) % players
        hand = st.hands[seat]
        if not either.isdisjoint(hand):
            # _choices without challenges: each fitting card's plays, in order.
            left, right = st.left_fit[0], st.right_fit[0]
            choices = []
            for card in hand:
                if card in left:
                    choices += left[card]
                if card in right:
                    choices += right[card]
            st.step, st.seat, st.choices = step, seat, choices
            return st
        st.events.append(_CANNOT[seat])
        step += 1


def _challenge(st: State, seat: int) -> None:
    card, owner = st.open_card, st.open_seat
    st.open_card = -1
    st.dirty = True
    if st.open_ok:
        st.barred[seat] = 3
        st.events.append(
            f"Player {seat + 1} challenges {st.names[card]}, but it matches: Player"
            f" {seat + 1} may not play until a card has been played at each end"
            " (ruling O6)."
        )
        return
    if st.line[0][0] == card:
        st.line.pop(0)
    else:
        st.line.pop()
    _refresh_ends(st)
    st.stacks[owner].insert(0, card)
    again = st.limits[owner] == PENALTY_LIMIT
    st.limits[owner] = PENALTY_LIMIT
    _refill(st, owner)
    st.events.append(
        f"Player {seat + 1} challenges {st.names[card]}: it does not match. It goes"
        f" to the bottom of Player {owner + 1}'s stack, and Player {owner + 1}"
        + (" still holds at most four cards" if again else " may now hold only four")
        + " (ruling O6)."
    )


def describe(state: State, action) -> str:
    """Return the action in plain words."""
    who = f"Player {state.seat + 1}"
    if type(action) is Play:
        name = (
            state.names[action.card]
            if 0 <= action.card < len(state.names)
            else f"card {action.card}"
        )
        turned = ", turned end to end" if action.turned else ""
        return f"{who} plays {name} on the {ENDS[action.end]} end{turned}"
    if type(action) is Challenge:
        return f"{who} challenges the last card played"
    return f"{who} passes"


def view(state: State, player: int) -> View:
    """Return what ``player`` may see: own hand, the line, counts of the rest."""
    read = state.read

    def sections(card: int, turned: int = 0) -> list[str]:
        return [_section_letters(m) for m in read[card][turned]]

    ends = state.ends
    seats = range(state.players)
    return envelope(
        SLUG,
        player,
        to_act=None if state.over else state.seat,
        legal_actions=(
            [a.text for a in legal_actions(state)]
            if not state.over and player == state.seat
            else []
        ),
        over=state.over,
        winner=winner(state),
        reason=state.reason,
        events=list(state.events),
        turn=length(state),
        seats=[
            {
                "seat": s,
                "hand": len(state.hands[s]),
                "stack": len(state.stacks[s]),
                "limit": state.limits[s],
                "barred": bool(state.barred[s]),
            }
            for s in seats
        ],
        player_count=state.players,
        line=[
            {"card": card, "sections": sections(card, turned), "turned": bool(turned)}
            for card, turned, _ in state.line
        ],
        ends={
            "left": {
                "middle": _section_letters(ends[0]),
                "outer": _section_letters(ends[1]),
            },
            "right": {
                "middle": _section_letters(ends[2]),
                "outer": _section_letters(ends[3]),
            },
        },
        hand=(
            [{"card": c, "sections": sections(c)} for c in state.hands[player]]
            if 0 <= player < state.players
            else None
        ),
        set_aside=len(state.set_aside),
        removed=[{"card": c, "sections": sections(c)} for c in state.removed],
        challenges=state.challenges,
        open_to_challenge=(
            {"card": state.open_card, "player": state.open_seat}
            if state.open_card >= 0
            else None
        ),
        winners=list(state.winners),
    )


def determinize(
    state: State, player: int, rng: Rng, *, hands_shown: bool = False
) -> State:
    """Return a copy of ``state`` as ``player`` may believe it, drawn with ``rng``.

    What ``player`` cannot see is dealt anew (``redeal``) among the places it
    cannot see: the other seats' hands, every stack and the cards set aside
    (all from the one pack); the game's generator is reseeded.
    ``hands_shown`` leaves the other seats' hands as they are: a measuring
    device (``search.SearchBot(sees_hands=True)``), never a player's view.
    """
    st = copy_state(state)
    zones = [st.hands[s] for s in range(st.players) if s != player and not hands_shown]
    redeal([*zones, *st.stacks, st.set_aside], rng)
    st.rng = rng.next64()
    st.choices = None
    return st


def to_json(state: State) -> dict:
    """Return the whole state as JSON-ready data."""
    return state_to_json(GAME, VERSION, state)


def _restore(values: dict) -> State:
    pack, tables = _pack(values["decks"])
    values["options"] = _options(values["options"])
    values["decks"] = [{"pack": pack}]
    st = State(**values)
    _derive(st, tables)
    return st


def from_json(data: dict) -> State:
    """Rebuild a state from ``to_json`` data."""
    return state_from_json(data, GAME, VERSION, State, _restore)


# --- the board: which card a move plays, and why a card cannot be played ------


def action_cards(state: State, action) -> tuple[str, ...]:
    """Return the board keys of what ``action`` plays: the hand card and its end.

    A hand card is keyed by its pack number, an end by its name (``"left"``,
    ``"right"``): the board offers a card's plays on the card and an end's
    plays on the end. A pass or a challenge names no card.
    """
    if type(action) is Play:
        return (str(action.card), ENDS[action.end])
    return ()


def why_not(state: State, seat: int, key: str) -> str | None:
    """Return why ``seat`` cannot play hand card ``key`` now, or None when it can.

    The reason is ``_refuse_play``'s, the check ``apply`` makes: another
    player's turn, a bar after a wrong challenge (O6), a last card open to a
    challenge, or a card that fits neither end as laid (O1, O2).
    """
    if state.over:
        return "The game is over."
    if state.seat == seat and any(
        key in action_cards(state, a) for a in legal_actions(state)
    ):
        return None
    if not (isinstance(key, str) and key.isdigit()):
        return "That is not a card of the pack."
    if state.seat != seat:
        return f"Not your turn: Player {state.seat + 1} plays now."
    reasons = []
    for end in (0, 1):
        try:
            _refuse_play(state, seat, Play(int(key), end))
        except EngineError as exc:
            if exc.message not in reasons:
                reasons.append(exc.message)
    if len(reasons) == 2 and all(
        r.startswith("That card does not fit") for r in reasons
    ):
        # Both ends refuse it for the fit: say so once, with what each end needs.
        ends = state.ends
        return (
            "It fits neither end, even turned: the left end needs "
            f"{_section_words(ends[0])} then {_section_words(ends[1])}, the right end "
            f"{_section_words(ends[2])} then {_section_words(ends[3])}."
        )
    return " ".join(reasons) or "That card cannot be played now."


# --- play again after a tie (the text's note on ties) -------------------------


@dataclass(frozen=True)
class Match:
    """Games of one table until one has a winner: who went first, who won."""

    firsts: tuple = ()
    winners: tuple = ()  # a seat, or None for a tied or drawn game


def match_record(match: Match, first, winner: int | None) -> Match:
    """Return the match with one more finished game."""
    return Match(match.firsts + (first,), match.winners + (winner,))


def match_winner(match: Match) -> int | None:
    """Return the seat that won a game (the match ends there), or None."""
    return next((seat for seat in match.winners if seat is not None), None)


def next_game_first(match: Match) -> None:
    """Return who goes first next: nobody, everyone plays at once."""
    return None


def first_player(state: State) -> None:
    """Return who went first in ``state``'s game: nobody (everyone plays at once)."""
    return None


def _either(unions: dict, left: tuple, right: tuple) -> frozenset:
    """Return the cards that fit either end, from both ends' ``_fit_table``.

    Kept in the pack's ``unions`` by the two tables' keys: the same few pairs
    of ends come back, and a number is quicker to look up than the sets.
    """
    key = left[2] << 11 | right[2]
    either = unions.get(key)
    if either is None:
        if len(unions) > 100_000:
            unions.clear()
        either = unions[key] = left[1] | right[1]
    return either


# The valuation reads the rules above: imported last, it finds every name it
# imports from this module already defined.
from .valuation import (  # noqa: E402, F401
    PROSPECT_COLOURS,
    PROSPECT_FIT,
    PROSPECT_OPEN,
    _hand_prospects,
    _scores_read,
    score,
    scores_after,
)
