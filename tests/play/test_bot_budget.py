"""Bot thinking inside web requests has a budget per user per minute (issue 32, item 4)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from decks import budgets
from decks.choices import BudgetKind
from decks.models import BudgetCharge
from decks.play.models import Playtest

pytestmark = pytest.mark.django_db

NOW = timezone.now().replace(microsecond=0)


@pytest.fixture
def frozen(monkeypatch, settings):
    settings.BOT_THINKING_SECONDS_PER_MINUTE = 10
    monkeypatch.setattr(budgets, "clock", lambda: NOW)


def _charge(user, seconds: float, ago: float) -> None:
    BudgetCharge.objects.create(
        kind=BudgetKind.BOT_THINKING,
        user=user,
        amount=seconds,
        created_at=NOW - timedelta(seconds=ago),
    )


def _bot_first(client, deck, opponent="search:fast"):
    """Start a Collision game whose bot (seat 1) moves first, inside the request."""
    return client.post(
        "/api/playtests/",
        {"deck": deck.pk, "opponent": opponent, "seed": 7, "options": {"first": 1}},
        content_type="application/json",
    )


def test_a_bot_move_beyond_the_minute_budget_is_refused_with_retry_after(
    client, user, deck_for, frozen
):
    deck = deck_for("collision")
    _charge(user, 10, ago=20)
    client.force_login(user)
    response = _bot_first(client, deck)
    assert response.status_code == 429
    assert response["Retry-After"] == "40"
    assert response.json() == {
        "code": "bot_budget",
        "detail": "The bots have thought for you as long as they may this minute. "
        "Try again in 40 seconds.",
        "retry_after": 40,
    }
    assert not Playtest.objects.exists()


def test_the_start_page_answers_a_spent_budget_with_a_429_message(
    client, user, deck_for, frozen
):
    deck = deck_for("collision")
    _charge(user, 12, ago=45)
    client.force_login(user)
    response = client.post(
        "/play/new/",
        {"deck": deck.pk, "opponent": "search", "players": 2, "seed": 4, "first": 1},
    )
    assert response.status_code == 429
    assert response["Retry-After"] == "15"
    assert "Try again in 15 seconds." in response.content.decode()
    assert not Playtest.objects.exists()


def test_an_action_on_the_board_with_a_spent_budget_is_refused_and_changes_nothing(
    client, user, deck_for, frozen
):
    deck = deck_for("collision")
    client.force_login(user)
    body = _bot_first(client, deck, opponent="random").json()
    BudgetCharge.objects.all().delete()
    _charge(user, 10, ago=1)
    response = client.post(
        f"/play/{body['id']}/act/",
        {"action": body["legal_actions"][0]["id"], "version": body["version"]},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 429
    assert response["HX-Refresh"] == "true"
    assert response["Retry-After"] == "59"
    assert Playtest.objects.get().version == body["version"]


def test_bot_thinking_is_charged_to_its_player_and_reopens_after_a_minute(
    client, user, deck_for, frozen
):
    deck = deck_for("collision")
    _charge(user, 10, ago=61)  # outside the window: spent nothing
    client.force_login(user)
    assert _bot_first(client, deck).status_code == 201
    charges = BudgetCharge.objects.filter(created_at=NOW)
    assert [(c.kind, c.user) for c in charges] == [(BudgetKind.BOT_THINKING, user)]
    assert charges[0].amount > 0
    # The charge that left the window is forgotten when the next is written.
    assert BudgetCharge.objects.count() == 1


def test_one_players_spent_budget_leaves_another_players_bots_alone(
    client, user, other_user, deck_for, frozen
):
    deck = deck_for("collision")
    deck.is_public = True
    deck.save()
    _charge(user, 10, ago=1)
    client.force_login(other_user)
    assert _bot_first(client, deck).status_code == 201


def test_a_hot_seat_game_needs_no_bot_budget(client, user, deck_for, frozen):
    deck = deck_for("collision")
    _charge(user, 10, ago=1)
    client.force_login(user)
    assert _bot_first(client, deck, opponent="hotseat").status_code == 201
    assert BudgetCharge.objects.count() == 1


def test_the_wait_lasts_until_enough_old_charges_leave_the_window(user, frozen):
    _charge(user, 4, ago=50)
    _charge(user, 4, ago=30)
    _charge(user, 4, ago=10)
    # 12 s spent of 10: the oldest leaving (in 10 s) brings it to 8.
    assert budgets.budget_wait(budget=budgets.BOT_THINKING, user=user) == timedelta(
        seconds=10
    )
    _charge(user, 3, ago=5)
    # 15 s: the two oldest must leave (the second in 30 s) to bring it to 7.
    assert budgets.budget_wait(budget=budgets.BOT_THINKING, user=user) == timedelta(
        seconds=30
    )
