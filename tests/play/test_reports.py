"""Deck reports: bot games run by the task worker, with progress and figures."""

import math
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.db import connections

from decks.play.models import DeckReport
from decks.play.reports import (
    MAX_GAMES,
    deck_report_start,
    simulate_report,
    wilson_interval,
)
from decks.play.services import PlaytestError, playtest_create
from decks.play.workload import COSTS, QUOTA_SECONDS
from tests.utils import subprocess_env

ROOT = Path(__file__).resolve().parents[2]


def test_wilson_interval_of_half_wins_in_a_hundred_games():
    low, high = wilson_interval(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)


def test_wilson_interval_with_no_games_is_the_whole_range():
    assert wilson_interval(0, 0) == (0.0, 1.0)


@pytest.mark.django_db
def test_a_report_adds_up_its_games_and_is_reproducible(
    user, deck_for, django_capture_on_commit_callbacks
):
    deck = deck_for("bakugan")
    with django_capture_on_commit_callbacks(execute=False):
        report = deck_report_start(
            owner=user, deck=deck, games=40, bot="random", seed=3
        )
    seen = []
    first = simulate_report(report, seen.append)
    second = simulate_report(report)
    assert first == second
    assert seen == list(range(1, 41))
    assert first["wins"] + first["losses"] + first["draws"] == 40
    assert sum(bucket[1] for bucket in first["length_histogram"]) == 40
    assert first["interval"][0] <= first["win_rate"] <= first["interval"][1]


@pytest.mark.django_db
def test_a_report_of_too_many_games_is_refused(user, deck_for):
    with pytest.raises(PlaytestError, match="1 to 5000 games"):
        deck_report_start(owner=user, deck=deck_for("collision"), games=5001)
    assert DeckReport.objects.count() == 0


@pytest.mark.django_db
def test_an_illegal_deck_is_refused_with_the_playtests_words(user, practice):
    from cards.models import Card
    from decks.services import deck_create

    practice("collision")
    blade = Card.objects.filter(card_set__kind="practice", card_type="blade").first()
    deck = deck_create(
        owner=user,
        game="collision",
        name="Just a Blade",
        entries=[{"card": blade.pk, "quantity": 1, "zone": "blade"}],
    )
    with pytest.raises(PlaytestError) as report_refusal:
        deck_report_start(owner=user, deck=deck, games=5)
    with pytest.raises(PlaytestError) as playtest_refusal:
        playtest_create(owner=user, deck=deck)
    assert report_refusal.value.code == "illegal_deck"
    assert report_refusal.value.message == (
        "The deck 'Just a Blade' is not legal: A Collision deck needs at least 60 "
        "cards, the Blade included (rules: Building a deck; ruling C1). This deck "
        "has 1."
    )
    assert report_refusal.value.message == playtest_refusal.value.message
    assert DeckReport.objects.count() == 0


@pytest.mark.django_db
def test_the_report_form_sends_an_illegal_deck_back_with_the_reason(
    client, user, practice
):
    from cards.models import Card
    from decks.services import deck_create

    practice("collision")
    blade = Card.objects.filter(card_set__kind="practice", card_type="blade").first()
    deck = deck_create(
        owner=user,
        game="collision",
        name="Just a Blade",
        entries=[{"card": blade.pk, "quantity": 1, "zone": "blade"}],
    )
    client.force_login(user)
    response = client.post("/play/reports/new/", {"deck": deck.pk, "games": 5})
    assert response.status_code == 302
    assert response["Location"] == f"/play/new/?deck={deck.pk}"
    page = client.get(response["Location"]).content.decode()
    assert "The deck &#x27;Just a Blade&#x27; is not legal: " in page
    assert DeckReport.objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_the_task_worker_runs_a_queued_report_to_the_end(client, user, deck_for):
    deck = deck_for("collide-o")
    client.force_login(user)
    response = client.post(
        "/play/reports/new/", {"deck": deck.pk, "games": 30, "bot": "random", "seed": 2}
    )
    report = DeckReport.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/play/reports/{report.pk}/"
    assert report.status == "queued"
    page = client.get(f"/play/reports/{report.pk}/")
    assert b"<progress" in page.content
    subprocess.run(
        [
            sys.executable,
            "manage.py",
            "db_worker",
            "--batch",
            "--no-startup-delay",
            "--no-reload",
            "--queue-name",
            "*",
        ],
        cwd=ROOT,
        env=subprocess_env(),
        check=True,
        timeout=300,
        capture_output=True,
    )
    report.refresh_from_db()
    assert report.status == "done", report.error
    assert report.done_games == 30
    assert report.result["games"] == 30
    page = client.get(f"/play/reports/{report.pk}/")
    assert b"Win rate" in page.content
    assert b"<progress" not in page.content


@pytest.mark.django_db
def test_another_user_cannot_see_a_report(
    client, user, other_user, deck_for, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        report = deck_report_start(owner=user, deck=deck_for("collision"), games=5)
    client.force_login(other_user)
    assert client.get(f"/play/reports/{report.pk}/").status_code == 404


def _start(user, deck, **fields):
    return deck_report_start(owner=user, deck=deck, **{"games": 5, **fields})


# Reports of this many search-bot games fill three fifths of one user's quota.
BIG = math.floor(0.6 * QUOTA_SECONDS / COSTS["collision"]["search"])


@pytest.mark.django_db(transaction=True)
def test_reports_started_at_once_stop_at_the_quota(user, deck_for):
    deck = deck_for("collision")
    starts = 4
    barrier = threading.Barrier(starts)
    outcomes = []

    def start():
        try:
            barrier.wait(timeout=10)
            _start(user, deck, games=BIG, bot="search")
            outcomes.append("started")
        except PlaytestError as error:
            outcomes.append(error.code)
        except Exception as exc:  # noqa: BLE001 - the test reports every failure
            outcomes.append(repr(exc))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=start) for _ in range(starts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["over_quota"] * 3 + ["started"]
    assert DeckReport.objects.count() == 1


@pytest.mark.django_db
def test_the_report_form_refuses_a_report_over_the_quota_with_the_reason(
    client, user, deck_for, django_capture_on_commit_callbacks
):
    deck = deck_for("collision")
    client.force_login(user)
    fields = {"deck": deck.pk, "games": BIG, "bot": "search"}
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post("/play/reports/new/", fields)
        assert response["Location"].startswith("/play/reports/")
        response = client.post("/play/reports/new/", fields)
    assert response.status_code == 302
    assert response["Location"] == f"/play/new/?deck={deck.pk}"
    page = client.get(response["Location"]).content.decode()
    assert "each person&#x27;s bound is 20 min" in page
    assert DeckReport.objects.count() == 1


@pytest.mark.django_db
def test_the_report_form_offers_and_keeps_the_games_ceiling(client, user, deck_for):
    deck = deck_for("collision")
    client.force_login(user)
    page = client.get(f"/play/new/?deck={deck.pk}").content.decode()
    assert f'name="games" value="200" min="1" max="{MAX_GAMES}"' in page
    response = client.post(
        "/play/reports/new/", {"deck": deck.pk, "games": MAX_GAMES + 1}
    )
    assert response["Location"] == f"/play/new/?deck={deck.pk}"
    page = client.get(response["Location"]).content.decode()
    assert f"A report runs 1 to {MAX_GAMES} games." in page
    assert DeckReport.objects.count() == 0


def test_a_report_and_a_deck_doctor_are_one_kind_of_job():
    from decks.play.models import DeckDoctor, DeckJob

    assert issubclass(DeckReport, DeckJob) and issubclass(DeckDoctor, DeckJob)
    shared = {f.name for f in DeckJob._meta.fields}
    assert {"game", "bot", "seed", "status", "done_games", "result"} <= shared
    report = DeckReport(games=40, done_games=10)
    doctor = DeckDoctor(games=10, total_games=200, done_games=50)
    assert (report.progress, doctor.progress) == (25, 25)
    assert DeckDoctor(total_games=0).progress == 100
