"""Private means private: another user's private custom card shows as a stand-in.

Alice keeps a card in a private custom set and puts it in her public deck and
her shared list; Bob reads them. A card Bob added while its set was public
shows as a stand-in once Alice makes the set private. Everywhere, Bob sees "a
private custom card" and never the card's name; Alice sees her card.
"""

import csv
import io

import pytest
from django.urls import reverse

from cards.community.services import (
    custom_card_create,
    custom_set_create,
    custom_set_update,
)
from cards.selectors import PRIVATE_CARD_NAME
from collection.services import share_link_enable
from decks.services import deck_add_card
from tests.factories import make_entry

SECRET = "Zorblax the Unseen"
GAME = "collision"


@pytest.fixture
def secret_card(user, practice):
    practice(GAME)
    card_set = custom_set_create(user=user, game=GAME, name="Alice's homebrew")
    return custom_card_create(
        user=user, card_set=card_set, fields={"title": SECRET, "card_type": "action"}
    )


@pytest.fixture
def public_deck(user, deck_for, secret_card):
    deck = deck_for(GAME, name="Alice's public deck", is_public=True)
    deck_add_card(deck=deck, card=secret_card)
    return deck


def body(response) -> str:
    assert response.status_code == 200
    return response.content.decode()


def shows_only_the_stand_in(text: str) -> bool:
    return SECRET not in text and PRIVATE_CARD_NAME in text


@pytest.mark.django_db
def test_the_owner_sees_her_private_card_on_her_deck(client, user, public_deck):
    client.force_login(user)
    page = body(client.get(public_deck.get_absolute_url()))
    assert SECRET in page
    assert PRIVATE_CARD_NAME not in page


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["anonymous", "other"])
def test_another_users_public_deck_page_shows_a_stand_in(
    client, other_user, public_deck, who
):
    if who == "other":
        client.force_login(other_user)
    assert shows_only_the_stand_in(body(client.get(public_deck.get_absolute_url())))


@pytest.mark.django_db
def test_the_text_export_of_another_users_deck_shows_a_stand_in(
    client, other_user, public_deck
):
    client.force_login(other_user)
    text = body(client.get(reverse("decks:export", kwargs={"pk": public_deck.pk})))
    assert shows_only_the_stand_in(text)
    assert f"1 {PRIVATE_CARD_NAME}" in text.splitlines()


@pytest.mark.django_db
def test_the_versions_of_another_users_deck_show_a_stand_in(
    client, other_user, public_deck
):
    client.force_login(other_user)
    pk = public_deck.pk
    last = public_deck.versions.order_by("-number").first().number
    assert shows_only_the_stand_in(
        body(client.get(reverse("decks:versions", kwargs={"pk": pk})))
    )
    assert shows_only_the_stand_in(
        body(client.get(reverse("decks:version", kwargs={"pk": pk, "number": last})))
    )


@pytest.mark.django_db
def test_the_api_of_another_users_deck_shows_a_stand_in(
    client, other_user, public_deck, secret_card
):
    client.force_login(other_user)
    response = client.get(f"/api/decks/{public_deck.pk}/")
    assert shows_only_the_stand_in(body(response))
    [entry] = [e for e in response.json()["entries"] if e["card"] == secret_card.pk]
    assert entry["name"] == PRIVATE_CARD_NAME


@pytest.mark.django_db
def test_a_share_link_of_another_users_list_shows_a_stand_in(
    client, user, other_user, secret_card
):
    make_entry(user, secret_card, quantity=1)
    link = share_link_enable(user=user, kind="collection")
    url = reverse("collection:shared", kwargs={"token": link.token})
    assert shows_only_the_stand_in(body(client.get(url)))
    client.force_login(other_user)
    assert shows_only_the_stand_in(body(client.get(url)))


@pytest.fixture
def card_made_private(user, other_user, secret_card):
    """Return Bob's entry of Alice's card, added while its set was public."""
    card_set = secret_card.card_set
    custom_set_update(user=user, card_set=card_set, name=card_set.name, is_public=True)
    entry = make_entry(other_user, secret_card, quantity=2)
    custom_set_update(user=user, card_set=card_set, name=card_set.name, is_public=False)
    return entry


@pytest.mark.django_db
def test_another_users_csv_export_shows_a_stand_in_once_the_set_is_private(
    client, other_user, card_made_private
):
    client.force_login(other_user)
    response = client.get(reverse("collection:export"))
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert [(r["name"], r["set"], r["number"], r["quantity"]) for r in rows] == [
        (PRIVATE_CARD_NAME, "", "", "2")
    ]
    assert SECRET not in response.content.decode()


@pytest.mark.django_db
def test_another_users_entries_page_shows_a_stand_in_once_the_set_is_private(
    client, other_user, card_made_private
):
    client.force_login(other_user)
    page = client.get(reverse("collection:entries"), {"game": GAME})
    assert shows_only_the_stand_in(body(page))
    [row] = client.get("/api/collection/").json()["results"]
    assert row["card_name"] == PRIVATE_CARD_NAME
    detail = client.get(f"/api/collection/{card_made_private.pk}/").json()
    assert detail["card_name"] == PRIVATE_CARD_NAME


@pytest.mark.django_db
def test_another_users_deck_shows_a_stand_in_once_the_set_is_private(
    client, user, other_user, deck_for, secret_card
):
    card_set = secret_card.card_set
    custom_set_update(user=user, card_set=card_set, name=card_set.name, is_public=True)
    deck = deck_for(GAME, name="Bob's deck", owner=other_user)
    deck_add_card(deck=deck, card=secret_card)
    custom_set_update(user=user, card_set=card_set, name=card_set.name, is_public=False)
    client.force_login(other_user)
    assert shows_only_the_stand_in(body(client.get(deck.get_absolute_url())))
    export = reverse("decks:export", kwargs={"pk": deck.pk})
    assert shows_only_the_stand_in(body(client.get(export)))
    assert shows_only_the_stand_in(body(client.get(f"/api/decks/{deck.pk}/")))


@pytest.mark.django_db
def test_another_user_cannot_playtest_or_report_a_deck_with_a_private_card(
    other_user, public_deck
):
    from decks.play.adapter import PlaytestError
    from decks.play.reports import deck_report_start
    from decks.play.services import playtest_create

    with pytest.raises(PlaytestError) as played:
        playtest_create(owner=other_user, deck=public_deck)
    with pytest.raises(PlaytestError) as reported:
        deck_report_start(owner=other_user, deck=public_deck)
    assert played.value.code == reported.value.code == "private_card"
    assert played.value.message == (
        "This deck holds a private custom card you cannot see, so it cannot be played."
    )
