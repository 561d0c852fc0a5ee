"""Conflicting actions posted at once: exactly one wins per version, nothing is lost."""

import threading

import pytest
from django.db import connection

from decks.engine import engine_for
from decks.engine.core import replay
from decks.play.models import Playtest
from decks.play.services import (
    PlaytestError,
    choices,
    load_state,
    playtest_act,
    playtest_create,
)
from tests.utils import full_strength

# A thousand rounds under CI; a hundred (every thread count many times) otherwise.
ROUNDS = 1000 if full_strength() else 100


def _race(playtest_id, user, version, actions):
    """Post every action at once from its own thread; return (successes, stale refusals)."""
    results = []
    barrier = threading.Barrier(len(actions))

    def post(action):
        try:
            barrier.wait()
            playtest_act(
                playtest_id=playtest_id, user=user, action=action, version=version
            )
            results.append("ok")
        except PlaytestError as exc:
            results.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=(a,)) for a in actions]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results.count("ok"), results.count("stale_state"), results


@pytest.mark.django_db(transaction=True)
def test_every_round_of_conflicting_posts_has_one_winner_and_the_games_replay_equal(
    user, deck_for
):
    deck = deck_for("collide-o")
    game = engine_for("collide-o")
    pt = playtest_create(owner=user, deck=deck, opponent="hotseat", players=2, seed=11)
    games = [pt.pk]
    for round_no in range(ROUNDS):
        pt = Playtest.objects.get(pk=games[-1])
        if pt.over:
            pt = playtest_create(
                owner=user, deck=deck, opponent="hotseat", players=2, seed=11 + round_no
            )
            games.append(pt.pk)
        state = load_state(pt)
        options = [c.id for c in choices(pt, state)]
        assert options, (
            f"game {pt.pk} is not over but offers no move (round {round_no}, log {pt.log[-3:]})"
        )
        threads = 2 + round_no % 7
        actions = [options[i % len(options)] for i in range(threads)]
        ok, stale, results = _race(pt.pk, user, pt.version, actions)
        assert (ok, stale) == (1, threads - 1), (round_no, results)
        assert Playtest.objects.get(pk=pt.pk).version == pt.version + 1
    for pk in games:
        stored = Playtest.objects.get(pk=pk)
        replayed = replay(game, stored.decks, stored.options, stored.seed, stored.log)
        assert game.to_json(replayed) == stored.state
