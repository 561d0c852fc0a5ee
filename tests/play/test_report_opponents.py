"""Deck reports name the opposing field and give the win rate against each opponent."""

import pytest

from decks.play.reports import deck_report_start, simulate_report
from decks.presets import preset_decks

pytestmark = pytest.mark.django_db


def test_a_report_against_several_opponents_gives_the_win_rate_against_each(
    user, deck_for, django_capture_on_commit_callbacks
):
    deck = deck_for("collision")
    presets = preset_decks("collision")[:2]
    with django_capture_on_commit_callbacks():
        report = deck_report_start(
            owner=user,
            deck=deck,
            opponents=[f"preset:{p.slug}" for p in presets] + ["random"],
            games=9,
            bot="random",
        )
    assert report.field == [
        *(f"{p.name} (preset, {p.style})" for p in presets),
        "Random deck (seed 3)",
    ]
    assert report.against == ", ".join(report.field)
    assert len(report.decks) == 4
    result = simulate_report(report)
    rows = result["per_opponent"]
    assert [r["name"] for r in rows] == report.field
    assert [r["games"] for r in rows] == [3, 3, 3]
    assert sum(r["wins"] for r in rows) == result["wins"]
    assert sum(r["losses"] for r in rows) == result["losses"]


def test_the_report_page_names_the_field_and_shows_each_opponent(
    client, user, deck_for, django_capture_on_commit_callbacks
):
    deck = deck_for("bakugan")
    slug = preset_decks("bakugan")[0].slug
    client.force_login(user)
    with django_capture_on_commit_callbacks():
        response = client.post(
            "/play/reports/new/",
            {
                "deck": deck.pk,
                "games": 4,
                "bot": "random",
                "opponent_deck": [f"preset:{slug}", "mirror"],
            },
        )
    assert response.status_code == 302
    from decks.play.models import DeckReport

    report = DeckReport.objects.get()
    report.result = simulate_report(report)
    report.status = DeckReport.Status.DONE
    report.save()
    html = client.get(f"/play/reports/{report.pk}/").content.decode()
    assert f"against {report.against}" in html
    assert "Against each opponent" in html
    assert f"{deck.name} (mirror)" in html
