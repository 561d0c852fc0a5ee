"""The bots are offered by level in the playtest and in deck reports."""

import re

import pytest

from decks.engine.bots import OFFERED
from decks.play.models import DeckReport, Playtest
from decks.play.reports import deck_report_start, simulate_report


@pytest.mark.django_db
def test_the_new_game_page_offers_the_three_levels_by_name(client, user, deck_for):
    deck = deck_for("collision")
    client.force_login(user)
    page = client.get(f"/play/new/?deck={deck.pk}").content.decode()
    offered = re.findall(
        r'name="opponent" value="([^"]+)"(?: checked)?> ([^<\n]+)', page
    )
    assert offered == [
        ("random", "Beginner (random bot)"),
        ("greedy", "Casual (greedy bot)"),
        ("search", "Strong (search bot)"),
        ("hotseat", "Hot-seat (players share this screen)"),
    ]
    # The report's and the doctor's bot lists: the same three.
    lists = re.findall(r'<select name="bot">(.*?)</select>', page)
    assert [re.findall(r'<option value="([^"]+)"', x) for x in lists] == [
        list(OFFERED),
        list(OFFERED),
    ]


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
