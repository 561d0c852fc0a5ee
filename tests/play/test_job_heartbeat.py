"""A killed worker loses nothing and blocks nothing: silent parts are queued again."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from decks.play.doctor import candidate_run, doctor_start, doctor_watch
from decks.play.models import DeckDoctor, DeckDoctorCandidate, DeckReportChunk
from decks.play.reports import (
    chunk_run,
    deck_report_start,
    report_watch,
    simulate_report,
)
from decks.play.workload import JobStopped, Progress, claim_part


def _die_after(job_model, job_pk, part, games: int) -> None:
    """Play the start of ``part`` as a worker does, then fall silent for good."""
    claim_part(part)
    Progress(job_model, job_pk, part, every=0).step(games)
    silent_since = timezone.now() - timedelta(seconds=settings.DECK_JOB_STALE_AFTER + 1)
    type(part).objects.filter(pk=part.pk).update(heartbeat=silent_since)


def _queued(task: str) -> list[list]:
    return [
        t.args_kwargs["args"]
        for t in DBTaskResult.objects.ready().filter(task_path=task)
    ]


@pytest.mark.django_db
def test_a_slice_whose_worker_died_is_queued_again_and_its_games_count_once(
    user, deck_for, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        report = deck_report_start(
            owner=user, deck=deck_for("collision"), games=250, bot="random", seed=9
        )
    first, second, third = report.chunks.all()
    chunk_run(first.pk)
    _die_after(type(report), report.pk, second, 40)
    report.refresh_from_db()
    assert (report.status, report.done_games) == ("running", 140)
    report_watch(report.pk)
    second.refresh_from_db()
    report.refresh_from_db()
    assert (second.attempt, second.progress, second.heartbeat) == (1, 0, None)
    assert report.done_games == 100
    assert _queued("decks.play.reports.run_report_chunk") == [[second.pk, 1]]
    # The worker thought dead writes again: it is told to stop, and counts nothing.
    with pytest.raises(JobStopped):
        Progress(type(report), report.pk, DeckReportChunk(pk=second.pk), every=0).step(
            50
        )
    chunk_run(second.pk, 0)
    report.refresh_from_db()
    assert report.done_games == 100
    chunk_run(second.pk, 1)
    chunk_run(third.pk)
    report.refresh_from_db()
    assert (report.status, report.done_games) == ("done", 250)
    assert report.result == simulate_report(report)


@pytest.mark.django_db
def test_a_slice_still_beating_is_left_to_its_worker(
    user, deck_for, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        report = deck_report_start(
            owner=user, deck=deck_for("collision"), games=50, bot="random"
        )
    chunk = report.chunks.get()
    claim_part(chunk)
    report_watch(report.pk)
    chunk.refresh_from_db()
    assert chunk.attempt == 0
    assert _queued("decks.play.reports.run_report_chunk") == []


@pytest.mark.django_db
def test_the_report_page_queues_again_a_slice_whose_worker_died(
    client, user, deck_for, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        report = deck_report_start(
            owner=user, deck=deck_for("collision"), games=50, bot="random"
        )
    chunk = report.chunks.get()
    _die_after(type(report), report.pk, chunk, 20)
    client.force_login(user)
    page = client.get(f"/play/reports/{report.pk}/").content.decode()
    chunk.refresh_from_db()
    assert chunk.attempt == 1
    assert ": 0 of 50 games played." in page


@pytest.mark.django_db
def test_a_doctor_candidate_whose_worker_died_ends_as_if_it_never_had(
    user, deck_for, django_capture_on_commit_callbacks
):
    deck = deck_for("bakugan")
    results = []
    for disturbed in (False, True):
        with django_capture_on_commit_callbacks(execute=False):
            doctor = doctor_start(owner=user, deck=deck, games=20, bot="random", seed=4)
        for _ in range(10):  # rounds
            candidates = list(doctor.candidates.filter(done=False).order_by("index"))
            if not candidates:
                break
            for candidate in candidates:
                if disturbed and candidate.index == 1:
                    _die_after(DeckDoctor, doctor.pk, candidate, 7)
                    with django_capture_on_commit_callbacks(execute=False):
                        doctor_watch(doctor.pk)
                    candidate.refresh_from_db()
                    assert (candidate.attempt, candidate.progress) == (1, 0)
                    candidate_run(candidate.pk, 0)  # the old attempt: nothing
                    assert DeckDoctorCandidate.objects.get(pk=candidate.pk).games == (
                        candidate.games
                    )
                candidate_run(candidate.pk, candidate.attempt)
            doctor.refresh_from_db()
        assert (doctor.status, doctor.done_games) == ("done", doctor.total_games)
        results.append(doctor.result)
        DeckDoctor.objects.filter(pk=doctor.pk).update(status="done")
    assert results[0] == results[1]


@pytest.mark.django_db
def test_a_slice_whose_worker_died_before_its_first_heartbeat_is_queued_again(
    user, deck_for, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        report = deck_report_start(
            owner=user, deck=deck_for("collision"), games=50, bot="random"
        )
    chunk = report.chunks.get()
    (task,) = DBTaskResult.objects.ready().filter(
        task_path="decks.play.reports.run_report_chunk"
    )
    task.claim("a worker killed at once")
    report_watch(report.pk)
    assert report.chunks.get().attempt == 0  # taken just now: give it time
    long_ago = timezone.now() - timedelta(seconds=settings.DECK_JOB_STALE_AFTER + 1)
    DBTaskResult.objects.filter(pk=task.pk).update(started_at=long_ago)
    report_watch(report.pk)
    assert report.chunks.get().attempt == 1
    assert _queued("decks.play.reports.run_report_chunk") == [[chunk.pk, 1]]
    report_watch(report.pk)  # the dead task stays as it was: once is enough
    assert report.chunks.get().attempt == 1
    chunk_run(chunk.pk, 1)
    report.refresh_from_db()
    assert (report.status, report.done_games) == ("done", 50)


@pytest.mark.django_db
def test_the_doctor_page_queues_again_a_candidate_whose_worker_died(
    client, user, deck_for, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        doctor = doctor_start(
            owner=user, deck=deck_for("bakugan"), games=20, bot="random"
        )
    candidate = doctor.candidates.get(index=0)
    _die_after(DeckDoctor, doctor.pk, candidate, 5)
    client.force_login(user)
    assert client.get(f"/play/doctor/{doctor.pk}/").status_code == 200
    candidate.refresh_from_db()
    doctor.refresh_from_db()
    assert (candidate.attempt, candidate.progress, doctor.done_games) == (1, 0, 0)
    assert _queued("decks.play.doctor.run_doctor_candidate") == [[candidate.pk, 1]]
