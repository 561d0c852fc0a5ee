"""Deck tools: breakdowns, hypergeometric odds, power, G-Power, coverage, hands."""

from itertools import combinations
from math import comb

import pytest

from cards.games import GAMES
from decks.engine import collide_o as collide_o_engine
from decks.engine import collision as collision_engine
from decks.engine.collision import stopper
from decks.rules import to_lines
from decks.rules.bakugan import gate_table
from decks.rules.collide_o import coverage
from decks.rules.collision import hand_odds
from decks.rules.metal_fusion import lineup_power
from decks.tools import (
    breakdown,
    deck_tools,
    p_at_least_one,
    p_each_present,
    sample_hand,
)

COLLISION = GAMES["collision"]
METAL_FUSION = GAMES["metal-fusion"]


def entry(card_id, zone="deck", quantity=1, **fields):
    return {
        "card": {"id": card_id, "name": f"Card {card_id}", **fields},
        "quantity": quantity,
        "zone": zone,
    }


def collision_deck():
    """Return a Blade plus 59 cards: 20 red, 15 yellow, 14 green, 10 blue."""
    return to_lines(
        [
            entry(1, "blade", card_type="blade", title="Dragoon"),
            entry(2, quantity=20, card_type="action", colour="red"),
            entry(3, quantity=15, card_type="action", colour="yellow"),
            entry(4, quantity=14, card_type="action", colour="green"),
            entry(5, quantity=10, card_type="action", colour="blue"),
        ]
    )


def test_hand_odds_name_the_engines_stopper_of_every_colour():
    rows = hand_odds(COLLISION, collision_deck())["rows"]
    assert [row["colour"] for row in rows] == list(collision_engine.COLOURS)
    assert [row["stop"] for row in rows] == [stopper(row["colour"]) for row in rows]


def test_the_opening_hands_are_the_engines_hand_sizes():
    assert COLLISION.opening.size == collision_engine.HAND_SIZE
    assert GAMES["collide-o"].opening.size == collide_o_engine.HAND_LIMIT


def test_hypergeometric_matches_math_comb():
    assert p_at_least_one(59, 20, 5) == 1 - comb(39, 5) / comb(59, 5)
    assert p_at_least_one(59, 0, 5) == 0.0
    assert p_at_least_one(59, 59, 5) == 1.0
    # A deck smaller than the hand is drawn whole.
    assert p_at_least_one(3, 1, 5) == 1.0


def test_hand_odds_draw_from_the_deck_without_the_blade():
    odds = hand_odds(COLLISION, collision_deck())
    assert odds["population"] == 59
    rows = {row["colour"]: row for row in odds["rows"]}
    assert rows["red"]["count"] == 20
    assert rows["red"]["p_colour"] == 1 - comb(59 - 20, 5) / comb(59, 5)
    assert rows["red"]["stop"] == "yellow"
    assert rows["red"]["p_stop"] == 1 - comb(59 - 15, 5) / comb(59, 5)
    assert rows["blue"]["stop"] == "red"
    assert rows["blue"]["p_stop"] == 1 - comb(59 - 20, 5) / comb(59, 5)
    assert rows["green"]["p_colour"] == 1 - comb(45, 5) / comb(59, 5)


def test_chance_of_every_colour_in_one_hand_is_exact():
    counts = [20, 15, 14, 10]
    expected_missing = sum(
        (-1) ** (size + 1) * comb(59 - sum(group), 5)
        for size in range(1, 5)
        for group in combinations(counts, size)
    )
    assert p_each_present(59, counts, 5) == 1 - expected_missing / comb(59, 5)
    # Brute force on a small deck: 2 red, 2 yellow, 1 green; draw 3 of 5.
    cards = ["r", "r", "y", "y", "g"]
    hands = list(combinations(range(5), 3))
    good = sum(1 for h in hands if {cards[i] for i in h} == {"r", "y", "g"})
    assert p_each_present(5, [2, 2, 1], draws=3) == pytest.approx(
        good / len(hands), abs=1e-12
    )


def test_breakdown_counts_copies_and_puts_unknown_last():
    lines = to_lines(
        [
            entry(1, quantity=3, colour="red"),
            entry(2, quantity=1, colour=None),
            entry(3, quantity=4, colour="blue"),
        ]
    )
    bars = breakdown(lines, "colour", ("red", "yellow", "green", "blue"))
    assert [(b.label, b.count) for b in bars] == [
        ("red", 3),
        ("blue", 4),
        ("unknown", 1),
    ]
    assert bars[1].width == 120.0
    assert bars[1].percent == 50.0


def test_rarity_bars_say_not_printed_for_bakugan_and_unknown_for_collision():
    bakugan = to_lines(
        [entry(1, "gate", card_type="gate"), entry(2, "ability", card_type="ability")]
    )
    bars = deck_tools("bakugan", bakugan)["rarities"]
    assert [(b.label, b.count) for b in bars] == [("not printed", 2)]
    collision = to_lines([entry(3, card_type="action"), entry(4, card_type=None)])
    bars = deck_tools("collision", collision)["rarities"]
    assert [(b.label, b.count) for b in bars] == [("unknown", 2)]


def test_a_card_of_unknown_type_prints_what_any_of_its_game_s_types_print():
    assert GAMES["bakugan"].prints("rarity", None) is False
    assert GAMES["bakugan"].prints("g_power", None) is True
    assert GAMES["collision"].prints("rarity", None) is True
    assert COLLISION.prints("colour", "blade") is False
    assert COLLISION.prints("colour", "action", marked=("colour",)) is False
    assert GAMES["collide-o"].prints("lore", None) is True


def mf_lineup():
    """The rules' worked example: Gingka yellow 4, Storm Pegasus yellow 2 with a
    yellow landing value of -1, a Customizer yellow 5, emblems matching."""
    stats = {"stat_red": 1, "stat_blue": 1, "stat_green": 1}
    return [
        entry(
            1, "lineup", card_type="character", emblem="Pegasus", stat_yellow=4, **stats
        ),
        entry(
            2,
            "lineup",
            card_type="beyblade",
            emblem="Pegasus",
            stat_yellow=2,
            move_name="Landing",
            move_kind="landing",
            move_yellow=-1,
            move_red=0,
            move_blue=0,
            move_green=0,
            **stats,
        ),
        entry(3, "lineup", card_type="customizer", stat_yellow=5, **stats),
    ]


def test_metal_fusion_power_follows_the_worked_example_without_boosters():
    deck = mf_lineup() + [
        entry(10, number=10, card_type="effect", launcher="yellow", quantity=1),
        entry(11, number=11, card_type="effect", launcher="red", quantity=1),
    ]
    power = lineup_power(METAL_FUSION, to_lines(deck))
    assert power["error"] is None
    totals = {row["colour"]: row["total"] for row in power["rows"]}
    # 4 + 2 + 5 + 1 (emblems) - 1 (landing) = 11; red: 1 + 1 + 1 + 1 + 0 = 4.
    assert totals == {"red": 4, "blue": 4, "green": 4, "yellow": 11}
    assert power["average"] == (11 + 4) / 2


def test_metal_fusion_power_reports_a_lineup_it_cannot_count():
    power = lineup_power(METAL_FUSION, to_lines(mf_lineup()[:2]))
    assert power["rows"] == []
    assert "line-up must be three cards" in power["error"]


def test_bakugan_g_power_on_each_gate():
    deck = to_lines(
        [
            entry(1, "bakugan", card_type="bakugan", attribute="pyrus", g_power=350),
            entry(2, "bakugan", card_type="bakugan", attribute="aquos", g_power=None),
            entry(
                10,
                "gate",
                card_type="gate",
                gate_class="gold",
                bonus_pyrus=100,
                bonus_aquos=-50,
            ),
            entry(
                11,
                "gate",
                card_type="gate",
                gate_class="silver",
                bonus_pyrus=None,
                bonus_aquos=0,
            ),
        ]
    )
    table = gate_table(GAMES["bakugan"], deck)
    assert [row["cells"] for row in table["rows"]] == [[450, None], [None, None]]


def test_collide_o_coverage_counts_wild_for_every_colour():
    deck = to_lines(
        [
            entry(
                1, "pack", quantity=2, section_1="B", section_2="BYRGK", section_3="R"
            ),
            entry(2, "pack", quantity=1, section_1="YG", section_2="K", section_3="G"),
        ]
    )
    rows = {row["colour"]: row for row in coverage(GAMES["collide-o"], deck)["rows"]}
    assert rows["black"]["middle"].count == 3
    assert rows["blue"]["middle"].count == 2
    assert rows["blue"]["ends"].count == 2
    assert rows["green"]["ends"].count == 1
    assert rows["black"]["ends"].count == 0


def test_sample_hand_is_seeded_and_leaves_the_blade_out():
    deck = collision_deck()
    first = sample_hand("collision", deck, 7)
    assert first == sample_hand("collision", deck, 7)
    assert len(first["cards"]) == 5
    assert all(line.get("card_type") != "blade" for line in first["cards"])
    hands = {
        tuple(line.card_id for line in sample_hand("collision", deck, s)["cards"])
        for s in range(20)
    }
    assert len(hands) > 1


def test_metal_fusion_sample_is_the_top_card_and_bakugan_shows_gates():
    deck = mf_lineup() + [entry(10, number=10, card_type="effect", launcher="yellow")]
    assert [
        line.card_id for line in sample_hand("metal-fusion", to_lines(deck), 1)["cards"]
    ] == [10]
    gates = to_lines([entry(10, "gate", card_type="gate", gate_class="gold")])
    assert sample_hand("bakugan", gates, 1)["kind"] == "gates"


def test_deck_tools_give_each_game_its_own_figures():
    base = {"colours", "types", "rarities", "hand", "seed", "colour_caption"}
    assert set(deck_tools("collision", collision_deck())) == base | {"odds"}
    assert set(deck_tools("metal-fusion", mf_lineup())) == base | {"power"}
    assert set(deck_tools("bakugan", [])) == base | {"gate_table"}
    assert set(deck_tools("collide-o", [])) == base | {"sections", "coverage"}


def test_colour_bars_count_each_games_colour_field_in_its_order():
    collision = deck_tools("collision", collision_deck())
    assert [bar.label for bar in collision["colours"]] == [
        "red",
        "yellow",
        "green",
        "blue",
        "no colour",
    ]
    assert collision["colour_caption"] == "Colours"
    deck = mf_lineup() + [
        entry(10, number=10, card_type="effect", launcher="yellow"),
        entry(11, number=11, card_type="effect", launcher="blue"),
    ]
    mf = deck_tools("metal-fusion", deck)
    assert [(bar.label, bar.count) for bar in mf["colours"]] == [
        ("blue", 1),
        ("yellow", 1),
        ("unknown", 3),
    ]
    assert mf["colour_caption"] == "Launcher colours"


def test_a_card_whose_type_prints_no_colour_is_no_colour_not_unknown():
    lines = to_lines(
        [
            entry(1, "blade", card_type="blade"),
            entry(2, quantity=3, card_type="action", colour=None),
            entry(3, quantity=2, card_type="action", colour="red"),
        ]
    )
    tools = deck_tools("collision", lines)
    assert [(bar.label, bar.count) for bar in tools["colours"]] == [
        ("red", 2),
        ("no colour", 1),
        ("unknown", 3),
    ]


def test_collide_o_charts_its_section_colours_and_has_no_card_colour_chart():
    lines = to_lines(
        [
            entry(
                1, "pack", quantity=2, section_1="B", section_2="BYRGK", section_3="R"
            ),
            entry(2, "pack", quantity=1, section_1="YG", section_2="K", section_3="G"),
            entry(3, "pack", quantity=1, section_1=None, section_2="K", section_3="G"),
        ]
    )
    tools = deck_tools("collide-o", lines)
    assert tools["colours"] is None
    assert [(bar.label, bar.count) for bar in tools["sections"]] == [
        ("blue", 2),
        ("yellow", 3),
        ("red", 2),
        ("green", 3),
        ("black", 3),
        ("unknown", 1),
    ]
