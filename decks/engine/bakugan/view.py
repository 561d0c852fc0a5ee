"""Bakugan in words: the log text of a move, a player's view, the saved form."""

from __future__ import annotations

import re

from ..core import (
    View,
    envelope,
    state_from_json,
    state_to_json,
)
from .play import (
    _why_illegal,
    legal_actions,
)
from .state import (
    _PLAY,
    _ROLL,
    GAME,
    SLUG,
    VERSION,
    WINDOW_WORDS,
    Action,
    State,
    _card_of,
    _gate_label,
    _gname,
    _known,
    _seat_word,
    new_game,
    to_act,
    winner,
)
from .windows import (
    _barred,
)

# --- describing, viewing, serialising --------------------------------------


def _describe_shift(state: State, action: Action, who: str) -> str:
    name = state.static.bak_name[action.seat * 3 + action.arg]
    return f"{who} moves {name} to {_gname_for(state, action.arg2, action.seat)}."


# Action kind -> its words, from the state, the action and its seat's name.
_DESCRIPTIONS = {
    "miss": lambda state, action, who: "The Bakugan misses every gate.",
    # Whoever enters a roll may not know the gate: name it only once open.
    "land": lambda state, action, who: (
        f"The Bakugan lands on {_gname_for(state, action.arg, -1)}."
    ),
    "place": lambda state, action, who: (
        f"{who} places "
        f"{state.static.gate_name[action.seat * 3 + action.arg]} face down."
    ),
    "roll": lambda state, action, who: (
        f"{who} rolls {state.static.bak_name[action.seat * 3 + action.arg]}."
    ),
    "play": lambda state, action, who: (
        f"{who} plays {state.static.ab_name[action.seat][action.arg]}."
    ),
    "pass": lambda state, action, who: f"{who} plays no more ability cards now.",
    "move": lambda state, action, who: (
        f"{who} moves the Bakugan to {_gname_for(state, action.arg, action.seat)}."
    ),
    "shift": _describe_shift,
    "clear": lambda state, action, who: (
        f"{who} moves {_gname_for(state, action.arg, action.seat)} to their used pile."
    ),
    "skip": lambda state, action, who: f"{who} has no Bakugan and skips the turn.",
}


def describe(state: State, action: Action) -> str:
    """Return the action in plain words."""
    who = _seat_word(action.seat) if action.seat >= 0 else ""
    return _DESCRIPTIONS.get(action.kind, _DESCRIPTIONS["skip"])(state, action, who)


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
