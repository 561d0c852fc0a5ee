"""Card validation per game: good values pass full_clean(), bad ones name the field."""

import pytest
from django.core.exceptions import ValidationError

from cards.models import Card
from tests.factories import build_card

pytestmark = pytest.mark.django_db


def refused(card: Card) -> dict:
    """Return the field errors of a card full_clean() refuses, as field -> codes."""
    with pytest.raises(ValidationError) as caught:
        card.full_clean()
    return {
        field: [error.code for error in errors]
        for field, errors in caught.value.error_dict.items()
    }


@pytest.mark.parametrize("game", ["collision", "metal-fusion", "collide-o", "bakugan"])
def test_a_card_with_everything_unknown_is_valid(game):
    card = build_card(game, key="1")
    card.full_clean()
    assert card.display_name == "Unknown card #1"
    assert card.is_unknown("name")


def test_a_field_from_another_game_is_refused():
    assert refused(build_card("collision", g_power=300)) == {
        "g_power": ["not_this_game"]
    }


def test_a_card_type_from_another_game_is_refused():
    assert refused(build_card("collide-o", card_type="gate")) == {
        "card_type": ["bad_type"]
    }


def test_an_unknown_verification_status_is_refused():
    assert "verification" in refused(build_card("bakugan", verification="sure"))


def test_an_effect_step_outside_the_vocabulary_is_refused_on_every_write_path():
    card = build_card(
        "collision", kind="practice", effects=[{"op": "explode", "timing": "play"}]
    )
    with pytest.raises(ValidationError) as caught:
        card.full_clean()
    assert caught.value.message_dict == {"effects": ["Unknown effect step 'explode'."]}
    assert caught.value.error_dict["effects"][0].code == "bad_effects"


def test_known_effect_steps_pass_the_card_validator():
    card = build_card(
        "collision", kind="practice", effects=[{"op": "draw", "timing": "play"}]
    )
    card.full_clean()


def test_a_card_without_a_source_is_refused():
    card = build_card("bakugan")
    card.source = ""
    assert "source" in refused(card)


# --- Collision ---------------------------------------------------------------


def collision_action(**fields) -> Card:
    values = {
        "title": "Quick Strike",
        "card_type": "action",
        "colour": "red",
        "battle_edge": "L.S.E.",
        "symbol": "play",
        "text": "[play] Draw a card.",
    }
    return build_card("collision", **{**values, **fields})


def test_a_collision_action_is_valid_and_takes_its_name_from_its_title():
    card = collision_action()
    card.full_clean()
    assert card.name == "Quick Strike"


def test_a_collision_character_name_reads_title_comma_subtitle():
    card = build_card(
        "collision", card_type="character", title="Tyson", subtitle="Eager Champion"
    )
    card.full_clean()
    assert card.name == "Tyson, Eager Champion"


def test_a_seventh_notch_is_refused():
    assert (
        "bad_notch" in refused(collision_action(battle_edge="L.S.E.L"))["battle_edge"]
    )


def test_an_unknown_piece_is_refused():
    assert refused(collision_action(battle_edge="L.X.E.")) == {
        "battle_edge": ["bad_notch"]
    }


def test_a_blade_with_a_colour_is_refused():
    blade = build_card(
        "collision", title="Dragoon", card_type="blade", spin_strength=6, colour="red"
    )
    assert refused(blade) == {"colour": ["blade_colour"]}


def test_black_is_no_collision_colour():
    assert refused(collision_action(colour="black")) == {"colour": ["bad_colour"]}


def test_an_unknown_colour_is_refused():
    assert "colour" in refused(collision_action(colour="purple"))


def test_only_blades_have_a_spin_strength():
    assert refused(collision_action(spin_strength=6)) == {
        "spin_strength": ["spin_not_blade"]
    }


def test_a_spin_strength_of_zero_is_refused():
    blade = build_card("collision", title="Dragoon", card_type="blade", spin_strength=0)
    assert "spin_strength" in refused(blade)


def test_an_action_with_text_needs_its_symbol():
    assert refused(collision_action(symbol=None)) == {
        "symbol": ["action_without_symbol"]
    }


def test_an_event_has_no_subtitle():
    event = build_card("collision", title="Rain", subtitle="Delay", card_type="event")
    assert refused(event) == {"subtitle": ["subtitle_not_allowed"]}


def test_a_name_that_does_not_match_title_and_subtitle_is_refused():
    assert refused(collision_action(name="Slow Strike")) == {"name": ["name_mismatch"]}


def test_a_named_collision_card_needs_its_title():
    assert refused(build_card("collision", name="Dranzer")) == {
        "title": ["missing_title"]
    }


def test_an_unknown_collision_rarity_is_refused():
    assert refused(collision_action(rarity="mythic")) == {"rarity": ["bad_rarity"]}


# --- Metal Fusion ------------------------------------------------------------


def beyblade(**fields) -> Card:
    values = {
        "name": "Star Falcon",
        "card_type": "beyblade",
        "stat_red": 4,
        "stat_blue": 0,
        "stat_green": 5,
        "stat_yellow": 2,
        "emblem": "Star",
        "move_name": "Dive",
        "move_kind": "landing",
        "move_yellow": -1,
        "launcher": "green",
        "boosters": "RB",
        "rarity": "C",
        "not_printed": ["move_red", "move_blue", "move_green"],
    }
    return build_card("metal-fusion", **{**values, **fields})


def test_a_metal_fusion_beyblade_is_valid():
    beyblade().full_clean()


def test_a_stat_of_six_is_refused():
    assert "stat_yellow" in refused(beyblade(stat_yellow=6))


def test_a_negative_stat_is_refused():
    assert "stat_red" in refused(beyblade(stat_red=-1))


def test_a_customizer_has_no_emblem():
    customizer = build_card("metal-fusion", card_type="customizer", emblem="Star")
    assert refused(customizer) == {"emblem": ["emblem_not_allowed"]}


def test_only_beyblades_name_a_move():
    character = build_card("metal-fusion", card_type="character", move_kind="launch")
    assert refused(character) == {"move_name": ["move_not_beyblade"]}


def test_an_effect_card_prints_no_stats():
    effect = build_card("metal-fusion", card_type="effect", stat_red=1)
    assert refused(effect) == {"stat_red": ["stats_on_effect"]}


def test_boosters_out_of_order_are_refused():
    assert refused(beyblade(boosters="BR")) == {"boosters": ["bad_booster"]}


def test_three_booster_colours_are_refused():
    assert refused(beyblade(boosters="RBG")) == {"boosters": ["bad_booster"]}


def test_black_is_no_launcher_colour():
    assert refused(beyblade(launcher="black")) == {"launcher": ["bad_colour"]}


def test_a_bakugan_timing_is_refused_on_metal_fusion():
    effect = build_card("metal-fusion", card_type="effect", timing="in-battle")
    assert refused(effect) == {"timing": ["bad_timing"]}


def test_a_lower_case_rarity_letter_is_refused():
    assert refused(beyblade(rarity="c")) == {"rarity": ["bad_rarity"]}


def test_a_move_value_marked_not_printed_must_be_empty():
    assert refused(beyblade(move_red=1)) == {"move_red": ["not_printed_has_value"]}


def test_a_stat_cannot_be_marked_not_printed():
    assert refused(beyblade(not_printed=["stat_red"])) == {
        "not_printed": ["bad_not_printed"]
    }


# --- Collide-O! --------------------------------------------------------------


def sections(**fields) -> Card:
    values = {"card_type": "sections", "section_1": "B", "section_2": "YR"}
    return build_card("collide-o", **{**values, "section_3": "BYRGK", **fields})


def test_a_collide_o_card_is_valid_and_stripes_are_put_in_order():
    card = sections(section_2="RY")
    card.full_clean()
    assert card.section_2 == "YR"


def test_a_three_colour_section_is_refused():
    assert refused(sections(section_1="BYR")) == {"section_1": ["bad_section"]}


def test_an_unknown_section_colour_is_refused():
    assert refused(sections(section_2="BX")) == {"section_2": ["bad_section"]}


def test_a_repeated_section_colour_is_refused():
    assert refused(sections(section_3="BB")) == {"section_3": ["bad_section"]}


def test_collide_o_cards_have_no_colour_field():
    assert refused(sections(colour="blue")) == {"colour": ["not_this_game"]}


# --- Bakugan -----------------------------------------------------------------


def gate(**fields) -> Card:
    values = {"name": "Fire Pit", "card_type": "gate", "gate_class": "silver"}
    bonuses = {
        "bonus_pyrus": 140,
        "bonus_aquos": 120,
        "bonus_subterra": 80,
        "bonus_haos": 20,
        "bonus_darkus": 20,
        "bonus_ventus": 60,
    }
    return build_card("bakugan", **{**values, **bonuses, **fields})


def test_a_bakugan_gate_is_valid():
    gate().full_clean()


def test_a_gate_with_no_class_is_refused():
    assert refused(gate(gate_class=None)) == {"gate_class": ["gate_without_class"]}


def test_an_unknown_gate_class_is_refused():
    assert "gate_class" in refused(gate(gate_class="tin"))


def test_only_gates_have_a_class():
    ability = build_card("bakugan", card_type="ability", gate_class="gold")
    assert refused(ability) == {"gate_class": ["class_not_gate"]}


def test_an_ability_colour_is_red_blue_or_green():
    ability = build_card("bakugan", card_type="ability", colour="yellow")
    assert refused(ability) == {"colour": ["bad_colour"]}


def test_a_gate_has_no_colour():
    assert refused(gate(colour="red")) == {"colour": ["colour_not_ability"]}


def test_a_figure_prints_no_bonus_grid():
    figure = build_card(
        "bakugan", card_type="bakugan", attribute="pyrus", g_power=400, bonus_haos=50
    )
    assert refused(figure) == {"bonus_haos": ["bonus_on_figure"]}


def test_only_figures_have_g_power():
    assert refused(gate(g_power=300)) == {"g_power": ["not_a_figure"]}


def test_an_unknown_attribute_is_refused():
    figure = build_card("bakugan", card_type="bakugan", attribute="aether")
    assert "attribute" in refused(figure)


def test_a_bonus_beyond_9999_is_refused():
    assert "bonus_aquos" in refused(gate(bonus_aquos=10000))


def test_an_ability_blank_bonus_is_not_printed_not_unknown():
    ability = build_card(
        "bakugan",
        card_type="ability",
        colour="blue",
        bonus_pyrus=0,
        not_printed=["bonus_aquos"],
    )
    ability.full_clean()
    assert not ability.is_unknown("bonus_aquos")
    assert ability.is_unknown("bonus_haos")
    assert ability.bonus_pyrus == 0


def test_a_name_cannot_be_marked_not_printed():
    assert refused(gate(not_printed=["name"])) == {"not_printed": ["bad_not_printed"]}


def test_a_collision_timing_is_refused_on_bakugan():
    ability = build_card("bakugan", card_type="ability", timing="when-revealed")
    assert refused(ability) == {"timing": ["bad_timing"]}


def test_every_game_lists_the_fields_each_card_type_prints_from_its_own_columns():
    from cards.games import COMMON_FIELDS, GAMES

    for game in GAMES.values():
        assert game.types, game.slug
        for fields in [game.unknown_type_fields] + [k.fields for k in game.kinds]:
            assert set(fields) <= set(game.fields) | set(COMMON_FIELDS), game.slug


@pytest.mark.django_db
def test_a_null_character_in_any_text_field_is_refused_naming_the_field():
    from django.core.exceptions import ValidationError

    card = build_card("collide-o", name="Bad\x00name")
    with pytest.raises(ValidationError) as caught:
        card.full_clean()
    assert caught.value.message_dict["name"] == [
        "Text may not contain null characters."
    ]


@pytest.mark.parametrize("field, limit", [("text", 2_000), ("lore", 1_000),
                                          ("source", 2_000)])  # fmt: skip
def test_text_longer_than_a_card_prints_is_refused_with_a_message(field, limit):
    card = build_card("bakugan", key="1", **{field: "x" * (limit + 1)})

    with pytest.raises(ValidationError) as caught:
        card.full_clean()

    assert caught.value.message_dict == {
        field: [
            f"Keep this to {limit:,} characters (it has {limit + 1:,}); no printed "
            "card holds more."
        ]
    }
    setattr(card, field, "x" * limit)
    card.full_clean()


def test_set_notes_longer_than_the_limit_are_refused_with_a_message():
    card_set = build_card("bakugan", key="1").card_set
    card_set.notes = "x" * 2_001

    with pytest.raises(ValidationError) as caught:
        card_set.full_clean()

    assert caught.value.message_dict == {
        "notes": ["Keep this to 2,000 characters (it has 2,001)."]
    }


def test_a_game_row_takes_only_a_slug_the_registry_has():
    from cards.games import GAMES
    from cards.models import GameRecord

    with pytest.raises(ValidationError) as refused:
        GameRecord(slug="chess", name="Chess").full_clean(validate_unique=False)
    assert refused.value.error_dict["slug"][0].code == "unknown_game"
    for slug in GAMES:
        GameRecord(slug=slug, name="x").full_clean(validate_unique=False)
