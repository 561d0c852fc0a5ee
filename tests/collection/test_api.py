"""The collection API: the signed-in owner's entries only."""

import pytest
from rest_framework.test import APIClient

from collection import services
from collection.models import CollectionEntry
from tests.factories import make_card, make_set


@pytest.fixture
def api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.mark.django_db
def test_create_with_card_and_quantity_and_read_it_back(api, user, cards):
    response = api.post(
        "/api/collection/", {"card": cards.dragoon.pk, "quantity": 2}, format="json"
    )
    assert response.status_code == 201
    entry = CollectionEntry.objects.get(user=user)
    assert entry.quantity == 2
    data = api.get(f"/api/collection/{entry.pk}/").json()
    assert {
        k: data[k]
        for k in (
            "card",
            "quantity",
            "condition",
            "finish",
            "language",
            "grading_company",
            "grade",
            "wanted_quantity",
            "trade_quantity",
            "notes",
            "card_name",
        )
    } == {
        "card": cards.dragoon.pk,
        "quantity": 2,
        "condition": "near-mint",
        "finish": "normal",
        "language": "en",
        "grading_company": "",
        "grade": None,
        "wanted_quantity": 0,
        "trade_quantity": 0,
        "notes": "",
        "card_name": "Dragoon",
    }


@pytest.mark.django_db
def test_create_with_every_field(api, user, cards):
    response = api.post(
        "/api/collection/",
        {
            "card": cards.tyson.pk,
            "quantity": 3,
            "condition": "mint",
            "finish": "foil",
            "language": "de",
            "grading_company": "psa",
            "grade": "9.5",
            "wanted_quantity": 1,
            "trade_quantity": 2,
            "notes": "signed",
        },
        format="json",
    )
    assert response.status_code == 201
    assert response.json()["grade"] == "9.5"
    entry = CollectionEntry.objects.get(user=user)
    assert (entry.finish, entry.language, entry.trade_quantity) == ("foil", "de", 2)


@pytest.mark.django_db
def test_invalid_entry_is_a_400_with_the_reason(api, cards):
    response = api.post(
        "/api/collection/",
        {"card": cards.dragoon.pk, "quantity": 1, "trade_quantity": 2},
        format="json",
    )
    assert response.status_code == 400
    assert response.json() == {
        "trade_quantity": ["You cannot offer more copies for trade than you own."]
    }
    response = api.post(
        "/api/collection/", {"card": cards.dragoon.pk, "quantity": -1}, format="json"
    )
    assert response.status_code == 400
    assert CollectionEntry.objects.count() == 0


@pytest.mark.django_db
def test_duplicate_variant_is_a_400(api, user, cards):
    services.collection_entry_create(user=user, card=cards.dragoon, quantity=1)
    response = api.post(
        "/api/collection/", {"card": cards.dragoon.pk, "quantity": 2}, format="json"
    )
    assert response.status_code == 400
    assert "already have an entry" in str(response.json())
    assert CollectionEntry.objects.get().quantity == 1


@pytest.mark.django_db
def test_update_and_delete(api, user, cards):
    entry = services.collection_entry_create(user=user, card=cards.dragoon, quantity=1)
    response = api.patch(
        f"/api/collection/{entry.pk}/",
        {"quantity": 4, "trade_quantity": 1},
        format="json",
    )
    assert response.status_code == 200
    entry.refresh_from_db()
    assert (entry.quantity, entry.trade_quantity) == (4, 1)
    response = api.patch(
        f"/api/collection/{entry.pk}/", {"card": cards.kai.pk}, format="json"
    )
    assert response.status_code == 400
    assert api.delete(f"/api/collection/{entry.pk}/").status_code == 204
    assert CollectionEntry.objects.count() == 0


@pytest.mark.django_db
def test_list_is_paginated_and_filtered(api, user, other_user, cards):
    services.collection_entry_create(user=user, card=cards.dragoon, quantity=1)
    services.collection_entry_create(user=user, card=cards.kai, wanted_quantity=1)
    services.collection_entry_create(user=user, card=cards.gate_dragoon, quantity=2)
    services.collection_entry_create(user=other_user, card=cards.dragoon, quantity=9)
    data = api.get("/api/collection/").json()
    assert set(data) == {"count", "next", "previous", "results"}
    assert data["count"] == 3
    owned = api.get("/api/collection/", {"owned": "true"}).json()["results"]
    assert sorted(r["card"] for r in owned) == sorted(
        [cards.dragoon.pk, cards.gate_dragoon.pk]
    )
    collision = api.get(
        "/api/collection/", {"game": "collision", "owned": "true"}
    ).json()
    assert [r["card"] for r in collision["results"]] == [cards.dragoon.pk]
    wanted = api.get("/api/collection/", {"wanted": "true"}).json()
    assert [r["card"] for r in wanted["results"]] == [cards.kai.pk]


@pytest.mark.django_db
def test_a_private_custom_card_of_someone_else_cannot_be_added(api, other_user, cards):
    private = make_set(
        "collision", "custom", slug="mine", owner=other_user, is_public=False
    )
    card = make_card(card_set=private, key="1", title="Homebrew")
    response = api.post(
        "/api/collection/", {"card": card.pk, "quantity": 1}, format="json"
    )
    assert response.status_code == 400
    assert CollectionEntry.objects.count() == 0
