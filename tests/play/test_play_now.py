"""Play now: starter-deck games against a bot, for users and visitors (issue 34)."""

import re
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from cards.models import GameRecord
from decks.models import Deck
from decks.play.models import Playtest
from decks.play.opponents import available_presets, starter
from decks.play.services import (
    PlaytestError,
    playtest_act,
    playtest_adopt,
    playtest_create,
    playtest_purge_visitors,
)
from decks.play.visitors import SESSION_KEY, Visitor

pytestmark = pytest.mark.django_db

PASSWORD = "xq7!kd9#zp-long"


@pytest.fixture
def collision(practice):
    practice("collision")
    return GameRecord.objects.get(slug="collision")


def _start(game, player, bot="random"):
    first = available_presets(game.slug)[0]
    return playtest_create(owner=player, deck=starter(game, first.slug), opponent=bot)


def _visit(client, game="collision", bot="random"):
    """Tap Play now's bot button as ``client``; return the response."""
    return client.post(f"/play/now/{game}/", {"bot": bot})


def _age(pt, days=1, minutes=1):
    Playtest.objects.filter(pk=pt.pk).update(
        created_at=timezone.now() - timedelta(days=days, minutes=minutes)
    )


def test_a_visitor_game_belongs_to_their_key_and_plays_the_starter_deck(collision):
    first = available_presets("collision")[0]
    pt = _start(collision, Visitor(key="key-a", address="10.0.0.1"))
    assert (pt.owner_id, pt.visitor_key, pt.deck_id) == (None, "key-a", None)
    assert pt.seats[0]["kind"] == "human"
    assert pt.seats[0]["name"] == first.name
    assert pt.seats[1]["kind"] == "random"


def test_another_visitor_and_a_user_cannot_act_on_a_visitor_game(collision, user):
    pt = _start(collision, Visitor(key="key-a", address="10.0.0.1"))
    for stranger in (Visitor(key="key-b", address="10.0.0.1"), user):
        with pytest.raises(PlaytestError) as refused:
            playtest_act(
                playtest_id=pt.pk, user=stranger, action="x", version=pt.version
            )
        assert (refused.value.code, refused.value.status) == ("not_found", 404)


def test_a_visitor_cannot_act_on_a_user_game(collision, user):
    pt = _start(collision, user)
    with pytest.raises(PlaytestError) as refused:
        playtest_act(
            playtest_id=pt.pk,
            user=Visitor(key="key-a", address="10.0.0.1"),
            action="x",
            version=pt.version,
        )
    assert refused.value.status == 404


def test_visitor_games_are_limited_per_address_per_hour(collision, settings):
    settings.VISITOR_GAMES_PER_HOUR = 2
    _start(collision, Visitor(key="key-a", address="10.0.0.1"))
    _start(collision, Visitor(key="key-b", address="10.0.0.1"))
    with pytest.raises(PlaytestError) as refused:
        _start(collision, Visitor(key="key-c", address="10.0.0.1"))
    assert (refused.value.code, refused.value.status) == ("visitor_games", 429)
    assert refused.value.retry_after == 3600
    # Another address has its own count.
    _start(collision, Visitor(key="key-d", address="10.0.0.2"))
    assert Playtest.objects.filter(owner=None).count() == 3


def test_a_user_is_not_held_to_the_visitor_limit(collision, settings, user):
    settings.VISITOR_GAMES_PER_HOUR = 0
    assert _start(collision, user).owner == user


def test_a_visitor_may_not_start_a_match(collision):
    with pytest.raises(PlaytestError) as refused:
        playtest_create(
            owner=Visitor(key="key-a", address="10.0.0.1"),
            deck=starter(collision, available_presets("collision")[0].slug),
            opponent="random",
            match=True,
        )
    assert refused.value.code == "sign_up"


def test_adopt_gives_the_key_s_games_of_the_last_day_to_the_user(collision, user):
    mine = _start(collision, Visitor(key="key-a", address="10.0.0.1"))
    old = _start(collision, Visitor(key="key-a", address="10.0.0.1"))
    other = _start(collision, Visitor(key="key-b", address="10.0.0.1"))
    _age(old)
    assert playtest_adopt(visitor_key="key-a", user=user) == 1
    rows = {p.pk: (p.owner_id, p.visitor_key) for p in Playtest.objects.all()}
    assert rows == {
        mine.pk: (user.pk, ""),
        old.pk: (None, "key-a"),
        other.pk: (None, "key-b"),
    }


def test_purge_removes_visitor_games_over_a_day_old_and_keeps_the_rest(collision, user):
    old = _start(collision, Visitor(key="key-a", address="10.0.0.1"))
    fresh = _start(collision, Visitor(key="key-a", address="10.0.0.1"))
    users_old = _start(collision, user)
    _age(old)
    _age(users_old, days=30)
    assert playtest_purge_visitors() == 1
    assert set(Playtest.objects.values_list("pk", flat=True)) == {
        fresh.pk,
        users_old.pk,
    }


def test_the_purge_command_says_how_many_it_removed(collision, capsys):
    _age(_start(collision, Visitor(key="key-a", address="10.0.0.1")))
    call_command("purge_visitor_games")
    assert capsys.readouterr().out == "1 visitor game removed.\n"


# --- the pages ------------------------------------------------------------------


def test_play_now_lists_the_four_games(client):
    page = client.get("/play/now/").content.decode()
    for slug in ("collision", "metal-fusion", "collide-o", "bakugan"):
        assert f'href="/play/now/{slug}/"' in page


def test_the_game_form_checks_the_first_starter_deck_and_offers_three_bots(
    client, collision
):
    first = available_presets("collision")[0]
    page = client.get("/play/now/collision/").content.decode()
    assert f'value="starter:{first.slug}" checked' in page
    assert page.count('name="bot"') == 3
    bots = re.findall(
        r'name="bot" value="([^"]+)"><strong>([^<]+)</strong>([^<]*)</button>', page
    )
    assert bots == [
        ("random", "Beginner", " (random bot)"),
        ("greedy", "Casual", " (greedy bot)"),
        ("search", "Strong", " (search bot)"),
    ]


def test_a_visitor_starts_a_game_with_one_post_and_sees_its_board(client, collision):
    response = _visit(client)
    pt = Playtest.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/play/{pt.pk}/"
    assert pt.visitor_key == client.session[SESSION_KEY]
    board = client.get(f"/play/{pt.pk}/")
    assert board.status_code == 200
    assert f'action="/play/{pt.pk}/act/"' in board.content.decode()


def test_a_visitor_acts_on_their_game(client, collision):
    _visit(client)
    pt = Playtest.objects.get()
    action = board_action(client, pt)
    response = client.post(
        f"/play/{pt.pk}/act/", {"action": action, "version": pt.version}
    )
    assert response.status_code == 302
    pt.refresh_from_db()
    assert pt.version == 2
    assert action in pt.log


def board_action(client, pt) -> str:
    """Return the first action the board offers."""
    page = client.get(f"/play/{pt.pk}/").content.decode()
    marker = 'name="action" value="'
    start = page.index(marker) + len(marker)
    return page[start : page.index('"', start)]


def test_another_browser_cannot_see_or_act_on_a_visitor_game(client, collision, user):
    _visit(client)
    pt = Playtest.objects.get()
    stranger = Client()
    # No visitor key: sent to log in, as before.
    assert stranger.get(f"/play/{pt.pk}/").status_code == 302
    _visit(stranger)  # now a visitor with a key of its own
    assert stranger.get(f"/play/{pt.pk}/").status_code == 404
    for path in ("act", "undo"):
        assert (
            stranger.post(f"/play/{pt.pk}/{path}/", {"version": 1}).status_code == 404
        )
    signed_in = Client()
    signed_in.force_login(user)
    assert signed_in.get(f"/play/{pt.pk}/").status_code == 404


def test_a_day_old_visitor_game_is_refused_before_it_is_purged(client, collision):
    _visit(client)
    pt = Playtest.objects.get()
    _age(pt)
    assert client.get(f"/play/{pt.pk}/").status_code == 404


def test_signing_up_makes_the_visit_s_games_the_new_user_s(client, collision):
    _visit(client)
    response = client.post(
        "/accounts/signup/",
        {"username": "newcomer", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    pt = Playtest.objects.get()
    assert (pt.owner.username, pt.visitor_key) == ("newcomer", "")
    assert client.get(f"/play/{pt.pk}/").status_code == 200


def test_logging_in_makes_the_visit_s_games_the_user_s(client, collision, user):
    user.set_password(PASSWORD)
    user.save()
    _visit(client)
    response = client.post(
        "/accounts/login/", {"username": user.username, "password": PASSWORD}
    )
    assert response.status_code == 302
    assert Playtest.objects.get().owner == user


def test_the_visitor_limit_answers_429_on_the_page(client, collision, settings):
    settings.VISITOR_GAMES_PER_HOUR = 1
    _visit(client)
    response = _visit(client)
    assert response.status_code == 429
    assert response["Retry-After"] == "3600"
    assert "<h1>Sign up to play more</h1>" in response.content.decode()
    assert Playtest.objects.count() == 1


def test_play_it_on_a_public_deck_checks_that_deck(client, deck_for):
    deck = deck_for("collision")
    Deck.objects.filter(pk=deck.pk).update(is_public=True)
    page = client.get(f"/play/now/collision/?deck=deck:{deck.pk}").content.decode()
    assert f'value="deck:{deck.pk}" checked' in page
    client.post("/play/now/collision/", {"bot": "greedy", "deck": f"deck:{deck.pk}"})
    pt = Playtest.objects.get()
    assert (pt.deck_id, pt.owner_id, pt.seats[1]["kind"]) == (deck.pk, None, "greedy")


def test_a_private_deck_cannot_be_played_by_a_visitor(client, deck_for):
    deck = deck_for("collision")
    response = client.post(
        "/play/now/collision/", {"bot": "greedy", "deck": f"deck:{deck.pk}"}
    )
    assert response.status_code == 302
    assert not Playtest.objects.exists()


def test_copy_to_my_decks_makes_the_starter_deck_the_user_s(client, collision, user):
    first = available_presets("collision")[0]
    client.force_login(user)
    response = client.post(f"/play/starters/collision/{first.slug}/copy/")
    deck = Deck.objects.get(owner=user)
    assert response["Location"] == deck.get_absolute_url()
    assert deck.name == first.name
    assert sum(e.quantity for e in deck.entries.all()) == first.size


def test_a_visitor_is_asked_to_log_in_to_copy_a_starter_deck(client, collision):
    first = available_presets("collision")[0]
    response = client.post(f"/play/starters/collision/{first.slug}/copy/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    page = client.get("/decks/").content.decode()
    assert "/accounts/login/?next=/decks/%23starter-collision-" in page
    assert not Deck.objects.exists()


def test_the_decks_page_lists_starter_decks_with_play_it(client, collision):
    first = available_presets("collision")[0]
    page = client.get("/decks/games/collision/").content.decode()
    assert "Starter deck" in page
    assert f'href="/play/now/collision/?deck=starter:{first.slug}"' in page


def test_the_bot_plays_the_starter_after_the_player_s_so_no_game_is_a_mirror(
    client, collision
):
    starters = available_presets("collision")
    client.post(
        "/play/now/collision/",
        {"bot": "random", "deck": f"starter:{starters[-1].slug}"},
    )
    pt = Playtest.objects.get()
    first = starters[0]
    assert [s["name"] for s in pt.seats] == [
        starters[-1].name,
        f"{first.name} (preset, {first.style})",
    ]


@pytest.mark.parametrize("path", ["branch", "share", "next"])
def test_a_visitor_is_sent_to_log_in_and_back_to_the_board_to_restart_or_share(
    client, collision, path
):
    _visit(client)
    pt = Playtest.objects.get()
    response = client.post(f"/play/{pt.pk}/{path}/", {"restart": "1", "on": "1"})
    assert response["Location"] == f"/accounts/login/?next=/play/{pt.pk}/"
    pt.refresh_from_db()
    assert (Playtest.objects.count(), pt.share_token) == (1, None)


def test_a_visitor_gets_a_hint_in_their_practice_game_and_another_browser_does_not(
    client, collision
):
    _visit(client)
    pt = Playtest.objects.get()
    board = client.get(f"/play/{pt.pk}/").content.decode()
    assert f'action="/play/{pt.pk}/hint/"' in board
    hint = client.post(f"/play/{pt.pk}/hint/", {"version": pt.version})
    assert hint.status_code == 200
    moves = re.findall(r'name="action" value="([^"]+)"', hint.content.decode())
    assert board_action(client, pt) in moves
    other = Client()
    _visit(other)
    assert (
        other.post(f"/play/{pt.pk}/hint/", {"version": pt.version}).status_code == 404
    )


def test_a_visitor_is_asked_to_sign_up_for_a_game_review(client, collision):
    _visit(client)
    pt = Playtest.objects.get()
    response = client.post(f"/play/{pt.pk}/review/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
