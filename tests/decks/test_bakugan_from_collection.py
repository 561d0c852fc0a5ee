"""Build a Bakugan deck from what I own and play it against a bot, to the end,
with official cards and owned figures."""

import pytest
from django.urls import reverse

from cards.models import Card
from decks.models import Deck
from decks.play.models import Playtest
from decks.play.services import choices, load_state, playtest_act
from tests.factories import make_entry

URL = reverse("decks:from-collection", args=["bakugan"])

pytestmark = pytest.mark.django_db


def card(set_slug, key):
    return Card.objects.get(card_set__slug=set_slug, key=key)


def own_a_deck(user):
    figures = [
        (card("figures-spin-master", "pyrus-dragonoid-b1"), 340),
        (card("figures-spin-master", "aquos-preyas-b1"), 320),
        (card("figures-spin-master", "haos-tigrerra-b1"), 300),
    ]
    copies = [
        make_entry(user, figure, quantity=1, g_power=g_power)
        for figure, g_power in figures
    ]
    make_entry(user, figures[0][0], quantity=2)  # copies without a G-Power
    for key in ("1/48", "9/48", "17/48", "25/48", "33/48", "41/48"):
        make_entry(user, card("1-48", key), quantity=1)
    return figures, copies


def test_one_click_builds_a_legal_deck_of_what_i_own_and_starts_a_game(
    client, user, official
):
    figures, copies = own_a_deck(user)
    client.force_login(user)
    response = client.post(URL)
    playtest = Playtest.objects.get(owner=user)
    assert response.status_code == 302 and response.url == playtest.get_absolute_url()
    deck = Deck.objects.get(owner=user)
    zones = sorted((e.zone, e.card.key) for e in deck.entries.all())
    assert [z for z, _ in zones] == ["ability"] * 3 + ["bakugan"] * 3 + ["gate"] * 3
    # Each Bakugan slot names the owned copy chosen, with its G-Power.
    assert sorted(
        (e.copy_id, e.g_power) for e in deck.entries.filter(zone="bakugan")
    ) == sorted((c.pk, c.g_power) for c in copies)
    seat = playtest.decks[0]
    assert sorted(c["g_power"] for c in seat["bakugan"]) == [300, 320, 340]
    assert {c["id"] for c in seat["bakugan"]} == {f.pk for f, _ in figures}
    assert {c["gate_class"] for c in seat["gate"]} == {"gold", "silver", "copper"}
    assert {c["colour"] for c in seat["ability"]} == {"red", "blue", "green"}
    page = client.get(playtest.get_absolute_url())
    assert page.status_code == 200


def test_the_playtest_of_official_cards_and_owned_figures_plays_to_the_end(
    client, user, official
):
    own_a_deck(user)
    client.force_login(user)
    client.post(URL)
    playtest = Playtest.objects.get(owner=user)
    for _ in range(2000):
        if playtest.over:
            break
        options = choices(playtest, load_state(playtest))
        playtest = playtest_act(
            playtest_id=playtest.pk,
            user=user,
            action=options[0].id,
            version=playtest.version,
        )
    assert playtest.over
    state = load_state(playtest)
    assert any("Dragonoid" in e for e in state.events)


def test_a_collection_lacking_cards_says_what_is_missing_and_saves_nothing(
    client, user, official
):
    make_entry(
        user, card("figures-spin-master", "pyrus-dragonoid-b1"), quantity=1, g_power=340
    )
    make_entry(user, card("1-48", "1/48"), quantity=1)
    client.force_login(user)
    response = client.post(URL, follow=True)
    text = response.content.decode()
    assert "three Bakugan figures with their G-Power recorded" in text
    assert "(you have 1)" in text and "a gold gate with a known bonus grid" in text
    assert not Deck.objects.filter(owner=user).exists()
    assert not Playtest.objects.exists()


def test_the_collection_page_offers_the_button(client, user):
    client.force_login(user)
    page = client.get(reverse("collection:home")).content.decode()
    assert f'action="{URL}"' in page
    assert "Build a Bakugan deck from what I own and play a bot" in page
