"""A game review runs on the real task worker and gives the figures of its seed.

``manage.py db_worker --batch`` runs as a subprocess on the test database and
takes the review's task as it takes a report's slice.
"""

import pytest
from django_tasks_db.models import DBTaskResult

from decks.play.coach import review_run, review_start
from decks.play.models import GameReview
from decks.play.services import choices, load_state, playtest_act, playtest_create

from .test_worker import _worker

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_review_run_by_the_real_worker_is_the_review_of_its_seed(
    user, other_user, deck_for
):
    pt = playtest_create(
        owner=user, deck=deck_for("collision"), opponent="greedy", seed=11
    )
    while not pt.over:
        first = choices(pt, load_state(pt))[0]
        pt = playtest_act(
            playtest_id=pt.pk, user=user, action=first.id, version=pt.version
        )
    review = review_start(owner=user, playtest=pt)
    assert DBTaskResult.objects.filter(
        task_path="decks.play.coach.run_review", args_kwargs__args=[review.pk, 0]
    ).exists()
    worker = _worker("--batch")
    _, err = worker.communicate(timeout=300)
    assert worker.returncode == 0, err.decode()[-2000:]
    review.refresh_from_db()
    assert review.status == GameReview.Status.DONE, review.error
    assert review.done_games == review.moves == len(review.result["moves"])
    # The same game and seed reviewed here, in this process, for someone else.
    pt.share_token = "worker-review"
    pt.save(update_fields=["share_token"])
    here = GameReview.objects.create(
        owner=other_user,
        playtest=pt,
        game=pt.game,
        bot="coach",
        seed=pt.seed,
        options=pt.options,
        key=review.key,
        log=pt.log,
        moves=review.moves,
    )
    review_run(here.pk)
    here.refresh_from_db()
    assert here.result == review.result
