"""The engines' fast paths hold to their plain references (issue 21, item 4).

Each fast path keeps the plain definition beside it; these tests hold the two
equal: the written-out draws of ``Rng`` against ``next64``, and whole games
through ``run_games`` (pinned decks, one deck read, ``play_out``) against
games started one by one from the caller's decks and played by
``play_out_reference``: the same actions, the same saved form at the end and
the same event text, over many seeds.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.engine.bots import make_bot, play_out_reference
from decks.engine.core import DeckReads, PinnedDecks, Rng, pinned, seed_state
from decks.engine.simulate import run_games
from tests.engine.scenarios import CASES, SETUPS

# Digests of 40 random games per set-up and seed, recorded with the engines as
# they were before the speed work (``digests``): a change to any random stream,
# action order, saved form or event text shows here.
DIGESTS = Path(__file__).parent / "golden" / "speed-digests.json"
BOT_PAIRS = (("random", "random"), ("greedy", "random"), ("greedy", "greedy"))


@given(state=st.integers(0, (1 << 64) - 1), bound=st.integers(1, 1 << 70))
def test_the_written_out_draws_equal_next64(state, bound):
    fast, plain = Rng(state), Rng(state)
    assert fast.below(bound) == plain.below_reference(bound)
    assert fast.random() == plain.random_reference()
    items = list(range(bound % 97 + 1))
    assert fast.choice(items) == plain.choice_reference(items)
    assert fast.state == plain.state


def test_an_empty_choice_is_refused_as_before():
    for draw in (Rng(1).choice, Rng(1).choice_reference):
        with pytest.raises(ValueError):
            draw([])
    with pytest.raises(ValueError):
        Rng(1).below(0)


def _plain_games(game, decks, options, games, seed, bots):
    """Play as ``run_games`` does, written plainly: each game from the caller's decks."""
    played = []
    for i in range(games):
        game_seed = seed + i
        state = game.new_game(decks, options, game_seed)
        seats = game.player_count(state)
        seat_bots = [
            make_bot(bots[min(s, len(bots) - 1)], game_seed * 31 + s)
            for s in range(seats)
        ]
        state = play_out_reference(
            game, state, seat_bots, Rng(seed_state(game_seed, 7))
        )
        played.append(_record(game, state))
    return played


def _record(game, state):
    return (list(state.log), json.dumps(game.to_json(state)), list(state.events))


@pytest.mark.parametrize(("slug", "players", "options"), SETUPS)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31), pair=st.sampled_from(BOT_PAIRS))
def test_run_games_plays_exactly_the_games_of_the_plain_loop(
    slug, players, options, seed, pair
):
    case = CASES[slug]
    game = case.game
    decks = case.decks(players, seed)
    games = 3 if "greedy" in pair else 6
    fast = []
    summary = run_games(
        game,
        decks,
        options,
        games,
        seed,
        bots=pair,
        record=lambda i, state: fast.append(_record(game, state)),
    )
    assert fast == _plain_games(game, decks, options, games, seed, pair)
    assert summary["games"] == games


def test_pinned_decks_are_a_private_copy_read_once():
    decks = [{"deck": [{"id": 1}]}]
    kept = pinned(decks)
    assert isinstance(kept, PinnedDecks) and kept == decks
    decks[0]["deck"].append({"id": 2})  # the caller's decks change; the copy not
    assert kept == [{"deck": [{"id": 1}]}]
    assert pinned(kept) is kept
    calls = []
    read = DeckReads(lambda d: calls.append(1) or len(d[0]["deck"]))
    assert [read(kept), read(kept), read(kept)] == [1, 1, 1]
    assert calls == [1]
    assert json.loads(json.dumps(kept)) == [{"deck": [{"id": 1}]}]


def test_decks_changed_in_place_are_still_read_again():
    decks = [{"deck": [{"id": 1}]}]
    read = DeckReads(lambda d: len(d[0]["deck"]))
    assert read(decks) == 1
    decks[0]["deck"].append({"id": 2})
    assert read(decks) == 2


def digests() -> dict:
    """Return the digest of each set-up's random games (see ``DIGESTS``).

    The games are driven here, by the plain draws of one generator per game,
    so the digests hold the engines to their old play whatever the bots do.
    """
    found = {}
    for slug in ("collision", "metal-fusion", "collide-o"):
        case = CASES[slug]
        game = case.game
        for players, options in case.setups:
            for seed in (11, 12):
                digest = hashlib.sha256()
                decks = case.decks(players, seed)
                for i in range(40):
                    state = game.new_game(decks, options, seed + i)
                    rng = Rng(seed_state(seed + i, 5))
                    while not game.is_over(state):
                        action = rng.choice_reference(game.legal_actions(state))
                        state = game.apply(state, action, inplace=True)
                    played = [state.log, game.to_json(state), state.events]
                    digest.update(json.dumps(played, sort_keys=True).encode())
                key = f"{slug} {players} {json.dumps(options, sort_keys=True)} {seed}"
                found[key] = digest.hexdigest()
    return found


def test_random_games_play_as_recorded_before_the_speed_work():
    assert digests() == json.loads(DIGESTS.read_text())


# The games whose greedy lookahead has a fast path (``scores_after``); Metal
# Fusion's greedy games were fast enough through the plain definition.
LOOKAHEAD_GAMES = ("collision", "collide-o", "bakugan")


def test_the_games_with_a_fast_lookahead_are_the_ones_listed():
    have = {slug for slug, case in CASES.items() if hasattr(case.game, "scores_after")}
    assert have == set(LOOKAHEAD_GAMES)


@pytest.mark.parametrize(
    ("slug", "players", "options"),
    [p for p in SETUPS if p.values[0] in LOOKAHEAD_GAMES],
)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_a_games_scores_after_equals_the_plain_definition(slug, players, options, seed):
    """Along greedy games, a game's ``scores_after`` gives the plain scores, unchanged state."""
    from decks.engine.search import scores_after_reference

    case = CASES[slug]
    game = case.game
    state = game.new_game(case.decks(players, seed), options, seed)
    bot = make_bot("greedy", seed)
    chance = Rng(seed_state(seed, 7))
    from decks.engine.core import CHANCE, resolve_chance

    while not game.is_over(state):
        seat = game.to_act(state)
        if seat == CHANCE:
            action = resolve_chance(game, state, chance)
        else:
            actions = game.legal_actions(state)
            before = json.dumps(game.to_json(state), sort_keys=True)
            for player in range(players):
                assert game.scores_after(
                    state, actions, player
                ) == scores_after_reference(game, state, actions, player)
            assert json.dumps(game.to_json(state), sort_keys=True) == before
            action = bot.choose(game, state)
        state = game.apply(state, action, inplace=True)
