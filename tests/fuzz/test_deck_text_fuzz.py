"""Fuzzing deck text imports: never a server error, never a partial write.

Each example runs inside a savepoint that is rolled back afterwards, so every
example starts from the same sample deck; the practice cards are loaded once
per test function.
"""

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from hypothesis import given
from hypothesis import strategies as st

from cards.community.services import custom_card_create, custom_set_create
from cards.models import Card
from decks import services
from decks.choices import MAX_QUANTITY
from decks.models import DeckEntry
from decks.text_io import export_decklist, parse_decklist

GAME = "collision"

HEADINGS = [
    "Blade:",
    "Blades:",
    "Deck:",
    "Main deck:",
    "# Blade",
    "## deck",
    "#Deck:",
    "Line-up:",
    "Gate cards:",
    "Pack:",
    "Sideboard:",
    "#",
    "#:",
    ":",
    "blade :",
]
JUNK = [
    "",
    "   ",
    "//",
    "// a comment",
    "//4 Quick Strike",
    "x",
    "x4",
    "4x",
    "4",
    "#",
    "##",
    "#0",
    "#-1",
    "practice-collision#",
    "nope#1",
    "-#1",
    "💥",
    "\u202e\u200b",
    "\ufeff4 Quick Strike",
    "'; DROP TABLE decks_deckentry; --",
    "<script>alert(1)</script>",
    "\x00",
    "Quick  Strike",
    "Quick Strike x",
    "a" * 300,
]
COUNTS = st.integers(0, 120).map(str) | st.sampled_from(
    ["99", "100", "00", "007", "10" * 20, "٣", "１", "-1", "1e2", "+2"]
)
FORMS = [
    "{n} {ref}",
    "{n}x {ref}",
    "{n} x {ref}",
    "{n}X {ref}",
    "{n}× {ref}",
    "{ref} x{n}",
    "{ref} X {n}",
    "{ref} ×{n}",
    "{ref}",
    "  {n}   {ref}  ",
]
SEPARATORS = ["\n", "\n", "\r\n", "\r", "\u2028", "\x85", "\n\n"]


@pytest.fixture
def deck(deck_for):
    """Return a legal sample Collision deck of ``user`` (practice cards loaded)."""
    return deck_for(GAME)


@pytest.fixture
def cards(deck):
    return list(
        Card.objects.filter(card_set__game__slug=GAME).select_related("card_set")
    )


def refs(card) -> list[str]:
    """Return ways a decklist may name ``card`` (some of them wrong)."""
    slug = card.card_set.slug
    names = [card.name, card.name.upper(), card.name.lower()] if card.name else []
    return [
        *names,
        f"#{card.key}",
        f"{slug}#{card.key}",
        f"{slug.upper()}#{card.key}",
        f"#{card.printed_number}",
        f"{card.name}!",
    ]


@st.composite
def decklists(draw, cards):
    """Return a decklist of card lines, headings, comments and junk."""
    lines = []
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.integers(0, 9))
        if kind <= 5:
            card = draw(st.sampled_from(cards))
            form = draw(st.sampled_from(FORMS))
            lines.append(
                form.format(n=draw(COUNTS), ref=draw(st.sampled_from(refs(card))))
            )
        elif kind == 6:
            lines.append(draw(st.sampled_from(HEADINGS)))
        elif kind == 7:
            lines.append(draw(st.sampled_from(JUNK)))
        else:
            lines.append(draw(st.text(max_size=30)))
    separator = draw(st.sampled_from(SEPARATORS))
    return separator.join(lines)


def entries_of(deck) -> list[tuple]:
    return sorted(
        DeckEntry.objects.filter(deck=deck).values_list("card_id", "zone", "quantity")
    )


def versions_of(deck) -> list[tuple]:
    return list(deck.versions.order_by("number").values_list("number", "entries"))


def merged(parsed_entries) -> list[tuple]:
    """Return parsed lines added up per card and zone, as the deck stores them."""
    totals = {}
    for entry in parsed_entries:
        key = (entry["card"], entry["zone"])
        totals[key] = totals.get(key, 0) + entry["quantity"]
    return sorted((card, zone, quantity) for (card, zone), quantity in totals.items())


class Rollback(Exception):
    """Raised to roll an example's savepoint back."""


def in_savepoint(check):
    try:
        with transaction.atomic():
            check()
            raise Rollback
    except Rollback:
        pass


def check_through_the_page(client, deck, text):
    before, versions = entries_of(deck), versions_of(deck)
    response = client.post(f"/decks/{deck.pk}/import/", {"text": text})
    assert response.status_code in (200, 302)
    if response.status_code == 200:
        context = response.context
        assert context["line_errors"] or context["form"].errors, "it says why"
        assert entries_of(deck) == before
        assert versions_of(deck) == versions
        return
    assert response["Location"] == deck.get_absolute_url()
    expected = merged(parse_decklist(text, game_slug=GAME, user=deck.owner).entries)
    assert entries_of(deck) == expected
    assert len(versions_of(deck)) == len(versions) + 1


def check_through_the_service(deck, text):
    before, versions = entries_of(deck), versions_of(deck)
    parsed = parse_decklist(text, game_slug=GAME, user=deck.owner)
    try:
        services.deck_import_text(deck=deck, text=text)
    except ValidationError as exc:
        assert exc.messages
        assert entries_of(deck) == before
        assert versions_of(deck) == versions
        return
    assert parsed.errors == []
    assert entries_of(deck) == merged(parsed.entries)
    assert all(1 <= q <= MAX_QUANTITY for _, _, q in entries_of(deck))
    latest = versions_of(deck)[-1]
    assert latest[0] == versions[-1][0] + 1
    assert sorted((e["card"], e["zone"], e["quantity"]) for e in latest[1]) == (
        entries_of(deck)
    )


@pytest.mark.django_db
@given(data=st.data(), via_page=st.sampled_from([True, False, False]))
def test_a_fuzzed_decklist_imports_whole_or_not_at_all(
    client, user, deck, cards, data, via_page
):
    client.force_login(user)

    def check():
        text = data.draw(decklists(cards))
        if via_page:
            check_through_the_page(client, deck, text)
        else:
            check_through_the_service(deck, text)

    in_savepoint(check)


TRICKY_NAMES = [
    "X Ray",
    "x 2",
    "Name x4",
    "3 Wise Men",
    "4x4",
    "Deck:",
    "# Blade",
    "Blade",
    "// not a comment",
    "#96",
    "practice-collision#1",
    "Quick Strike",
    " Padded ",
    "Two\nLines",
    "Tab\tIn",
    "Ünïcode",
]
card_names = st.sampled_from(TRICKY_NAMES) | st.text(max_size=24)


@pytest.mark.django_db
@given(data=st.data(), names=st.lists(card_names, max_size=2))
def test_exporting_then_importing_a_deck_gives_the_same_entries(
    client, user, deck, cards, data, names
):
    client.force_login(user)

    def check():
        pool = list(cards)
        if names:
            custom = custom_set_create(user=user, game=GAME, name="Fuzz")
            for name in names:
                try:
                    pool.append(
                        custom_card_create(
                            user=user, card_set=custom, fields={"title": name}
                        )
                    )
                except ValidationError:
                    pass
        chosen = data.draw(
            st.lists(
                st.tuples(
                    st.sampled_from(pool),
                    st.sampled_from(["blade", "deck"]),
                    st.integers(1, MAX_QUANTITY),
                ),
                max_size=8,
                unique_by=lambda t: (t[0].pk, t[1]),
            )
        )
        # Valid by construction (a zone of the game, 1-99 copies, one per card
        # and zone), so written directly: the service's checks cost half the run.
        deck.entries.all().delete()
        DeckEntry.objects.bulk_create(
            DeckEntry(deck=deck, card=c, zone=z, quantity=q) for c, z, q in chosen
        )
        before = entries_of(deck)
        text = export_decklist(deck)
        if data.draw(st.sampled_from([True, False, False]), label="via the page"):
            response = client.get(f"/decks/{deck.pk}/export.txt")
            assert response.status_code == 200
            assert response.content.decode() == text
        services.deck_import_text(deck=deck, text=text)
        assert entries_of(deck) == before

    in_savepoint(check)


# -- Regressions found by the fuzzers above -----------------------------------


@pytest.mark.django_db
def test_lines_adding_up_past_the_copy_limit_are_refused_on_the_page(
    client, user, deck
):
    client.force_login(user)
    before, versions = entries_of(deck), versions_of(deck)
    text = "1 Ember Wing, Practice Blade\n99 Ember Wing, Practice Blade"
    response = client.post(f"/decks/{deck.pk}/import/", {"text": text})
    assert response.status_code == 200
    assert response.context["form"].non_field_errors() == [
        "Entry 2: at most 99 copies per entry."
    ]
    assert entries_of(deck) == before
    assert versions_of(deck) == versions


@pytest.mark.parametrize("title", ["X Ray", "x 2", " Padded", "Two\nLines"])
@pytest.mark.django_db
def test_a_card_whose_name_misreads_is_exported_by_set_and_key(user, deck, title):
    custom = custom_set_create(user=user, game=GAME, name="Mine")
    card = custom_card_create(user=user, card_set=custom, fields={"title": title})
    services.deck_set_entries(
        deck=deck, entries=[{"card": card.pk, "zone": "deck", "quantity": 3}]
    )
    text = export_decklist(deck)
    assert text == f"Deck:\n3 {custom.slug}#{card.key}\n"
    services.deck_import_text(deck=deck, text=text)
    assert entries_of(deck) == [(card.pk, "deck", 3)]


@pytest.mark.django_db
def test_a_count_then_a_name_starting_with_x_reads_as_that_name(user, deck):
    custom = custom_set_create(user=user, game=GAME, name="Mine")
    card = custom_card_create(user=user, card_set=custom, fields={"title": "X Ray"})
    parsed = parse_decklist("4 X Ray", game_slug=GAME, user=user)
    assert (parsed.errors, parsed.entries) == (
        [],
        [{"card": card.pk, "zone": "deck", "quantity": 4}],
    )
