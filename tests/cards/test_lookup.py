"""Folded lookups: case and surrounding spaces ignored, through the index or not."""

import pytest

from cards.lookup import folded_match
from cards.models import Card
from tests.factories import C, make_card

pytestmark = pytest.mark.django_db


def names(rows) -> list[str]:
    return sorted(row.name for row in rows)


def test_ascii_names_match_whatever_their_case_and_spaces():
    make_card(C, title="Dragoon")
    make_card(C, title="Dranzer")
    found = folded_match(Card.objects.all(), ("name",), {"  dRAGOON "})
    assert names(found) == ["Dragoon"]


def test_names_beyond_ascii_match_whatever_their_case():
    make_card(C, title="Öko Drache")
    make_card(C, title="Straße")
    make_card(C, title="Oko")
    cards = Card.objects.all()
    assert names(folded_match(cards, ("name",), {"öko drache"})) == ["Öko Drache"]
    assert names(folded_match(cards, ("name",), {"ÖKO DRACHE"})) == ["Öko Drache"]
    assert names(folded_match(cards, ("name",), {"STRAẞE"}, fold=str.casefold)) == [
        "Straße"
    ]


def test_either_field_may_match_and_a_row_comes_once():
    make_card(C, key="96", printed_number="96", title="Tyson")
    make_card(C, key="9/48c", title="Kai")
    found = folded_match(Card.objects.all(), ("key", "printed_number"), {"96", "9/48C"})
    assert names(found) == ["Kai", "Tyson"]


def test_no_text_finds_nothing_and_asks_nothing(django_assert_num_queries):
    make_card(C, title="Dragoon")
    with django_assert_num_queries(0):
        assert folded_match(Card.objects.all(), ("name",), {"", "  "}) == []
