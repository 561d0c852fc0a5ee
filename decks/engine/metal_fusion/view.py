"""Metal Fusion seen by one player: the move in words, the view, the board."""

from __future__ import annotations

from ..core import (
    Rng,
    View,
    copy_state,
    envelope,
    redeal,
)
from . import (
    COLOURS,
    EFFECT,
    SLOTS,
    SLUG,
    TURN_CAP,
    Action,
    State,
    _involved,
    _Seat,
    legal_actions,
    power,
    to_act,
)


def describe(state: State, action: Action) -> str:
    """Return the action in plain words."""
    s = state
    kind = action.kind
    if kind == "reveal":
        return "Reveal the top card of your deck."
    if kind == "pass":
        return "Use nothing more; count the battle."
    if kind in ("hand", "boost") and s.card >= 0:
        name = s.seats[s.attacker].cards[s.card].name
        if kind == "hand":
            return f"Put {name} into your hand."
        return f"Slide {name} under your {action.arg} as a booster."
    seat = to_act(s)
    name = f"card #{action.arg}"
    if seat is not None and action.arg in s.seats[seat].by_number:
        name = s.seats[seat].cards[s.seats[seat].by_number[action.arg]].name
    if kind == "use":
        return f"Discard {name} from your hand to use its effect."
    if kind == "discard":
        return f"Discard {name} from your hand."
    return action.text


def _card_view(info: _Seat, index: int) -> dict:
    card = info.cards[index]
    return {
        "id": info.dicts[index].get("id"),
        "name": card.name,
        "number": card.number,
        "type": "effect" if card.slot == EFFECT else SLOTS[card.slot],
        "launcher": COLOURS[card.launcher] if card.launcher >= 0 else None,
    }


def _booster_code(info: _Seat, index: int) -> str | None:
    return info.dicts[index].get("boosters")


def view(state: State, player: int) -> View:
    """Return what ``player`` may see: others' hands as counts, no deck order."""
    s = state
    seats = []
    for seat in range(s.players):
        info = s.seats[seat]
        own = seat == player
        boosters = {}
        for slot, pile in zip(SLOTS, s.boosters[seat], strict=True):
            if own:
                boosters[slot] = [
                    dict(_card_view(info, i), boosters=_booster_code(info, i))
                    for i in pile
                ]
            else:
                boosters[slot] = [{"boosters": _booster_code(info, i)} for i in pile]
        seats.append(
            {
                "player": seat,
                "lineup": [_card_view(info, i) for i in range(3)],
                "deck": len(s.deck[seat]),
                "hand": [_card_view(info, i) for i in s.hand[seat]]
                if own
                else len(s.hand[seat]),
                "hand_count": len(s.hand[seat]),
                "discard": [_card_view(info, i) for i in s.discard[seat]],
                "boosters": boosters,
            }
        )
    battle = None
    if s.card >= 0:
        battle = {
            "attacker": s.attacker,
            "defenders": s.defenders[:],
            "colour": COLOURS[s.colour],
            "card": _card_view(s.seats[s.attacker], s.card),
            "power": [
                dict(
                    zip(
                        ("player", "total", "parts"),
                        (seat, *power(s, seat)),
                        strict=True,
                    )
                )
                for seat in _involved(s)
            ],
        }
    acting = to_act(s)
    return envelope(
        SLUG,
        player,
        to_act=acting,
        legal_actions=[a.text for a in legal_actions(s)] if acting == player else [],
        over=s.phase == "over",
        winner=s.winner,
        reason=s.reason,
        events=s.events[:],
        turn=s.turn,
        seats=seats,
        variant=s.variant,
        hand_to_win=s.target,
        turn_cap=TURN_CAP,
        phase=s.phase,
        battle=battle,
        log=s.log[:],
    )


def determinize(
    state: State, player: int, rng: Rng, *, hands_shown: bool = False
) -> State:
    """Return a copy of ``state`` as ``player`` may believe it, drawn with ``rng``.

    What ``player`` cannot see is dealt anew (``redeal``): each seat's deck
    order, and the hand of every other seat, among that seat's own hidden
    places; the game's generator is reseeded. The deck lists are taken as
    known. A face-down booster stays where it is: its booster code, which is
    all it adds to a battle, is shown to everyone. ``hands_shown`` leaves the
    other seats' hands as they are: a measuring device
    (``search.SearchBot(sees_hands=True)``), never a player's view.
    """
    s = copy_state(state)
    for p in range(s.players):
        hidden = p != player and not hands_shown
        redeal([s.deck[p], s.hand[p]] if hidden else [s.deck[p]], rng)
    s.rng = rng.next64()
    return s


# --- the board: which card a move plays, and why a card cannot be played ------


def action_cards(state: State, action: Action) -> tuple[str, ...]:
    """Return the board keys of the cards ``action`` plays.

    A hand card is keyed by its number; the won card of this battle is
    ``"revealed"`` (into the hand or under the line-up) and a line-up card by
    its slot (the booster goes under it). A reveal or a pass names no card.
    """
    kind = action.kind
    if kind in ("use", "discard"):
        return (str(action.arg),)
    if kind == "hand":
        return ("revealed",)
    if kind == "boost":
        return ("revealed", action.arg)
    return ()


def why_not(state: State, seat: int, key: str) -> str | None:
    """Return why ``seat`` cannot play hand card ``key`` now, or None when it can.

    The checks are ``_usable``'s (a "discard from your hand" effect, used in
    the counting window of a battle its owner fights, ruling M7, when its
    step applies to this battle) and the window's turn order.
    """
    s = state
    if s.phase == "over":
        return "The game is over."
    acting = to_act(s)
    if acting == seat and any(key in action_cards(s, a) for a in legal_actions(s)):
        return None
    info = s.seats[seat]
    index = info.by_number.get(int(key)) if str(key).isdigit() else None
    if index is None or index not in s.hand[seat]:
        return "That card is not in your hand."
    card = info.cards[index]
    if index not in info.hand_cards:
        return (
            f"{card.name} has no effect to use from the hand; it counts as a card held."
        )
    if s.phase != "window" or seat not in _involved(s):
        return f"{card.name} is used while a battle you fight is counted (ruling M7)."
    if acting != seat:
        return f"Wait for your turn in the counting window: Player {acting + 1} first."
    return f"{card.name}'s effect does not apply in this battle."
