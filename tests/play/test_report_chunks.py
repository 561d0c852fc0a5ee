"""Chunked deck reports: slices taken by any number of workers add up to one result."""

import random
import subprocess
import sys
from pathlib import Path

import pytest

from decks.play.models import DeckReport, DeckReportChunk
from decks.play.reports import (
    chunk_ranges,
    chunk_run,
    deck_report_start,
    simulate_report,
)
from tests.utils import subprocess_env
from tools.bench.reports import measure

ROOT = Path(__file__).resolve().parents[2]


def test_the_slices_cover_every_game_once_in_order():
    assert chunk_ranges(250, 100) == [(0, 100), (100, 100), (200, 50)]
    assert chunk_ranges(100, 100) == [(0, 100)]
    assert chunk_ranges(1, 100) == [(0, 1)]


@pytest.mark.django_db
@pytest.mark.parametrize("order", ["forwards", "backwards", "shuffled"])
def test_slices_run_in_any_order_give_the_one_go_result(
    order, user, deck_for, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        report = deck_report_start(
            owner=user, deck=deck_for("collision"), games=250, bot="random", seed=9
        )
    chunks = list(report.chunks.all())
    assert [(c.first, c.games) for c in chunks] == [(0, 100), (100, 100), (200, 50)]
    if order == "backwards":
        chunks.reverse()
    elif order == "shuffled":
        random.Random(3).shuffle(chunks)
    for i, chunk in enumerate(chunks):
        chunk_run(chunk.pk)
        report.refresh_from_db()
        if i < len(chunks) - 1:
            assert report.status == "running"
            assert report.result == {}
    assert (report.status, report.done_games) == ("done", 250)
    assert report.result == simulate_report(report)


@pytest.mark.django_db
def test_a_slice_run_twice_counts_once(
    user, deck_for, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        report = deck_report_start(
            owner=user, deck=deck_for("bakugan"), games=150, bot="random", seed=4
        )
    first, second = report.chunks.all()
    chunk_run(first.pk)
    chunk_run(first.pk)
    report.refresh_from_db()
    assert (report.status, report.done_games) == ("running", 100)
    chunk_run(second.pk)
    report.refresh_from_db()
    assert (report.status, report.done_games) == ("done", 150)


def _workers(count: int) -> None:
    """Run ``count`` task worker processes at once until the queue is empty."""
    command = [
        sys.executable,
        "manage.py",
        "db_worker",
        "--batch",
        "--no-startup-delay",
        "--no-reload",
        "--queue-name",
        "*",
    ]
    workers = [
        subprocess.Popen(
            command,
            cwd=ROOT,
            env=subprocess_env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for _ in range(count)
    ]
    for worker in workers:
        _, err = worker.communicate(timeout=300)
        assert worker.returncode == 0, err.decode()[-2000:]


@pytest.mark.django_db(transaction=True)
def test_one_and_three_worker_processes_give_the_same_report(client, user, deck_for):
    deck = deck_for("collision")
    client.force_login(user)
    results = []
    for workers in (1, 3):
        client.post(
            "/play/reports/new/",
            {"deck": deck.pk, "games": 450, "bot": "random", "seed": 21},
        )
        report = DeckReport.objects.order_by("-pk").first()
        assert report.chunks.count() == 5
        _workers(workers)
        report.refresh_from_db()
        assert report.status == "done", report.error
        assert report.done_games == 450
        results.append(report.result)
    assert results[0] == results[1] == simulate_report(report)
    assert DeckReportChunk.objects.filter(done=False).count() == 0


@pytest.mark.django_db(transaction=True)
def test_bench_reports_measures_each_runs_wall_and_worker_cpu_times(practice):
    practice("collision")
    options = {"game": "collision", "games": 200, "bot": "random", "interval": 0.2}
    summary = measure({**options, "workers": [1, 2]})
    assert summary["same_result"] is True
    one, two = summary["runs"]
    assert (one["workers"], len(one["cpu"]), two["workers"], len(two["cpu"])) == (
        1,
        1,
        2,
        2,
    )
    assert one["seconds"] > 0 and two["speed_up"] == round(
        one["seconds"] / two["seconds"], 2
    )
    assert two["busiest"] == max(two["cpu"])
    assert two["capacity"] == round(one["cpu"][0] / two["busiest"], 2)
    assert DeckReport.objects.count() == 0  # its throwaway user took them along
