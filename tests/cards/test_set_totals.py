"""Each set's cards_total is its number of cards after every kind of card write."""

import pytest
from django.db.models import Count

from cards.history import card_save
from cards.models import Card, CardSet
from tests.factories import C, make_card, make_set

pytestmark = pytest.mark.django_db


def assert_totals_exact():
    counted = dict(CardSet.objects.annotate(n=Count("cards")).values_list("pk", "n"))
    kept = dict(CardSet.objects.values_list("pk", "cards_total"))
    assert kept == counted


@pytest.fixture
def sets():
    first = make_set(C, "official", slug="first")
    second = make_set(C, "practice", slug="second")
    for n in range(1, 4):
        make_card(C, card_set=first, key=str(n), number=n, title=f"A{n}")
    make_card(C, card_set=second, key="1", number=1, title="B1")
    return first, second


def test_created_cards_are_counted(sets):
    assert_totals_exact()
    first, second = sets
    first.refresh_from_db()
    assert first.cards_total == 3


def test_a_card_moved_to_another_set_leaves_the_first(sets):
    first, second = sets
    card = Card.objects.filter(card_set=first).first()
    card.card_set = second
    card.key = "moved"
    card.save()
    assert_totals_exact()
    assert CardSet.objects.get(pk=second.pk).cards_total == 2


def test_a_card_read_without_its_set_and_moved_is_counted_where_it_went(sets):
    first, second = sets
    card = Card.objects.only("pk", "key").filter(card_set=first).first()
    card.card_set_id = second.pk
    card.key = "moved"
    card.save(update_fields=["card_set", "key"])
    assert_totals_exact()


def test_a_card_saved_through_the_history_write_path(sets, user):
    first, _ = sets
    card = Card.objects.filter(card_set=first).first()
    card.name = card.title = "Renamed"
    card_save(card=card, user=user, source="test")
    assert_totals_exact()


def test_deleted_cards_leave_their_set(sets):
    first, _ = sets
    Card.objects.filter(card_set=first).first().delete()
    assert_totals_exact()
    Card.objects.filter(card_set=first).delete()  # the queryset's delete
    assert_totals_exact()
    assert CardSet.objects.get(pk=first.pk).cards_total == 0


def test_bulk_created_cards_are_counted(sets):
    first, second = sets
    Card.objects.bulk_create(
        [Card(card_set=first, key="b1", name="Bulk"), Card(card_set=second, key="b2")]
    )
    assert_totals_exact()


def test_a_queryset_update_moving_cards_counts_every_set(sets):
    first, second = sets
    Card.objects.filter(card_set=first, number__gte=2).update(card_set=second)
    assert_totals_exact()
    Card.objects.filter(card_set=second).update(name="Same set")
    assert_totals_exact()


def test_a_set_saved_from_an_older_copy_keeps_the_true_total(sets):
    first, _ = sets
    stale = CardSet.objects.get(pk=first.pk)
    make_card(C, card_set=first, key="4", number=4, title="A4")
    stale.name = "Renamed set"
    stale.save()  # writes the total it was read with (3)
    assert_totals_exact()


def test_the_refresh_counts_every_set_when_none_are_named(sets):
    CardSet.objects.update(cards_total=99)
    CardSet.objects.refresh_totals()
    assert_totals_exact()
