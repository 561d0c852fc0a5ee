"""Bakugan ability windows (ruling B10): who may play, and what follows them.

A reading the rulings leave open: a card that moves the rolled Bakugan to
another gate waits for the Bakugan's landing. If another card has it rolled
again first, the move applies where the new roll lands; if that roll misses
every gate, there is nothing to move and the move is spent.
"""

from __future__ import annotations

from .battle import (
    _arrive,
    _land,
    _open_gate,
    _resolve_battle,
)
from .state import (
    BATTLE_WINDOWS,
    Action,
    State,
    _bname,
    _end_turn,
    _move_targets,
)


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
    elif then == "land" and state.shift and state.landed < 0:
        state.shift = False  # rolled again and missed: nothing to move
        _land(state)
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
