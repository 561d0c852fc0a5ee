"""Bakugan moves: the legal actions, the chance steps, applying an action."""

from __future__ import annotations

from ..core import (
    CHANCE,
    EngineError,
    copy_state,
)
from .battle import (
    _arrive,
    _resolve_battle,
)
from .effects import (
    _after_step,
    _battle_step,
    _battler_of,
    _card_rerolls,
    _holds,
    _pile_rerolls,
    _roll_steps,
    _turn_ok,
)
from .state import (
    _CLEAR,
    _LAND,
    _MOVE,
    _PASS,
    _PLACE,
    _PLAY,
    _ROLL,
    _SHIFT,
    _SKIP,
    MISS,
    WINDOW_WORDS,
    Action,
    State,
    _bname,
    _end_turn,
    _gate_label,
    _gname,
    _move_targets,
    _open_window,
    _roll_outcomes,
    _seat_word,
    _start_turn,
    _take_gate,
    to_act,
)
from .windows import (
    _advance_window,
    _banned,
    _barred,
    _has_card,
    _pass_in_window,
)


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
    if (
        kind == "before_roll"
        and state.rolling // 3 == seat
        and static.ab_pile[seat][idx]
    ):
        _card_rerolls(state, seat, idx)
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
    if b // 3 != seat:
        b = -1  # another player's roll: "you" are still the card's player
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
