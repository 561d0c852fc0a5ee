"""Concurrent one-click changes to one collection all apply."""

import threading

import pytest
from django.db import connection, connections

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
