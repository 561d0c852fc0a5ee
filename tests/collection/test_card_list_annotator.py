"""The checklist carries owned and wanted counts although cards imports no collection."""

import pytest

from cards.selectors import _ANNOTATORS
from collection import selectors, services


def test_collection_registers_its_counts_with_the_card_lists():
    assert selectors.annotate_cards in _ANNOTATORS


@pytest.mark.django_db
def test_the_checklist_rows_carry_the_viewers_counts(client, user, cards):
    services.collection_change_quantity(user=user, card=cards.dragoon, owned_delta=2)
    services.collection_change_quantity(user=user, card=cards.tyson, wanted_delta=1)
    client.force_login(user)

    response = client.get("/games/collision/")

    assert response.status_code == 200
    counts = {c.pk: (c.owned_qty, c.wanted_qty) for c in response.context["cards"]}
    assert counts[cards.dragoon.pk] == (2, 0)
    assert counts[cards.tyson.pk] == (0, 1)
    assert counts[cards.dranzer.pk] == (0, 0)
