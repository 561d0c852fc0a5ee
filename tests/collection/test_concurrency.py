"""Concurrent one-click changes to one collection all apply."""

import threading

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from collection import services
from collection.models import CollectionEntry

THREADS = 16


@pytest.mark.django_db(transaction=True)
def test_sixteen_concurrent_quantity_changes_all_apply(user, cards):
    if connection.vendor == "sqlite" and connection.settings_dict["NAME"] == ":memory:":
        pytest.skip("needs the file-based test database")
    deltas = list(range(1, THREADS + 1))
    errors = []
    barrier = threading.Barrier(THREADS)

    def change(delta):
        try:
            barrier.wait()
            services.collection_change_quantity(
                user=user, card=cards.dragoon, owned_delta=delta
            )
        except Exception as exc:  # noqa: BLE001 - the test reports every failure
            errors.append(repr(exc))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=change, args=(d,)) for d in deltas]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    entry = CollectionEntry.objects.get(user=user, card=cards.dragoon)
    assert entry.quantity == sum(deltas)
    assert CollectionEntry.objects.filter(user=user).count() == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_adds_and_removes_leave_the_exact_total(user, cards):
    services.collection_entry_create(user=user, card=cards.tyson, quantity=THREADS)
    errors = []
    barrier = threading.Barrier(THREADS)

    def change(delta):
        try:
            barrier.wait()
            services.collection_change_quantity(
                user=user, card=cards.tyson, owned_delta=delta
            )
        except Exception as exc:  # noqa: BLE001 - the test reports every failure
            errors.append(repr(exc))
        finally:
            connections.close_all()

    deltas = [1, -1] * (THREADS // 2)
    threads = [threading.Thread(target=change, args=(d,)) for d in deltas]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert CollectionEntry.objects.get(user=user, card=cards.tyson).quantity == THREADS


PATCHERS = 8
CLICKERS = 8
ROUNDS = 10


@pytest.mark.django_db(transaction=True)
def test_patches_racing_one_click_changes_lose_no_change(user, cards):
    """While 8 threads PATCH the notes, 80 one-click +1s all count."""
    if connection.vendor == "sqlite" and connection.settings_dict["NAME"] == ":memory:":
        pytest.skip("needs the file-based test database")
    entry = services.collection_entry_create(user=user, card=cards.dragoon, quantity=1)
    url = f"/api/collection/{entry.pk}/"
    notes = [f"note {t}-{r}" for t in range(PATCHERS) for r in range(ROUNDS)]
    errors = []
    barrier = threading.Barrier(PATCHERS + CLICKERS)

    def patch(thread):
        client = APIClient()
        client.force_authenticate(user)
        try:
            barrier.wait()
            for r in range(ROUNDS):
                response = client.patch(
                    url, {"notes": f"note {thread}-{r}"}, format="json"
                )
                if response.status_code != 200:
                    errors.append((response.status_code, response.content))
        except Exception as exc:  # noqa: BLE001 - the test reports every failure
            errors.append(repr(exc))
        finally:
            connections.close_all()

    def click():
        try:
            barrier.wait()
            for _ in range(ROUNDS):
                services.collection_change_quantity(
                    user=user, card=cards.dragoon, owned_delta=1
                )
        except Exception as exc:  # noqa: BLE001 - the test reports every failure
            errors.append(repr(exc))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=patch, args=(t,)) for t in range(PATCHERS)]
    threads += [threading.Thread(target=click) for _ in range(CLICKERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    entry.refresh_from_db()
    assert entry.quantity == 1 + CLICKERS * ROUNDS
    assert entry.notes in notes
