"""Playtest pages: the start form, the board, acting by form and by htmx, stale tabs, sharing."""

import pytest

from decks.play.models import Playtest
from decks.play.services import playtest_create


@pytest.mark.django_db
def test_the_start_page_offers_opponents_and_the_games_options(client, user, deck_for):
    deck = deck_for("collision")
    client.force_login(user)
    response = client.get(f"/play/new/?deck={deck.pk}")
    assert response.status_code == 200
    for text in (
        b'value="random"',
        b'value="greedy"',
        b'value="hotseat"',
        b'name="advanced"',
        b"Run the report",
    ):
        assert text in response.content


@pytest.mark.django_db
def test_starting_from_the_form_creates_the_game_and_opens_its_board(
    client, user, deck_for
):
    deck = deck_for("metal-fusion")
    client.force_login(user)
    response = client.post(
        "/play/new/", {"deck": deck.pk, "opponent": "greedy", "players": 2, "seed": 12}
    )
    pt = Playtest.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/play/{pt.pk}/"
    assert (pt.seed, [s["kind"] for s in pt.seats]) == (12, ["human", "greedy"])
    board = client.get(f"/play/{pt.pk}/")
    assert board.status_code == 200
    assert b'id="board"' in board.content


@pytest.mark.django_db
def test_a_deck_of_another_user_that_is_private_cannot_be_started(
    client, user, other_user, deck_for
):
    deck = deck_for("collision", owner=other_user)
    client.force_login(user)
    assert client.get(f"/play/new/?deck={deck.pk}").status_code == 404
    assert client.post("/play/new/", {"deck": deck.pk}).status_code == 404
    assert Playtest.objects.count() == 0


@pytest.mark.django_db
def test_acting_by_plain_form_redirects_back_to_the_board(client, user, deck_for):
    pt = playtest_create(
        owner=user, deck=deck_for("bakugan"), opponent="random", seed=2
    )
    from decks.play.services import choices, load_state

    action = choices(pt, load_state(pt))[0].id
    client.force_login(user)
    response = client.post(
        f"/play/{pt.pk}/act/", {"action": action, "version": pt.version}
    )
    assert response.status_code == 302
    assert Playtest.objects.get(pk=pt.pk).version == pt.version + 1


@pytest.mark.django_db
def test_a_stale_htmx_click_is_refused_and_tells_the_tab_to_refresh(
    client, user, deck_for
):
    pt = playtest_create(
        owner=user, deck=deck_for("collision"), opponent="random", seed=2
    )
    client.force_login(user)
    response = client.post(
        f"/play/{pt.pk}/act/",
        {"action": "pass", "version": pt.version - 1},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 409
    assert response["HX-Refresh"] == "true"
    assert Playtest.objects.get(pk=pt.pk).version == pt.version


@pytest.mark.django_db
def test_an_illegal_htmx_click_shows_the_engines_reason_on_the_board(
    client, user, deck_for
):
    pt = playtest_create(
        owner=user, deck=deck_for("collision"), opponent="random", seed=2
    )
    client.force_login(user)
    response = client.post(
        f"/play/{pt.pk}/act/",
        {"action": "fly away", "version": pt.version},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert b'role="alert"' in response.content
    assert Playtest.objects.get(pk=pt.pk).version == pt.version


@pytest.mark.django_db
def test_a_share_link_replays_the_game_step_by_step_and_can_be_turned_off(
    client, user, deck_for
):
    pt = playtest_create(
        owner=user, deck=deck_for("collision"), opponent="random", seed=2
    )
    client.force_login(user)
    client.post(f"/play/{pt.pk}/share/", {"on": "1"})
    pt.refresh_from_db()
    client.logout()
    url = f"/play/shared/{pt.share_token}/"
    assert client.get(url + "?step=0").status_code == 200
    assert f"Step 1 of {len(pt.log)}".encode() in client.get(url + "?step=1").content
    assert client.get(url + "?step=abc").status_code == 200
    client.force_login(user)
    client.post(f"/play/{pt.pk}/share/", {"on": "0"})
    client.logout()
    assert client.get(url).status_code == 404


@pytest.mark.django_db
def test_branch_from_a_step_starts_a_new_game_with_that_prefix(client, user, deck_for):
    from decks.play.services import choices, load_state, playtest_act

    pt = playtest_create(
        owner=user, deck=deck_for("collision"), opponent="random", seed=2
    )
    for _ in range(3):
        action = choices(pt, load_state(pt))[0].id
        pt = playtest_act(
            playtest_id=pt.pk, user=user, action=action, version=pt.version
        )
    assert len(pt.log) >= 3
    client.force_login(user)
    response = client.post(f"/play/{pt.pk}/branch/", {"step": 2})
    new = Playtest.objects.exclude(pk=pt.pk).get()
    assert response["Location"] == f"/play/{new.pk}/"
    assert new.log[:2] == pt.log[:2]
    assert new.parent_id == pt.pk


@pytest.mark.django_db
def test_restart_with_the_same_seed_begins_the_same_game_again(client, user, deck_for):
    pt = playtest_create(
        owner=user, deck=deck_for("collide-o"), opponent="random", seed=6
    )
    client.force_login(user)
    client.post(f"/play/{pt.pk}/branch/", {"restart": "1"})
    new = Playtest.objects.exclude(pk=pt.pk).get()
    assert (new.seed, new.log, new.state) == (pt.seed, pt.log, pt.state)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path",
    [
        "/play/{pk}/",
        "/play/{pk}/undo/",
        "/play/{pk}/branch/",
        "/play/{pk}/share/",
        "/play/{pk}/act/",
    ],
)
def test_another_users_board_urls_answer_404(client, user, other_user, deck_for, path):
    pt = playtest_create(
        owner=user, deck=deck_for("collision"), opponent="random", seed=2
    )
    client.force_login(other_user)
    url = path.format(pk=pt.pk)
    response = (
        client.get(url)
        if path.count("/") == 3
        else client.post(url, {"version": pt.version, "action": "pass"})
    )
    assert response.status_code == 404
    assert Playtest.objects.count() == 1
    assert Playtest.objects.get(pk=pt.pk).version == pt.version


@pytest.mark.django_db
def test_a_shared_replay_offers_branch_from_here_only_to_who_may_branch(
    client, user, other_user, deck_for
):
    from decks.play.services import playtest_share

    pt = playtest_create(
        owner=user, deck=deck_for("collision"), opponent="random", seed=2
    )
    playtest_share(playtest=pt, on=True)
    pt.refresh_from_db()
    url = f"/play/shared/{pt.share_token}/?step=1"
    branch = f"/play/{pt.pk}/branch/"
    assert b"Branch from here" not in client.get(url).content
    client.force_login(other_user)
    assert b"Branch from here" not in client.get(url).content
    assert client.post(branch, {"step": 1}).status_code == 404
    client.force_login(user)
    assert b"Branch from here" in client.get(url).content
    response = client.post(branch, {"step": 1})
    new = Playtest.objects.exclude(pk=pt.pk).get()
    assert response["Location"] == f"/play/{new.pk}/"
    assert new.log[:1] == pt.log[:1]
    assert new.parent_id == pt.pk
