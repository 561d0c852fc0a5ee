"""A moderator sees every change one account caused and rolls all of it back."""

import re

import pytest
from django.core.exceptions import PermissionDenied

from cards.community import moderation, readings
from cards.community.services import (
    card_submission_accept,
    card_submission_create,
    custom_card_create,
    custom_set_create,
)
from cards.models import Card, CardChange, CardSubmission, FieldVerification
from tests.community.conftest import trust
from tests.factories import C, make_card, make_set

EDGE = "L.S.EL"


def _collector(django_user_model, name):
    # Established collectors (old, with an accepted proposal), so readings count.
    return trust(
        django_user_model.objects.create_user(
            name, f"{name}@example.com", "correct-horse-battery-9"
        )
    )


@pytest.fixture
def bob(django_user_model):
    return _collector(django_user_model, "bob")


@pytest.fixture
def carol(django_user_model):
    return _collector(django_user_model, "carol")


@pytest.fixture
def dave(django_user_model):
    return _collector(django_user_model, "dave")


@pytest.fixture
def blank(db):
    official = make_set(C, slug="base-blank", name="Base blank", source="test")
    return make_card(C, card_set=official, key="7", number=7, source="numbered slot")


def _propose(who, card_pk, fields):
    return card_submission_create(
        user=who,
        game="collision",
        card=Card.objects.get(pk=card_pk),
        fields=fields,
        source="My own copy",
    )


@pytest.fixture
def confirmed(bob, carol, blank):
    """Return the card as it was before bob and carol agreed on its type and edge."""
    before = Card.objects.get(pk=blank.pk)
    for who in (bob, carol):
        readings.card_reading_save(
            user=who, card=blank, fields={"card_type": "blade", "battle_edge": EDGE}
        )
    card = Card.objects.get(pk=blank.pk)
    assert (card.card_type, card.battle_edge) == ("blade", EDGE)
    assert FieldVerification.objects.filter(card=blank).count() == 2
    return before


def test_the_changes_of_an_account_list_the_fields_its_readings_confirmed(
    confirmed, bob, blank
):
    changes = moderation.account_changes(bob)
    assert sorted(
        (c.card.pk, c.field, c.old, c.new, c.how) for c in changes.fields
    ) == [
        (blank.pk, "battle_edge", None, EDGE, "reading"),
        (blank.pk, "card_type", confirmed.card_type, "blade", "reading"),
        (blank.pk, "verification", "unverified", "confirmed", "reading"),
    ]
    assert sorted(fv.field for fv in changes.confirmations) == [
        "battle_edge",
        "card_type",
    ]
    assert [r.card_id for r in changes.pending] == [blank.pk]


def test_rolling_back_one_of_two_agreeing_accounts_restores_the_card(
    confirmed, bob, carol, blank, moderator
):
    result = moderation.account_roll_back(moderator=moderator, account=bob)

    card = Card.objects.get(pk=blank.pk)
    assert (card.card_type, card.battle_edge, card.verification) == (
        confirmed.card_type,
        None,
        "unverified",
    )
    assert FieldVerification.objects.filter(card=blank).count() == 0
    assert (
        CardSubmission.objects.get(submitter=bob, is_reading=True).status == "rejected"
    )
    assert (
        CardSubmission.objects.get(submitter=carol, is_reading=True).status == "pending"
    )
    assert sorted(r.field for r in result.restored) == [
        "battle_edge",
        "card_type",
        "verification",
    ]
    assert result.kept == []
    assert result.confirmations_removed == 2
    assert result.rejected == 1
    latest = CardChange.objects.filter(card=blank).order_by("-pk").first()
    assert latest.user == moderator
    assert latest.source == "mod rolled back everything bob caused"
    assert {"field": "battle_edge", "old": EDGE, "new": None} in latest.changes
    # Nothing of bob's is left to roll back.
    again = moderation.account_changes(bob)
    assert (again.fields, again.confirmations, again.pending) == ([], [], [])


def test_a_later_change_by_someone_else_is_kept_and_reported(
    confirmed, bob, dave, blank, moderator
):
    proposal = _propose(dave, blank.pk, {"battle_edge": "SS.E.L"})
    card_submission_accept(submission=proposal, moderator=moderator)

    result = moderation.account_roll_back(moderator=moderator, account=bob)

    card = Card.objects.get(pk=blank.pk)
    assert (card.card_type, card.battle_edge) == (confirmed.card_type, "SS.E.L")
    # The moderator who accepted dave's proposal also set the card's level.
    assert sorted((k.card.pk, k.field, k.current) for k in result.kept) == [
        (blank.pk, "battle_edge", "SS.E.L"),
        (blank.pk, "verification", "unverified"),
    ]
    assert [k.reason for k in result.kept] == ["Changed since by dave."] * 2
    assert [r.field for r in result.restored] == ["card_type"]


def test_a_confirmation_two_other_accounts_stand_behind_is_kept(
    confirmed, bob, carol, dave, blank, moderator
):
    readings.card_reading_save(
        user=dave, card=blank, fields={"card_type": "blade", "battle_edge": EDGE}
    )

    first = moderation.account_roll_back(moderator=moderator, account=bob)

    assert Card.objects.get(pk=blank.pk).battle_edge == EDGE
    assert first.restored == []
    assert sorted(k.field for k in first.kept) == [
        "battle_edge",
        "card_type",
        "verification",
    ]
    assert {k.reason for k in first.kept} == {
        "Other accounts' readings still confirm it."
    }
    row = FieldVerification.objects.get(card=blank, field="battle_edge")
    assert sorted(r.submitter.username for r in row.readings.all()) == [
        "carol",
        "dave",
    ]

    moderation.account_roll_back(moderator=moderator, account=carol)

    card = Card.objects.get(pk=blank.pk)
    assert (card.battle_edge, card.verification) == (None, "unverified")
    assert FieldVerification.objects.filter(card=blank).count() == 0


def test_an_accepted_proposal_is_rolled_back_and_every_proposal_rejected(
    dave, blank, moderator
):
    proposal = _propose(dave, blank.pk, {"card_type": "blade", "battle_edge": EDGE})
    card_submission_accept(submission=proposal, moderator=moderator)
    waiting = _propose(dave, blank.pk, {"title": "Draciel"})
    changes = moderation.account_changes(dave)
    assert sorted((c.field, c.how) for c in changes.fields) == [
        ("battle_edge", "proposal"),
        ("card_type", "proposal"),
    ]
    assert changes.pending == [waiting]

    moderation.account_roll_back(moderator=moderator, account=dave)

    card = Card.objects.get(pk=blank.pk)
    assert (card.card_type, card.battle_edge) == (blank.card_type, None)
    assert CardSubmission.objects.get(pk=waiting.pk).status == "rejected"
    undone = CardSubmission.objects.get(pk=proposal.pk)
    assert (undone.status, undone.reviewer) == ("rejected", moderator)
    assert moderation.account_changes(dave).fields == []


def test_a_restore_that_no_longer_fits_the_card_is_kept_and_reported(
    dave, carol, moderator
):
    official = make_set(C, slug="base-typed", name="Base typed", source="test")
    card = make_card(C, card_set=official, key="8", number=8, card_type="blade")
    for who, fields in ((dave, {"card_type": "action"}), (carol, {"colour": "red"})):
        card_submission_accept(
            submission=_propose(who, card.pk, fields), moderator=moderator
        )

    result = moderation.account_roll_back(moderator=moderator, account=dave)

    stored = Card.objects.get(pk=card.pk)
    assert (stored.card_type, stored.colour) == ("action", "red")
    assert result.restored == []
    assert [(k.field, k.current, k.reason) for k in result.kept] == [
        (
            "card_type",
            "action",
            "Restoring it breaks the card as it is now: Blades have no colour.",
        )
    ]
    latest = CardChange.objects.filter(card=card).order_by("-pk").first()
    assert (latest.user, latest.changes) == (moderator, [])
    assert latest.source.startswith("mod rolled back everything dave caused; kept:")


def test_custom_cards_are_listed_and_left_alone(dave, moderator):
    own = custom_set_create(user=dave, game="collision", name="Homebrew")
    card = custom_card_create(
        user=dave, card_set=own, fields={"title": "Homebrew", "card_type": "action"}
    )
    assert list(moderation.account_changes(dave).custom_cards) == [card]

    moderation.account_roll_back(moderator=moderator, account=dave)

    assert Card.objects.get(pk=card.pk).title == "Homebrew"


def test_only_a_moderator_rolls_back(confirmed, bob, carol, blank):
    with pytest.raises(PermissionDenied):
        moderation.account_roll_back(moderator=carol, account=bob)
    assert Card.objects.get(pk=blank.pk).battle_edge == EDGE


# --- the moderator's page ----------------------------------------------------------


def test_the_account_page_shows_a_moderator_the_changes(
    client, confirmed, bob, moderator
):
    client.force_login(moderator)
    page = client.get("/community/accounts/bob/")
    assert page.status_code == 200
    html = page.content.decode()
    assert EDGE in html
    assert 'action="/community/accounts/bob/roll-back/"' in html
    assert client.get("/community/accounts/nobody-here/").status_code == 404


def test_a_submission_page_links_moderators_to_its_authors_changes(
    client, confirmed, bob, moderator
):
    url = CardSubmission.objects.get(submitter=bob, is_reading=True).get_absolute_url()
    link = 'href="/community/accounts/bob/"'
    client.force_login(bob)
    assert link not in client.get(url).content.decode()
    client.force_login(moderator)
    assert link in client.get(url).content.decode()


def test_the_account_page_is_refused_to_everyone_else(client, confirmed, bob, carol):
    assert client.get("/community/accounts/bob/").status_code == 302
    client.force_login(carol)
    assert client.get("/community/accounts/bob/").status_code == 403
    assert client.post("/community/accounts/bob/roll-back/").status_code == 403
    assert client.get("/community/accounts/nobody-here/").status_code == 403
    assert Card.objects.get(pk=confirmed.pk).battle_edge == EDGE


def test_the_roll_back_button_asks_to_confirm_first(
    client, confirmed, bob, blank, moderator
):
    client.force_login(moderator)
    asked = client.post("/community/accounts/bob/roll-back/")
    assert asked.status_code == 200
    assert 'name="confirm"' in asked.content.decode()
    assert Card.objects.get(pk=blank.pk).battle_edge == EDGE

    done = client.post("/community/accounts/bob/roll-back/", {"confirm": "yes"})

    assert done.status_code == 302
    assert done["Location"] == "/community/accounts/bob/"
    assert Card.objects.get(pk=blank.pk).battle_edge is None


def test_the_admin_action_on_users_rolls_back_through_the_service(
    client, confirmed, bob, blank, django_user_model
):
    boss = django_user_model.objects.create_superuser(
        "boss", "boss@example.com", "correct-horse-battery-5"
    )
    client.force_login(boss)
    response = client.post(
        "/admin/auth/user/",
        {"action": "roll_back_accounts", "_selected_action": [bob.pk]},
    )
    assert response.status_code == 302
    assert Card.objects.get(pk=blank.pk).battle_edge is None
    latest = CardChange.objects.filter(card=blank).order_by("-pk").first()
    assert latest.source == "boss rolled back everything bob caused"


# --- contributor pages ---------------------------------------------------------------


def _page_without(response, name):
    html = response.content.decode().replace(name, "NAME")
    # CSRF tokens are masked afresh for every response.
    return re.sub(r'("X-CSRFToken": |csrfmiddlewaretoken" value=)"[^"]*"', "", html)


def test_a_contributor_page_does_not_tell_whether_the_account_exists(client, bob):
    known = client.get("/community/contributors/bob/")
    unknown = client.get("/community/contributors/nobody-here/")
    assert known.status_code == unknown.status_code == 200
    assert _page_without(known, "bob") == _page_without(unknown, "nobody-here")
