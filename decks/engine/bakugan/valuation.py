"""Bakugan valuation for the bots: the score of a position and of moves."""

from __future__ import annotations

from itertools import permutations

from ..core import (
    copy_state,
)
from .battle import (
    _powers,
)
from .play import (
    apply,
)
from .state import (
    PROSPECT_BATTLE,
    PROSPECT_FIELD,
    PROSPECT_GUARD,
    PROSPECT_ROLL,
    PROSPECT_STAND,
    Action,
    State,
    _card_of,
)


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
