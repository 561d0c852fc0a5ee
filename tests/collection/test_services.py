"""One-click quantity changes."""

import pytest
from django.core.exceptions import ValidationError

from collection import services
from collection.models import CollectionEntry


@pytest.mark.django_db
def test_adding_a_copy_creates_the_default_variant(user, cards):
    entry = services.collection_change_quantity(
        user=user, card=cards.dragoon, owned_delta=1
    )
    assert (entry.quantity, entry.condition, entry.finish, entry.language) == (
        1,
        "near-mint",
        "normal",
        "en",
    )
    assert entry.grade is None


@pytest.mark.django_db
def test_removing_the_last_copy_deletes_the_empty_entry(user, cards):
    services.collection_change_quantity(user=user, card=cards.dragoon, owned_delta=1)
    assert (
        services.collection_change_quantity(
            user=user, card=cards.dragoon, owned_delta=-1
        )
        is None
    )
    assert CollectionEntry.objects.count() == 0


@pytest.mark.django_db
def test_removing_with_nothing_owned_is_refused(user, cards):
    with pytest.raises(ValidationError) as info:
        services.collection_change_quantity(
            user=user, card=cards.dragoon, owned_delta=-1
        )
    assert info.value.message_dict == {
        "quantity": ["There are no copies of this card to remove."]
    }


@pytest.mark.django_db
def test_removing_takes_from_another_variant_when_the_default_has_none(user, cards):
    foil = services.collection_entry_create(
        user=user, card=cards.dragoon, quantity=2, finish="foil", trade_quantity=2
    )
    services.collection_change_quantity(user=user, card=cards.dragoon, owned_delta=-1)
    foil.refresh_from_db()
    assert (foil.quantity, foil.trade_quantity) == (1, 1)


@pytest.mark.django_db
def test_wanted_copies_are_kept_without_owned_ones(user, cards):
    services.collection_change_quantity(user=user, card=cards.tyson, wanted_delta=1)
    services.collection_change_quantity(user=user, card=cards.tyson, wanted_delta=1)
    entry = CollectionEntry.objects.get(user=user, card=cards.tyson)
    assert (entry.quantity, entry.wanted_quantity) == (0, 2)


@pytest.mark.django_db
def test_clearing_wanted_removes_entries_left_empty(user, cards):
    services.collection_change_quantity(user=user, card=cards.tyson, wanted_delta=2)
    assert services.collection_clear_wanted(user=user, card=cards.tyson) == 1
    assert CollectionEntry.objects.count() == 0
