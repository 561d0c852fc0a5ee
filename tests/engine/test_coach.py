"""The coach: each move's win chance from what the seat sees, best first, and a
game's review, deterministic for a seed, in every game (preset decks, no database)."""

from __future__ import annotations

import pytest

from decks.engine.bots import make_bot
from decks.engine.coach import (
    COSTLY_POINTS,
    ReviewedMove,
    coach_seed,
    move_chances,
    review,
    turning_point,
)
from decks.engine.core import CHANCE, Rng, resolve_chance, seed_state

from .test_search import SLUGS, _setup, _shuffled_unseen, _walk

PLAYOUTS = 120  # fewer than the site's: the properties hold at any count


def _position(slug: str, seed: int, steps: int = 20):
    """Return a position with a choice, ``steps`` random moves in or fewer."""
    game, decks, options = _setup(slug, seed)
    for walked in range(steps, -1, -1):
        state = _walk(game, game.new_game(decks, options, seed), walked, seed)
        if not game.is_over(state):
            return game, state
    raise AssertionError("The game is over before its first choice.")


@pytest.mark.parametrize("slug", SLUGS)
def test_a_hint_lists_every_legal_move_once_best_first(slug):
    game, state = _position(slug, 4)
    chances = move_chances(game, state, 7, PLAYOUTS)
    assert sorted(c.text for c in chances) == sorted(
        a.text for a in game.legal_actions(state)
    )
    values = [c.chance for c in chances]
    assert values == sorted(values, reverse=True)
    assert all(0.0 <= v <= 1.0 for v in values)
    assert sum(c.playouts for c in chances) == PLAYOUTS


@pytest.mark.parametrize("slug", SLUGS)
def test_a_hint_is_the_same_for_the_same_seed(slug):
    game, state = _position(slug, 4, steps=12)
    assert move_chances(game, state, 9, PLAYOUTS) == move_chances(
        game, state, 9, PLAYOUTS
    )


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("seed", [1, 4, 6])
def test_shuffling_the_opponents_hand_and_deck_leaves_the_hint_unchanged(slug, seed):
    game, state = _position(slug, seed, steps=4 * seed)
    seat = game.to_act(state)
    shuffled = _shuffled_unseen(slug, state, seat, seed + 100)
    # Nothing the seat may see moved ...
    assert game.view(shuffled, seat) == game.view(state, seat)
    # ... and the list and every number are the same.
    hint_seed = coach_seed(seed, 4 * seed)
    assert move_chances(game, shuffled, hint_seed, PLAYOUTS) == move_chances(
        game, state, hint_seed, PLAYOUTS
    )


def _logged_game(slug: str, seed: int):
    """Return (game, decks, options, log) of a random bot against the greedy bot."""
    game, decks, options = _setup(slug, seed)
    state = game.new_game(decks, options, seed)
    bots = [make_bot("random", seed), make_bot("greedy", seed + 1)]
    chance = Rng(seed_state(seed, 7))
    log = []
    while not game.is_over(state) and len(log) < 400:
        seat = game.to_act(state)
        if seat == CHANCE:
            action = resolve_chance(game, state, chance)
        else:
            action = bots[seat].choose(game, state)
        state = game.apply(state, action, inplace=True)
        log.append(action.text)
    return game, decks, options, log


@pytest.mark.parametrize("slug", SLUGS)
def test_a_review_is_identical_for_a_seed_and_covers_each_real_choice(slug):
    game, decks, options, log = _logged_game(slug, 4)
    told = []
    first = review(
        game, decks, options, 4, log, 0, lambda d, t: told.append((d, t)), 40
    )
    assert first == review(game, decks, options, 4, log, 0, playouts=40)
    assert first and told[-1] == (len(first), len(first))
    state = game.new_game(decks, options, 4)
    steps = []
    for step, text in enumerate(log):
        if game.to_act(state) == 0 and len(game.legal_actions(state)) > 1:
            steps.append(step)
        state = game.apply(state, game.parse_action(text), inplace=True)
    assert [m.step for m in first] == steps
    assert all(m.text == log[m.step] and m.best_chance >= m.chance for m in first)


def _move(step: int, chance: float, best: float) -> ReviewedMove:
    return ReviewedMove(step, step, f"m{step}", chance, "b", best)


def test_the_turning_point_is_the_costliest_move_and_ten_points_is_not_costly():
    moves = [
        _move(0, 0.5, 0.5 + COSTLY_POINTS / 100),
        _move(1, 0.3, 0.6),
        _move(2, 0.2, 0.5),
        _move(3, 0.4, 0.45),
    ]
    assert [m.costly for m in moves] == [False, True, True, False]
    assert turning_point(moves).step == 1  # the earliest of two 30-point losses
    assert turning_point(moves[:1]) is None
