"""The real task worker: users take turns, and a worker killed mid-report loses nothing.

``manage.py db_worker`` runs as a subprocess on the test database. Fairness: a
second user's small report, queued behind a first user's large one, is taken
after the large one's first slice, not after its last. Kill: the worker is
killed (SIGKILL) in the middle of a slice; a new worker notices the slice's
heartbeat has stopped, plays it again from its seeds, and the report ends
with the result of the same report run undisturbed.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django_tasks_db.models import DBTaskResult

from decks.play.models import DeckReport, DeckReportChunk
from decks.play.reports import deck_report_start, simulate_report
from tests.utils import subprocess_env

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db(transaction=True)
# Short enough for a test, long enough for a search:fast game of collision.
STALE_AFTER = 2
CHUNK_TASK = "decks.play.reports.run_report_chunk"


def _worker(*flags: str, **env) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "db_worker",
            "--no-startup-delay",
            "--no-reload",
            "--queue-name",
            "*",
            *flags,
        ],
        cwd=ROOT,
        env=subprocess_env(**env),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def _wait_for(condition, timeout: float = 300):
    """Poll ``condition()`` until it returns something true; return that."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("timed out waiting for the worker")


def test_a_second_users_small_report_ends_while_the_first_users_large_one_runs(
    user, other_user, deck_for
):
    big = deck_report_start(
        owner=user, deck=deck_for("collision"), games=800, bot="random", seed=1
    )
    small = deck_report_start(
        owner=other_user,
        deck=deck_for("collision", owner=other_user),
        games=60,
        bot="random",
        seed=2,
    )
    worker = _worker("--batch")
    _, err = worker.communicate(timeout=300)
    assert worker.returncode == 0, err.decode()[-2000:]
    big.refresh_from_db()
    small.refresh_from_db()
    assert (big.status, small.status) == ("done", "done")
    runs = {
        task.args_kwargs["args"][0]: task
        for task in DBTaskResult.objects.filter(task_path=CHUNK_TASK)
    }
    big_runs = sorted(
        (runs[c.pk] for c in big.chunks.all()), key=lambda t: t.started_at
    )
    (small_run,) = (runs[c.pk] for c in small.chunks.all())
    assert len(big_runs) == 8
    # The large report was running (its first slice taken) when the small one
    # was taken, and had seven slices still to play when it ended.
    assert big_runs[0].finished_at <= small_run.started_at
    assert small_run.finished_at <= big_runs[1].started_at


def test_a_report_whose_worker_is_killed_ends_with_its_seeds_result(
    user, deck_for, settings
):
    settings.DECK_JOB_STALE_AFTER = STALE_AFTER
    settings.DECK_JOB_PROGRESS_MS = 1
    timing = {
        "DECK_JOB_STALE_AFTER": str(STALE_AFTER),
        "DECK_JOB_PROGRESS_MS": "1",
    }
    report = deck_report_start(
        owner=user, deck=deck_for("collision"), games=40, bot="search:fast", seed=3
    )
    assert [c.games for c in report.chunks.all()] == [29, 11]

    def mid_slice():
        return DeckReportChunk.objects.filter(
            report=report, done=False, progress__gte=3, progress__lte=20
        ).first()

    first = _worker("--interval", "0.1", **timing)
    try:
        killed = _wait_for(mid_slice)
    finally:
        os.kill(first.pid, signal.SIGKILL)
        first.communicate(timeout=60)
    report.refresh_from_db()
    assert report.status == "running"
    assert report.done_games < report.games
    second = _worker("--interval", "0.1", **timing)
    try:
        _wait_for(
            lambda: DeckReport.objects.filter(
                pk=report.pk, status__in=["done", "failed"]
            ).exists()
        )
    finally:
        second.send_signal(signal.SIGTERM)
        _, err = second.communicate(timeout=120)
    report.refresh_from_db()
    assert report.status == "done", report.error
    assert report.done_games == 40
    assert DeckReportChunk.objects.get(pk=killed.pk).attempt >= 1
    assert report.result == simulate_report(report)
