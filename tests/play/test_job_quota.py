"""Nobody takes the worker for hours: a quota of worker time, fair turns, cancel."""

import math
from datetime import timedelta

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from decks.play.doctor import doctor_start
from decks.play.models import DeckReport
from decks.play.reports import chunk_run, deck_report_cancel, deck_report_start
from decks.play.services import PlaytestError
from decks.play.workload import (
    COSTS,
    QUOTA_SECONDS,
    JobStopped,
    Progress,
    claim_part,
    duration,
)

SEARCH = COSTS["collision"]["search"]  # seconds of one collision game, search bot


def _start(user, deck, games, bot="search", **fields):
    return deck_report_start(owner=user, deck=deck, games=games, bot=bot, **fields)


@pytest.mark.django_db
def test_a_report_over_the_quota_is_refused_up_front_with_what_would_fit(
    user, deck_for, django_capture_on_commit_callbacks
):
    with pytest.raises(PlaytestError) as refusal:
        _start(user, deck_for("collide-o"), 5000, bot="search:strong")
    assert (refusal.value.code, refusal.value.status) == ("over_quota", 429)
    cost = COSTS["collide-o"]["search:strong"]
    assert refusal.value.message == (
        "Your reports and deck doctor runs waiting or running need about 0 s of "
        "worker time, and each person's bound is 20 min; this one would need "
        f"about {duration(5000 * cost)}. With this bot, a report of at most "
        f"{math.floor(QUOTA_SECONDS / cost)} games fits now."
    )
    assert duration(5000 * cost) == "4 h 35 min"
    assert DeckReport.objects.count() == 0


@pytest.mark.django_db
def test_a_waiting_report_counts_however_long_it_has_waited(
    user, other_user, deck_for, django_capture_on_commit_callbacks
):
    deck = deck_for("collision")
    with django_capture_on_commit_callbacks(execute=False):
        first = _start(user, deck, 3000)  # 13 minutes of the 20
        DeckReport.objects.filter(pk=first.pk).update(
            created_at=timezone.now() - timedelta(hours=3)
        )
        with pytest.raises(PlaytestError) as refusal:
            _start(user, deck, 2000)
        assert refusal.value.message == (
            "Your reports and deck doctor runs waiting or running need about "
            "13 min of worker time, and each person's bound is 20 min; this one "
            "would need about 9 min. With this bot, a report of at most "
            f"{math.floor((QUOTA_SECONDS - 3000 * SEARCH) / SEARCH)} games fits now."
        )
        # Someone else's quota is their own.
        _start(other_user, deck_for("collision", owner=other_user), 2000)
        # What a running report has played no longer counts.
        DeckReport.objects.filter(pk=first.pk).update(status="running", done_games=1000)
        _start(user, deck, 2000)
        room = math.floor(QUOTA_SECONDS / SEARCH) - 4000
        with pytest.raises(PlaytestError):
            _start(user, deck, room + 1)
        _start(user, deck, room)
        DeckReport.objects.filter(pk=first.pk).update(status="done")
        _start(user, deck, 2000)
    assert DeckReport.objects.filter(owner=user).count() == 4


@pytest.mark.django_db
def test_a_deck_doctors_budget_counts_against_the_same_quota(
    user, deck_for, django_capture_on_commit_callbacks
):
    deck = deck_for("collision")
    with django_capture_on_commit_callbacks(execute=False):
        doctor = doctor_start(owner=user, deck=deck, games=20, bot="search", seed=3)
        room = QUOTA_SECONDS - doctor.budget * SEARCH
        most = math.floor(room / SEARCH + 1e-9)
        with pytest.raises(PlaytestError) as refusal:
            _start(user, deck, most + 1)
        assert refusal.value.code == "over_quota"
        assert refusal.value.message.endswith(
            f"With this bot, a report of at most {most} games fits now."
        )
        _start(user, deck, most)


@pytest.mark.django_db
def test_a_refused_doctor_start_checks_the_limits_before_searching_swaps(
    user, deck_for, django_capture_on_commit_callbacks
):
    deck = deck_for("bakugan")
    with django_capture_on_commit_callbacks(execute=False):
        doctor_start(owner=user, deck=deck, games=20, bot="random")
    # From an empty collection no swap is found: the search would say so first.
    with pytest.raises(PlaytestError) as refusal:
        doctor_start(owner=user, deck=deck, source="collection", games=20)
    assert refusal.value.code == "too_many_doctors"


@pytest.mark.django_db
def test_a_doctor_over_the_quota_is_refused_before_searching_swaps(
    user, deck_for, django_capture_on_commit_callbacks
):
    deck = deck_for("bakugan")
    with pytest.raises(PlaytestError) as refusal:
        doctor_start(
            owner=user, deck=deck, source="collection", games=1000, bot="search"
        )
    assert (refusal.value.code, refusal.value.status) == ("over_quota", 429)


@pytest.mark.django_db
def test_a_cancelled_report_plays_no_more_and_frees_its_share_of_the_quota(
    user, deck_for, django_capture_on_commit_callbacks
):
    deck = deck_for("collision")
    with django_capture_on_commit_callbacks(execute=False):
        report = _start(user, deck, 3000)
        with pytest.raises(PlaytestError):
            _start(user, deck, 2000)
        assert deck_report_cancel(report=report).status == "cancelled"
        for chunk in report.chunks.all()[:3]:
            chunk_run(chunk.pk)
        report.refresh_from_db()
        assert (report.status, report.done_games, report.result) == (
            "cancelled",
            0,
            {},
        )
        assert report.chunks.filter(done=True).count() == 0
        _start(user, deck, 2000)
        # A finished report stays as it is.
        DeckReport.objects.filter(pk=report.pk).update(status="done")
        assert deck_report_cancel(report=report).status == "done"


@pytest.mark.django_db
def test_the_report_page_cancels_a_report_of_its_owner_only(
    client, user, other_user, deck_for, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        report = _start(user, deck_for("collision"), 5, bot="random")
    client.force_login(user)
    page = client.get(f"/play/reports/{report.pk}/").content.decode()
    assert f'action="/play/reports/{report.pk}/cancel/"' in page
    client.force_login(other_user)
    assert client.post(f"/play/reports/{report.pk}/cancel/").status_code == 404
    report.refresh_from_db()
    assert report.status == "queued"
    client.force_login(user)
    response = client.post(f"/play/reports/{report.pk}/cancel/")
    assert (response.status_code, response["Location"]) == (
        302,
        f"/play/reports/{report.pk}/",
    )
    report.refresh_from_db()
    assert report.status == "cancelled"
    page = client.get(f"/play/reports/{report.pk}/").content.decode()
    assert "This report was cancelled after 0 of 5 games." in page
    assert "/cancel/" not in page


@pytest.mark.django_db
def test_every_users_first_slice_is_taken_before_anyones_second(
    user, other_user, deck_for, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        big = _start(user, deck_for("collision"), 500, bot="random")
        small = _start(
            other_user, deck_for("collision", owner=other_user), 100, bot="random"
        )
    owner_of = {c.pk: "big" for c in big.chunks.all()}
    owner_of.update({c.pk: "small" for c in small.chunks.all()})
    order = [
        owner_of[task.args_kwargs["args"][0]]
        for task in DBTaskResult.objects.ready().filter(
            task_path="decks.play.reports.run_report_chunk"
        )
    ]
    assert order == ["big", "small", "big", "big", "big", "big"]


@pytest.mark.django_db
def test_a_running_slice_of_a_cancelled_report_stops_at_its_next_write(
    user, deck_for, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        report = _start(user, deck_for("collision"), 50, bot="random")
    chunk = report.chunks.get()
    claim_part(chunk)
    progress = Progress(DeckReport, report.pk, chunk, every=0)
    progress.step(10)
    deck_report_cancel(report=report)
    with pytest.raises(JobStopped):
        progress.step(11)
    report.refresh_from_db()
    assert (report.status, report.done_games) == ("cancelled", 10)
