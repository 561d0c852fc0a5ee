"""The read API: games, sets and cards, with the shared FilterSet and q=."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.fields import DateTimeField

from cards.api import cache
from cards.api.serializers import GAME_CARD_FIELDS, CardSerializer
from cards.models import Card
from cards.search import SORT_KEYS
from tests.factories import MF, B, C, make_card, make_set

pytestmark = pytest.mark.django_db


def ids(response) -> list[int]:
    return [row["id"] for row in response.json()["results"]]


def test_ping_answers_ok(client):
    response = client.get("/api/ping/")
    assert (response.status_code, response.json()) == (200, {"ok": True})


def test_games_are_listed_and_read_by_slug(client):
    response = client.get("/api/games/")
    assert response.status_code == 200
    assert [g["slug"] for g in response.json()["results"]] == [
        "collision",
        "metal-fusion",
        "collide-o",
        "bakugan",
    ]
    assert client.get("/api/games/bakugan/").json()["name"] == "Bakugan Battle Brawlers"
    assert client.get("/api/games/chess/").status_code == 404


def test_sets_are_listed_with_their_card_counts_and_filtered(client):
    base = make_set(C, slug="base")
    make_card(C, card_set=base)
    make_card(C, card_set=base)
    make_set(B, "practice", slug="practice")
    response = client.get("/api/sets/?game=collision")
    assert response.status_code == 200
    rows = response.json()["results"]
    assert [(r["slug"], r["card_count"], r["kind"]) for r in rows] == [
        ("base", 2, "official")
    ]
    assert client.get("/api/sets/?kind=bogus").status_code == 400


def test_the_card_list_is_paginated_with_the_standard_keys_and_extras(client):
    cards = [make_card(C, title=f"Card {n}", number=n) for n in range(1, 4)]
    response = client.get("/api/cards/?page_size=2")
    assert response.status_code == 200
    payload = response.json()
    assert list(payload) == [
        "count",
        "next",
        "previous",
        "results",
        "searched",
        "warnings",
    ]
    assert payload["count"] == 3
    assert ids(response) == [cards[0].pk, cards[1].pk]
    assert payload["next"] == "http://testserver/api/cards/?page=2&page_size=2"
    assert (payload["searched"], payload["warnings"]) == ("All cards", [])


def test_page_size_is_bounded_at_200(client):
    card_set = make_set(C)
    Card.objects.bulk_create(
        Card(card_set=card_set, key=str(n), number=n, source="test rows")
        for n in range(205)
    )
    response = client.get("/api/cards/?page_size=100000")
    assert response.status_code == 200
    assert len(response.json()["results"]) == 200
    assert len(ids(client.get("/api/cards/"))) == 50


def test_the_card_list_filters_with_parameters_and_q_together(client):
    first = make_card(C, card_type="blade", spin_strength=6, number=1)
    second = make_card(C, card_type="blade", spin_strength=7, number=2)
    make_card(C, card_type="blade", spin_strength=5, number=3)
    make_card(MF, stat_red=4)
    response = client.get("/api/cards/?game=collision&q=spin%3E%3D6+nope:1")
    assert response.status_code == 200
    assert ids(response) == [first.pk, second.pk]
    payload = response.json()
    assert payload["searched"] == "Cards whose spin strength is at least 6"
    assert payload["warnings"] == ['Ignored “nope:1”: unknown key "nope".']


def test_the_card_list_sorts_and_warns_about_unknown_sorts(client):
    b = make_card(C, title="Beta", number=1)
    a = make_card(C, title="Alpha", number=2)
    assert ids(client.get("/api/cards/?sort=name")) == [a.pk, b.pk]
    response = client.get("/api/cards/?sort=password")
    assert ids(response) == [b.pk, a.pk]
    assert response.json()["warnings"] == [
        f"Ignored the sort “password”: sort by one of {', '.join(SORT_KEYS)} "
        "(- first for descending)."
    ]


@pytest.mark.parametrize(
    "query, field, message",
    [
        ("number_min=abc", "number_min", "Enter a whole number."),
        (
            "red_max=99999999",
            "red_max",
            "Ensure this value is less than or equal to 99999.",
        ),
        (
            "colour=pink",
            "colour",
            "Select a valid choice. pink is not one of the available choices.",
        ),
        (
            "edge_4=sideways",
            "edge_4",
            "Select a valid choice. sideways is not one of the available choices.",
        ),
    ],
)
def test_bad_parameters_answer_400_with_a_message(client, query, field, message):
    response = client.get(f"/api/cards/?{query}")
    assert response.status_code == 400
    assert response.json() == {field: [message]}


@pytest.mark.parametrize(
    "query",
    [
        "q=" + "a" * 5000,
        "q=%22unbalanced",
        "q=%27+OR+1%3D1+--",
        "q=a%00b",
        "q=%ff%fe%80",
        "q=nope:1+zap%3E3+red%3Eabc",
        "sort=%27%22&page_size=-5",
        "q=" + "+or" * 300,
    ],
)
def test_hostile_queries_answer_200_with_warnings(client, query):
    make_card(C, title="Dragoon")
    response = client.get(f"/api/cards/?{query}")
    assert response.status_code == 200
    payload = response.json()
    assert isinstance(payload["warnings"], list)
    assert isinstance(payload["searched"], str)


@pytest.mark.parametrize("query", ["number_min=%ff", "game=%00", "kind=%27+OR+1"])
def test_hostile_filter_parameters_answer_400(client, query):
    assert client.get(f"/api/cards/?{query}").status_code == 400


def test_a_bad_page_number_is_not_found_not_an_error(client):
    make_card(C)
    assert client.get("/api/cards/?page=abc").status_code == 404
    assert client.get("/api/cards/?page=99").status_code == 404


def test_the_card_detail_has_every_field(client):
    card = make_card(
        B, name="Fire Pit", card_type="gate", gate_class="gold", bonus_pyrus=100
    )
    response = client.get(f"/api/cards/{card.pk}/")
    assert response.status_code == 200
    data = response.json()
    assert (
        data["game"],
        data["gate_class"],
        data["bonus_pyrus"],
        data["bonus_aquos"],
    ) == (
        "bakugan",
        "gold",
        100,
        None,
    )
    assert data["image_url"] == f"/cards/{card.pk}/image.png"
    assert client.get("/api/cards/999999/").status_code == 404


def test_the_list_rows_equal_the_detail_and_the_generic_serializer(client):
    card = make_card(
        C,
        title="Dragoon",
        card_type="blade",
        battle_edge="LS.E..",
        spin_strength=6,
        not_printed=["lore"],
    )
    listed = client.get("/api/cards/").json()["results"][0]
    detail = client.get(f"/api/cards/{card.pk}/").json()
    card = Card.objects.with_related().get(pk=card.pk)
    generic = super(CardSerializer, CardSerializer()).to_representation(card)
    generic["created_at"] = DateTimeField().to_representation(card.created_at)
    # The detail alone adds each field's own verification level (none here).
    assert detail.pop("field_verification") == {}
    assert listed == detail
    # The generic path gives every game's columns; a Blade answers with its own.
    printed = {"title", "subtitle", "battle_edge", "spin_strength"}
    assert {k: v for k, v in generic.items() if k in detail} == detail
    assert set(generic) - set(detail) == set(GAME_CARD_FIELDS) - printed


def test_a_card_answers_with_the_fields_its_game_and_type_print(client):
    blade = make_card(C, key="1", title="Dragoon", card_type="blade")
    unknown = make_card(C, key="2", title="Dranzer", card_type=None)
    blade_data = client.get(f"/api/cards/{blade.pk}/").json()
    unknown_data = client.get(f"/api/cards/{unknown.pk}/").json()
    assert [f for f in GAME_CARD_FIELDS if f in blade_data] == [
        "title",
        "subtitle",
        "battle_edge",
        "spin_strength",
    ]
    assert [f for f in GAME_CARD_FIELDS if f in unknown_data] == [
        "title",
        "subtitle",
        "colour",
        "battle_edge",
        "spin_strength",
        "symbol",
    ]
    assert "stat_red" not in blade_data and blade_data["rarity"] is None


def test_the_api_is_read_only(client, user):
    card = make_card(C)
    client.force_login(user)
    assert client.post("/api/cards/", {"name": "x"}).status_code == 405
    assert client.delete(f"/api/cards/{card.pk}/").status_code == 405
    assert client.post("/api/games/", {}).status_code == 405


def test_private_custom_cards_are_visible_only_to_their_owner(client, user, other_user):
    mine = make_set(C, "custom", slug="mine", owner=user, is_public=False)
    card = make_card(C, card_set=mine, title="Homebrew")
    assert ids(client.get("/api/cards/")) == []
    assert client.get(f"/api/cards/{card.pk}/").status_code == 404
    assert client.get("/api/sets/?kind=custom").json()["count"] == 0
    client.force_login(other_user)
    assert ids(client.get("/api/cards/")) == []
    assert client.get(f"/api/cards/{card.pk}/").status_code == 404
    client.force_login(user)
    assert ids(client.get("/api/cards/")) == [card.pk]
    assert client.get("/api/sets/?kind=custom").json()["count"] == 1


@pytest.mark.parametrize(
    "query", ["", "&q=game:collision+live%3E%3D1", "&number_min=1"]
)
def test_the_card_list_runs_the_same_number_of_queries_for_1_and_50_rows(client, query):
    for n in range(1, 61):
        make_card(C, title=f"Card {n}", number=n, battle_edge="LLS.E.")
    counts = []
    for size in (1, 50):
        cache.worker_caches_clear()
        with CaptureQueriesContext(connection) as queries:
            response = client.get(f"/api/cards/?page_size={size}{query}")
        assert len(response.json()["results"]) == size
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_the_schema_and_docs_are_served(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    text = schema.content.decode()
    for path in ("/api/cards/:", "/api/cards/{id}/:", "/api/sets/:", "/api/games/:"):
        assert path in text
    for parameter in ("name: q", "name: sort", "name: pyrus_min", "name: edge_4"):
        assert parameter in text
    assert client.get("/api/docs/").status_code == 200


@pytest.mark.parametrize(
    "url",
    [
        "/api/cards/99999999999999999999/",
        "/api/sets/99999999999999999999/",
        "/api/cards/x/",
    ],
)
def test_out_of_range_ids_are_not_found(client, url):
    assert client.get(url).status_code == 404


def test_awkward_values_list_as_the_detail_shows_them(client):
    import datetime

    awkward = make_card(
        C,
        title='Dra"goon \\ ünï 漢字 \u2028 line\nbreak\ttab',
        subtitle="",
        card_type="blade",
        battle_edge="LS.E..",
        spin_strength=6,
        not_printed=["lore", "text"],
        effects=[{"op": "draw", "timing": "passive", "amount": 2}],
    )
    Card.objects.filter(pk=awkward.pk).update(
        updated_at=datetime.datetime(2024, 5, 1, 10, 11, 12, tzinfo=datetime.UTC)
    )
    plain = make_card(MF, stat_red=4, move_red=-3)
    listed = {row["id"]: row for row in client.get("/api/cards/").json()["results"]}
    for card in (awkward, plain):
        detail = client.get(f"/api/cards/{card.pk}/").json()
        detail.pop("field_verification")  # the detail's own extra (community)
        assert listed[card.pk] == detail
    assert listed[awkward.pk]["updated_at"] == "2024-05-01T10:11:12Z"
    assert listed[awkward.pk]["name"] == 'Dra"goon \\ ünï 漢字 \u2028 line\nbreak\ttab'
    body = client.get("/api/cards/?page_size=5").content.decode()
    assert "\u2028" not in body
    assert "\\u2028" in body


def test_the_list_renders_indented_and_in_the_browsable_api(client):
    card = make_card(C, title="Dragoon")
    indented = client.get("/api/cards/", HTTP_ACCEPT="application/json; indent=2")
    assert indented.status_code == 200
    assert indented.content.decode().startswith('{\n  "count": 1,')
    assert indented.json()["results"][0]["id"] == card.pk
    page = client.get("/api/cards/", HTTP_ACCEPT="text/html")
    assert page.status_code == 200
    assert "Dragoon" in page.content.decode()


def test_reused_list_sql_keeps_each_viewer_to_their_own_cards(client, user, other_user):
    mine = make_set(C, "custom", slug="mine", owner=user, is_public=False)
    card = make_card(C, card_set=mine, title="Homebrew")
    url = "/api/cards/?kind=custom"
    client.force_login(user)
    assert ids(client.get(url)) == [card.pk]
    client.force_login(other_user)
    assert ids(client.get(url)) == []
    client.logout()
    assert ids(client.get(url)) == []
    client.force_login(user)
    assert ids(client.get(url)) == [card.pk]


def test_reused_list_sql_still_reads_new_rows_and_rejects_bad_parameters(client):
    first = make_card(C, title="One", number=1)
    assert client.get("/api/cards/?number_min=1").json()["count"] == 1
    second = make_card(C, title="Two", number=2)
    response = client.get("/api/cards/?number_min=1")
    assert (response.json()["count"], ids(response)) == (2, [first.pk, second.pk])
    for _ in range(2):
        response = client.get("/api/cards/?number_min=abc")
        assert response.status_code == 400
        assert response.json() == {"number_min": ["Enter a whole number."]}


def test_the_list_pages_through_every_card_once(client):
    cards = [make_card(C, title=f"Card {n}", number=n) for n in range(1, 8)]
    seen = []
    url = "/api/cards/?page_size=3"
    while url:
        payload = client.get(url).json()
        assert payload["count"] == 7
        seen += [row["id"] for row in payload["results"]]
        url = payload["next"]
    assert seen == [card.pk for card in cards]
    assert (
        client.get("/api/cards/?page_size=3&page=last").json()["results"][0]["id"]
        == cards[6].pk
    )


def test_an_empty_list_is_a_page_of_nothing(client):
    response = client.get("/api/cards/?game=bakugan")
    assert response.status_code == 200
    assert (response.json()["count"], response.json()["results"]) == (0, [])
