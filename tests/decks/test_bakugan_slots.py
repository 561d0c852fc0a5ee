"""A Bakugan deck's slot names which owned copy plays, or a G-Power the player
types; the deck rules, the deck service, versions, decklists and the playtest
all keep that value."""

import html

import pytest
from django.core.exceptions import ValidationError

from cards.models import Card
from decks.models import DeckEntry
from decks.play.services import playtest_create
from decks.rules import validate_deck
from decks.services import (
    deck_add_card,
    deck_clone,
    deck_create,
    deck_import_text,
    deck_slot_set,
    deck_update,
)
from decks.text_io import export_decklist
from tests.factories import make_entry

BAD = (
    "A figure's G-Power is printed as a multiple of 10 from 10 to 1,000; {} is not one."
)

pytestmark = pytest.mark.django_db


def card(set_slug, key):
    return Card.objects.get(card_set__slug=set_slug, key=key)


@pytest.fixture
def dragonoid(official):
    return card("figures-spin-master", "pyrus-dragonoid-b1")


@pytest.fixture
def rest(official):
    """Entries of two more figures, three gates and three abilities (official)."""
    entries = [
        {"card": card("figures-spin-master", k).pk, "zone": "bakugan", "quantity": 1}
        for k in ("aquos-preyas-b1", "haos-tigrerra-b1")
    ]
    for key in ("1/48", "9/48", "17/48"):
        entries.append({"card": card("1-48", key).pk, "zone": "gate", "quantity": 1})
    for key in ("25/48", "33/48", "41/48"):
        entries.append({"card": card("1-48", key).pk, "zone": "ability", "quantity": 1})
    return entries


def seat_powers(playtest, card_id):
    return sorted(
        c["g_power"] for c in playtest.decks[0]["bakugan"] if c["id"] == card_id
    )


def test_a_typed_g_power_is_saved_on_the_slot_and_played(user, dragonoid, rest):
    deck = deck_create(
        owner=user,
        game="bakugan",
        name="Typed",
        entries=[
            {"card": dragonoid.pk, "zone": "bakugan", "quantity": 1, "g_power": 450},
            *rest,
        ],
    )
    entry = deck.entries.get(card=dragonoid)
    assert (entry.g_power, entry.copy_id) == (450, None)
    for other in ("aquos-preyas-b1", "haos-tigrerra-b1"):
        figure = card("figures-spin-master", other)
        make_entry(user, figure, quantity=1, g_power=300)
    playtest = playtest_create(owner=user, deck=deck, opponent="random", seed=1)
    assert seat_powers(playtest, dragonoid.pk) == [450]
    labels = [
        c["label"] for c in playtest.decks[0]["bakugan"] if c["id"] == dragonoid.pk
    ]
    assert labels == [f"{dragonoid.display_name} (450 G)"]


@pytest.mark.parametrize("g_power", [355, 5, 0, 1010])
def test_a_typed_g_power_never_printed_is_refused_with_the_collection_message(
    user, dragonoid, rest, g_power
):
    entries = [
        {"card": dragonoid.pk, "zone": "bakugan", "quantity": 1, "g_power": g_power},
        *rest,
    ]
    with pytest.raises(ValidationError) as error:
        deck_create(owner=user, game="bakugan", name="Bad", entries=entries)
    assert error.value.message_dict["entries"] == [f"Entry 1: {BAD.format(g_power)}"]
    assert not user.decks.exists()
    problems = validate_deck("bakugan", [{**entries[0], "card": dragonoid}])
    assert [(p.code, p.message) for p in problems if p.code == "bad_g_power"] == [
        ("bad_g_power", f"{dragonoid.display_name}: {BAD.format(g_power)}")
    ]


def test_a_bad_g_power_in_an_update_changes_nothing(user, dragonoid, rest):
    deck = deck_create(owner=user, game="bakugan", name="D", entries=rest)
    with pytest.raises(ValidationError):
        deck_update(
            deck=deck,
            entries=[
                {"card": dragonoid.pk, "zone": "bakugan", "quantity": 1, "g_power": 3}
            ],
        )
    assert deck.entries.count() == len(rest) and deck.versions.count() == 1
    with pytest.raises(ValidationError) as error:
        deck_add_card(deck=deck, card=dragonoid, g_power=1234)
    assert error.value.message_dict["g_power"] == [BAD.format(1234)]
    assert not deck.entries.filter(card=dragonoid).exists()


def test_only_a_figure_takes_a_g_power(user, official, rest):
    gate = rest[2]
    with pytest.raises(ValidationError) as error:
        deck_create(
            owner=user, game="bakugan", name="G", entries=[{**gate, "g_power": 300}]
        )
    assert error.value.message_dict["entries"] == [
        "Entry 1: Only a Bakugan figure prints a G-Power on each copy."
    ]


def test_a_named_copy_must_be_the_owners_copy_of_that_figure(
    user, other_user, dragonoid, official
):
    theirs = make_entry(other_user, dragonoid, quantity=1, g_power=500)
    preyas = card("figures-spin-master", "aquos-preyas-b1")
    mine_of_preyas = make_entry(user, preyas, quantity=1, g_power=400)
    mine_unknown = make_entry(user, dragonoid, quantity=1)
    mine = make_entry(user, dragonoid, quantity=1, g_power=350)
    slot = {"card": dragonoid.pk, "zone": "bakugan", "quantity": 1}
    cases = [
        (
            {"copy": theirs.pk},
            f"there is no copy with id {theirs.pk} in your collection.",
        ),
        (
            {"copy": mine_of_preyas.pk},
            f"That copy is not one of your copies of {dragonoid.display_name}.",
        ),
        (
            {"copy": mine_unknown.pk},
            "That copy has no G-Power recorded: record it in your collection, or "
            "type the G-Power.",
        ),
        ({"copy": mine.pk, "quantity": 2}, "You own 1 of that copy (350 G), not 2."),
        (
            {"copy": mine.pk, "g_power": 360},
            "name one of your copies or type a G-Power, not both.",
        ),
    ]
    for extra, message in cases:
        with pytest.raises(ValidationError) as error:
            deck_create(
                owner=user, game="bakugan", name="C", entries=[{**slot, **extra}]
            )
        assert error.value.message_dict["entries"] == [f"Entry 1: {message}"]
    assert not user.decks.exists()


def test_a_named_copy_plays_its_value_as_it_is_now_and_other_slots_the_rest(
    user, dragonoid, rest
):
    strong = make_entry(user, dragonoid, quantity=1, g_power=600)
    named = make_entry(user, dragonoid, quantity=1, g_power=350, condition="played")
    make_entry(user, dragonoid, quantity=1, g_power=200, condition="poor")
    for other in ("aquos-preyas-b1", "haos-tigrerra-b1"):
        make_entry(user, card("figures-spin-master", other), quantity=1, g_power=300)
    rest = [e for e in rest if e["zone"] != "bakugan"]
    deck = deck_create(
        owner=user,
        game="bakugan",
        name="Named",
        entries=[
            {"card": dragonoid.pk, "zone": "bakugan", "quantity": 1, "copy": named.pk},
            {"card": dragonoid.pk, "zone": "bakugan", "quantity": 2},
            *rest,
        ],
    )
    slot = deck.entries.get(copy=named)
    assert slot.g_power == 350
    # The unnamed two take the strongest copies not named: 600 and 200.
    playtest = playtest_create(owner=user, deck=deck, opponent="random", seed=1)
    assert seat_powers(playtest, dragonoid.pk) == [200, 350, 600]
    named.g_power = 360
    named.save()
    playtest = playtest_create(owner=user, deck=deck, opponent="random", seed=1)
    assert seat_powers(playtest, dragonoid.pk) == [200, 360, 600]
    strong.delete()
    named.delete()  # the slot keeps the value it was saved with
    slot.refresh_from_db()
    assert (slot.copy_id, slot.g_power) == (None, 350)


def test_a_slot_is_set_one_copy_at_a_time_and_each_save_keeps_a_version(
    user, dragonoid, rest
):
    mine = make_entry(user, dragonoid, quantity=1, g_power=420)
    deck = deck_create(
        owner=user,
        game="bakugan",
        name="Slots",
        entries=[{"card": dragonoid.pk, "zone": "bakugan", "quantity": 3}],
    )
    entry = deck.entries.get()
    deck_slot_set(entry=entry, copy=mine.pk)
    rows = sorted((e.quantity, e.g_power, e.copy_id) for e in deck.entries.all())
    assert rows == [(1, 420, mine.pk), (2, None, None)]
    unnamed = deck.entries.get(g_power__isnull=True)
    deck_slot_set(entry=unnamed, g_power=300)
    rows = sorted(
        (e.quantity, e.g_power or 0, e.copy_id or 0) for e in deck.entries.all()
    )
    assert rows == [(1, 0, 0), (1, 300, 0), (1, 420, mine.pk)]
    with pytest.raises(ValidationError) as error:
        deck_slot_set(entry=deck.entries.get(g_power__isnull=True), g_power=301)
    assert error.value.message_dict["g_power"] == [BAD.format(301)]
    latest = deck.versions.order_by("-number").first()
    assert sorted(
        (e["quantity"], e.get("g_power", 0), e.get("copy", 0))
        for e in latest.entries
        if e["zone"] == "bakugan"
    ) == [(1, 0, 0), (1, 300, 0), (1, 420, mine.pk)]
    first = deck.versions.get(number=1)
    diff = first.diff_to(latest)
    assert [(i["g_power"], i["before"], i["after"]) for i in diff["added"]] == [
        (300, 0, 1),
        (420, 0, 1),
    ]
    # Back to the strongest copy: the slot of a named copy rejoins the others.
    deck_slot_set(entry=deck.entries.get(copy=mine), copy=None, g_power=None)
    rows = sorted((e.quantity, e.g_power or 0) for e in deck.entries.all())
    assert rows == [(1, 300), (2, 0)]


def test_a_decklist_keeps_each_slots_g_power(user, dragonoid, rest):
    mine = make_entry(user, dragonoid, quantity=1, g_power=420)
    deck = deck_create(
        owner=user,
        game="bakugan",
        name="Text",
        entries=[
            {"card": dragonoid.pk, "zone": "bakugan", "quantity": 1, "copy": mine.pk},
            {"card": dragonoid.pk, "zone": "bakugan", "quantity": 1, "g_power": 300},
            {"card": dragonoid.pk, "zone": "bakugan", "quantity": 1},
            *[e for e in rest if e["zone"] != "bakugan"],
        ],
    )
    text = export_decklist(deck)
    name = dragonoid.display_name
    assert f"1 {name}\n1 {name} @ 300 G\n1 {name} @ 420 G\n" in text
    copy = deck_create(owner=user, game="bakugan", name="Read back")
    deck_import_text(deck=copy, text=text)
    assert sorted(
        (e.card_id, e.zone, e.quantity, e.g_power or 0) for e in copy.entries.all()
    ) == sorted(
        (e.card_id, e.zone, e.quantity, e.g_power or 0) for e in deck.entries.all()
    )
    # A decklist is portable: its values are typed, it names no one's copy.
    assert not copy.entries.filter(copy__isnull=False).exists()
    with pytest.raises(ValidationError) as error:
        deck_import_text(deck=copy, text=f"Bakugan:\n1 {name} @ 425 G\n")
    assert error.value.messages == [f"Entry 1: {BAD.format(425)}"]


def test_another_collectors_copy_of_the_deck_keeps_values_not_copies(
    user, other_user, dragonoid
):
    mine = make_entry(user, dragonoid, quantity=1, g_power=420)
    deck = deck_create(
        owner=user,
        game="bakugan",
        name="Mine",
        is_public=True,
        entries=[
            {"card": dragonoid.pk, "zone": "bakugan", "quantity": 1, "copy": mine.pk}
        ],
    )
    theirs = deck_clone(deck=deck, owner=other_user)
    entry = theirs.entries.get()
    assert (entry.g_power, entry.copy_id) == (420, None)
    again = deck_clone(deck=deck, owner=user)
    assert again.entries.get().copy_id == mine.pk


def test_the_database_keeps_one_entry_per_figure_zone_and_g_power(user, dragonoid):
    deck = deck_create(owner=user, game="bakugan", name="U")
    DeckEntry.objects.create(
        deck=deck, card=dragonoid, zone="bakugan", quantity=1, g_power=300
    )
    DeckEntry.objects.create(deck=deck, card=dragonoid, zone="bakugan", quantity=1)
    with pytest.raises(ValidationError):
        DeckEntry(
            deck=deck, card=dragonoid, zone="bakugan", quantity=1, g_power=300
        ).full_clean()


def test_the_deck_page_sets_a_slot_to_an_owned_copy_or_a_typed_g_power(
    client, user, dragonoid
):
    from django.urls import reverse

    mine = make_entry(user, dragonoid, quantity=1, g_power=420)
    deck = deck_create(
        owner=user,
        game="bakugan",
        name="Page",
        entries=[{"card": dragonoid.pk, "zone": "bakugan", "quantity": 2}],
    )
    entry = deck.entries.get()
    client.force_login(user)
    page = client.get(deck.get_absolute_url()).content.decode()
    assert "Plays your strongest recorded copy" in page
    assert (
        f'<option value="{mine.pk}">420 G — Near Mint, normal, English (you own 1)'
        in page
    )
    url = reverse("decks:slot", args=[deck.pk, entry.pk])
    panel = client.post(url, {"copy": mine.pk}, HTTP_HX_REQUEST="true").content.decode()
    assert "Plays 420 G (your copy: Near Mint, normal)" in panel
    unnamed = deck.entries.get(g_power__isnull=True)
    url = reverse("decks:slot", args=[deck.pk, unnamed.pk])
    panel = client.post(
        url, {"g_power": "355"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert html.escape(BAD.format(355)) in panel
    assert sorted((e.g_power or 0) for e in deck.entries.all()) == [0, 420]
    panel = client.post(
        url, {"g_power": "abc"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "Choose one of your copies or type a G-Power as a number." in panel
    panel = client.post(
        url, {"g_power": "380"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "Plays 380 G (typed)" in panel
    assert sorted(e.g_power for e in deck.entries.all()) == [380, 420]


def test_the_deck_api_writes_and_reads_a_slots_g_power(user, other_user, dragonoid):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(user)
    mine = make_entry(user, dragonoid, quantity=1, g_power=420)
    theirs = make_entry(other_user, dragonoid, quantity=1, g_power=500)
    body = {
        "game": "bakugan",
        "name": "API",
        "entries": [
            {"card": dragonoid.pk, "zone": "bakugan", "quantity": 1, "g_power": 300},
            {"card": dragonoid.pk, "zone": "bakugan", "quantity": 1, "copy": mine.pk},
        ],
    }
    response = api.post("/api/decks/", body, format="json")
    assert response.status_code == 201
    assert sorted(e["g_power"] for e in response.json()["entries"]) == [300, 420]
    for extra, message in (
        ({"g_power": 305}, f"Entry 1: {BAD.format(305)}"),
        (
            {"copy": theirs.pk},
            f"Entry 1: there is no copy with id {theirs.pk} in your collection.",
        ),
    ):
        bad = {**body, "entries": [{**body["entries"][0], "g_power": None, **extra}]}
        response = api.post("/api/decks/", bad, format="json")
        assert response.status_code == 400
        assert message in str(response.json())
    assert user.decks.count() == 1


@pytest.mark.parametrize("copy", ["abc", {"x": 1}, [1], True, 10**30, -4])
def test_a_copy_that_is_no_id_is_refused_and_nothing_is_saved(user, dragonoid, copy):
    slot = {"card": dragonoid.pk, "zone": "bakugan", "quantity": 1, "copy": copy}
    with pytest.raises(ValidationError) as error:
        deck_create(owner=user, game="bakugan", name="X", entries=[slot])
    assert error.value.message_dict["entries"] == [
        f"Entry 1: there is no copy with id {copy!r} in your collection."
    ]
    assert not user.decks.exists()
