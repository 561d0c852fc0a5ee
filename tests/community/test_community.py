"""Submissions, review, history, custom cards and help wanted, through the services."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from cards.community import services as community
from cards.data import card_data_load, card_data_parse
from cards.models import Card, CardChange, CardSet, CardSubmission
from collection.selectors import set_completion
from tests.factories import make_entry, make_set


def _propose(user, card, **fields):
    return community.card_submission_create(
        user=user, game="bakugan", card=card, fields=fields, source="my own copy"
    )


@pytest.mark.django_db
def test_moderators_group_members_and_staff_are_moderators(user, moderator):
    assert community.is_moderator(moderator) is True
    assert community.is_moderator(user) is False
    user.is_staff = True
    assert community.is_moderator(user) is True


@pytest.mark.django_db
def test_accepted_correction_changes_exactly_the_proposed_fields_and_records_history(
    user, moderator, gate
):
    before = community.card_values(gate)
    submission = _propose(user, gate, bonus_aquos=-50, name="Test Gate")

    assert submission.fields == {"bonus_aquos": -50}  # unchanged name dropped
    card = community.card_submission_accept(
        submission=submission, moderator=moderator, verification="verified"
    )

    after = community.card_values(Card.objects.get(pk=gate.pk))
    changed = {k for k in after if after[k] != before[k]}
    assert changed == {"bonus_aquos", "verification"}
    assert after["bonus_aquos"] == -50
    assert after["verification"] == "verified"
    (change,) = CardChange.objects.filter(card=card)
    assert change.changes == [
        {"field": "verification", "old": "unverified", "new": "verified"},
        {"field": "bonus_aquos", "old": None, "new": -50},
    ]
    assert change.user == user
    assert change.submission == submission
    assert change.source.startswith(
        f"Submission #{submission.pk} by alice, accepted by mod"
    )
    submission.refresh_from_db()
    assert (submission.status, submission.reviewer, submission.verification) == (
        "accepted",
        moderator,
        "verified",
    )


@pytest.mark.django_db
def test_proposal_is_checked_by_the_card_rules_and_nothing_is_stored(user, gate):
    with pytest.raises(ValidationError) as info:
        _propose(user, gate, gate_class=None)

    assert info.value.message_dict == {
        "gate_class": ["A Gate card needs its class: gold, silver or copper."]
    }
    assert CardSubmission.objects.count() == 0


@pytest.mark.django_db
def test_proposal_refuses_unknown_fields_wrong_types_and_no_change(user, gate):
    with pytest.raises(ValidationError) as info:
        _propose(user, gate, battle_edge="LLLLLL", bonus_haos="7")
    assert info.value.message_dict == {
        "battle_edge": ["Not a field a Bakugan card submission sets."],
        "bonus_haos": ['Must be a whole number, not "7".'],
    }
    with pytest.raises(ValidationError) as info:
        _propose(user, gate, name="Test Gate")
    assert info.value.message_dict == {
        "fields": ["This proposal changes nothing: every value is the card's own."]
    }
    assert CardSubmission.objects.count() == 0


@pytest.mark.django_db
def test_new_card_proposal_makes_the_card_on_acceptance(user, moderator, bakugan_set):
    submission = community.card_submission_create(
        user=user,
        game="bakugan",
        card=None,
        fields={
            "set": "test-series",
            "key": "2/48",
            "name": "Second",
            "card_type": "ability",
            "colour": "red",
        },
        source="rulebook page 4",
    )
    assert submission.is_new is True
    assert submission.card_set == bakugan_set

    card = community.card_submission_accept(submission=submission, moderator=moderator)

    assert (card.key, card.name, card.colour, card.source, card.verification) == (
        "2/48",
        "Second",
        "red",
        "rulebook page 4",
        "unverified",
    )
    change = CardChange.objects.get(card=card)
    assert change.created is True
    assert {c["field"]: c["new"] for c in change.changes}["name"] == "Second"
    submission.refresh_from_db()
    assert submission.card == card


@pytest.mark.django_db
def test_new_card_with_a_key_already_in_the_set_is_refused(user, gate):
    with pytest.raises(ValidationError) as info:
        community.card_submission_create(
            user=user,
            game="bakugan",
            card=None,
            fields={"set": "test-series", "key": "1/48", "card_type": "ability"},
            source="x",
        )
    assert info.value.message_dict == {
        "__all__": ["This set already has a card with this number."]
    }


@pytest.mark.django_db
def test_non_moderator_cannot_accept_or_reject(user, gate):
    submission = _propose(user, gate, bonus_aquos=10)

    with pytest.raises(PermissionDenied):
        community.card_submission_accept(submission=submission, moderator=user)
    with pytest.raises(PermissionDenied):
        community.card_submission_reject(
            submission=submission, moderator=user, reason="no"
        )
    submission.refresh_from_db()
    assert submission.status == "pending"
    assert Card.objects.get(pk=gate.pk).bonus_aquos is None


@pytest.mark.django_db
def test_rejection_needs_a_reason_and_leaves_the_card_alone(user, moderator, gate):
    submission = _propose(user, gate, bonus_aquos=10)
    with pytest.raises(ValidationError):
        community.card_submission_reject(
            submission=submission, moderator=moderator, reason="  "
        )

    community.card_submission_reject(
        submission=submission, moderator=moderator, reason="The scan shows 20."
    )

    submission.refresh_from_db()
    assert (submission.status, submission.reason) == ("rejected", "The scan shows 20.")
    assert Card.objects.get(pk=gate.pk).bonus_aquos is None
    assert CardChange.objects.count() == 0
    with pytest.raises(ValidationError) as info:
        community.card_submission_accept(submission=submission, moderator=moderator)
    assert info.value.messages == ["This submission was already reviewed (rejected)."]


@pytest.mark.django_db
def test_data_file_load_records_history_with_the_file_label(gate):
    text = (
        '{"format": "cardsite-card-data", "version": 1, "game": "bakugan", "sets": [{'
        '"slug": "test-series", "name": "Test series", "kind": "official", "source": "test",'
        '"cards": [{"key": "1/48", "number": 1, "printed_number": "1/48",'
        '"name": "Test Gate", "card_type": "gate", "gate_class": "silver",'
        '"bonus_pyrus": 100, "source": "the test\'s own copy"},'
        '{"key": "3/48", "name": "New", "card_type": "ability", "source": "file"}]}]}'
    )

    card_data_load(data=card_data_parse(text=text), source_label="fixtures/x.json")

    updated = CardChange.objects.get(card=gate)
    assert updated.source == "fixtures/x.json"
    assert updated.created is False
    assert updated.changes == [{"field": "gate_class", "old": "gold", "new": "silver"}]
    created = CardChange.objects.get(card__key="3/48")
    assert created.created is True
    assert created.source == "fixtures/x.json"
    # Loading the same file again changes nothing and records nothing.
    card_data_load(data=card_data_parse(text=text), source_label="fixtures/x.json")
    assert CardChange.objects.count() == 2


@pytest.mark.django_db
def test_custom_cards_never_count_toward_official_completion(user, gate):
    custom = community.custom_set_create(user=user, game="bakugan", name="My proxies")
    card = community.custom_card_create(
        user=user,
        card_set=custom,
        fields={"name": "Proxy Gate", "card_type": "gate", "gate_class": "gold"},
    )
    make_entry(user, card, quantity=1)

    (row,) = set_completion(user=user)

    assert (row["set"], row["total"], row["owned"]) == (gate.card_set, 1, 0)
    assert card.card_set.kind == "custom"
    assert (card.key, card.distribution, card.verification) == (
        "1",
        "custom",
        "unverified",
    )
    assert custom.is_public is False
    assert CardChange.objects.get(card=card).created is True


@pytest.mark.django_db
def test_custom_card_rules_and_owner_only(user, other_user):
    custom = community.custom_set_create(user=user, game="bakugan", name="Mine")
    with pytest.raises(ValidationError) as info:
        community.custom_card_create(
            user=user, card_set=custom, fields={"card_type": "gate"}
        )
    assert info.value.message_dict == {
        "gate_class": ["A Gate card needs its class: gold, silver or copper."]
    }
    with pytest.raises(PermissionDenied):
        community.custom_card_create(
            user=other_user,
            card_set=custom,
            fields={"card_type": "ability"},
        )
    assert Card.objects.filter(card_set=custom).count() == 0


@pytest.mark.django_db
def test_corrections_to_custom_cards_are_refused(user, other_user):
    custom = community.custom_set_create(
        user=user, game="bakugan", name="Public", is_public=True
    )
    card = community.custom_card_create(
        user=user, card_set=custom, fields={"card_type": "ability"}
    )
    with pytest.raises(ValidationError) as info:
        _propose(other_user, card, name="Mine now")
    assert info.value.message_dict == {
        "card": ["Custom cards are changed by their owner, not through submissions."]
    }


@pytest.mark.django_db
def test_unknown_fields_leave_out_not_printed_and_fields_the_type_lacks(gate):
    gate.not_printed = ["bonus_subterra"]
    gate.save()

    assert community.unknown_fields(gate) == [
        "bonus_aquos",
        "bonus_haos",
        "bonus_darkus",
        "bonus_ventus",
    ]


@pytest.mark.django_db
def test_help_wanted_skips_custom_sets_and_practice_by_default(user, gate):
    community.custom_set_create(user=user, game="bakugan", name="Mine", is_public=True)
    make_set(gate.card_set.game.slug, "practice", slug="practice", name="Practice")

    report = community.help_wanted(game=gate.card_set.game)
    with_practice = community.help_wanted(
        game=gate.card_set.game, include_practice=True
    )

    assert [entry["set"].slug for entry in report] == ["test-series"]
    assert sorted(e["set"].slug for e in with_practice) == ["practice", "test-series"]
    (row,) = report[0]["rows"]
    assert row["card"] == gate
    assert row["unknown_fields"] == [
        "bonus_aquos",
        "bonus_subterra",
        "bonus_haos",
        "bonus_darkus",
        "bonus_ventus",
    ]


@pytest.mark.django_db
def test_a_custom_set_update_from_an_old_copy_keeps_the_fields_it_does_not_change(
    user,
):
    custom = community.custom_set_create(user=user, game="bakugan", name="Mine")
    old_copy = CardSet.objects.get(pk=custom.pk)
    CardSet.objects.filter(pk=custom.pk).update(year="2009", sort_order=7)
    community.custom_set_update(
        user=user, card_set=old_copy, name="Proxies", is_public=True
    )
    custom.refresh_from_db()
    assert (custom.name, custom.is_public, custom.year, custom.sort_order) == (
        "Proxies",
        True,
        "2009",
        7,
    )
