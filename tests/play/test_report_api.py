"""The deck report API: start within the quota, read, cancel; private to the owner."""

import pytest

from decks.play.models import DeckReport


def _start(client, deck, **extra):
    return client.post(
        "/api/reports/",
        {"deck": deck.pk, "games": 30, "bot": "random", "seed": 4, **extra},
        content_type="application/json",
    )


@pytest.mark.django_db
def test_a_report_started_by_the_api_is_read_and_cancelled_by_its_owner(
    client, user, other_user, deck_for, django_capture_on_commit_callbacks
):
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=False):
        response = _start(client, deck_for("collision"))
    assert response.status_code == 201, response.content
    report = DeckReport.objects.get()
    body = response.json()
    assert (body["id"], body["status"], body["games"], body["done_games"]) == (
        report.pk,
        "queued",
        30,
        0,
    )
    assert client.get(f"/api/reports/{report.pk}/").json()["status"] == "queued"
    assert [r["id"] for r in client.get("/api/reports/").json()["results"]] == [
        report.pk
    ]
    client.force_login(other_user)
    assert client.get(f"/api/reports/{report.pk}/").status_code == 404
    assert client.post(f"/api/reports/{report.pk}/cancel/").status_code == 404
    assert client.get("/api/reports/").json()["count"] == 0
    report.refresh_from_db()
    assert report.status == "queued"
    client.force_login(user)
    response = client.post(f"/api/reports/{report.pk}/cancel/")
    assert (response.status_code, response.json()["status"]) == (200, "cancelled")
    report.refresh_from_db()
    assert report.status == "cancelled"


@pytest.mark.django_db
def test_a_report_over_the_quota_is_refused_by_the_api_with_the_reason(
    client, user, deck_for
):
    client.force_login(user)
    response = _start(client, deck_for("collide-o"), games=5000, bot="search:strong")
    assert response.status_code == 429
    body = response.json()
    assert body["code"] == "over_quota"
    assert body["detail"].startswith(
        "Your reports and deck doctor runs waiting or running need about 0 s of "
        "worker time, and each person's bound is 20 min;"
    )
    assert DeckReport.objects.count() == 0
