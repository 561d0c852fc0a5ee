"""The search bot is offered by level in the playtest and in deck reports."""

import pytest

from decks.engine.bots import BOT_NAMES
from decks.play.models import DeckReport, Playtest
from decks.play.reports import deck_report_start, simulate_report


@pytest.mark.django_db
def test_the_new_game_page_offers_every_bot_by_name_and_level(client, user, deck_for):
    deck = deck_for("collision")
    client.force_login(user)
    page = client.get(f"/play/new/?deck={deck.pk}").content.decode()
    for name in BOT_NAMES:
        assert f'name="opponent" value="{name}"' in page
        assert f'<option value="{name}"' in page
    assert "Search bot (fast)" in page


@pytest.mark.django_db
def test_a_playtest_against_the_search_bot_is_played_by_it(client, user, deck_for):
    deck = deck_for("collision")
    client.force_login(user)
    response = client.post(
        "/play/new/",
        {"deck": deck.pk, "opponent": "search:fast", "players": 2, "seed": 4},
    )
    assert response.status_code == 302
    pt = Playtest.objects.get()
    assert [s["kind"] for s in pt.seats] == ["human", "search:fast"]


@pytest.mark.django_db
def test_a_report_with_the_search_bot_runs_and_replays(
    user, deck_for, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        report = deck_report_start(
            owner=user, deck=deck_for("bakugan"), games=3, bot="search:fast", seed=2
        )
    assert DeckReport.objects.get().bot == "search:fast"
    first = simulate_report(report)
    assert first == simulate_report(report)
    assert first["wins"] + first["losses"] + first["draws"] == 3
