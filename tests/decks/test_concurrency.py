"""Concurrent writes to one deck all apply: no field, copy or version is lost."""

import threading

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from decks import services
from decks.models import Deck, DeckEntry
from tests.factories import make_deck

PATCHERS = 4
ADDERS = 4
ROUNDS = 10


@pytest.mark.django_db
def test_an_update_from_an_old_copy_keeps_the_fields_it_does_not_change(
    user, collision_cards
):
    blade, _ = collision_cards
    deck = make_deck(user, name="Storm", entries=[{"card": blade.pk, "zone": "blade"}])
    old_copy = Deck.objects.get(pk=deck.pk)
    services.deck_update(deck=deck, name="Gale", is_public=True)
    services.deck_update(deck=old_copy, notes="Lean on the Blade.")
    deck.refresh_from_db()
    assert (deck.name, deck.is_public, deck.notes) == (
        "Gale",
        True,
        "Lean on the Blade.",
    )
    assert list(deck.versions.values_list("number", flat=True)) == [3, 2, 1]


@pytest.mark.django_db(transaction=True)
def test_patches_racing_added_copies_lose_no_change(user, collision_cards):
    """PATCHes of the notes and the name race copies added one at a time."""
    if connection.vendor == "sqlite" and connection.settings_dict["NAME"] == ":memory:":
        pytest.skip("needs the file-based test database")
    blade, actions = collision_cards
    deck = make_deck(user, name="Storm", entries=[{"card": blade.pk, "zone": "blade"}])
    url = f"/api/decks/{deck.pk}/"
    notes = [f"note {t}-{r}" for t in range(PATCHERS) for r in range(ROUNDS)]
    errors = []
    barrier = threading.Barrier(PATCHERS + ADDERS + 1)

    def patch(body_of):
        client = APIClient()
        client.force_authenticate(user)
        try:
            barrier.wait()
            for r in range(ROUNDS):
                response = client.patch(url, body_of(r), format="json")
                if response.status_code != 200:
                    errors.append((response.status_code, response.content))
        except Exception as exc:  # noqa: BLE001 - the test reports every failure
            errors.append(repr(exc))
        finally:
            connections.close_all()

    def add():
        try:
            barrier.wait()
            for _ in range(ROUNDS):
                services.deck_add_card(deck=deck, card=actions[0], zone="deck")
        except Exception as exc:  # noqa: BLE001 - the test reports every failure
            errors.append(repr(exc))
        finally:
            connections.close_all()

    threads = [
        threading.Thread(
            target=patch, args=(lambda r, t=t: {"notes": f"note {t}-{r}"},)
        )
        for t in range(PATCHERS)
    ]
    threads.append(
        threading.Thread(target=patch, args=(lambda r: {"name": f"name {r}"},))
    )
    threads += [threading.Thread(target=add) for _ in range(ADDERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    deck.refresh_from_db()
    assert deck.name == f"name {ROUNDS - 1}"
    assert deck.notes in notes
    added = DeckEntry.objects.get(deck=deck, card=actions[0])
    assert added.quantity == ADDERS * ROUNDS
    # Every whole save is a version; the one-card adds join the latest version
    # (services.MERGE_WINDOW), so the numbers run on without a gap.
    saves = 1 + (PATCHERS + 1) * ROUNDS
    numbers = sorted(deck.versions.values_list("number", flat=True))
    assert numbers == list(range(1, len(numbers) + 1))
    assert saves <= len(numbers) <= saves + ADDERS * ROUNDS
