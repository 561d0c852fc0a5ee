"""Readings: a collector's transcription works for them at once, and two agreeing
readings confirm a card's fields for everyone."""

import pytest
from django.core.exceptions import ValidationError

from cards.community import readings
from cards.models import Card, CardChange, CardSubmission, FieldVerification
from decks.play.adapter import PlaytestError
from decks.play.services import playtest_create
from tests.community.conftest import make_dragoon, trust
from tests.conftest import make_alice
from tests.factories import C, make_card, make_set

# Every collector here is established, so their readings count toward confirming
# (tests/community/test_trust.py is about the accounts whose readings do not).


@pytest.fixture
def user(django_user_model):
    return trust(make_alice(django_user_model))


@pytest.fixture
def bob(django_user_model):
    return trust(
        django_user_model.objects.create_user(
            "bob", "bob@example.com", "correct-horse-battery-2"
        )
    )


@pytest.fixture
def carol(django_user_model):
    return trust(
        django_user_model.objects.create_user(
            "carol", "carol@example.com", "correct-horse-battery-5"
        )
    )


@pytest.fixture
def dragoon(db):
    official = make_set(C, slug="base-test", name="Base test", source="test")
    return make_dragoon(official)


@pytest.fixture
def blank(db):
    official = make_set(C, slug="base-blank", name="Base blank", source="test")
    return make_card(C, card_set=official, key="7", number=7, source="numbered slot")


def test_a_reading_applies_to_its_author_only(user, bob, dragoon):
    readings.card_reading_save(
        user=user, card=dragoon, fields={"battle_edge": "LS.E.L"}
    )
    mine = readings.cards_as_read(user, [Card.objects.get(pk=dragoon.pk)])[0]
    theirs = readings.cards_as_read(bob, [Card.objects.get(pk=dragoon.pk)])[0]
    assert mine.battle_edge == "LS.E.L"
    assert mine.your_reading.submitter == user
    assert theirs.battle_edge is None
    assert not hasattr(theirs, "your_reading")
    assert Card.objects.get(pk=dragoon.pk).battle_edge is None


def test_a_reading_unblocks_its_authors_playtest_and_nobody_elses(
    user, bob, dragoon, deck_for
):
    deck = deck_for(C)
    deck.is_public = True
    deck.save(update_fields=["is_public"])
    deck.entries.filter(zone="blade").update(card=dragoon)
    with pytest.raises(PlaytestError) as refused:
        playtest_create(owner=user, deck=deck, opponent="random", seed=3)
    assert refused.value.code == "blocked"
    assert [b["id"] for b in refused.value.details] == [dragoon.pk]

    readings.card_reading_save(
        user=user, card=dragoon, fields={"battle_edge": "LS.E.L"}
    )

    pt = playtest_create(owner=user, deck=deck, opponent="random", seed=3)
    blade = next(c for c in pt.decks[0]["blade"] if c["id"] == dragoon.pk)
    assert blade["battle_edge"] == "LS.E.L"
    assert blade["your_reading"] is True
    with pytest.raises(PlaytestError) as other:
        playtest_create(owner=bob, deck=deck, opponent="random", seed=3)
    assert other.value.code == "blocked"


def test_an_impossible_value_is_refused_field_by_field_and_nothing_is_saved(
    user, dragoon
):
    with pytest.raises(ValidationError) as refused:
        readings.card_reading_save(
            user=user,
            card=dragoon,
            fields={"battle_edge": "LS.E.LL", "colour": "red"},
        )
    errors = refused.value.message_dict
    assert "A battle edge is exactly six notches" in " ".join(errors["battle_edge"])
    assert errors["colour"] == ["Blades have no colour."]
    assert CardSubmission.objects.filter(card=dragoon).count() == 0


def test_the_author_changes_and_withdraws_their_reading(user, dragoon):
    first = readings.card_reading_save(
        user=user, card=dragoon, fields={"battle_edge": "LS.E.L"}
    )
    again = readings.card_reading_save(
        user=user, card=dragoon, fields={"battle_edge": "SS.E.L"}
    )
    assert again.pk == first.pk
    assert again.fields == {"battle_edge": "SS.E.L"}
    readings.card_reading_withdraw(user=user, reading=again)
    card = readings.cards_as_read(user, [Card.objects.get(pk=dragoon.pk)])[0]
    assert card.battle_edge is None
    assert CardSubmission.objects.get(pk=first.pk).status == "withdrawn"


def test_two_agreeing_readings_confirm_the_fields_they_both_give(user, bob, blank):
    readings.card_reading_save(
        user=user,
        card=blank,
        fields={"card_type": "blade", "title": "Draciel", "battle_edge": "L.S.EL"},
    )
    readings.card_reading_save(
        user=bob, card=blank, fields={"card_type": "blade", "battle_edge": "L.S.EL"}
    )
    card = Card.objects.get(pk=blank.pk)
    assert (card.card_type, card.battle_edge, card.title) == ("blade", "L.S.EL", None)
    rows = {row.field: row.level for row in FieldVerification.objects.filter(card=card)}
    assert rows == {"battle_edge": "confirmed", "card_type": "confirmed"}
    # Every value the card has is confirmed, so the card is, and no field differs.
    assert card.verification == "confirmed"
    assert readings.card_verification(card) == {"level": "confirmed", "fields": {}}
    assert readings.field_levels(card)["battle_edge"].who == ("alice", "bob")
    assert CardChange.objects.filter(card=card).count() == 1


def test_disagreeing_readings_make_a_dispute(user, bob, blank):
    readings.card_reading_save(
        user=user, card=blank, fields={"card_type": "blade", "battle_edge": "L.S.EL"}
    )
    readings.card_reading_save(
        user=bob, card=blank, fields={"card_type": "blade", "battle_edge": "L.S.EE"}
    )
    card = Card.objects.get(pk=blank.pk)
    assert card.battle_edge is None
    assert card.verification == "disputed"
    row = FieldVerification.objects.get(card=card, field="battle_edge")
    assert row.level == "disputed"
    assert sorted(r.submitter.username for r in row.readings.all()) == [
        "alice",
        "bob",
    ]
    assert not FieldVerification.objects.filter(card=card, field="card_type").exists()


def test_two_readings_by_one_account_confirm_nothing(user, blank):
    readings.card_reading_save(user=user, card=blank, fields={"card_type": "blade"})
    readings.card_reading_save(user=user, card=blank, fields={"card_type": "blade"})
    assert FieldVerification.objects.count() == 0
    assert Card.objects.get(pk=blank.pk).card_type is None


def test_the_api_gives_each_fields_level_where_it_differs_from_the_cards(
    live_server, user, bob, dragoon
):
    import json
    import urllib.request

    for who in (user, bob):
        readings.card_reading_save(
            user=who, card=dragoon, fields={"battle_edge": "LS.E.L"}
        )
    with urllib.request.urlopen(f"{live_server.url}/api/cards/{dragoon.pk}/") as r:
        body = json.load(r)
    assert body["verification"] == "unverified"
    assert body["battle_edge"] == "LS.E.L"
    assert list(body["field_verification"]) == ["battle_edge"]
    assert body["field_verification"]["battle_edge"]["level"] == "confirmed"
    assert body["field_verification"]["battle_edge"]["by"] == ["alice", "bob"]


def test_moderators_see_a_dispute_side_by_side_field_by_field(
    client, user, bob, moderator, blank
):
    readings.card_reading_save(
        user=user, card=blank, fields={"card_type": "blade", "battle_edge": "L.S.EL"}
    )
    readings.card_reading_save(
        user=bob, card=blank, fields={"card_type": "blade", "battle_edge": "L.S.EE"}
    )
    client.force_login(user)
    assert client.get("/community/disputes/").status_code == 403
    client.force_login(moderator)
    html = client.get("/community/disputes/").content.decode()
    row = html.split('<th scope="row">Battle edge</th>', 1)[1].split("</tr>")[0]
    assert [cell.split("</td>")[0].strip() for cell in row.split("<td>")[1:]] == [
        '<span class="unknown">unknown</span>',
        "L.S.EL",
        "L.S.EE",
    ]


def test_a_contributors_page_lists_their_readings_and_status(
    client, user, bob, blank, dragoon
):
    readings.card_reading_save(user=user, card=blank, fields={"card_type": "blade"})
    readings.card_reading_save(user=bob, card=blank, fields={"card_type": "blade"})
    readings.card_reading_save(
        user=user, card=dragoon, fields={"battle_edge": "LS.E.L"}
    )
    html = client.get("/community/contributors/alice/").content.decode()
    assert html.count('<span class="state state-pending">') == 2
    assert html.count('<span class="badge badge-confirmed">confirmed</span>') == 1
    assert "Dragoon" in html and "Unknown card #7" in html
