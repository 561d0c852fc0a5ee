"""Admin saves go through the services the pages use: versions and history follow."""

import json

import pytest

from cards.models import Card, CardChange, CardSet, GameRecord
from collection.models import CollectionEntry, ImportPreview
from decks.models import Deck, DeckEntry
from decks.services import deck_add_card, deck_create
from tests.html_forms import form_values

GAME = "collision"


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_superuser(
        "boss", "boss@example.com", "correct-horse-battery-5"
    )


@pytest.fixture
def staff_client(client, staff):
    client.force_login(staff)
    return client


@pytest.fixture
def cards(practice):
    practice(GAME)
    return list(Card.objects.filter(card_set__game__slug=GAME).order_by("pk")[:3])


def _management(prefix: str, total: int, initial: int) -> dict:
    return {
        f"{prefix}-TOTAL_FORMS": str(total),
        f"{prefix}-INITIAL_FORMS": str(initial),
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
    }


def _deck_form(owner, name: str, rows: list[dict], initial: int = 0) -> dict:
    data = {
        "owner": str(owner.pk),
        "game": str(GameRecord.objects.get(slug=GAME).pk),
        "name": name,
        "notes": "",
        **_management("entries", len(rows), initial),
    }
    for index, row in enumerate(rows):
        for key, value in row.items():
            data[f"entries-{index}-{key}"] = "" if value is None else str(value)
    return data


def test_admin_adding_a_deck_saves_its_entries_and_its_first_version(
    staff_client, user, cards
):
    rows = [
        {"card": cards[0].pk, "zone": "deck", "quantity": 3},
        {"card": cards[1].pk, "zone": "deck", "quantity": 2},
    ]

    response = staff_client.post(
        "/admin/decks/deck/add/", _deck_form(user, "Admin deck", rows)
    )

    assert response.status_code == 302
    deck = Deck.objects.get(name="Admin deck")
    assert sorted(deck.entries.values_list("card_id", "quantity")) == [
        (cards[0].pk, 3),
        (cards[1].pk, 2),
    ]
    version = deck.versions.get()
    assert version.number == 1
    assert [(e["card"], e["quantity"]) for e in version.entries] == [
        (cards[0].pk, 3),
        (cards[1].pk, 2),
    ]


def test_admin_change_of_a_deck_keeps_the_next_version(staff_client, user, cards):
    deck = deck_create(
        owner=user,
        game=GAME,
        name="Old name",
        entries=[
            {"card": cards[0].pk, "zone": "deck", "quantity": 4},
            {"card": cards[1].pk, "zone": "deck", "quantity": 1},
        ],
    )
    kept, dropped = deck.entries.order_by("card_id")
    rows = [
        {"id": kept.pk, "deck": deck.pk, "card": kept.card_id, "zone": "deck",
         "quantity": 2},
        {"id": dropped.pk, "deck": deck.pk, "card": dropped.card_id, "zone": "deck",
         "quantity": 1, "DELETE": "on"},
    ]  # fmt: skip

    response = staff_client.post(
        f"/admin/decks/deck/{deck.pk}/change/",
        _deck_form(user, "New name", rows, initial=2),
    )

    assert response.status_code == 302
    assert list(deck.versions.values_list("number", "name")) == [
        (2, "New name"),
        (1, "Old name"),
    ]
    latest = deck.versions.get(number=2)
    assert [(e["card"], e["quantity"]) for e in latest.entries] == [(kept.card_id, 2)]
    assert list(deck.entries.values_list("card_id", "quantity")) == [(kept.card_id, 2)]


def test_admin_deck_with_a_card_of_another_game_saves_nothing(
    staff_client, user, cards, practice
):
    practice("bakugan")
    foreign = Card.objects.filter(card_set__game__slug="bakugan").first()
    rows = [{"card": foreign.pk, "zone": "deck", "quantity": 1}]

    response = staff_client.post(
        "/admin/decks/deck/add/", _deck_form(user, "Mixed deck", rows)
    )

    assert response.status_code == 200
    errors = response.context["inline_admin_formsets"][0].formset.non_form_errors()
    assert any("is a Bakugan" in error for error in errors), errors
    assert not Deck.objects.filter(name="Mixed deck").exists()


def test_admin_change_of_a_deck_entry_keeps_the_next_version(staff_client, user, cards):
    deck = deck_create(
        owner=user,
        game=GAME,
        name="D",
        entries=[{"card": cards[0].pk, "zone": "deck", "quantity": 1}],
    )
    entry = deck.entries.get()

    response = staff_client.post(
        f"/admin/decks/deckentry/{entry.pk}/change/",
        {"card": cards[0].pk, "zone": "deck", "quantity": 3},
    )

    assert response.status_code == 302
    assert DeckEntry.objects.get(pk=entry.pk).quantity == 3
    assert deck.versions.count() == 2
    assert [e["quantity"] for e in deck.versions.get(number=2).entries] == [3]


def test_admin_deleting_a_deck_entry_keeps_the_next_version(staff_client, user, cards):
    deck = deck_create(
        owner=user,
        game=GAME,
        name="D",
        entries=[{"card": cards[0].pk, "zone": "deck", "quantity": 1}],
    )
    entry = deck.entries.get()

    response = staff_client.post(
        f"/admin/decks/deckentry/{entry.pk}/delete/", {"post": "yes"}
    )

    assert response.status_code == 302
    assert not deck.entries.exists()
    assert deck.versions.get(number=2).entries == []


def test_admin_entry_with_a_card_the_owner_cannot_see_is_refused(
    staff_client, user, other_user, cards
):
    hidden_set = CardSet.objects.create(
        game=GameRecord.objects.get(slug=GAME),
        slug="mallory-custom",
        name="Mallory's cards",
        kind="custom",
        owner=other_user,
        is_public=False,
    )
    hidden = Card.objects.get(pk=cards[0].pk)
    hidden.pk = None
    hidden.card_set = hidden_set
    hidden.key = "1"
    hidden.save()
    deck = deck_create(owner=user, game=GAME, name="D")

    response = staff_client.post(
        "/admin/decks/deckentry/add/",
        {"deck": deck.pk, "card": hidden.pk, "zone": "deck", "quantity": 1},
    )

    assert response.status_code == 200
    assert response.context["adminform"].form.errors["card"] == [
        "There is no such card."
    ]
    assert deck.versions.count() == 1


def test_admin_adding_a_card_records_its_creation_in_the_history(
    staff_client, staff, cards
):
    page = staff_client.get(f"/admin/cards/card/{cards[0].pk}/change/")
    form = page.context["adminform"].form
    data = {}
    for name in form.fields:
        value = form[name].value()
        if value is None:
            value = ""
        elif isinstance(value, list):
            value = json.dumps(value)
        data[name] = value
    data["key"] = "admin-1"

    response = staff_client.post("/admin/cards/card/add/", data)

    assert response.status_code == 302, response.context["adminform"].form.errors
    card = Card.objects.get(key="admin-1", card_set=cards[0].card_set)
    change = CardChange.objects.get(card=card)
    assert change.created is True
    assert {"field": "key", "old": None, "new": "admin-1"} in change.changes
    assert {"field": "name", "old": None, "new": cards[0].name} in change.changes
    assert (change.user, change.source) == (staff, "Edited in the admin by boss")


def test_admin_adds_and_deletes_a_collection_entry(staff_client, user, cards):
    response = staff_client.post(
        "/admin/collection/collectionentry/add/",
        {
            "user": user.pk,
            "card": cards[0].pk,
            "quantity": 2,
            "condition": "near-mint",
            "finish": "normal",
            "language": "en",
            "grading_company": "",
            "grade": "",
            "wanted_quantity": 0,
            "trade_quantity": 1,
            "notes": "",
        },
    )

    assert response.status_code == 302, response.context["adminform"].form.errors
    entry = CollectionEntry.objects.get(user=user, card=cards[0])
    assert (entry.quantity, entry.trade_quantity) == (2, 1)

    response = staff_client.post(
        f"/admin/collection/collectionentry/{entry.pk}/delete/", {"post": "yes"}
    )

    assert response.status_code == 302
    assert not CollectionEntry.objects.filter(user=user).exists()


def test_admin_deleting_an_import_preview_discards_it(staff_client, user, cards):
    preview = ImportPreview.objects.create(user=user, mode="add", rows=[])

    response = staff_client.post(
        f"/admin/collection/importpreview/{preview.pk}/delete/", {"post": "yes"}
    )

    assert response.status_code == 302
    assert not ImportPreview.objects.exists()


def test_admin_change_of_an_entry_keeps_a_copy_added_while_the_page_was_open(
    staff_client, user, cards
):
    entry = CollectionEntry.objects.create(user=user, card=cards[0], quantity=1)
    url = f"/admin/collection/collectionentry/{entry.pk}/change/"
    shown = form_values(staff_client.get(url).content.decode())
    assert (shown["quantity"], shown["initial-quantity"]) == ("1", "1")
    CollectionEntry.objects.filter(pk=entry.pk).update(quantity=2)

    response = staff_client.post(url, {**shown, "notes": "corner dent"})

    assert response.status_code == 302, response.context["adminform"].form.errors
    entry.refresh_from_db()
    assert (entry.quantity, entry.notes) == (2, "corner dent")


def test_admin_change_of_a_deck_keeps_a_copy_added_while_the_page_was_open(
    staff_client, user, cards
):
    deck = deck_create(
        owner=user,
        game=GAME,
        name="Old name",
        entries=[{"card": cards[0].pk, "zone": "deck", "quantity": 4}],
    )
    url = f"/admin/decks/deck/{deck.pk}/change/"
    shown = form_values(staff_client.get(url).content.decode())
    deck_add_card(deck=deck, card=cards[1], zone="deck", quantity=2)

    response = staff_client.post(url, {**shown, "name": "New name"})

    assert response.status_code == 302, response.context["adminform"].form.errors
    deck.refresh_from_db()
    assert deck.name == "New name"
    assert sorted(deck.entries.values_list("card_id", "quantity")) == [
        (cards[0].pk, 4),
        (cards[1].pk, 2),
    ]
    assert deck.versions.count() == 3


def test_admin_change_of_a_card_keeps_an_edit_made_while_the_page_was_open(
    staff_client, cards
):
    card = cards[1]
    url = f"/admin/cards/card/{card.pk}/change/"
    shown = form_values(staff_client.get(url).content.decode())
    Card.objects.filter(pk=card.pk).update(source="Corrected meanwhile.")

    response = staff_client.post(url, {**shown, "code": "AD-1"})

    assert response.status_code == 302, response.context["adminform"].form.errors
    card.refresh_from_db()
    assert (card.source, card.code) == ("Corrected meanwhile.", "AD-1")
    change = CardChange.objects.filter(card=card).latest("pk")
    assert [c["field"] for c in change.changes] == ["code"]


def test_admin_change_of_a_deck_entry_keeps_copies_added_while_the_page_was_open(
    staff_client, user, cards
):
    deck = deck_create(
        owner=user,
        game=GAME,
        name="Deck",
        entries=[{"card": cards[0].pk, "zone": "deck", "quantity": 1}],
    )
    entry = deck.entries.get()
    url = f"/admin/decks/deckentry/{entry.pk}/change/"
    shown = form_values(staff_client.get(url).content.decode())
    deck_add_card(deck=deck, card=cards[0], zone="deck", quantity=3)  # now 4

    response = staff_client.post(url, {**shown, "zone": "blade"})

    assert response.status_code == 302, response.context["adminform"].form.errors
    entry.refresh_from_db()
    assert (entry.zone, entry.quantity) == ("blade", 4)
