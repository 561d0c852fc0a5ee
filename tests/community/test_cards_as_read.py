"""The cards as a person reads them: their own readings in search, nobody else's."""

import pytest

from cards.community import readings
from cards.filtersets import CardFilterSet
from cards.models import Card
from decks.text_io import parse_decklist
from tests.community.conftest import make_dragoon, trust
from tests.conftest import make_alice
from tests.factories import C, make_card, make_set


@pytest.fixture
def user(django_user_model):
    return trust(make_alice(django_user_model))


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user(
        "bob", "bob@example.com", "correct-horse-battery-2"
    )


@pytest.fixture
def cards(db):
    official = make_set(C, slug="base-read", name="Base read", source="test")
    dragoon = make_dragoon(official)
    blank = make_card(C, card_set=official, key="1", number=1, source="slot")
    other = make_card(C, card_set=official, key="2", number=2, source="slot")
    return dragoon, blank, other


def _found(user, q: str) -> list[int]:
    filterset = CardFilterSet({"q": q}, queryset=Card.objects.all(), reader=user)
    assert filterset.is_valid()
    return sorted(filterset.qs.values_list("pk", flat=True))


def test_a_card_read_under_a_title_is_found_by_that_title_by_its_reader_only(
    user, bob, cards
):
    _dragoon, blank, _other = cards
    readings.card_reading_save(
        user=user,
        card=blank,
        fields={"title": "Dragon Storm", "card_type": "action", "colour": "red"},
    )
    assert _found(user, "dragon") == [blank.pk]
    assert _found(user, '"dragon storm"') == [blank.pk]
    assert _found(bob, "dragon") == []
    assert _found(None, "dragon") == []


def test_a_read_card_no_longer_matches_what_it_was_stored_as(user, cards):
    _dragoon, blank, other = cards
    readings.card_reading_save(
        user=user, card=blank, fields={"title": "Dragon Storm", "card_type": "action"}
    )
    assert _found(user, "t:action") == [blank.pk]
    assert _found(user, "-t:action cn<=2") == [other.pk]


def test_a_read_battle_edge_answers_the_notch_and_piece_searches(user, bob, cards):
    dragoon, _blank, _other = cards
    readings.card_reading_save(
        user=user, card=dragoon, fields={"battle_edge": "LS.E.L"}
    )
    assert _found(user, "edge:2=strike") == [dragoon.pk]
    assert _found(user, "live>=2") == [dragoon.pk]
    assert _found(bob, "edge:2=strike") == []
    assert _found(bob, "live>=2") == []
    assert _found(user, "name:dragoon") == [dragoon.pk]


def test_a_decklist_names_a_card_by_its_readers_title_for_them_only(user, bob, cards):
    _dragoon, blank, _other = cards
    readings.card_reading_save(
        user=user, card=blank, fields={"title": "Dragon Storm", "card_type": "action"}
    )
    mine = parse_decklist("2 Dragon Storm", game_slug=C, user=user)
    theirs = parse_decklist("2 Dragon Storm", game_slug=C, user=bob)
    assert mine.errors == []
    assert [(e["card"], e["quantity"]) for e in mine.entries] == [(blank.pk, 2)]
    assert len(theirs.errors) == 1


def test_the_finders_browse_shows_the_readers_title(client, user, cards):
    from decks.services import deck_create

    _dragoon, blank, _other = cards
    readings.card_reading_save(
        user=user, card=blank, fields={"title": "Dragon Storm", "card_type": "action"}
    )
    deck = deck_create(owner=user, game=C, name="Mine")
    client.force_login(user)
    page = client.get(f"/decks/{deck.pk}/search/", {"q": ""})
    assert page.status_code == 200
    assert "Dragon Storm" in page.content.decode()
