"""The playtest API: create, act, stale versions, illegal actions, undo, privacy."""

import pytest

from decks.play.models import Playtest
from tests.factories import make_card

GAMES = ["collision", "metal-fusion", "collide-o", "bakugan"]


def create(client, deck, **extra):
    return client.post(
        "/api/playtests/",
        {"deck": deck.pk, "opponent": "random", "seed": 7, **extra},
        content_type="application/json",
    )


@pytest.mark.parametrize("game", GAMES)
def test_create_returns_the_state_for_the_player_to_act(client, user, deck_for, game):
    deck = deck_for(game)
    client.force_login(user)
    response = create(client, deck)
    assert response.status_code == 201, response.content
    body = response.json()
    assert set(body) == {
        "id",
        "game",
        "version",
        "seed",
        "view",
        "legal_actions",
        "over",
        "winner",
        "log",
        "match",
    }
    assert body["match"] is None  # a single game
    assert body["game"] == game
    assert body["version"] == 1
    assert body["seed"] == 7
    assert body["over"] is False
    assert body["legal_actions"], "the human seat acts first or after the bots"
    assert all(set(a) == {"id", "label"} for a in body["legal_actions"])
    assert Playtest.objects.get(pk=body["id"]).owner == user


@pytest.mark.parametrize("game", GAMES)
def test_acting_applies_the_action_and_bumps_the_version(client, user, deck_for, game):
    client.force_login(user)
    body = create(client, deck_for(game)).json()
    before = len(body["log"])
    chosen = body["legal_actions"][0]["id"]
    response = client.post(
        f"/api/playtests/{body['id']}/actions/",
        {"action": chosen, "version": 1},
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    after = response.json()
    assert after["version"] == 2
    assert after["log"][before] == chosen
    assert Playtest.objects.get(pk=body["id"]).version == 2


@pytest.mark.parametrize("game", GAMES)
def test_a_game_saved_by_another_engine_version_is_replayed_from_its_log(
    client, user, deck_for, game
):
    client.force_login(user)
    body = create(client, deck_for(game)).json()
    pt = Playtest.objects.get(pk=body["id"])
    pt.state = {**pt.state, "version": "0.0"}
    pt.save(update_fields=["state"])
    chosen = body["legal_actions"][0]["id"]
    response = client.post(
        f"/api/playtests/{body['id']}/actions/",
        {"action": chosen, "version": 1},
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["log"][: len(body["log"]) + 1] == [*body["log"], chosen]
    assert Playtest.objects.get(pk=body["id"]).state["version"] != "0.0"


def test_a_stale_version_is_refused_with_409_and_nothing_changes(
    client, user, deck_for
):
    client.force_login(user)
    body = create(client, deck_for("collision")).json()
    first = body["legal_actions"][0]["id"]
    client.post(
        f"/api/playtests/{body['id']}/actions/",
        {"action": first, "version": 1},
        content_type="application/json",
    )
    stored = Playtest.objects.get(pk=body["id"])
    response = client.post(
        f"/api/playtests/{body['id']}/actions/",
        {"action": first, "version": 1},
        content_type="application/json",
    )
    assert response.status_code == 409
    assert response.json()["code"] == "stale_state"
    again = Playtest.objects.get(pk=body["id"])
    assert (again.version, again.log) == (stored.version, stored.log)


def test_an_action_that_is_not_legal_is_refused_with_400_and_the_engine_reason(
    client, user, deck_for
):
    client.force_login(user)
    body = create(client, deck_for("collision")).json()
    response = client.post(
        f"/api/playtests/{body['id']}/actions/",
        {"action": "warp drive", "version": 1},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "bad_action"
    assert Playtest.objects.get(pk=body["id"]).version == 1


def test_undo_takes_back_the_last_move_and_keeps_the_tail(client, user, deck_for):
    client.force_login(user)
    body = create(client, deck_for("bakugan")).json()
    log_before = body["log"]
    chosen = body["legal_actions"][0]["id"]
    client.post(
        f"/api/playtests/{body['id']}/actions/",
        {"action": chosen, "version": 1},
        content_type="application/json",
    )
    response = client.post(
        f"/api/playtests/{body['id']}/undo/",
        {"version": 2},
        content_type="application/json",
    )
    assert response.status_code == 200
    assert response.json()["log"] == log_before
    assert response.json()["version"] == 3
    stored = Playtest.objects.get(pk=body["id"])
    assert stored.undone[-1]["log"][0] == chosen


def test_undo_with_nothing_to_take_back_says_so(client, user, deck_for):
    client.force_login(user)
    body = create(client, deck_for("collision")).json()
    response = client.post(
        f"/api/playtests/{body['id']}/undo/", {}, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["detail"] == "There is no move of yours to take back."


@pytest.mark.parametrize(
    "method,path,payload",
    [
        ("get", "/api/playtests/{id}/", None),
        ("post", "/api/playtests/{id}/actions/", {"action": "pass", "version": 1}),
        ("post", "/api/playtests/{id}/undo/", {}),
    ],
)
def test_another_user_gets_404_and_changes_nothing(
    client, user, other_user, deck_for, method, path, payload
):
    client.force_login(user)
    body = create(client, deck_for("collision")).json()
    client.force_login(other_user)
    url = path.format(id=body["id"])
    response = (
        client.get(url)
        if method == "get"
        else client.post(url, payload, content_type="application/json")
    )
    assert response.status_code == 404
    assert Playtest.objects.get(pk=body["id"]).version == 1
    client.logout()
    response = (
        client.get(url)
        if method == "get"
        else client.post(url, payload, content_type="application/json")
    )
    # Session authentication comes first, so DRF answers 403, not 401 with a challenge.
    assert response.status_code == 403
    assert Playtest.objects.get(pk=body["id"]).version == 1


def test_the_list_holds_only_the_owners_games(client, user, other_user, deck_for):
    client.force_login(user)
    mine = create(client, deck_for("collision")).json()["id"]
    client.force_login(other_user)
    create(client, deck_for("collision", owner=other_user))
    client.force_login(user)
    body = client.get("/api/playtests/").json()
    assert [row["id"] for row in body["results"]] == [mine]
    assert body["count"] == 1


def test_a_private_deck_of_another_user_cannot_be_playtested(
    client, user, other_user, deck_for
):
    deck = deck_for("collision", owner=other_user)
    client.force_login(user)
    response = create(client, deck)
    assert response.status_code == 400
    assert response.json() == {"deck": ["No such deck."]}
    assert Playtest.objects.count() == 0


def test_cards_without_play_data_block_the_playtest_and_are_named(
    client, user, practice
):
    from cards.models import Card
    from decks.services import deck_create

    practice("collision")
    blade = Card.objects.filter(card_set__kind="practice", card_type="blade").first()
    blank_set = blade.card_set
    unknown = [
        make_card(card_set=blank_set, key=f"x{i}", number=900 + i, source="test")
        for i in range(15)
    ]
    entries = [{"card": blade.pk, "quantity": 1, "zone": "blade"}] + [
        {"card": c.pk, "quantity": 4, "zone": "deck"} for c in unknown
    ]
    deck = deck_create(owner=user, game="collision", name="Unknowns", entries=entries)
    client.force_login(user)
    response = create(client, deck)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "blocked"
    assert sorted(c["id"] for c in body["cards"]) == sorted(c.pk for c in unknown)
    assert body["detail"].startswith(
        "These cards lack the play data a playtest needs: "
    )
    assert "Unknown card, not numbered: " in body["detail"]


def test_an_illegal_deck_cannot_be_playtested_and_the_reason_is_given(
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
    response = create(client, deck)
    assert response.status_code == 400
    assert response.json()["code"] == "illegal_deck"
    assert "at least 60 cards" in response.json()["detail"]


def test_three_players_against_bots_each_with_a_chosen_deck(client, user, deck_for):
    mine, second, third = (
        deck_for("collision"),
        deck_for("collision", 1),
        deck_for("collision", 2),
    )
    client.force_login(user)
    response = create(client, mine, players=3, opponent_decks=[second.pk, third.pk])
    assert response.status_code == 201, response.content
    stored = Playtest.objects.get(pk=response.json()["id"])
    assert [s["deck"] for s in stored.seats] == [mine.pk, second.pk, third.pk]
    assert [s["kind"] for s in stored.seats] == ["human", "random", "random"]


def test_collide_o_deals_one_pack_among_all_players(client, user, deck_for):
    client.force_login(user)
    response = create(client, deck_for("collide-o"), players=4)
    assert response.status_code == 201, response.content
    stored = Playtest.objects.get(pk=response.json()["id"])
    assert len(stored.seats) == 4
    assert len(stored.decks) == 1


def test_a_bakugan_roll_can_be_chosen_by_the_player(client, user, deck_for):
    client.force_login(user)
    body = create(
        client, deck_for("bakugan"), chance="choose", opponent="hotseat"
    ).json()
    seen_chance = False
    for _ in range(40):
        ids = [a["id"] for a in body["legal_actions"]]
        if "chance:seed" in ids:
            seen_chance = True
            labels = [a["label"] for a in body["legal_actions"]]
            assert any("%" in label for label in labels)
            break
        body = client.post(
            f"/api/playtests/{body['id']}/actions/",
            {"action": ids[0], "version": body["version"]},
            content_type="application/json",
        ).json()
    assert seen_chance
