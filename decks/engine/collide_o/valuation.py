"""Collide-O! valuation for the bots: the score of a position and of each move."""

from __future__ import annotations

from ..core import (
    Rng,
    seed_state,
)
from . import (
    LEFT,
    PASS,
    PENALTY_LIMIT,
    RIGHT,
    TURN_CAP,
    Play,
    State,
    _clear_ends,
    _either,
    _end_fits,
    _fit_table,
    _line_ends,
    _some_hand_fits,
    apply,
)


def _misplay_draw(state: State) -> float:
    # One draw per decision: every candidate state after the same decision has
    # the same log length, so the greedy bot sees one coin for all of them.
    return Rng(seed_state(state.seed, 1000 + len(state.log))).random()


def score(state: State, player: int) -> float:
    """Return how good the state is for ``player``, for the greedy bot.

    With challenges on, a misplay just made by ``player`` scores above a true
    play in the share ``misplay_rate`` of decisions and far below otherwise.
    """
    value = 0.0
    if state.open_card >= 0 and state.open_seat == player and not state.open_ok:
        if _misplay_draw(state) < state.options["misplay_rate"]:
            value += 1.0
        else:
            value -= 50.0
    if state.over:
        if player in state.winners:
            return value + (1000.0 if len(state.winners) == 1 else 500.0)
        return value + (-1000.0 if state.winners else 0.0)
    hands, stacks = state.hands, state.stacks
    own = len(hands[player]) + len(stacks[player])
    others = _cards_held(hands, stacks) - own
    base = _position_base(
        value,
        own,
        others,
        state.players,
        state.limits[player] == PENALTY_LIMIT,
        state.barred[player],
    )
    return base + _hand_prospects(state, player)


def _cards_held(hands: list, stacks: list) -> int:
    """Return how many cards the seats hold in hand and stack, all together."""
    # A plain loop: quicker here than sum(map(len, ...)) on CPython 3.11.
    held = 0
    for seat, hand in enumerate(hands):
        held += len(hand) + len(stacks[seat])
    return held


def _position_base(
    value: float, own: int, others: int, players: int, penalised: bool, barred: int
) -> float:
    """Return the score of a game not over before its hand prospects are added.

    ``own`` and ``others`` count cards held (hand and stack). One function for
    ``score`` and ``scores_after``, so both add the same floats in the same
    order and agree to the last bit.
    """
    value += -10.0 * own + others / (players - 1)
    if penalised:
        value -= 5.0
    if barred:
        value -= 3.0
    return value


def scores_after(state: State, actions: list, player: int) -> list[float]:
    """Return ``player``'s score after each action (the greedy bot's lookahead).

    Equal to ``search.scores_after_reference`` (apply each action to a copy,
    then ``score``), which a test holds it to along whole games. Copying the
    state and playing each candidate out was most of a greedy game; here the
    common case is read without building the next state (``_scores_read``),
    and everything else is played out on a copy as the reference does.
    """
    values = _scores_read(state, actions, player)
    if values is None:
        return [score(apply(state, action), player) for action in actions]
    for index, value in enumerate(values):
        if value is None:
            values[index] = score(apply(state, actions[index]), player)
    return values


def _scores_read(state: State, actions: list, player: int) -> list | None:
    """Return the scores after ``actions`` worked out from ``state``, None where not.

    Without challenges, until the next decision nothing but a play changes
    what ``score`` reads (the hands, the stacks, the ends of the line), unless
    the game ends (rulings O5, E3, O8). So, with no seat able to win at the
    round's end and the cap not near: a pass leaves the score as it is; a play
    takes the card from the hand, draws the same card from the stack whichever
    card it is (O3) and shows the card's sections at its end (O1; on a lone
    card both ends are read from a copy of the line, O7); if nobody can play
    then, the line is cleared as ``_resolve_stuck`` clears it (O4,
    ``_clear_ends``) on a copy of the line.
    The counts and colours are whole numbers worked out by difference; the
    floats are then made by ``score``'s own helpers. A play after which the
    line is cleared down to one card nobody can play on (O8) gets None in the
    list; anything else (challenges, a win possible, the cap near, an action
    not taken from ``legal_actions``) returns None for the whole list:
    the caller plays those out as the reference does.
    """
    draws = _draws_if_read(state)
    if draws is None:
        return None
    hands, stacks = state.hands, state.stacks
    seat, players, widths = state.seat, state.players, state.widths
    hand, stack = hands[seat], stacks[seat]
    # The refill after any play draws the same card: the stack's top (O3).
    top = stack[-1] if draws else None
    left_after = len(hand) - 1 + draws
    # Down to one card with no stack after any play: a win may follow (O5).
    may_win = left_after == 1 and draws == len(stack)
    total = _cards_held(hands, stacks)
    own = len(hands[player]) + len(stacks[player])
    penalised = state.limits[player] == PENALTY_LIMIT
    mover = player == seat
    ours = own - 1 if mover else own  # after any play
    colours_now = _colours(hands[player], widths)
    # The mover's hand after any play, but the card played: the card drawn joins.
    colours = colours_now + (widths[top] if mover and draws else 0)
    legal = state.choices or ()
    read, fit, unions, cards = state.read, state.fit, state.unions, len(widths)
    lone = len(state.line) == 1  # a play makes a line of two: both ends change
    base = None  # after any play; no seat is ever barred (``plain``)
    values = []
    for action in actions:
        if action is PASS:
            values.append(_score_as_it_stands(state, player, own, total, colours_now))
            continue
        if type(action) is not Play:
            return None
        for listed in legal:  # by identity: ``in`` would call Play.__eq__
            if listed is action:
                break
        else:
            return None  # not just taken from legal_actions: play it out
        if may_win:
            values.append(None)
            continue
        card, end = action.card, action.end
        turned = 1 if action.turned else 0
        reading = read[card][turned]
        if lone:
            line = state.line[:]
            line.insert(0 if end == LEFT else 1, (card, turned, state.stamp))
            left, right = _end_fits(state, _line_ends(line, read))
        elif end == LEFT:
            key = reading[1] << 5 | reading[0]
            left = fit.get(key) or _fit_table(state, key, LEFT)
            right = state.right_fit
        else:
            key = 1024 | reading[1] << 5 | reading[2]
            left = state.left_fit
            right = fit.get(key) or _fit_table(state, key, RIGHT)
        either = unions.get(left[2] << 11 | right[2]) or _either(unions, left, right)
        # The mover's cards that fit after the play: the hand's, less the
        # card played, plus the card drawn (a hand holds each card once).
        kept_fit = len(either.intersection(hand)) - (card in either)
        if draws and top in either:
            kept_fit += 1
        if not kept_fit and _no_hand_fits(either, hands, seat):
            kept = [c for c in hand if c != card] + ([top] if draws else [])
            fits = _fits_after_clearing(state, (card, turned, state.stamp), end, kept)
            if fits is None:
                values.append(None)  # the lone card is replaced (O8): play it out
                continue
            either = _either(unions, *fits)
            kept_fit = len(either.intersection(kept))
        if base is None:
            base = _position_base(0.0, ours, total - 1 - ours, players, penalised, 0)
        if mover:
            if not left_after:
                values.append(base + 0.0)  # an empty hand has no prospects
                continue
            fitting, width = kept_fit, colours - widths[card]
        elif hands[player]:
            fitting, width = len(either.intersection(hands[player])), colours
        else:
            values.append(base + 0.0)
            continue
        values.append(base + _prospect_value(fitting, width, len(either), cards))
    return values


def _draws_if_read(state: State) -> int | None:
    """Return the mover's draws after any play (0 or 1); None: the scores go unread."""
    if not state.plain or state.over or state.dirty or state.rounds + 2 >= TURN_CAP:
        return None
    hands, stacks = state.hands, state.stacks
    for seat, stack in enumerate(stacks):
        if not stack and len(hands[seat]) == 1:
            return None  # the round's end could make this seat a winner (O5)
    seat = state.seat
    draws = min(state.limits[seat] - len(hands[seat]) + 1, len(stacks[seat]))
    if draws not in (0, 1):
        return None  # a hand off its limit (only after a penalty)
    return draws


def _score_as_it_stands(
    state: State, player: int, own: int, total: int, colours: int
) -> float:
    """Return ``score`` after a pass: ``_hand_prospects``, inlined."""
    penalised = state.limits[player] == PENALTY_LIMIT
    now = _position_base(0.0, own, total - own, state.players, penalised, 0)
    prospects = 0.0
    hand = state.hands[player]
    if hand:
        left, right = state.left_fit, state.right_fit
        unions = state.unions
        either = unions.get(left[2] << 11 | right[2]) or _either(unions, left, right)
        fitting = len(either.intersection(hand))
        prospects = _prospect_value(fitting, colours, len(either), len(state.widths))
    return now + prospects


def _no_hand_fits(either: frozenset, hands: list, but: int) -> bool:
    """Return whether no hand but seat ``but``'s holds a card of ``either``."""
    for seat, hand in enumerate(hands):
        if seat != but and not either.isdisjoint(hand):
            return False
    return True


def _fits_after_clearing(
    state: State, entry: tuple, end: int, kept: list
) -> tuple | None:
    """Return the end fits once the line with ``entry`` played is cleared (O4).

    The line is copied, ``entry`` laid at ``end``, and ``_clear_ends`` applied
    until a hand fits (the mover's now ``kept``), as ``_resolve_stuck`` does
    (no seat is barred without challenges). None when it comes down to one
    card that nobody can play on: that replaces it from the set-aside pile (O8).
    """
    hands = state.hands[:]
    hands[state.seat] = kept
    line = state.line[:]
    if end == LEFT:
        line.insert(0, entry)
    else:
        line.append(entry)
    while True:
        _clear_ends(line)
        left, right = _end_fits(state, _line_ends(line, state.read))
        if _some_hand_fits(hands, left[1], right[1]):
            return left, right
        if len(line) < 2:
            return None


# What the greedy bot (and the search bot's leaf values) weigh besides the
# counts, reading only the player's own hand and the line: how many colours the
# hand's sections offer (a striped or wild card fits more ends later, so it is
# worth keeping: play the narrow cards first), and how open the line's ends are
# to the cards the player does not hold (an end few cards fit slows the others,
# who play two turns to one with three seats). A term for the player's own
# cards fitting the line now was tried and lost to random: the bot then passed
# to keep a hand that fits (``PROSPECT_FIT`` 0; bench_bots measures).
PROSPECT_FIT = 0.0  # per card of the hand that fits an end as the line stands
PROSPECT_COLOURS = 0.1  # per colour the hand's sections offer, summed
PROSPECT_OPEN = 5.0  # the share of the pack's other cards that fit an end


def _hand_prospects(state: State, player: int) -> float:
    """Return the score of the player's hand as the line stands (see above)."""
    hand = state.hands[player]
    if not hand:
        return 0.0
    either = _either(state.unions, state.left_fit, state.right_fit)
    fitting = len(either.intersection(hand))  # a hand holds each card once
    colours = _colours(hand, state.widths)
    return _prospect_value(fitting, colours, len(either), len(state.widths))


def _colours(hand: list, widths: list) -> int:
    """Return how many colours the hand's sections offer, summed over its cards."""
    colours = 0
    for card in hand:
        colours += widths[card]
    return colours


def _prospect_value(fitting: int, colours: int, open_: int, cards: int) -> float:
    """Return the prospects of a hand (not empty) from its whole-number parts.

    ``fitting`` cards of the hand fit an end, its sections offer ``colours``
    colours in all, ``open_`` of the pack's ``cards`` fit either end.
    """
    value = PROSPECT_FIT * fitting + PROSPECT_COLOURS * colours
    return value - PROSPECT_OPEN * (open_ - fitting) / cards
