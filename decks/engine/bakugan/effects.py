"""The Bakugan effects interpreter: card steps read into a battle or a roll."""

from __future__ import annotations

from cards.effects import (
    EFFECT_COUNTS,
    LATE_COUNTS,
    OPPOSITES,
)

from .state import (
    ATTRIBUTES,
    GATES_TO_WIN,
    Battle,
    State,
    _bname,
    _card_of,
    _finish,
    _gate_label,
    _gname,
    _known,
    _seat_word,
    _turn_order,
)

# --- card steps ------------------------------------------------------------


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
    battle = state.battle
    seat = b // 3 if b >= 0 else owner
    attr = _attr(state, b) if b >= 0 else None
    other = _other(battle, b) if battle is not None and b >= 0 else -1
    for name, value in step.when:
        check = _ANY_TIME.get(name)
        if check is None:
            if battle is None:
                return False  # the rest speak of a battle
            check = _IN_BATTLE.get(name)
            if check is None:
                if b < 0 or other < 0:
                    return False  # the rest compare a battler with its opponent
                check = _BETWEEN.get(name)
                if check is None:
                    return False
        if not check(state, owner, b, seat, attr, other, value):
            return False
    return True


# The conditions (``cards.effects.EFFECT_CONDITIONS``), each a function of
# (state, owner, b, seat, attr, other, value) as ``_holds`` reads them: ``b``
# the Bakugan, ``seat`` its owner's, ``attr`` its attribute, ``other`` its
# opponent in the battle (-1 for none).


def _rolled(state: State, owner, b, seat, attr, other, value) -> bool:
    battle = state.battle
    rolled = battle.attacker if battle is not None else state.rolling
    return (
        rolled >= 0 and rolled // 3 == owner and state.static.bak_attr[rolled] in value
    )


def _gates_won(state: State, owner, b, seat, attr, other, value) -> bool:
    mine = len(state.won[seat])
    others = [len(w) for s, w in enumerate(state.won) if s != seat]
    if value == "fewest":
        return mine < min(others)
    if value == "most":
        return mine > max(others)
    if value == "not_most":
        return not mine > max(others)
    return max(others) > mine


def _won_gate_named(state: State, owner, b, seat, attr, other, value) -> bool:
    names = state.static.gate_name
    return any(
        v.lower() in names[_card_of(state, g)].lower()
        for g in state.won[seat]
        for v in value
    )


def _most_or_fewest(rows: str):
    """Return the check that the seat's ``rows`` hold the most (or fewest) of all."""

    def check(state: State, owner, b, seat, attr, other, value) -> bool:
        counts = getattr(state, rows)
        mine = len(counts[seat])
        others = [len(r) for s, r in enumerate(counts) if s != seat]
        return mine > max(others) if value == "most" else mine < min(others)

    return check


def _in_piles(state: State, owner, b, seat, attr, other, value) -> bool:
    kinds = state.static.bak_attr
    return any(
        kinds[seat * 3 + i] in value for i in state.unused[seat] + state.used[seat]
    )


def _species_in(pile: str):
    """Return the check that one of the seat's ``pile`` is of those species."""

    def check(state: State, owner, b, seat, attr, other, value) -> bool:
        names = state.static.bak_lname
        return any(
            v.lower() in names[seat * 3 + i]
            for i in getattr(state, pile)[seat]
            for v in value
        )

    return check


def _standing_species(state: State, owner, b, seat, attr, other, value) -> bool:
    names = state.static.bak_lname
    return any(
        x >= 0 and x // 3 == seat and v.lower() in names[x]
        for x in state.field_bakugan
        for v in value
    )


def _used_attribute(same: bool):
    """Return the check that another used Bakugan has (or lacks) ``b``'s attribute."""

    def check(state: State, owner, b, seat, attr, other, value) -> bool:
        kinds = state.static.bak_attr
        return b >= 0 and any(
            (kinds[seat * 3 + i] == attr) == same
            for i in state.used[seat]
            if seat * 3 + i != b
        )

    return check


def _own_standing(state: State, owner, b, seat, attr, other, value) -> bool:
    kinds = state.static.bak_attr
    return any(
        x >= 0 and x // 3 == owner and kinds[x] in value for x in state.field_bakugan
    )


_ANY_TIME = {
    "attribute": lambda state, owner, b, seat, attr, other, value: attr in value,
    "rolled": _rolled,
    "landed": lambda state, owner, b, seat, attr, other, value: (
        (state.landed >= 0) == value
    ),
    "standing_elsewhere": lambda state, owner, b, seat, attr, other, value: any(
        x >= 0 and (x // 3 == seat) == (value == "self") for x in state.field_bakugan
    ),
    "gates_won": _gates_won,
    "attributes_min": lambda state, owner, b, seat, attr, other, value: (
        len({state.static.bak_attr[seat * 3 + i] for i in range(3)}) >= value
    ),
    "duplicate_species": lambda state, owner, b, seat, attr, other, value: (
        len({state.static.bak_lname[seat * 3 + i] for i in range(3)}) < 3
    ),
    "duplicate_attribute": lambda state, owner, b, seat, attr, other, value: (
        len({state.static.bak_attr[seat * 3 + i] for i in range(3)}) < 3
    ),
    "won_gate_named": _won_gate_named,
    "abilities_over_gates": lambda state, owner, b, seat, attr, other, value: (
        len(state.abilities_used[seat]) > len(state.won[seat])
    ),
    "used_bakugan": _most_or_fewest("used"),
    "abilities_left": _most_or_fewest("ability_hand"),
    "in_piles": _in_piles,
    "used_species": _species_in("used"),
    "unused_species": _species_in("unused"),
    "standing_species": _standing_species,
    "used_other_attribute": _used_attribute(False),
    "used_same_attribute": _used_attribute(True),
    # The site's decks hold no Bakugan Traps.
    "trap": lambda state, owner, b, seat, attr, other, value: False,
    "first_roll": lambda state, owner, b, seat, attr, other, value: not state.rerolled,
    "abilities_used_max": lambda state, owner, b, seat, attr, other, value: (
        len(state.abilities_used[seat]) <= value
    ),
    "only_gate": lambda state, owner, b, seat, attr, other, value: (
        len(state.field_gates) == 1
    ),
    "own_standing": _own_standing,
}


def _battle_has(state: State, owner, b, seat, attr, other, value) -> bool:
    battle = state.battle
    return any(_attr(state, x) in value for x in (battle.attacker, battle.defender))


def _own_species(state: State, owner, b, seat, attr, other, value) -> bool:
    mine = _battler_of(state, owner)
    names = state.static.bak_lname
    return mine // 3 == owner and any(v.lower() in names[mine] for v in value)


def _opponent_gate_best(state: State, owner, b, seat, attr, other, value) -> bool:
    grid = state.static.gate_bonus[_card_of(state, state.battle.gate)]
    return other >= 0 and (grid.get(_attr(state, other)) or 0) == max(grid.values())


def _own_attribute(state: State, owner, b, seat, attr, other, value) -> bool:
    mine = _battler_of(state, owner)
    return mine // 3 == owner and _attr(state, mine) in value


def _printed_gap(state: State, owner, b, seat, attr, other, value) -> bool:
    printed, battle = state.static.bak_g, state.battle
    return abs(printed[battle.attacker] - printed[battle.defender]) >= value


# Conditions that speak of a battle: none holds outside one.
_IN_BATTLE = {
    "opponent_attribute": lambda state, owner, b, seat, attr, other, value: (
        other >= 0 and _attr(state, other) in value
    ),
    "battle_has": _battle_has,
    "battle_lacks": lambda state, owner, b, seat, attr, other, value: (
        not (_battle_has(state, owner, b, seat, attr, other, value))
    ),
    "gate_class": lambda state, owner, b, seat, attr, other, value: (
        state.static.gate_class[_card_of(state, state.battle.gate)] in value
    ),
    "gate_owner": lambda state, owner, b, seat, attr, other, value: (
        (state.battle.gate // 3 == seat) == (value == "self")
    ),
    "own_attribute": _own_attribute,
    "own_species": _own_species,
    "opponent_gate_best": _opponent_gate_best,
    "tied": lambda state, owner, b, seat, attr, other, value: (
        bool(state.battle.powers)
        and state.battle.powers[0] == state.battle.powers[1] >= 0
    ),
    "printed_gap": _printed_gap,
}


def _printed(state: State, owner, b, seat, attr, other, value) -> bool:
    mine, theirs = state.static.bak_g[b], state.static.bak_g[other]
    if value == "lowest":
        return mine < theirs
    if value == "highest":
        return mine > theirs
    return not mine < theirs


def _opponent_repeats(state: State, owner, b, seat, attr, other, value) -> bool:
    them, kind = other // 3, _attr(state, other)
    kinds = state.static.bak_attr
    return any(
        kinds[them * 3 + i] == kind for i in state.used[them] if them * 3 + i != other
    )


def _result(state: State, owner, b, seat, attr, other, value) -> bool:
    winner = state.battle.winner
    won = winner == b
    return won if value == "win" else (winner >= 0 and not won)


def _margin(over: bool):
    """Return the check that the battle was decided by more (or less) than a value."""

    def check(state: State, owner, b, seat, attr, other, value) -> bool:
        powers = state.battle.powers
        if not powers or powers[0] < 0:
            return False
        margin = abs(powers[0] - powers[1])
        return margin > value if over else margin < value

    return check


# Conditions that compare a battler with its opponent: none holds without both.
_BETWEEN = {
    "printed": _printed,
    "ahead_by": lambda state, owner, b, seat, attr, other, value: (
        state.static.bak_g[b] - state.static.bak_g[other] >= value
    ),
    "behind_under": lambda state, owner, b, seat, attr, other, value: (
        0 < state.static.bak_g[other] - state.static.bak_g[b] < value
    ),
    "opponent_repeats": _opponent_repeats,
    "printed_max": lambda state, owner, b, seat, attr, other, value: (
        state.static.bak_g[b] <= value
    ),
    "printed_min": lambda state, owner, b, seat, attr, other, value: (
        state.static.bak_g[b] >= value
    ),
    "behind_by": lambda state, owner, b, seat, attr, other, value: (
        state.static.bak_g[other] - state.static.bak_g[b] >= value
    ),
    "species": lambda state, owner, b, seat, attr, other, value: any(
        v.lower() in state.static.bak_lname[b] for v in value
    ),
    "not_species": lambda state, owner, b, seat, attr, other, value: (
        not any(v.lower() in state.static.bak_lname[b] for v in value)
    ),
    "opposite": lambda state, owner, b, seat, attr, other, value: (
        OPPOSITES.get(attr) == _attr(state, other)
    ),
    "result": _result,
    "margin_over": _margin(True),
    "margin_under": _margin(False),
}


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


# The site's decks hold no Bakugan Traps: these steps find none to act on.
_TRAP_OPS = frozenset(("no_traps", "discard_traps", "return_traps"))


def _roll_steps(state: State, seat: int, steps) -> bool:
    """Apply the steps of a card played before or after a roll that act now.

    Return whether steps remain to be held for the seat's battle this turn.
    """
    held = False
    for step in steps:
        if step.timing == "used_pile":
            continue  # it acts from the used pile, in later battles
        act = _ACT_NOW.get(step.op)
        if act is None:
            held = True
        else:
            act(state, seat, step)
    return held


# --- steps of a card played around a roll that act at once: (state, seat, step) --


def _reroll_on_miss(state: State, seat: int, step) -> None:
    if (
        state.window_kind == "before_roll"
        and state.rolling // 3 == seat
        and _holds(state, seat, step, state.rolling)
    ):
        state.miss_rerolls += step.amount
        state.events.append(f"{_bname(state, state.rolling)} rolls again if it misses.")
    else:
        state.events.append("That re-roll does not apply to this roll.")


def _if_it_holds(act):
    """Return the step that does ``act(state, seat, step)`` if its conditions hold."""

    def apply(state: State, seat: int, step) -> None:
        if _holds(state, seat, step, state.rolling):
            act(state, seat, step)
        else:
            state.events.append("Its condition does not hold: no effect.")

    return apply


def _mine(state: State, seat: int, step) -> bool:
    """Return whether the step acts on the roll of its own side."""
    return (state.rolling // 3 == seat) != (step.target == "opponent")


def _reroll(state: State, seat: int, step) -> None:
    if (
        state.window_kind == "after_roll"
        and _mine(state, seat, step)
        and state.rolling >= 0
        and _holds(state, seat, step, state.rolling)
    ):
        state.reroll = True
        state.events.append(f"{_bname(state, state.rolling)} will roll again.")
    else:
        state.events.append("That re-roll does not apply to this roll.")


def _extra_turn(state: State, seat: int, step) -> None:
    if state.rolling // 3 == seat and _holds(state, seat, step, state.rolling):
        state.extra = seat
        state.events.append(
            f"{_seat_word(seat)} takes another turn if no battle comes."
        )
    else:
        state.events.append("That extra turn does not apply now.")


def _move_bakugan(state: State, seat: int, step) -> None:
    if (
        state.window_kind == "after_roll"
        and _mine(state, seat, step)
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


def _on_players(state: State, seat: int, step) -> None:
    # A player's cards and gates: the step acts when the card is played.
    if step.target == "self":
        seats = [seat]
    elif step.target == "all":
        seats = list(range(state.n))
    else:
        seats = [s for s in _turn_order(state) if s != seat]
    _seat_step(state, step, seats)


def _return_bakugan(state: State, seat: int, step) -> None:
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


def _clear_field(state: State, seat: int, step) -> None:
    if state.rolling // 3 != seat or not _holds(state, seat, step, state.rolling):
        state.events.append("Its condition does not hold: no effect.")
        return
    for k, b in enumerate(state.field_bakugan):
        if b >= 0:
            state.field_bakugan[k] = -1
            state.used[b // 3].append(b % 3)
    state.events.append("Every standing Bakugan goes to its owner's used pile.")


def _no_trap(state: State, seat: int, step) -> None:
    state.events.append("No Bakugan Trap is in play: no effect.")


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


# The ops that act when their card is played around a roll; the others are held
# for the seat's battle this turn.
_ACT_NOW = {
    "reroll_on_miss": _reroll_on_miss,
    **dict.fromkeys(_TRAP_OPS, _no_trap),
    "arm": lambda state, seat, step: None,  # read when the card is played
    "send_used": _if_it_holds(
        lambda state, seat, step: _send_used(state, seat, step.target)
    ),
    "peek_gates": lambda state, seat, step: _peek(state, seat, step.amount),
    "place_gate": _if_it_holds(lambda state, seat, step: _place_from_hand(state, seat)),
    "join_gate": _join_gate,
    "reroll": _reroll,
    "extra_turn": _extra_turn,
    "move_bakugan": _move_bakugan,
    "discard_ability": _if_it_holds(_on_players),
    "return_abilities": _if_it_holds(_on_players),
    "take_gate": _if_it_holds(_on_players),
    "return_bakugan": _return_bakugan,
    "clear_field": _clear_field,
}


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
    whole = _WHOLE_BATTLE.get(op)
    if whole is not None:
        if not _holds(state, owner, step, _battler_of(state, owner)):
            state.events.append("Its condition does not hold: no effect.")
            return
        whole(state, owner, is_gate, step)
        return
    found = _targets(state, owner, step.target, step.attribute)
    targets = tuple(b for b in found if _holds(state, owner, step, b))
    if not targets:
        if step.when:
            state.events.append("Its condition does not hold: no effect.")
        return
    _ON_BATTLERS.get(op, _no_battle_effect)(state, owner, is_gate, card, step, targets)


# --- battle steps that act on the whole battle: (state, owner, is_gate, step) ---


def _cancel_gate(state: State, owner: int, is_gate: bool, step) -> None:
    state.battle.cancelled = True
    state.events.append(f"The gate {_gname(state, state.battle.gate)} is cancelled.")


def _nullify_gate(state: State, owner: int, is_gate: bool, step) -> None:
    state.battle.nullified = True
    state.events.append(
        f"The text of {_gname(state, state.battle.gate)} does not count; "
        "its bonus does."
    )


def _cap_gate_bonus(state: State, owner: int, is_gate: bool, step) -> None:
    state.battle.steps.append((owner, is_gate, step.op, step.amount, ()))
    state.events.append(
        f"Gate bonuses above {step.amount} count as {step.amount} in this battle."
    )


def _battle_rule(said: str):
    """Return the step that records its op for the whole battle and says ``said``."""

    def apply(state: State, owner: int, is_gate: bool, step) -> None:
        state.battle.steps.append((owner, is_gate, step.op, 0, ()))
        state.events.append(said)

    return apply


# Ops that act on the whole battle, once their conditions hold for the card
# owner's battler.
_WHOLE_BATTLE = {
    "cancel_gate": _cancel_gate,
    "nullify_gate": _nullify_gate,
    "lower_wins": _battle_rule("In this battle the lower G-Power wins."),
    "swap_g_power": _battle_rule("The two Bakugan exchange G-Power."),
    "zero_printed": _battle_rule("Printed G-Power counts as zero in this battle."),
    "zero_ability_bonus": _battle_rule("Ability cards add no G-Power in this battle."),
    "cap_gate_bonus": _cap_gate_bonus,
    "clear_bonuses": _battle_rule("Every G-Power bonus so far in this battle is lost."),
}


# --- battle steps on the battlers they hold for --------------------------------
# Each takes (state, owner, is_gate, card, step, targets).


def _add_g_power(state, owner, is_gate, card, step, targets) -> None:
    if step.per not in LATE_COUNTS:
        _gain_g_power(state, owner, is_gate, card, step, targets)
        return
    # Counted when the battle is decided ("for each card played in it").
    colour = "" if is_gate else (state.static.ab_colour[owner][card] or "-")[0]
    for b in targets:
        state.battle.steps.append(
            (owner, is_gate, f"late/{step.per}/{colour}", step.amount, (b,))
        )
        state.events.append(
            f"{_bname(state, b)}: {step.amount:+d} G-Power for each "
            f"{EFFECT_COUNTS[step.per]}."
        )


def _gain_g_power(state, owner, is_gate, card, step, targets) -> None:
    static = state.static
    tag = "add_g_power" if is_gate else f"add_g_power/{static.ab_colour[owner][card]}"
    for b in targets:
        if step.op == "attribute_bonus":
            grid = static.gate_bonus[card] if is_gate else static.ab_bonus[owner][card]
            amount = _attribute_amount(state, step, grid, b)
        else:
            amount = step.amount
        if step.per:
            amount *= _count(state, b // 3, step.per, step.colours)
        state.battle.steps.append((owner, is_gate, tag, amount, (b,)))
        state.events.append(f"{_bname(state, b)}: {amount:+d} G-Power.")


def _attribute_amount(state: State, step, grid: dict, b: int) -> int:
    """Return what a card's printed bonus (``grid``) gives Bakugan ``b``."""
    static = state.static
    if step.of == "own_piles":
        seat = b // 3
        kinds = {
            static.bak_attr[seat * 3 + i] for i in state.unused[seat] + state.used[seat]
        }
        return sum(grid.get(k) or 0 for k in kinds) * step.amount
    if step.of == "opponent_used":
        them = _other(state.battle, b) // 3
        best = [grid.get(static.bak_attr[them * 3 + i]) or 0 for i in state.used[them]]
        return max(best, default=0) * step.amount
    whose = _other(state.battle, b) if step.of == "opponent" else b
    return (grid.get(_attr(state, whose)) or 0) * step.amount


def _best_gate_bonus(state, owner, is_gate, card, step, targets) -> None:
    state.battle.steps.append((owner, is_gate, step.op, 0, targets))
    names = " and ".join(_bname(state, b) for b in targets)
    state.events.append(f"{names}: the gate's highest bonus, whatever the attribute.")


def _copy_printed(state, owner, is_gate, card, step, targets) -> None:
    static = state.static
    for b in targets:
        them = _other(state.battle, b) // 3
        printed = [static.bak_g[them * 3 + i] for i in state.used[them]]
        if not printed:
            state.events.append("No Bakugan in the opponent's used pile to copy.")
            continue
        state.battle.steps.append((owner, is_gate, "set_printed", max(printed), (b,)))
        state.events.append(
            f"{_bname(state, b)}: printed G-Power {max(printed)} from now."
        )


def _gate_bonus_again(state, owner, is_gate, card, step, targets) -> None:
    for b in targets:
        times = step.amount
        if step.per:
            times *= _count(state, b // 3, step.per, step.colours)
        state.battle.steps.append((owner, is_gate, step.op, times, (b,)))
    names = " and ".join(_bname(state, b) for b in targets)
    state.events.append(f"{names}: the gate bonus counts again.")


def _no_gate_bonus(state, owner, is_gate, card, step, targets) -> None:
    state.battle.steps.append((owner, is_gate, step.op, 0, targets))
    names = " and ".join(_bname(state, b) for b in targets)
    state.events.append(f"{names}: no gate bonus.")


def _double_ability_bonus(state, owner, is_gate, card, step, targets) -> None:
    tag = "double_ability_bonus/" + "".join(c[0] for c in step.colours)
    state.battle.steps.append((owner, is_gate, tag, 0, targets))
    state.events.append("G-Power from Ability cards is doubled.")


def _no_abilities(state, owner, is_gate, card, step, targets) -> None:
    battle = state.battle
    if not step.colours:
        for b in targets:
            if b // 3 not in battle.barred:
                battle.barred.append(b // 3)
                state.events.append(
                    f"{_seat_word(b // 3)} may not play Ability cards in this battle."
                )
        return
    words = _or_words([c.capitalize() for c in step.colours])
    for b in targets:
        seat = b // 3
        for colour in step.colours:
            if f"{seat}{colour[0]}" not in battle.banned:
                battle.banned.append(f"{seat}{colour[0]}")
        state.events.append(
            f"{_seat_word(seat)} may not play {words} Ability cards in this battle."
        )


def _on_seats(state, owner, is_gate, card, step, targets) -> None:
    seats = []
    for b in targets:
        if b // 3 not in seats:
            seats.append(b // 3)
    _seat_step(state, step, seats)
    if state.over:
        state.battle.decided = True


def _win_gate(state, owner, is_gate, card, step, targets) -> None:
    if len(targets) == 1:
        battle = state.battle
        battle.decided, battle.winner = True, targets[0]
        state.events.append(f"{_bname(state, targets[0])} wins the battle at once.")


def _remove_bakugan(state, owner, is_gate, card, step, targets) -> None:
    battle = state.battle
    for b in targets:
        battle.removed.append(b)
        state.removed[b // 3].append(b % 3)
        state.events.append(f"{_bname(state, b)} is removed from the game (B12).")
    left = [b for b in (battle.attacker, battle.defender) if b not in battle.removed]
    battle.decided = True
    battle.winner = left[0] if len(left) == 1 else -1


def _no_battle_effect(state, owner, is_gate, card, step, targets) -> None:
    state.events.append("That has no effect in a battle.")


_ON_BATTLERS = {
    "add_g_power": _add_g_power,
    "attribute_bonus": _gain_g_power,
    "best_gate_bonus": _best_gate_bonus,
    "change_attribute": lambda state, owner, is_gate, card, step, targets: (
        _change_attribute(state, step, targets)
    ),
    "swap_battler": lambda state, owner, is_gate, card, step, targets: _swap_battler(
        state, step, targets
    ),
    "copy_printed": _copy_printed,
    "gate_bonus_again": _gate_bonus_again,
    "no_gate_bonus": _no_gate_bonus,
    "double_ability_bonus": _double_ability_bonus,
    "no_abilities": _no_abilities,
    "return_abilities": _on_seats,
    "discard_ability": _on_seats,
    "take_gate": _on_seats,
    "win_gate": _win_gate,
    "remove_bakugan": _remove_bakugan,
}


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
    for idx in state.abilities_used[seat]:
        _card_rerolls(state, seat, idx)


def _card_rerolls(state: State, seat: int, idx: int) -> None:
    """Give the rolled Bakugan the re-rolls that used Ability card ``idx`` grants.

    A card played in the window before its owner's roll grants them to that
    roll too (Rip Tide, Rainbow Portal): the Bakugan is thrown after the window.
    """
    static = state.static
    if static.ab_arm[seat][idx] and seat * 3 + idx not in state.armed:
        return
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
