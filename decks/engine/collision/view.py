"""Collision seen by one player: the view, the guess of hidden cards, the board."""

from __future__ import annotations

from ..core import (
    Rng,
    View,
    copy_state,
    envelope,
    redeal,
)
from . import (
    SLUG,
    Action,
    State,
    _act,
    _order,
    _refusal,
    legal_actions,
    to_act,
)


def view(state: State, player: int) -> View:
    """Return what ``player`` may see: no hidden hands, deck order or spin faces."""
    s = state
    cards = s.cards
    seats = []
    for p in range(s.n):
        seat = {
            "seat": p,
            "blade": cards[s.blade[p]].public(),
            "spin_strength": cards[s.blade[p]].spin,
            "spin": len(s.spin[p]),
            "deck": len(s.deck[p]),
            "discard": [cards[uid].public() for uid in s.discard[p]],
            "battle_pile": [cards[uid].public() for uid in s.pile[p]],
            "characters": [cards[uid].public() for uid in s.characters[p]],
            "out": s.out[p],
        }
        if p == player:
            seat["hand"] = [cards[uid].public() for uid in s.hand[p]]
        else:
            seat["hand"] = len(s.hand[p])
        seats.append(seat)
    choice = None
    if s.choice is not None:
        kind, chooser, subject, remaining, hidden, _ = s.choice
        choice = {"kind": kind, "chooser": chooser, "subject": subject}
        choice["remaining"] = remaining
        if kind == "pick":
            choice["face_down"] = len(hidden)
    acting = to_act(s)
    return envelope(
        SLUG,
        player,
        to_act=acting,
        legal_actions=[a.text for a in legal_actions(s)] if acting == player else [],
        over=s.phase == "over",
        winner=s.winner,
        reason=s.reason,
        events=list(s.events),
        turn=s.turn,
        seats=seats,
        advanced=s.advanced,
        turn_player=s.turn_player,
        phase=s.phase,
        attacker=s.attacker,
        defender=s.defender,
        choice=choice,
        log=list(s.log),
    )


def determinize(
    state: State, player: int, rng: Rng, *, hands_shown: bool = False
) -> State:
    """Return a copy of ``state`` as ``player`` may believe it, drawn with ``rng``.

    What ``player`` cannot see is dealt anew (``redeal``): each seat's deck
    order and face-down spin, and the hand of every other seat, among that
    seat's own hidden places; a pending face-down pick is shuffled again; the
    game's generator is reseeded. The deck lists are taken as known, so the
    cards a seat still hides are its deck list less what it has shown.
    ``hands_shown`` leaves the other seats' hands as they are: a measuring
    device (``search.SearchBot(sees_hands=True)``), never a player's view.
    """
    s = copy_state(state)
    for p in range(s.n):
        zones = [s.deck[p], s.spin[p]]
        if p != player and not hands_shown:
            zones.append(s.hand[p])
        redeal(zones, rng)
    if s.choice is not None and s.choice[0] == "pick":
        kind, chooser, subject, amount, _, uid = s.choice
        hidden = sorted(s.hand[subject])
        rng.shuffle(hidden)
        s.choice = (kind, chooser, subject, amount, tuple(hidden), uid)
    s.rng = Rng(rng.next64())
    s.cached = None
    return s


# --- the board: which card a move plays, and why a card cannot be played ------


def action_cards(state: State, action: Action) -> tuple[str, ...]:
    """Return the board keys (card uids as text) of the cards ``action`` plays.

    The board lets a player click a card to make the move; a pass, a no-stop
    or a pick among face-down cards names no card.
    """
    if action.kind in ("play", "test", "stop", "discard", "remove"):
        return (str(action.card),)
    return ()


def why_not(state: State, seat: int, key: str) -> str | None:
    """Return why ``seat`` cannot play card ``key`` now, or None when a legal move does.

    The reason is the engine's own refusal of the card's natural move (the
    one ``apply`` would raise): a stop of the wrong colour, a second copy of a
    Character's title, another player's move, a choice under way.
    """
    s = state
    if s.phase == "over":
        return "The game is over."
    if not (isinstance(key, str) and key.isdigit() and int(key) < len(s.cards)):
        return "That is not a card of this game."
    acting = to_act(s)
    if acting == seat and any(key in action_cards(s, a) for a in legal_actions(s)):
        return None
    uid = int(key)
    card = s.cards[uid]
    if acting != seat:
        return f"Not your move: it is Player {acting + 1}'s."
    if s.phase == "stop":
        candidate = card.stop
    elif s.phase == "main":
        opponents = [q for q in _order(s, seat) if q != seat]
        kind = "test" if s.advanced and card.kind != "action" else "play"
        candidate = _act(kind, uid, opponents[0] if opponents else -1)
    else:
        candidate = _act("discard", uid)
    message = _refusal(s, candidate).message
    if message.startswith("That move is not allowed now:"):
        # The catch-all names the move's log form; the player needs the rest.
        message = message.split(". ", 1)[-1]
    return message
