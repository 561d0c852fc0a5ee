"""Tally Ho's engine over the shared core: a tiny real game for the fifth-game test.

Two players each shuffle a ten-card deck and hold three cards. The player to
move plays a card from hand; when both have played, the higher tally scores a
point (equal tallies score nothing), both draw back to three while their deck
lasts, and the other player leads the next trick. The game ends when the
hands are empty; more points wins, equal points is a draw. It leaves out
everything else: no effects, no options, no chance steps.
"""

from __future__ import annotations

from dataclasses import dataclass

from cards.games import GAMES
from decks.engine.core import (
    EngineError,
    Rng,
    View,
    checked_options,
    copy_state,
    envelope,
    marked,
    seed_state,
    state_from_json,
    state_to_json,
)

GAME = GAMES["tally-ho"]
SLUG = GAME.slug
NAME = GAME.name
VERSION = "1"
MIN_PLAYERS = GAME.min_players
MAX_PLAYERS = GAME.max_players
TURN_CAP = 20
DECK_SIZE = 10
HAND_SIZE = 3


@dataclass(frozen=True)
class Play:
    """Play the card at ``index`` of the mover's hand."""

    index: int

    @property
    def text(self) -> str:
        return f"play {self.index}"


def parse_action(text: str) -> Play:
    """Return the action written ``text`` ("play 0")."""
    word, _, number = str(text).partition(" ")
    if word != "play" or not number.isdigit():
        raise EngineError("bad_action", f"{text!r} is not a Tally Ho move.")
    return Play(int(number))


@dataclass
class State:
    decks: list
    rng: Rng = marked("rng")
    piles: list = marked("rows")
    hands: list = marked("rows")
    points: list = marked("list")
    trick: list = marked("list")  # the cards played to this trick, in seat order
    events: list = marked("list", factory=list)
    leader: int = 0
    seat: int = 0
    tricks: int = 0
    over: bool = False


def _tally(card: dict) -> int:
    return card.get("g_power") or 0


def card_problems(card: dict) -> list[str]:
    """Return why a card cannot be played: its tally must be known."""
    return [] if card.get("g_power") else ["Its tally is not known."]


def new_game(decks, options: dict | None = None, seed: int = 0) -> State:
    """Return a new game: each deck shuffled by the seed, three cards in each hand."""
    checked_options(GAME, options)
    if len(decks) != 2:
        raise EngineError("bad_deck", "Tally Ho is played by two players.")
    piles = []
    for number, deck in enumerate(decks, 1):
        cards = list(deck.get("deck", []))
        if len(cards) != DECK_SIZE:
            raise EngineError(
                "bad_deck", f"Player {number}'s deck has {len(cards)} cards, not 10."
            )
        piles.append(cards)
    rng = Rng(seed_state(seed))
    for pile in piles:
        rng.shuffle(pile)
    hands = [pile[:HAND_SIZE] for pile in piles]
    piles = [pile[HAND_SIZE:] for pile in piles]
    return State(decks, rng, piles, hands, [0, 0], [None, None])


def to_act(state: State) -> int:
    return state.seat


def is_over(state: State) -> bool:
    return state.over


def winner(state: State) -> int | None:
    if not state.over or state.points[0] == state.points[1]:
        return None
    return 0 if state.points[0] > state.points[1] else 1


def player_count(state: State) -> int:
    return 2


def length(state: State) -> int:
    return state.tricks


def chance_outcomes(state: State) -> list:
    return []


def legal_actions(state: State) -> list[Play]:
    if state.over:
        return []
    return [Play(i) for i in range(len(state.hands[state.seat]))]


def apply(state: State, action, *, inplace: bool = False) -> State:
    """Return the state after the mover plays ``action``; refuse an illegal one."""
    if state.over:
        raise EngineError("game_over", "The game is over.")
    if not isinstance(action, Play) or action not in legal_actions(state):
        raise EngineError("illegal_action", "Play a card you hold.")
    st = state if inplace else copy_state(state)
    seat = st.seat
    card = st.hands[seat].pop(action.index)
    st.trick[seat] = card
    st.events = [f"Player {seat + 1} plays {card.get('name')} ({_tally(card)})."]
    if st.trick[1 - seat] is None:
        st.seat = 1 - seat
        return st
    _score_trick(st)
    return st


def _score_trick(st: State) -> None:
    first, second = (_tally(card) for card in st.trick)
    if first != second:
        taker = 0 if first > second else 1
        st.points[taker] += 1
        st.events.append(f"Player {taker + 1} takes the trick.")
    else:
        st.events.append("Equal tallies: nobody scores.")
    st.trick = [None, None]
    st.tricks += 1
    for hand, pile in zip(st.hands, st.piles, strict=True):
        if pile:
            hand.append(pile.pop(0))
    st.leader = st.seat = 1 - st.leader
    if not st.hands[0] or st.tricks >= TURN_CAP:
        st.over = True
        st.events.append(f"The game ends {st.points[0]} to {st.points[1]}.")


def describe(state: State, action) -> str:
    card = state.hands[state.seat][action.index]
    return f"Play {card.get('name')} ({_tally(card)})"


def action_cards(state: State, action) -> tuple[str, ...]:
    return (str(state.hands[state.seat][action.index].get("id")),)


def why_not(state: State, seat: int, key: str) -> str | None:
    if state.over:
        return "The game is over."
    if seat != state.seat:
        return f"It is Player {state.seat + 1}'s move."
    return None


def score(state: State, player: int) -> float:
    return float(state.points[player] - state.points[1 - player])


def view(state: State, player: int) -> View:
    """Return what ``player`` may see: their own hand, the other's hand counted."""
    seats = [
        {
            "hand": hand if seat == player else len(hand),
            "deck": len(pile),
            "points": points,
        }
        for seat, (hand, pile, points) in enumerate(
            zip(state.hands, state.piles, state.points, strict=True)
        )
    ]
    return envelope(
        SLUG,
        player,
        to_act=None if state.over else state.seat,
        legal_actions=[a.text for a in legal_actions(state)]
        if player == state.seat
        else [],
        over=state.over,
        winner=winner(state),
        reason="More points" if state.over else "",
        events=list(state.events),
        turn=state.tricks,
        seats=seats,
        trick=[card for card in state.trick if card is not None],
    )


def to_json(state: State) -> dict:
    return state_to_json(GAME, VERSION, state)


def from_json(data: dict) -> State:
    return state_from_json(data, GAME, VERSION, State, lambda values: State(**values))
