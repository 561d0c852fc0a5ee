"""A Metal Fusion card number is one column: readings write what rules and engine read."""

import pytest

from cards.community.readings import (
    card_reading_save,
    entries_as_read,
    reading_fields,
)
from cards.models import Card
from decks.play.adapter import deck_entries
from decks.play.services import PlaytestError, playtest_create
from decks.rules import validate_deck

pytestmark = pytest.mark.django_db


def _forget_numbers(deck, zone):
    """Set the number of the deck's ``zone`` cards unknown; return {card: number}."""
    cards = {e.card: e.card.number for e in deck_entries(deck) if e.zone == zone}
    Card.objects.filter(pk__in=[c.pk for c in cards]).update(number=None)
    return {Card.objects.get(pk=c.pk): n for c, n in cards.items()}


def test_the_transcribe_page_asks_a_metal_fusion_card_for_its_number():
    names = reading_fields("metal-fusion", "character")
    assert names[-1] == "number"
    assert "printed_number" not in names
    assert reading_fields("collision", "blade")[-1] == "printed_number"


def test_a_lineup_numbered_only_by_readings_is_legal_and_starts_a_playtest(
    user, deck_for
):
    deck = deck_for("metal-fusion")
    numbers = _forget_numbers(deck, "lineup")
    assert len(numbers) == 3
    refused = validate_deck("metal-fusion", entries_as_read(user, deck_entries(deck)))
    assert [p.code for p in refused] == []
    with pytest.raises(PlaytestError) as unknown:
        playtest_create(owner=user, deck=deck)
    assert "its card number is unknown" in str(unknown.value.details)
    for card, number in numbers.items():
        card_reading_save(user=user, card=card, fields={"number": number})
    assert (
        validate_deck("metal-fusion", entries_as_read(user, deck_entries(deck))) == []
    )
    playtest = playtest_create(owner=user, deck=deck)
    assert playtest.pk is not None


def test_a_deck_card_numbered_by_a_reading_is_checked_for_duplicates(user, deck_for):
    deck = deck_for("metal-fusion")
    numbers = _forget_numbers(deck, "deck")
    warned = validate_deck("metal-fusion", entries_as_read(user, deck_entries(deck)))
    assert [p.code for p in warned] == ["unknown_number"]
    for card, number in numbers.items():
        card_reading_save(user=user, card=card, fields={"number": number})
    assert (
        validate_deck("metal-fusion", entries_as_read(user, deck_entries(deck))) == []
    )


def test_a_reading_of_a_metal_fusion_card_does_not_set_the_printed_number(
    user, deck_for
):
    deck = deck_for("metal-fusion")
    card = next(e.card for e in deck_entries(deck) if e.zone == "lineup")
    reading = card_reading_save(
        user=user, card=card, fields={"printed_number": "77", "number": 77}
    )
    assert reading.fields == {"number": 77}
