"""The board's card moves: each engine's ``action_cards`` and ``why_not``.

A card on the board is clicked to make the moves that play it; a card in hand
that no legal move plays is greyed with the engine's reason. Over random
playouts of every game: a hand card has a reason exactly when no legal move of
its seat uses it, every legal move that plays a card names a card the seat can
see, and the reasons come from the rules (scripted below).
"""

from __future__ import annotations

import random

import pytest

from decks.engine.core import CHANCE
from tests.engine.scenarios import CASES


def hand_keys(slug: str, view, seat: int) -> list[str]:
    """Return the keys of the cards ``seat`` holds, as its board shows them."""
    if slug == "collide-o":
        return [str(c["card"]) for c in view.board["hand"]]
    mine = view.seats[seat]
    if slug == "collision":
        return [str(c["uid"]) for c in mine["hand"]]
    if slug == "metal-fusion":
        return [str(c["number"]) for c in mine["hand"]]
    return (
        [g["id"] for g in mine["gate_hand"]]
        + [a["id"] for a in mine["ability_hand"]]
        + [b["id"] for b in mine["unused"]]
    )


def board_keys(slug: str, view, seat: int) -> set[str]:
    """Return every key ``seat`` may click on its board."""
    keys = set(hand_keys(slug, view, seat))
    if slug == "collision":
        keys |= {str(c["uid"]) for c in view.seats[seat]["characters"]}
    elif slug == "metal-fusion":
        keys |= {"revealed", "character", "beyblade", "customizer"}
    elif slug == "collide-o":
        keys |= {"left", "right"}
    else:
        for gate in view.board["field"]:
            keys.add(gate["id"])
            if gate["bakugan"]:
                keys.add(gate["bakugan"]["id"])
    return keys


def playouts(slug: str, games: int):
    """Yield (state, seat to act) along random playouts of ``slug``."""
    case = CASES[slug]
    game = case.game
    for seed in range(games):
        players, options = case.setups[seed % len(case.setups)]
        state = game.new_game(case.decks(players, seed), dict(options), seed)
        rng = random.Random(seed)
        for _ in range(400):
            if game.is_over(state):
                break
            seat = game.to_act(state)
            if seat == CHANCE:
                outcomes = game.chance_outcomes(state)
                action = rng.choices(*zip(*outcomes, strict=True))[0]
            else:
                yield state, seat
                action = rng.choice(game.legal_actions(state))
            state = game.apply(state, action)


SLUGS = sorted(CASES)
# A rule's own refusal met along the playouts of each game.
RULE_REASONS = {
    "collision": "Stop needs a green card: yellow is stopped by green.",
    "metal-fusion": "has no effect to use from the hand",
    "collide-o": "It fits neither end, even turned: the left end needs ",
    "bakugan": "is played in battle; this window is before the roll.",
}


@pytest.mark.parametrize("slug", SLUGS)
def test_a_hand_card_has_a_reason_exactly_when_no_legal_move_plays_it(slug):
    game = CASES[slug].game
    reasons: set = set()
    for state, acting in playouts(slug, 12):
        legal = game.legal_actions(state)
        played = {k for a in legal for k in game.action_cards(state, a)}
        for seat in range(game.player_count(state)):
            view = game.view(state, seat)
            for key in hand_keys(slug, view, seat):
                why = game.why_not(state, seat, key)
                if seat == acting and key in played:
                    assert why is None, (key, why)
                else:
                    assert isinstance(why, str) and why, key
                    reasons.add(why)
    assert [r for r in reasons if RULE_REASONS[slug] in r]


@pytest.mark.parametrize("slug", SLUGS)
def test_every_legal_card_move_names_a_card_its_player_can_see(slug):
    game = CASES[slug].game
    for state, seat in playouts(slug, 8):
        keys = board_keys(slug, game.view(state, seat), seat)
        for action in game.legal_actions(state):
            named = game.action_cards(state, action)
            assert not named or set(named) & keys, (action.text, named, keys)
