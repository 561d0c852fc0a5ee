"""Cards played by clicking them: which board card makes which move, and greying.

The board draws a card that a legal move plays as a button (one move) or a
button opening the list of its moves (several: a card played against either
opponent, on either end); a card in hand that no legal move plays is greyed
with the engine's reason (``why_not``). Each engine says which cards a move
plays (``action_cards``): the rule stays in the engine, the board only asks.
"""

from __future__ import annotations

from ..engine.core import EngineError
from .names import speak
from .services import HUMAN_KINDS, Choice


def card_moves(game, state, choices: list[Choice]) -> dict[str, list[Choice]]:
    """Return the board's card keys mapped to the moves (choices) that play them."""
    moves: dict[str, list[Choice]] = {}
    for choice in choices:
        try:
            action = game.parse_action(choice.id)
        except EngineError:  # "let the seed decide" is no move of a card
            continue
        for key in game.action_cards(state, action):
            moves.setdefault(str(key), []).append(choice)
    return moves


def may_grey(pt, seat: int) -> bool:
    """Return whether ``seat``'s board greys the cards it cannot play (a player's seat)."""
    return 0 <= seat < len(pt.seats or []) and pt.seats[seat]["kind"] in HUMAN_KINDS


def card_reason(game, state, seat: int, key, names: list[str]) -> str | None:
    """Return why ``seat`` cannot play card ``key``, spoken with the seats' names."""
    why = game.why_not(state, seat, str(key))
    return speak(why, names) if why else None
