"""The printable deck list: one page, cards by zone with counts and set numbers."""

import pytest
from django.urls import reverse

from cards.games import GAMES
from decks.services import deck_update
from tests.table.pdf import pages

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game", ["collision", "metal-fusion", "bakugan", "collide-o"])
def test_the_deck_list_is_one_page_with_every_zone_its_count_and_numbers(
    client, user, deck_for, game
):
    deck = deck_for(game)
    client.force_login(user)
    response = client.get(reverse("table:deck-list", args=[deck.pk]))
    assert response.status_code == 200
    (page,) = pages(response.content)
    text = page["text"]
    entries = list(deck.entries.select_related("card__card_set"))
    zones = {e.zone for e in entries}
    for zone in GAMES[game].zones:
        if zone.value in zones:
            count = sum(e.quantity for e in entries if e.zone == zone.value)
            assert f"{zone.label} ({count})" in text
    total = sum(e.quantity for e in entries)
    assert f"{total} cards" in text
    for entry in entries[:5]:
        number = entry.card.printed_number or entry.card.key
        assert f"#{number}" in text


def test_a_private_deck_list_is_its_owners_and_a_public_one_anyones(
    client, user, other_user, deck_for
):
    deck = deck_for("collision")
    url = reverse("table:deck-list", args=[deck.pk])
    assert client.get(url).status_code == 404
    client.force_login(other_user)
    assert client.get(url).status_code == 404
    deck_update(deck=deck, name=deck.name, notes="", is_public=True)
    assert client.get(url).status_code == 200
