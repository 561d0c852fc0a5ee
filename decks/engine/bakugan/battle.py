"""Bakugan landings and battles: a gate opens, powers add up, a winner takes it."""

from __future__ import annotations

from .effects import (
    _after_step,
    _battle_step,
    _count,
    _pile_steps,
)
from .state import (
    Battle,
    State,
    _bname,
    _card_of,
    _end_turn,
    _gname,
    _move_targets,
    _open_window,
    _seat_word,
    _take_gate,
    _turn_order,
)

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
        elif op == "swap_g_power":
            # G-Power Exchange swaps the printed G-Power: each side keeps its
            # bonuses, those given before the gate opened too.
            power.reverse()
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


def battle_winner(first_landed: int, second: int) -> int:
    """Return 0 when the Bakugan that landed first wins a plain battle, else 1.

    The one place the tie rule lives (rules text, "Battle"): a tie goes to the
    Bakugan that landed first. The engine's battles and the table companion ask it.
    """
    return 0 if first_landed >= second else 1


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
        # The defender landed first; a "lower wins" battle compares negated powers.
        first, second = (-power[1], -power[0]) if lower else (power[1], power[0])
        battle.winner = att if battle_winner(first, second) else dfn
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
