"""The deck API: create in one request, legality in the detail, privacy, bad input."""

import pytest
from rest_framework.test import APIClient

from decks import services
from decks.models import Deck, DeckEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient()


def test_create_a_deck_in_one_request(api, user, collision_cards):
    blade, actions = collision_cards
    api.force_authenticate(user)
    body = {
        "game": "collision",
        "name": "Storm",
        "public": False,
        "entries": [
            {"card": blade.pk, "quantity": 1, "zone": "blade"},
            {"card": actions[0].pk, "quantity": 4, "zone": "deck"},
        ],
    }
    response = api.post("/api/decks/", body, format="json")
    assert response.status_code == 201
    deck = Deck.objects.get()
    assert (deck.owner, deck.name, deck.is_public) == (user, "Storm", False)
    assert response.data["legal"] is False
    assert [p["code"] for p in response.data["problems"]] == ["too_few_cards"]
    assert response.data["problems"][0]["message"].endswith("This deck has 5.")
    assert [
        (e["card"], e["zone"], e["quantity"]) for e in response.data["entries"]
    ] == [
        (blade.pk, "blade", 1),
        (actions[0].pk, "deck", 4),
    ]


def test_detail_of_a_legal_deck(api, user, private_deck):
    api.force_authenticate(user)
    response = api.get(f"/api/decks/{private_deck.pk}/")
    assert response.status_code == 200
    assert (response.data["legal"], response.data["problems"]) == (True, [])
    assert sum(e["quantity"] for e in response.data["entries"]) == 60


@pytest.mark.parametrize(
    "entry,field",
    [
        ({"card": 999999, "quantity": 1, "zone": "deck"}, "entries"),
        ({"card": "BAKUGAN", "quantity": 1, "zone": "deck"}, "entries"),
        ({"card": "ACTION", "quantity": 1, "zone": "pack"}, "entries"),
        ({"card": "ACTION", "quantity": 1, "zone": "nowhere"}, "entries"),
        ({"card": "ACTION", "quantity": 0, "zone": "deck"}, "entries"),
        ({"card": "ACTION", "quantity": 100000, "zone": "deck"}, "entries"),
        ({"card": "ACTION", "quantity": -1, "zone": "deck"}, "entries"),
    ],
)
def test_bad_entries_are_400_and_write_nothing(
    api, user, collision_cards, card_factory, entry, field
):
    gate = card_factory("bakugan", card_type="gate", gate_class="gold")
    entry = {
        **entry,
        "card": {"BAKUGAN": gate.pk, "ACTION": collision_cards[1][0].pk}.get(
            entry["card"], entry["card"]
        ),
    }
    api.force_authenticate(user)
    response = api.post(
        "/api/decks/",
        {"game": "collision", "name": "X", "entries": [entry]},
        format="json",
    )
    assert response.status_code == 400
    assert field in response.data
    assert Deck.objects.count() == 0
    assert DeckEntry.objects.count() == 0


def test_card_of_another_game_says_so(api, user, card_factory):
    gate = card_factory("bakugan", card_type="gate", gate_class="gold", name="Gold")
    api.force_authenticate(user)
    response = api.post(
        "/api/decks/",
        {
            "game": "collision",
            "name": "X",
            "entries": [{"card": gate.pk, "quantity": 1, "zone": "deck"}],
        },
        format="json",
    )
    assert response.data == {
        "entries": [
            "Entry 1: Gold is a Bakugan Battle Brawlers card, not a Beyblade Collision card."
        ]
    }


def test_bad_game_and_missing_name_are_400(api, user):
    api.force_authenticate(user)
    assert (
        api.post(
            "/api/decks/", {"game": "chess", "name": "X"}, format="json"
        ).status_code
        == 400
    )
    assert (
        api.post("/api/decks/", {"game": "collision"}, format="json").status_code == 400
    )
    assert (
        api.post("/api/decks/", "not json", content_type="application/json").status_code
        == 400
    )
    assert Deck.objects.count() == 0


def test_list_holds_own_decks_and_public_filter_holds_public_decks(
    api, user, other_user, private_deck, public_deck
):
    theirs_public = services.deck_create(
        owner=other_user, game="bakugan", name="Brawl", is_public=True
    )
    services.deck_create(owner=other_user, game="bakugan", name="Hidden")
    api.force_authenticate(user)
    response = api.get("/api/decks/")
    assert sorted(d["name"] for d in response.data["results"]) == [
        "Open storm",
        "Secret storm",
    ]
    response = api.get("/api/decks/?public=1")
    assert sorted(d["name"] for d in response.data["results"]) == [
        "Brawl",
        "Open storm",
    ]
    response = api.get("/api/decks/?public=1&game=bakugan")
    assert [d["id"] for d in response.data["results"]] == [theirs_public.pk]
    api.force_authenticate(None)
    response = api.get("/api/decks/")
    assert sorted(d["name"] for d in response.data["results"]) == [
        "Brawl",
        "Open storm",
    ]


@pytest.mark.parametrize("who", ["anonymous", "other"])
def test_a_private_deck_is_404_to_others_for_every_method(
    api, other_user, private_deck, who
):
    if who == "other":
        api.force_authenticate(other_user)
    url = f"/api/decks/{private_deck.pk}/"
    assert api.get(url).status_code == 404
    assert (
        api.put(url, {"game": "collision", "name": "Mine"}, format="json").status_code
        == 404
    )
    assert api.patch(url, {"name": "Mine"}, format="json").status_code == 404
    assert api.delete(url).status_code == 404
    private_deck.refresh_from_db()
    assert private_deck.name == "Secret storm"
    assert private_deck.versions.count() == 1


@pytest.mark.parametrize("who", ["anonymous", "other"])
def test_a_public_deck_is_readable_by_others_but_writes_are_404(
    api, other_user, public_deck, who
):
    if who == "other":
        api.force_authenticate(other_user)
    url = f"/api/decks/{public_deck.pk}/"
    response = api.get(url)
    assert response.status_code == 200
    assert response.data["owner"] == "alice"
    assert (
        api.put(url, {"game": "collision", "name": "Mine"}, format="json").status_code
        == 404
    )
    assert api.patch(url, {"entries": []}, format="json").status_code == 404
    assert api.delete(url).status_code == 404
    assert public_deck.entries.count() == 1


def test_anonymous_cannot_create(api):
    response = api.post(
        "/api/decks/", {"game": "collision", "name": "X"}, format="json"
    )
    # Session authentication comes first, so DRF answers 403, not 401 with a challenge.
    assert response.status_code == 403
    assert Deck.objects.count() == 0


def test_patch_replaces_entries_and_keeps_a_version(
    api, user, public_deck, collision_cards
):
    _, actions = collision_cards
    api.force_authenticate(user)
    url = f"/api/decks/{public_deck.pk}/"
    response = api.patch(
        url,
        {"entries": [{"card": actions[2].pk, "quantity": 2, "zone": "deck"}]},
        format="json",
    )
    assert response.status_code == 200
    assert list(public_deck.entries.values_list("card_id", "quantity")) == [
        (actions[2].pk, 2)
    ]
    assert public_deck.versions.count() == 2
    public_deck.refresh_from_db()
    assert (public_deck.name, public_deck.is_public) == ("Open storm", True)


def test_patch_with_bad_entries_changes_nothing(api, user, public_deck):
    api.force_authenticate(user)
    url = f"/api/decks/{public_deck.pk}/"
    response = api.patch(
        url,
        {"name": "New", "entries": [{"card": 999999, "quantity": 1, "zone": "deck"}]},
        format="json",
    )
    assert response.status_code == 400
    public_deck.refresh_from_db()
    assert public_deck.name == "Open storm"
    assert public_deck.entries.count() == 1
    assert public_deck.versions.count() == 1


def test_put_updates_and_the_game_cannot_change(api, user, public_deck):
    api.force_authenticate(user)
    url = f"/api/decks/{public_deck.pk}/"
    response = api.put(
        url, {"game": "collision", "name": "Renamed", "public": False}, format="json"
    )
    assert response.status_code == 200
    public_deck.refresh_from_db()
    assert (public_deck.name, public_deck.is_public, public_deck.entries.count()) == (
        "Renamed",
        False,
        1,
    )
    response = api.put(url, {"game": "bakugan", "name": "Renamed"}, format="json")
    assert response.status_code == 400
    assert response.data == {"game": ["A deck's game cannot change."]}


def test_owner_deletes_their_deck(api, user, public_deck):
    api.force_authenticate(user)
    assert api.delete(f"/api/decks/{public_deck.pk}/").status_code == 204
    assert Deck.objects.count() == 0
