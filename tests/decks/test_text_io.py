"""Decklists as text: the line forms, headings, errors, and the round trip."""

import pytest

from decks import services
from decks.text_io import export_decklist, parse_decklist

pytestmark = pytest.mark.django_db


@pytest.fixture
def tyson(card_factory):
    return card_factory(
        "collision",
        card_type="character",
        title="Tyson",
        subtitle="Eager Champion",
        key="96",
        number=96,
        printed_number="96",
        colour="red",
    )


def test_every_count_form_reads_the_same(tyson):
    for text in (
        "4 Tyson, Eager Champion",
        "4x Tyson, Eager Champion",
        "Tyson, Eager Champion x4",
        "4 x tyson, eager champion",
        "4 #96",
    ):
        parsed = parse_decklist(text, game_slug="collision")
        assert parsed.errors == [], text
        assert parsed.entries == [{"card": tyson.pk, "zone": "deck", "quantity": 4}], (
            text
        )


def test_a_line_without_a_count_is_one_copy(tyson):
    assert (
        parse_decklist("Tyson, Eager Champion", game_slug="collision").entries[0][
            "quantity"
        ]
        == 1
    )


def test_zone_headings_place_the_lines_below_them(collision_cards):
    blade, actions = collision_cards
    text = "# Blade\n1 Dragoon, Storm\n\nDeck:\n// a comment\n3 Move 1\n"
    parsed = parse_decklist(text, game_slug="collision")
    assert parsed.errors == []
    assert parsed.entries == [
        {"card": blade.pk, "zone": "blade", "quantity": 1},
        {"card": actions[1].pk, "zone": "deck", "quantity": 3},
    ]


def test_without_headings_each_card_goes_to_its_usual_zone(collision_cards):
    blade, _ = collision_cards
    parsed = parse_decklist("1 Dragoon, Storm", game_slug="collision")
    assert parsed.entries == [{"card": blade.pk, "zone": "blade", "quantity": 1}]


def test_metal_fusion_lineup_heading(card_factory):
    gingka = card_factory(
        "metal-fusion", card_type="character", name="Gingka", number=1
    )
    parsed = parse_decklist("# Line-up\n1 Gingka\n", game_slug="metal-fusion")
    assert parsed.entries == [{"card": gingka.pk, "zone": "lineup", "quantity": 1}]


def test_bad_lines_are_reported_with_line_numbers_and_suggestions(collision_cards):
    text = "Deck:\n4 Move 1\n4 Mvoe 2\n\n0 Move 3\nSide board:\n2 #777\n"
    parsed = parse_decklist(text, game_slug="collision")
    assert [(e.line, e.message) for e in parsed.errors] == [
        (
            3,
            "Line 3: No card named “Mvoe 2” in this game. Did you mean: Move 2; Move 12; Move 9?",
        ),
        (5, "Line 5: the count must be between 1 and 99."),
        (6, "Line 6: “Side board:” is not a zone of this game's decks (blade, deck)."),
        (7, "Line 7: No card numbered #777 in this game."),
    ]
    assert parsed.errors[0].suggestions == ["Move 2", "Move 12", "Move 9"]


def test_a_zone_of_another_game_is_a_bad_heading(collision_cards):
    parsed = parse_decklist("Pack:\n1 Move 1", game_slug="collision")
    assert [e.line for e in parsed.errors] == [1]


def test_a_name_shared_by_two_sets_asks_for_the_set(card_factory):
    official = card_factory("collide-o", card_type="sections", name="Rainbow", key="1")
    practice = card_factory(
        "collide-o", kind="practice", card_type="sections", name="Rainbow", key="1"
    )
    parsed = parse_decklist("2 Rainbow", game_slug="collide-o")
    assert parsed.errors[0].suggestions == ["test-official#1", "test-practice#1"]
    parsed = parse_decklist("2 test-practice#1\n1 #1", game_slug="collide-o")
    assert parsed.entries[0] == {"card": practice.pk, "zone": "pack", "quantity": 2}
    assert [e.line for e in parsed.errors] == [2]
    assert official.pk != practice.pk


def test_export_then_import_gives_back_the_same_deck(
    user, legal_collision_entries, card_factory
):
    unnamed = card_factory("collision", card_type="event", title=None, key="130")
    entries = legal_collision_entries + [
        {"card": unnamed.pk, "zone": "deck", "quantity": 2}
    ]
    deck = services.deck_create(
        owner=user, game="collision", name="Storm", entries=entries
    )
    text = export_decklist(deck)
    assert text.startswith("Blade:\n1 Dragoon, Storm\n\nDeck:\n4 Move 0\n")
    assert "2 test-official#130" in text
    before = sorted(deck.entries.values_list("card_id", "zone", "quantity"))
    services.deck_set_entries(deck=deck, entries=[])
    services.deck_import_text(deck=deck, text=text)
    assert sorted(deck.entries.values_list("card_id", "zone", "quantity")) == before


def test_export_round_trip_for_a_bakugan_deck(user, card_factory):
    cards = [
        card_factory(
            "bakugan",
            card_type="bakugan",
            name="Dragonoid",
            attribute="pyrus",
            g_power=350,
        ),
        card_factory("bakugan", card_type="gate", name="Gold Gate", gate_class="gold"),
        card_factory("bakugan", card_type="ability", name="Fire Wall", colour="red"),
    ]
    zones = ["bakugan", "gate", "ability"]
    deck = services.deck_create(
        owner=user,
        game="bakugan",
        name="B",
        entries=[
            {"card": c.pk, "zone": z, "quantity": 1}
            for c, z in zip(cards, zones, strict=True)
        ],
    )
    text = export_decklist(deck)
    assert (
        text
        == "Bakugan:\n1 Dragonoid\n\nGate cards:\n1 Gold Gate\n\nAbility cards:\n1 Fire Wall\n"
    )
    parsed = parse_decklist(text, game_slug="bakugan", user=user)
    assert parsed.errors == []
    assert sorted((e["card"], e["zone"]) for e in parsed.entries) == sorted(
        (c.pk, z) for c, z in zip(cards, zones, strict=True)
    )


def test_a_nul_character_in_a_decklist_line_is_a_line_error_not_a_lookup():
    """PostgreSQL cannot look a NUL up; the line is refused with a message."""
    parsed = parse_decklist("2 Dragoon\n\x00", game_slug="collision")
    assert [(e.line, e.message) for e in parsed.errors][-1] == (
        2,
        "Line 2: this line holds a NUL character, which no card name has.",
    )
