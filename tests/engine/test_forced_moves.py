"""The bots' loop skips forced moves exactly (issue 21, item 4).

``bots.play_out`` lets a game play, in one call, the moves that are the only
legal one (``play_forced``), and tells each bot how many were its own
(``skip``). These tests hold every piece to its plain definition: the game's
``play_forced`` to ``bots.play_forced_reference`` at every state of whole
games, a bot's ``skip`` to ``choose`` among one action, ``Rng.skip`` and
``Rng.shuffle`` to their draws one by one, and ``play_out`` to
``play_out_reference``.
"""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.engine import metal_fusion as mf
from decks.engine.bots import (
    GreedyBot,
    RandomBot,
    make_bot,
    play_forced_reference,
    play_out,
    play_out_reference,
)
from decks.engine.core import CHANCE, Rng, resolve_chance, seed_state
from tests.engine.scenarios import (
    playout_decks,
    varied_decks,
)

SEEDS = st.integers(0, 2**31)


@given(state=st.integers(0, (1 << 64) - 1), size=st.integers(0, 70))
def test_the_lane_shuffle_equals_the_plain_shuffle(state, size):
    fast, plain = Rng(state), Rng(state)
    fast_items, plain_items = list(range(size)), list(range(size))
    fast.shuffle(fast_items)
    plain.shuffle_reference(plain_items)
    assert fast_items == plain_items
    assert fast.state == plain.state


@given(state=st.integers(0, (1 << 64) - 1), draws=st.integers(0, 300))
def test_skipping_draws_leaves_the_state_of_drawing_them(state, draws):
    skipped, drawn = Rng(state), Rng(state)
    skipped.skip(draws)
    for _ in range(draws):
        drawn.next64()
    assert skipped.state == drawn.state


class _OneMove:
    """A game whose every position has one legal move (for a bot's ``choose``)."""

    @staticmethod
    def legal_actions(state):
        return ["only"]


@given(seed=SEEDS, moves=st.integers(0, 50))
def test_a_bots_skip_equals_choosing_among_one_action(seed, moves):
    for kind in (RandomBot, GreedyBot):
        skipped, chosen = kind(seed), kind(seed)
        skipped.skip(moves)
        for _ in range(moves):
            assert chosen.choose(_OneMove, None) == "only"
        assert skipped.rng.state == chosen.rng.state


class _Moves:
    """A game whose every position offers the same three moves (for ``mover``)."""

    @staticmethod
    def legal_actions(state):
        return ["a", "b", "c"]


@given(seed=SEEDS, moves=st.integers(0, 50))
def test_a_random_bots_mover_draws_as_its_choose(seed, moves):
    """``play_out`` moves a random bot by ``mover``: the same moves, the same generator."""
    moved, chosen = RandomBot(seed), RandomBot(seed)
    mover = moved.mover(_Moves)
    assert [mover(None) for _ in range(moves)] == [
        chosen.choose(_Moves, None) for _ in range(moves)
    ]
    assert moved.rng.state == chosen.rng.state


def _plain(decks):
    """Return ``decks`` with every card's text taken off (every battle plain)."""
    decks = copy.deepcopy(decks)
    for one in decks:
        for raw in one["lineup"] + one["deck"]:
            raw["effects"] = []
    return decks


def _mixed(decks):
    """Return ``decks`` with text left on seat 1 only (plain and long battles)."""
    plain = _plain(decks)
    plain[1] = copy.deepcopy(decks[1])
    return plain


def _plain_deck_cards(decks):
    """Return plain decks with no Effect card at all: every battle is plain."""
    decks = _plain(decks)
    for one in decks:
        for raw in one["deck"]:
            if raw["card_type"] == "effect":
                raw["card_type"] = "beyblade"
    return decks


DECKS = {
    "varied": varied_decks,
    "playout": playout_decks,
    "plain": lambda players: _plain(varied_decks(players)),
    "no effects": lambda players: _plain_deck_cards(varied_decks(players)),
    "mixed": lambda players: _mixed(playout_decks(players)),
}
SETUPS = [
    (2, {"variant": "left"}),
    (3, {"variant": "left"}),
    (3, {"variant": "all"}),
    (4, {"variant": "all"}),
]


def _seen(state) -> tuple:
    return (json.dumps(mf.to_json(state), sort_keys=True), list(state.events))


@pytest.mark.parametrize("decks", DECKS)
@pytest.mark.parametrize(("players", "options"), SETUPS)
@settings(max_examples=4, deadline=None)
@given(seed=SEEDS)
def test_metal_fusion_plays_forced_moves_as_the_plain_loop(
    decks, players, options, seed
):
    """At every state of a random game, ``play_forced`` equals the reference."""
    state = mf.new_game(DECKS[decks](players), options, seed)
    rng = Rng(seed_state(seed, 5))
    checked = 0
    while not mf.is_over(state):
        fast, plain = mf.copy_state(state), mf.copy_state(state)
        made = mf.play_forced(fast)
        assert made == play_forced_reference(mf, plain)
        assert _seen(fast) == _seen(plain)
        checked += sum(made)
        action = rng.choice(mf.legal_actions(state))
        state = mf.apply(state, action, inplace=True)
    assert mf.play_forced(state) == [0] * players  # nothing to play at the end
    assert checked > 0


def _random_game(decks, players, options, seed, loop) -> tuple:
    """Play a game of random moves, ``loop`` making them; return what it shows."""
    state = mf.new_game(DECKS[decks](players), options, seed)
    rng = Rng(seed_state(seed, 5))
    loop(state, rng)
    return _seen(state), state.log


def _move_by_move(state, rng):
    while not mf.is_over(state):
        mf.apply(state, rng.choice(mf.legal_actions(state)), inplace=True)


def _forced_in_runs(state, rng):
    while True:
        rng.skip(sum(mf.play_forced(state)))
        if mf.is_over(state):
            return
        mf.apply(state, rng.choice(mf.legal_actions(state)), inplace=True)


@pytest.mark.parametrize("decks", DECKS)
@pytest.mark.parametrize(("players", "options"), SETUPS)
@settings(max_examples=4, deadline=None)
@given(seed=SEEDS)
def test_plain_battles_are_fought_as_the_long_way_fights_them(
    decks, players, options, seed
):
    """The plain-battle path (kept results included) against ``_reveal``'s long way.

    With ``_plain_battles`` switched off every battle takes the long way
    (``_reveal``, ``_settle``, ``_compare``): the plain definition. Whole
    games, so the results kept between boosters are tested as a game keeps
    them; one generator draws for every seat, its forced draws skipped.
    """
    fast = _random_game(decks, players, options, seed, _move_by_move)
    runs = _random_game(decks, players, options, seed, _forced_in_runs)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mf, "_plain_battles", lambda s, made=None: 0)
        plain = _random_game(decks, players, options, seed, _move_by_move)
    assert fast == plain
    assert runs == plain


@pytest.mark.parametrize("decks", DECKS)
@pytest.mark.parametrize(("players", "options"), SETUPS)
@settings(max_examples=3, deadline=None)
@given(seed=SEEDS, kinds=st.sampled_from([("random",), ("greedy", "random")]))
def test_play_out_plays_the_games_of_the_plain_loop(
    decks, players, options, seed, kinds
):
    """Whole games: the same log, saved form, events and bot generators."""
    played = []
    for loop in (play_out, play_out_reference):
        state = mf.new_game(DECKS[decks](players), options, seed)
        bots = [
            make_bot(kinds[min(s, len(kinds) - 1)], seed * 31 + s)
            for s in range(players)
        ]
        state = loop(mf, state, bots, Rng(seed_state(seed, 7)))
        played.append((_seen(state), state.log, [bot.rng.state for bot in bots]))
    assert played[0] == played[1]


def test_bots_without_skip_are_played_move_by_move():
    """A bot that cannot skip (the search bot) is asked at every move."""
    asked = []

    class Counting:
        def __init__(self, seed):
            self.inner = RandomBot(seed)

        def choose(self, game, state):
            asked.append(game.to_act(state))
            return self.inner.choose(game, state)

    state = mf.new_game(varied_decks(2), {}, 5)
    state = play_out(mf, state, [Counting(1), Counting(2)], Rng(3))
    assert len(asked) == len(state.log)


def test_a_chance_step_stops_the_plain_forced_moves():
    """``play_forced_reference`` leaves chance steps to the loop's chance draw."""

    class Chance:
        @staticmethod
        def player_count(state):
            return 1

        @staticmethod
        def is_over(state):
            return state["over"]

        @staticmethod
        def to_act(state):
            return CHANCE if state["chance"] else 0

        @staticmethod
        def legal_actions(state):
            return ["go"]

        @staticmethod
        def apply(state, action, inplace=False):
            state["moves"] += 1
            state["chance"] = state["moves"] == 2
            return state

        @staticmethod
        def chance_outcomes(state):
            return [("roll", 1.0)]

    state = {"over": False, "chance": False, "moves": 0}
    assert play_forced_reference(Chance, state) == [2]
    assert resolve_chance(Chance, state, Rng(1)) == "roll"
