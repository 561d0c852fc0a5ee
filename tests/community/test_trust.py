"""Confirmation is something one person cannot fake (issue 32, items 1 and 2).

Readings confirm only unknown values, only from accounts that count, at a
limited rate; proposals are never settled by agreement.
"""

from datetime import timedelta

import pytest
from django.utils import timezone

from cards.community import readings, trust
from cards.community import services as community
from cards.models import Card, CardChange, CardSubmission, FieldVerification
from tests.community.conftest import trust as make_trusted

URL = "/api/submissions/"


def _account(django_user_model, name):
    return django_user_model.objects.create_user(
        name, f"{name}@example.com", "correct-horse-battery-7"
    )


@pytest.fixture
def puppets(django_user_model):
    """Two accounts made a minute ago by one person."""
    return [_account(django_user_model, n) for n in ("puppet1", "puppet2")]


@pytest.fixture
def collectors(django_user_model):
    """Two established collectors, each with an accepted proposal of their own."""
    return [make_trusted(_account(django_user_model, n)) for n in ("dana", "eve")]


def _read(user, card, **fields):
    return readings.card_reading_save(user=user, card=card, fields=fields)


# --- the sock puppets ---------------------------------------------------------------


def test_two_fresh_accounts_cannot_change_a_known_value(puppets, gate):
    for puppet in puppets:
        _read(puppet, gate, name="Renamed Gate", bonus_pyrus=990)
    card = Card.objects.get(pk=gate.pk)
    assert (card.name, card.bonus_pyrus) == ("Test Gate", 100)
    assert card.verification == "unverified"
    assert FieldVerification.objects.count() == 0
    assert CardChange.objects.filter(card=card).count() == 0


def test_two_fresh_accounts_cannot_confirm_an_unknown_value(puppets, gate):
    for puppet in puppets:
        _read(puppet, gate, bonus_aquos=50)
    card = Card.objects.get(pk=gate.pk)
    assert card.bonus_aquos is None
    assert FieldVerification.objects.count() == 0
    # Each puppet still sees its own reading at once.
    mine = readings.cards_as_read(puppets[0], [Card.objects.get(pk=gate.pk)])[0]
    assert mine.bonus_aquos == 50


def test_two_trusted_collectors_confirm_an_unknown_value(collectors, gate):
    for collector in collectors:
        _read(collector, gate, bonus_aquos=50)
    card = Card.objects.get(pk=gate.pk)
    assert card.bonus_aquos == 50
    row = FieldVerification.objects.get(card=card)
    assert (row.field, row.level, row.value) == ("bonus_aquos", "confirmed", 50)


def test_a_trusted_and_a_fresh_account_confirm_nothing(collectors, puppets, gate):
    _read(collectors[0], gate, bonus_aquos=50)
    _read(puppets[0], gate, bonus_aquos=50)
    assert Card.objects.get(pk=gate.pk).bonus_aquos is None
    assert FieldVerification.objects.count() == 0


# --- 1a: known values are disputed, never changed ---------------------------------


def test_two_trusted_readings_of_another_value_dispute_a_known_one(collectors, gate):
    for collector in collectors:
        _read(collector, gate, bonus_pyrus=990)
    card = Card.objects.get(pk=gate.pk)
    assert card.bonus_pyrus == 100
    assert card.verification == "disputed"
    row = FieldVerification.objects.get(card=card, field="bonus_pyrus")
    assert row.level == "disputed"
    assert sorted(r.submitter.username for r in row.readings.all()) == ["dana", "eve"]
    assert card.name == "Test Gate"


def test_one_trusted_reading_of_another_value_opens_a_dispute(collectors, gate):
    _read(collectors[0], gate, name="Renamed Gate")
    card = Card.objects.get(pk=gate.pk)
    assert card.name == "Test Gate"
    row = FieldVerification.objects.get(card=card)
    assert (row.field, row.level) == ("name", "disputed")
    assert readings.disputes()[0]["fields"] == ["name"]


def test_readings_agreeing_with_a_known_value_confirm_it_unchanged(collectors, gate):
    for collector in collectors:
        _read(collector, gate, bonus_pyrus=100)
    card = Card.objects.get(pk=gate.pk)
    assert card.bonus_pyrus == 100
    row = FieldVerification.objects.get(card=card)
    assert (row.field, row.level, row.value) == ("bonus_pyrus", "confirmed", 100)
    assert CardChange.objects.filter(card=card).count() == 0


def test_unticking_a_known_not_printed_box_disputes_it(collectors, gate):
    Card.objects.filter(pk=gate.pk).update(not_printed=["bonus_haos"])
    gate.refresh_from_db()
    for collector in collectors:
        _read(collector, gate, not_printed=[], bonus_aquos=50)
    card = Card.objects.get(pk=gate.pk)
    assert card.not_printed == ["bonus_haos"]
    # Each field stands alone: the unknown bonus both read is confirmed.
    assert card.bonus_aquos == 50
    assert FieldVerification.objects.get(card=card, field="not_printed").level == (
        "disputed"
    )


# --- 1b: whose readings count --------------------------------------------------------


def test_a_fresh_account_does_not_count(puppets):
    assert trust.counts_toward_confirmation(puppets[0]) is False


def test_an_old_account_without_a_record_does_not_count(puppets):
    puppet = puppets[0]
    puppet.date_joined = timezone.now() - timedelta(days=365)
    puppet.save(update_fields=["date_joined"])
    assert trust.counts_toward_confirmation(puppet) is False


def test_a_young_account_with_an_accepted_proposal_does_not_count(
    puppets, gate, moderator
):
    proposal = community.card_submission_create(
        user=puppets[0], game="bakugan", card=gate, fields={"bonus_haos": 20},
        source="my copy",
    )  # fmt: skip
    community.card_submission_accept(submission=proposal, moderator=moderator)
    assert trust.counts_toward_confirmation(puppets[0]) is False


def test_an_old_account_with_an_accepted_proposal_counts(puppets, gate, moderator):
    puppet = puppets[0]
    proposal = community.card_submission_create(
        user=puppet, game="bakugan", card=gate, fields={"bonus_haos": 20},
        source="my copy",
    )  # fmt: skip
    community.card_submission_accept(submission=proposal, moderator=moderator)
    puppet.date_joined = timezone.now() - trust.TRUSTED_AFTER - timedelta(minutes=1)
    puppet.save(update_fields=["date_joined"])
    assert trust.counts_toward_confirmation(puppet) is True


def test_a_moderator_always_counts(moderator):
    assert trust.counts_toward_confirmation(moderator) is True


def test_a_moderator_and_a_collector_confirm_an_unknown_value(
    moderator, collectors, gate
):
    _read(moderator, gate, bonus_aquos=40)
    _read(collectors[0], gate, bonus_aquos=40)
    assert Card.objects.get(pk=gate.pk).bonus_aquos == 40


def test_the_help_page_says_whose_readings_count(client):
    html = client.get("/community/").content.decode()
    assert 'id="how-readings-count"' in html
    assert f"at least {trust.TRUSTED_AFTER.days} days old" in html
    assert f"{trust.READINGS_PER_HOUR} new readings an hour" in html


# --- 1d: readings per account are limited ------------------------------------------


@pytest.fixture
def many_gates(bakugan_set):
    from tests.factories import make_card

    return [
        make_card(
            card_set=bakugan_set,
            key=f"{n}/48",
            number=n,
            printed_number=f"{n}/48",
            name=f"Gate {n}",
            card_type="gate",
            gate_class="gold",
            source="test",
            verification="unverified",
        )  # fmt: skip
        for n in range(2, 2 + trust.READINGS_PER_HOUR + 1)
    ]


def _fill_the_hour(user, cards):
    for card in cards[: trust.READINGS_PER_HOUR]:
        _read(user, card, bonus_aquos=10)


def test_a_reading_beyond_the_hourly_limit_is_refused(user, many_gates):
    _fill_the_hour(user, many_gates)
    with pytest.raises(trust.ReadingLimitReached) as refused:
        _read(user, many_gates[-1], bonus_aquos=10)
    assert refused.value.message.startswith(
        f"You have recorded {trust.READINGS_PER_HOUR} readings in the last hour"
    )
    assert CardSubmission.objects.filter(card=many_gates[-1]).count() == 0
    # Changing a reading already made is not a new one.
    _read(user, many_gates[0], bonus_aquos=20)


def test_a_sixty_card_deck_of_different_cards_is_read_in_one_hour(user, many_gates):
    # A Collision deck is sixty cards or more, all different at worst; one
    # reading withdrawn and made again on the way.
    deck = many_gates[:61]
    for card in deck:
        _read(user, card, bonus_aquos=10)
    readings.card_reading_withdraw(
        user=user, reading=readings.own_reading(user, deck[0])
    )
    _read(user, deck[0], bonus_aquos=20)
    assert CardSubmission.objects.filter(submitter=user, status="pending").count() == 61


def test_the_limit_ends_when_the_hour_has_passed(user, many_gates):
    _fill_the_hour(user, many_gates)
    CardSubmission.objects.update(created_at=timezone.now() - timedelta(minutes=61))
    _read(user, many_gates[-1], bonus_aquos=10)


def test_the_transcribe_page_answers_429_with_the_message(client, user, many_gates):
    _fill_the_hour(user, many_gates)
    client.force_login(user)
    card = many_gates[-1]
    response = client.post(
        f"/community/cards/{card.pk}/transcribe/", {"bonus_aquos": "10"}
    )
    assert response.status_code == 429
    html = response.content.decode()
    assert f"You have recorded {trust.READINGS_PER_HOUR} readings" in html


def test_the_api_answers_429_with_the_message(client, user, many_gates):
    _fill_the_hour(user, many_gates)
    client.force_login(user)
    response = client.post(
        URL,
        {"card": many_gates[-1].pk, "game": "bakugan", "reading": True,
         "fields": {"bonus_aquos": 10}, "source": "my copy"},
        content_type="application/json",
    )  # fmt: skip
    assert response.status_code == 429
    assert response.json()["detail"].startswith(
        f"You have recorded {trust.READINGS_PER_HOUR} readings"
    )
    assert "Retry-After" in response.headers


# --- 2: a proposal is not a reading ------------------------------------------------


def _propose(user, card, **fields):
    return community.card_submission_create(
        user=user, game="bakugan", card=card, fields=fields, source="my copy"
    )


def test_two_agreeing_proposals_are_not_settled_by_a_reading(
    collectors, moderator, gate
):
    for collector in collectors:
        _propose(collector, gate, bonus_aquos=50, text="+1000 G-Power to all")
    _read(moderator, gate, bonus_haos=30)
    card = Card.objects.get(pk=gate.pk)
    assert (card.bonus_aquos, card.text, card.bonus_haos) == (None, None, None)
    assert FieldVerification.objects.count() == 0
    assert CardSubmission.objects.filter(status="pending").count() == 3


def test_readings_never_settle_text_or_effects(collectors, gate):
    for collector in collectors:
        readings.card_reading_save(
            user=collector,
            card=gate,
            fields={"bonus_aquos": 50, "text": "+1000 G-Power to all"},
        )
    card = Card.objects.get(pk=gate.pk)
    assert card.bonus_aquos == 50
    assert card.text is None
    assert not FieldVerification.objects.filter(field="text").exists()


def test_a_reading_and_a_proposal_of_one_card_are_two_submissions(collectors, gate):
    proposal = _propose(collectors[0], gate, bonus_aquos=50)
    reading = _read(collectors[0], gate, bonus_haos=30)
    assert reading.pk != proposal.pk
    assert (proposal.is_reading, reading.is_reading) == (False, True)
    assert CardSubmission.objects.get(pk=proposal.pk).fields == {"bonus_aquos": 50}


# --- the API reading path -------------------------------------------------------------


def _api_read(client, user, card, fields):
    client.force_login(user)
    return client.post(
        URL,
        {"card": card.pk, "game": "bakugan", "reading": True, "fields": fields,
         "source": "my own copy"},
        content_type="application/json",
    )  # fmt: skip


def test_a_reading_through_the_api_confirms_like_the_transcribe_page(
    client, collectors, gate
):
    first = _api_read(client, collectors[0], gate, {"bonus_aquos": 50})
    assert first.status_code == 201
    assert first.json()["is_reading"] is True
    second = _api_read(client, collectors[1], gate, {"bonus_aquos": 50})
    assert second.status_code == 201
    card = Card.objects.get(pk=gate.pk)
    assert card.bonus_aquos == 50
    assert FieldVerification.objects.get(card=card).level == "confirmed"


def test_a_second_api_reading_changes_the_authors_reading(client, collectors, gate):
    first = _api_read(client, collectors[0], gate, {"bonus_aquos": 50})
    again = _api_read(client, collectors[0], gate, {"bonus_aquos": 60})
    assert again.json()["id"] == first.json()["id"]
    assert CardSubmission.objects.get(is_reading=True).fields == {"bonus_aquos": 60}


def test_an_api_reading_keeps_a_value_equal_to_the_cards(client, collectors, gate):
    response = _api_read(client, collectors[0], gate, {"bonus_pyrus": 100})
    assert response.status_code == 201
    assert response.json()["fields"] == {"bonus_pyrus": 100}


def test_an_api_reading_needs_a_card(client, user):
    client.force_login(user)
    response = client.post(
        URL,
        {"card": None, "game": "bakugan", "reading": True, "fields": {"key": "9"},
         "source": "x"},
        content_type="application/json",
    )  # fmt: skip
    assert response.status_code == 400
    assert response.json() == {"card": ["A reading names the card it reads."]}


def test_a_proposal_through_the_api_is_not_a_reading(client, collectors, gate):
    client.force_login(collectors[0])
    for collector in collectors:
        client.force_login(collector)
        response = client.post(
            URL,
            {"card": gate.pk, "game": "bakugan", "fields": {"bonus_aquos": 50},
             "source": "my copy"},
            content_type="application/json",
        )  # fmt: skip
        assert response.json()["is_reading"] is False
    assert Card.objects.get(pk=gate.pk).bonus_aquos is None


def test_a_new_accounts_reading_says_it_does_not_count_yet(client, puppets, gate):
    client.force_login(puppets[0])
    response = client.post(
        f"/community/cards/{gate.pk}/transcribe/", {"bonus_aquos": "50"}, follow=True
    )
    html = response.content.decode()
    assert "it will count towards confirming cards once your account is" in html
    assert Card.objects.get(pk=gate.pk).bonus_aquos is None


def test_an_established_accounts_reading_says_it_counts(client, collectors, gate):
    client.force_login(collectors[0])
    response = client.post(
        f"/community/cards/{gate.pk}/transcribe/", {"bonus_aquos": "50"}, follow=True
    )
    assert "and counts towards confirming the card." in response.content.decode()


def test_a_confirmed_title_brings_the_name_made_of_it(django_user_model, collectors):
    from tests.factories import C, make_card, make_set

    official = make_set(C, slug="base-names", name="Base names", source="test")
    blank = make_card(C, card_set=official, key="8", number=8, source="slot")
    for collector in collectors:
        _read(collector, blank, card_type="blade", title="Draciel")
    card = Card.objects.get(pk=blank.pk)
    assert (card.title, card.name) == ("Draciel", "Draciel")
    assert not FieldVerification.objects.filter(field="name").exists()


def test_a_known_title_read_otherwise_keeps_the_name(collectors):
    from tests.factories import C, make_card, make_set

    official = make_set(C, slug="base-known", name="Base known", source="test")
    dragoon = make_card(
        C, card_set=official, key="dragoon", name="Dragoon", title="Dragoon",
        card_type="blade", spin_strength=6, source="the rules text",
    )  # fmt: skip
    for collector in collectors:
        _read(collector, dragoon, title="Dranzer")
    card = Card.objects.get(pk=dragoon.pk)
    assert (card.title, card.name) == ("Dragoon", "Dragoon")
    assert FieldVerification.objects.get(card=card, field="title").level == "disputed"


def test_the_api_lists_readings_and_proposals_apart(client, user, gate):
    _propose(user, gate, bonus_aquos=50)
    reading = _read(user, gate, bonus_haos=30)
    client.force_login(user)
    listed = client.get(URL, {"is_reading": "true"}).json()["results"]
    assert [s["id"] for s in listed] == [reading.pk]


# --- the whole sock-puppet story ----------------------------------------------------


def test_sock_puppets_change_no_known_value_and_a_moderator_undoes_all_they_did(
    django_user_model, gate, moderator
):
    """Two accounts of one person, even once established, change no known value;
    what they confirmed is rolled back in one action each, with history."""
    from cards.community import moderation

    fresh = [_account(django_user_model, n) for n in ("sock1", "sock2")]
    for puppet in fresh:
        _read(puppet, gate, name="Renamed Gate", bonus_pyrus=990, bonus_aquos=50)
    card = Card.objects.get(pk=gate.pk)
    assert (card.name, card.bonus_pyrus, card.bonus_aquos) == ("Test Gate", 100, None)
    assert not FieldVerification.objects.exists()

    # The same person waits out the age and gets one proposal each accepted.
    for puppet in fresh:
        make_trusted(puppet)
        _read(puppet, gate, name="Renamed Gate", bonus_pyrus=990, bonus_aquos=50)
    card = Card.objects.get(pk=gate.pk)
    assert (card.name, card.bonus_pyrus) == ("Test Gate", 100)  # known: disputed
    assert card.bonus_aquos == 50  # unknown: filled by the two agreeing accounts
    assert set(
        FieldVerification.objects.filter(card=gate).values_list("field", "level")
    ) >= {("bonus_aquos", "confirmed"), ("bonus_pyrus", "disputed")}

    for puppet in fresh:
        moderation.account_roll_back(moderator=moderator, account=puppet)
    card = Card.objects.get(pk=gate.pk)
    assert (card.name, card.bonus_pyrus, card.bonus_aquos) == ("Test Gate", 100, None)
    assert not FieldVerification.objects.filter(card=gate).exists()
    assert not CardSubmission.objects.filter(
        submitter__in=fresh, is_reading=True, status="pending"
    ).exists()
    assert CardChange.objects.filter(
        card=gate, source__contains="rolled back everything sock1 caused"
    ).exists()
