"""Collide-O! pack censuses: counting, playing the count, two agreeing make it official."""

import json
from collections import Counter
from pathlib import Path

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from cards.choices import Verification
from cards.community.collide_o_census import (
    census_change,
    census_counts,
    census_disagreements,
    census_of,
    census_settle,
    census_total,
    official_pack,
)
from cards.data import card_data_load, card_data_parse
from cards.models import Card
from decks.census import census_deck, official_pack_deck
from decks.play.services import playtest_create

from .conftest import trust

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
pytestmark = pytest.mark.django_db


def practice_patterns() -> Counter:
    """Return the practice pack's patterns with their counts: a real 90-card pack."""
    data = json.loads((FIXTURES / "practice-collide-o.json").read_text())
    return Counter(
        (c["section_1"], c["section_2"], c["section_3"])
        for c in data["sets"][0]["cards"]
    )


def count_pack(user, patterns: Counter) -> None:
    for pattern, n in patterns.items():
        for _ in range(n):
            census_change(user=user, sections=pattern, delta=1)


@pytest.fixture
def official(db):
    text = (FIXTURES / "collide-o.json").read_text()
    card_data_load(data=card_data_parse(text=text), source_label="tests")


def test_identical_patterns_group_with_their_count(user):
    census_change(user=user, sections=("R", "G", "K"), delta=1)
    census_change(user=user, sections=("r", "g", "k"), delta=1)
    census_change(user=user, sections=("B", "YB", "Y"), delta=1)
    census = census_of(user)
    assert census_counts(census) == {("R", "G", "K"): 2, ("B", "BY", "Y"): 1}
    assert census_total(census) == 3


def test_a_card_counted_the_other_way_round_is_the_same_pattern(user):
    census_change(user=user, sections=("K", "G", "R"), delta=1)
    census_change(user=user, sections=("R", "G", "K"), delta=1)
    assert census_counts(census_of(user)) == {("R", "G", "K"): 2}


def test_minus_one_fixes_a_slip_and_the_last_one_removes_the_pattern(user):
    census_change(user=user, sections=("R", "G", "K"), delta=1)
    census_change(user=user, sections=("R", "G", "K"), delta=1)
    census_change(user=user, sections=("R", "G", "K"), delta=-1)
    assert census_counts(census_of(user)) == {("R", "G", "K"): 1}
    census_change(user=user, sections=("R", "G", "K"), delta=-1)
    assert census_counts(census_of(user)) == {}


@pytest.mark.parametrize(
    ("sections", "code"),
    [
        (("R", "GYB", "K"), "bad_section"),
        (("R", "RR", "K"), "bad_section"),
        (("R", "X", "K"), "bad_section"),
        (("R", "G"), "bad_pattern"),
    ],
)
def test_a_section_that_is_not_solid_a_stripe_or_wild_is_refused(user, sections, code):
    with pytest.raises(ValidationError) as caught:
        census_change(user=user, sections=sections, delta=1)
    assert caught.value.code == code
    assert census_of(user) is None


@pytest.mark.parametrize(
    ("sections", "message"),
    [
        (
            ("R", "", "K"),
            "Section 2: tick its colour, the two colours of its stripe, or wild.",
        ),
        (
            ("RBYRGK", "G", "K"),
            "Section 1: wild is all five colours: untick the others.",
        ),
    ],
)
def test_an_empty_or_wild_and_colour_section_says_what_to_tick(user, sections, message):
    with pytest.raises(ValidationError) as caught:
        census_change(user=user, sections=sections, delta=1)
    assert caught.value.messages == [message]


def test_a_ninety_first_card_is_refused(user):
    count_pack(user, practice_patterns())
    with pytest.raises(ValidationError) as caught:
        census_change(user=user, sections=("R", "G", "K"), delta=1)
    assert caught.value.code == "pack_full"
    assert census_total(census_of(user)) == 90


def test_an_anonymous_visitor_cannot_count(client):
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(PermissionDenied):
        census_change(user=AnonymousUser(), sections=("R", "G", "K"), delta=1)


def test_the_census_is_its_owners_pack_deck_at_once_and_plays(user):
    for _ in range(11):
        census_change(user=user, sections=("R", "G", "K"), delta=1)
    census_change(user=user, sections=("B", "BYRGK", "Y"), delta=1)
    deck = census_deck(census_of(user))
    assert deck.owner == user
    assert sorted(
        (e.card.section_1, e.card.section_2, e.card.section_3, e.quantity)
        for e in deck.entries.select_related("card")
    ) == [("B", "BYRGK", "Y", 1), ("R", "G", "K", 11)]
    # The deck as first made, then one version for the taps close together.
    assert deck.versions.count() == 2
    pt = playtest_create(owner=user, deck=deck, opponent="random", seed=1)
    assert len(pt.decks[0]["pack"]) == 12


def test_the_deck_builder_shows_the_census_pack_in_words(client, user):
    for _ in range(3):
        census_change(user=user, sections=("R", "G", "BYRGK"), delta=1)
    client.force_login(user)
    page = client.get(census_deck(census_of(user)).get_absolute_url())
    assert page.status_code == 200
    assert "red | green | wild" in page.content.decode()


def test_the_census_cards_are_private_to_their_owner(user, other_user):
    census_change(user=user, sections=("R", "G", "K"), delta=1)
    card = census_deck(census_of(user)).entries.get().card
    assert card.card_set.owner == user
    assert card.card_set.is_public is False
    assert Card.objects.visible_to(other_user).filter(pk=card.pk).exists() is False


def test_two_agreeing_established_censuses_make_the_official_pack(
    official, user, other_user
):
    trust(user)
    trust(other_user)
    count_pack(user, practice_patterns())
    assert official_pack() == []
    count_pack(other_user, practice_patterns())
    pack = official_pack()
    assert len(pack) == 90
    assert Counter(
        (c.section_1, c.section_2, c.section_3) for c, _ in pack
    ) == census_counts(census_of(user))
    card = pack[0][0]
    assert card.verification == Verification.CONFIRMED
    first, second = census_of(user).pk, census_of(other_user).pk
    assert card.source == (
        f"Two agreeing Collide-O! pack censuses (#{first} by alice and #{second} by "
        "mallory): every pattern counted alike."
    )
    assert card.is_official
    assert card.source in card.card_set.notes
    assert "not known" not in card.card_set.notes


def test_a_new_accounts_census_does_not_confirm(official, user, other_user):
    trust(user)
    count_pack(user, practice_patterns())
    count_pack(other_user, practice_patterns())
    assert official_pack() == []


def test_disagreeing_censuses_wait_for_a_moderator(
    official, user, other_user, moderator
):
    trust(user)
    trust(other_user)
    count_pack(user, practice_patterns())
    other = practice_patterns()
    other[("R", "G", "K")] -= 1
    other[("B", "Y", "R")] += 1
    count_pack(other_user, other)
    assert official_pack() == []
    table = census_disagreements()
    assert [c.owner.username for c in table["censuses"]] == ["alice", "mallory"]
    differing = {r["pattern"]: r["counts"] for r in table["rows"] if r["differs"]}
    assert differing == {("R", "G", "K"): [15, 14], ("B", "Y", "R"): [5, 6]}
    census_settle(moderator=moderator, census=census_of(other_user))
    pack = official_pack()
    assert len(pack) == 90
    assert {c.verification for c, _ in pack} == {Verification.VERIFIED}


def test_only_a_moderator_settles(official, user):
    count_pack(user, practice_patterns())
    with pytest.raises(PermissionDenied):
        census_settle(moderator=user, census=census_of(user))


def test_anyone_makes_a_deck_of_the_official_pack_once_known(
    official, user, other_user, django_user_model
):
    third = django_user_model.objects.create_user("carol", "c@example.com", "pw-3-x")
    assert official_pack_deck(owner=third) is None
    trust(user)
    trust(other_user)
    count_pack(user, practice_patterns())
    count_pack(other_user, practice_patterns())
    deck = official_pack_deck(owner=third)
    assert sum(e.quantity for e in deck.entries.all()) == 90
    assert {e.card.card_set.slug for e in deck.entries.select_related("card")} == {
        "collide-o"
    }


# --- the pages -------------------------------------------------------------------


def test_the_census_page_counts_a_ticked_pattern_and_groups_it(client, user):
    client.force_login(user)
    for _ in range(2):
        response = client.post(
            "/community/census/count/",
            {"section_1": ["R"], "section_2": ["B", "Y"], "section_3": ["BYRGK"]},
        )
        assert response.status_code == 302
    assert census_counts(census_of(user)) == {("R", "BY", "BYRGK"): 2}
    page = client.get("/community/census/").content.decode()
    assert "2 of 90 counted" in page
    assert "red | blue-yellow | wild" in page
    assert "× 2" in page
    assert "The official composition is not known yet" in page
    deck = census_deck(census_of(user))
    assert f"/play/new/?deck={deck.pk}" in page


def test_minus_one_on_the_page_takes_one_off(client, user):
    client.force_login(user)
    census_change(user=user, sections=("R", "G", "K"), delta=1)
    census_change(user=user, sections=("R", "G", "K"), delta=1)
    client.post(
        "/community/census/count/",
        {"section_1": "R", "section_2": "G", "section_3": "K", "delta": "-1"},
    )
    assert census_counts(census_of(user)) == {("R", "G", "K"): 1}


def test_a_bad_pick_is_explained_and_counts_nothing(client, user):
    client.force_login(user)
    response = client.post(
        "/community/census/count/",
        {"section_1": ["R", "G", "B"], "section_2": "G", "section_3": "K"},
        follow=True,
    )
    assert "Section 1: A section is solid (one colour)" in response.content.decode()
    assert census_of(user) is None


def test_help_wanted_says_an_empty_official_set_is_not_known(client, official):
    page = client.get("/community/help-wanted/collide-o/").content.decode()
    assert "0 of 0 known" not in page
    assert "Every card of this set is recorded and verified" not in page
    assert (
        "no card of this set is recorded, so which cards it holds is not known" in page
    )
    assert "/community/census/" in page


def test_the_compare_page_shows_disagreeing_patterns_to_a_moderator(
    client, official, user, other_user, moderator
):
    count_pack(user, practice_patterns())
    other = practice_patterns()
    other[("R", "G", "K")] -= 1
    other[("B", "Y", "R")] += 1
    count_pack(other_user, other)
    client.force_login(moderator)
    page = client.get("/community/census/compare/").content.decode()
    assert page.count("(differs)") == 2
    census = census_of(user)
    client.post(f"/community/census/{census.pk}/settle/")
    assert len(official_pack()) == 90
    assert (
        "nothing to settle" in client.get("/community/census/compare/").content.decode()
    )


def test_the_official_pack_button_makes_a_deck_and_opens_the_start_page(
    client, official, user, other_user, django_user_model
):
    trust(user)
    trust(other_user)
    count_pack(user, practice_patterns())
    count_pack(other_user, practice_patterns())
    third = django_user_model.objects.create_user("carol", "c@example.com", "pw-3-x")
    client.force_login(third)
    assert "Play the official pack" in client.get("/community/census/").content.decode()
    response = client.post("/decks/official-pack/")
    deck = third.decks.get()
    assert response["Location"] == f"/play/new/?deck={deck.pk}"


def test_census_cards_change_only_through_the_census(client, user):
    from cards.community.services import (
        custom_card_create,
        custom_card_delete,
        custom_card_update,
    )

    census_change(user=user, sections=("R", "G", "K"), delta=1)
    card = census_deck(census_of(user)).entries.get().card
    with pytest.raises(ValidationError, match="census page"):
        custom_card_update(user=user, card=card, fields={"section_1": "B"})
    with pytest.raises(ValidationError, match="census page"):
        custom_card_delete(user=user, card=card)
    with pytest.raises(ValidationError, match="census page"):
        custom_card_create(user=user, card_set=card.card_set, fields={"section_1": "B"})
    client.force_login(user)
    page = client.post(
        f"/community/custom/cards/{card.pk}/edit/", {"delete": "1"}, follow=True
    )
    assert page.status_code == 200
    assert "census page" in page.content.decode()
    assert Card.objects.filter(pk=card.pk).exists()
    assert census_counts(census_of(user)) == {("R", "G", "K"): 1}
