"""Construction rules per game, on plain data (no database)."""

import statistics
import time

import pytest

from decks.rules import WARNING, is_legal, validate_deck
from decks.rules.collide_o import pack_minimum
from tools.bench.decks import sample_decks

COLOURS = ("red", "yellow", "green", "blue")


def card(card_id, **fields):
    return {"id": card_id, "name": fields.pop("name", f"Card {card_id}"), **fields}


def blade(card_id=1, title="Dragoon"):
    return {
        "card": card(card_id, card_type="blade", title=title),
        "quantity": 1,
        "zone": "blade",
    }


def actions(count, start=100, per_title=4):
    """Return deck entries of ``count`` Actions, ``per_title`` per title."""
    entries = []
    i = 0
    while count > 0:
        n = min(per_title, count)
        entries.append(
            {
                "card": card(
                    start + i,
                    card_type="action",
                    title=f"Move {i}",
                    colour=COLOURS[i % 4],
                ),
                "quantity": n,
                "zone": "deck",
            }
        )
        count -= n
        i += 1
    return entries


def codes(problems):
    return [p.code for p in problems]


# --- Collision -----------------------------------------------------------------


def test_smallest_legal_collision_deck_is_sixty_with_the_blade():
    problems = validate_deck("collision", [blade()] + actions(59))
    assert problems == []


def test_collision_deck_one_card_short_is_illegal_and_says_so():
    problems = validate_deck("collision", [blade()] + actions(58))
    assert codes(problems) == ["too_few_cards"]
    assert problems[0].message == (
        "A Collision deck needs at least 60 cards, the Blade included "
        "(rules: Building a deck; ruling C1). This deck has 59."
    )


def test_collision_deck_may_hold_more_than_sixty():
    assert validate_deck("collision", [blade()] + actions(61)) == []


def test_the_blade_counts_toward_sixty_but_sixty_without_a_blade_is_illegal():
    problems = validate_deck("collision", actions(60))
    assert codes(problems) == ["blade_count"]
    assert problems[0].message.endswith("This deck has no Blade.")


def test_a_second_blade_is_illegal():
    problems = validate_deck("collision", [blade(1), blade(2, "Dranzer")] + actions(58))
    assert codes(problems) == ["blade_count"]
    assert problems[0].cards == (1, 2)
    assert problems[0].message.endswith("This deck has 2 Blades.")


def test_a_blade_in_the_deck_zone_is_a_problem():
    entry = blade()
    entry["zone"] = "deck"
    problems = validate_deck("collision", [entry] + actions(59))
    assert codes(problems) == ["blade_in_deck"]
    assert problems[0].cards == (1,)


def test_a_non_blade_in_the_blade_zone_is_a_problem():
    wrong = {
        "card": card(5, card_type="action", title="Spin"),
        "quantity": 1,
        "zone": "blade",
    }
    problems = validate_deck("collision", [blade(), wrong] + actions(58))
    assert codes(problems) == ["not_a_blade"]
    assert problems[0].cards == (5,)


def test_four_cards_of_one_title_are_legal():
    assert validate_deck("collision", [blade()] + actions(59, per_title=4)) == []


def test_fifth_copy_of_a_title_makes_the_deck_illegal():
    deck = [blade()] + actions(55)
    deck.append(
        {
            "card": card(900, card_type="action", title="Move 0"),
            "quantity": 1,
            "zone": "deck",
        }
    )
    deck.append(
        {
            "card": card(901, card_type="action", title="Extra"),
            "quantity": 4,
            "zone": "deck",
        }
    )
    problems = validate_deck("collision", deck)
    assert codes(problems) == ["title_limit"]
    assert problems[0].cards == (100, 900)
    assert "This deck has 5 titled “Move 0”." in problems[0].message


def test_title_rule_counts_across_subtitles():
    eager = card(
        96,
        name="Tyson, Eager Champion",
        card_type="character",
        title="Tyson",
        subtitle="Eager Champion",
    )
    breaker = card(
        141,
        name="Tyson, Bladebreaker",
        card_type="character",
        title="Tyson",
        subtitle="Bladebreaker",
    )
    deck = [blade()] + actions(54)
    deck += [
        {"card": eager, "quantity": 4, "zone": "deck"},
        {"card": breaker, "quantity": 1, "zone": "deck"},
    ]
    problems = validate_deck("collision", deck)
    assert codes(problems) == ["title_limit"]
    assert problems[0].cards == (96, 141)
    assert problems[0].message == (
        "A Collision deck holds at most 4 cards sharing a title, across subtitles and "
        "the Blade included (rules: Building a deck; ruling C20). "
        "This deck has 5 titled “Tyson”."
    )
    deck[-2]["quantity"] = 3
    deck.append(
        {
            "card": card(97, card_type="event", title="Other"),
            "quantity": 1,
            "zone": "deck",
        }
    )
    assert validate_deck("collision", deck) == []


def test_the_blade_counts_toward_its_title():
    deck = [blade(1, title="Dragoon")] + actions(55)
    deck.append(
        {
            "card": card(7, card_type="character", title="Dragoon"),
            "quantity": 4,
            "zone": "deck",
        }
    )
    problems = validate_deck("collision", deck)
    assert codes(problems) == ["title_limit"]
    assert problems[0].cards == (1, 7)


def test_a_comma_inside_an_action_title_is_no_split():
    # Ruling C20: the title field decides; "Dragoon, Strike Back" is one title.
    action = card(
        8, name="Dragoon, Strike Back", card_type="action", title="Dragoon, Strike Back"
    )
    character = card(
        9,
        name="Dragoon, Spirit",
        card_type="character",
        title="Dragoon",
        subtitle="Spirit",
    )
    deck = [blade(1, title="Dranzer")] + actions(51)
    deck += [
        {"card": action, "quantity": 4, "zone": "deck"},
        {"card": character, "quantity": 4, "zone": "deck"},
    ]
    assert validate_deck("collision", deck) == []


def test_unknown_titles_count_under_each_cards_own_identity():
    unknown_a = card(10, name=None, card_type="action", title=None)
    unknown_b = card(11, name=None, card_type="action", title=None)
    deck = [blade()] + actions(51)
    deck += [
        {"card": unknown_a, "quantity": 4, "zone": "deck"},
        {"card": unknown_b, "quantity": 4, "zone": "deck"},
    ]
    assert validate_deck("collision", deck) == []
    deck[-1]["quantity"] = 5
    problems = validate_deck("collision", deck)
    assert codes(problems) == ["title_limit"]
    assert problems[0].cards == (11,)


# --- Metal Fusion --------------------------------------------------------------


def lineup(numbers=(1, 2, 3)):
    kinds = ("character", "beyblade", "customizer")
    return [
        {"card": card(k, card_type=t, number=n), "quantity": 1, "zone": "lineup"}
        for k, t, n in zip((1, 2, 3), kinds, numbers, strict=True)
    ]


def mf_deck(count, start=10):
    return [
        {
            "card": card(100 + n, card_type="effect", number=n),
            "quantity": 1,
            "zone": "deck",
        }
        for n in range(start, start + count)
    ]


def test_smallest_legal_metal_fusion_deck_is_a_lineup_and_fifteen():
    assert validate_deck("metal-fusion", lineup() + mf_deck(15)) == []


@pytest.mark.parametrize("count", [14, 16])
def test_metal_fusion_deck_of_other_than_fifteen_is_illegal(count):
    problems = validate_deck("metal-fusion", lineup() + mf_deck(count))
    assert codes(problems) == ["deck_size"]
    assert problems[0].message == (
        "A Metal Fusion deck is exactly 15 cards beside the line-up "
        f"(rules: 2. Build a deck of fifteen). This deck has {count}."
    )


def test_a_duplicate_number_within_the_fifteen_is_illegal():
    deck = lineup() + mf_deck(14)
    deck.append(
        {
            "card": card(999, card_type="effect", number=10),
            "quantity": 1,
            "zone": "deck",
        }
    )
    problems = validate_deck("metal-fusion", deck)
    assert codes(problems) == ["duplicate_number"]
    assert problems[0].cards == (110, 999)
    assert "(rules: 7. The fine print; ruling M1)" in problems[0].message


def test_two_copies_of_one_card_in_the_fifteen_share_a_number():
    deck = lineup() + mf_deck(13)
    deck.append(
        {
            "card": card(999, card_type="effect", number=50),
            "quantity": 2,
            "zone": "deck",
        }
    )
    assert codes(validate_deck("metal-fusion", deck)) == ["duplicate_number"]


def test_the_lineup_is_not_counted_for_duplicate_numbers():
    # Ruling M1: line-up number 10 equals a deck card's number, which is fine.
    assert validate_deck("metal-fusion", lineup((10, 11, 12)) + mf_deck(15)) == []


def test_an_unknown_number_is_a_warning_not_an_error():
    deck = lineup() + mf_deck(14)
    deck.append(
        {
            "card": card(999, card_type="effect", number=None),
            "quantity": 1,
            "zone": "deck",
        }
    )
    problems = validate_deck("metal-fusion", deck)
    assert codes(problems) == ["unknown_number"]
    assert problems[0].level == WARNING
    assert is_legal(problems) is True


def test_a_lineup_without_a_customizer_is_illegal():
    problems = validate_deck("metal-fusion", lineup()[:2] + mf_deck(15))
    assert codes(problems) == ["lineup_customizer"]
    assert problems[0].message.endswith("This line-up has no Customizer.")


def test_a_lineup_with_two_characters_is_illegal():
    extra = {
        "card": card(4, card_type="character", number=4),
        "quantity": 1,
        "zone": "lineup",
    }
    problems = validate_deck("metal-fusion", lineup() + [extra] + mf_deck(15))
    assert codes(problems) == ["lineup_character"]
    assert problems[0].cards == (1, 4)


def test_an_effect_in_the_lineup_is_illegal():
    wrong = {
        "card": card(4, card_type="effect", number=4),
        "quantity": 1,
        "zone": "lineup",
    }
    problems = validate_deck("metal-fusion", lineup() + [wrong] + mf_deck(15))
    assert codes(problems) == ["lineup_wrong_type"]


# --- Bakugan -------------------------------------------------------------------


def bakugan_deck(
    gates=("gold", "silver", "copper"), abilities=("red", "blue", "green"), figures=3
):
    deck = [
        {"card": card(i, card_type="bakugan"), "quantity": 1, "zone": "bakugan"}
        for i in range(1, figures + 1)
    ]
    deck += [
        {
            "card": card(10 + i, card_type="gate", gate_class=g),
            "quantity": 1,
            "zone": "gate",
        }
        for i, g in enumerate(gates)
    ]
    deck += [
        {
            "card": card(20 + i, card_type="ability", colour=c),
            "quantity": 1,
            "zone": "ability",
        }
        for i, c in enumerate(abilities)
    ]
    return deck


def test_smallest_legal_bakugan_deck():
    assert validate_deck("bakugan", bakugan_deck()) == []


@pytest.mark.parametrize("figures,phrase", [(2, "2 Bakugan"), (4, "4 Bakugan")])
def test_bakugan_count_other_than_three_is_illegal(figures, phrase):
    problems = validate_deck("bakugan", bakugan_deck(figures=figures))
    assert codes(problems) == ["bakugan_count"]
    assert problems[0].message.endswith(f"This deck has {phrase}.")


def test_two_gold_gates_are_illegal():
    problems = validate_deck("bakugan", bakugan_deck(gates=("gold", "gold", "copper")))
    assert codes(problems) == ["gate_classes"]
    assert problems[0].cards == (10, 11)
    assert problems[0].message.endswith(
        "This deck's Gate cards have 2 gold and no silver."
    )


def test_a_fourth_gate_is_illegal():
    problems = validate_deck(
        "bakugan", bakugan_deck(gates=("gold", "silver", "copper", "gold"))
    )
    assert codes(problems) == ["gate_count", "gate_classes"]


def test_missing_green_ability_is_illegal():
    problems = validate_deck("bakugan", bakugan_deck(abilities=("red", "blue", "blue")))
    assert codes(problems) == ["ability_colours"]
    assert problems[0].message.endswith(
        "This deck's Ability cards have 2 blue and no green."
    )


def test_two_abilities_are_one_short():
    problems = validate_deck("bakugan", bakugan_deck(abilities=("red", "blue")))
    assert codes(problems) == ["ability_count", "ability_colours"]


def test_a_gate_among_the_abilities_is_illegal():
    deck = bakugan_deck()
    deck[-1] = {
        "card": card(30, card_type="gate", gate_class="gold"),
        "quantity": 1,
        "zone": "ability",
    }
    assert codes(validate_deck("bakugan", deck)) == ["not_ability", "ability_colours"]


# --- Collide-O! ----------------------------------------------------------------


def pack(count):
    return [{"card": card(1, card_type="sections"), "quantity": count, "zone": "pack"}]


def test_pack_minimum_is_the_centre_card_and_five_per_player():
    assert [pack_minimum(p) for p in (2, 3, 4)] == [11, 16, 21]


def test_smallest_legal_pack_is_eleven_cards():
    assert validate_deck("collide-o", pack(11)) == []


def test_a_pack_of_ten_is_illegal():
    problems = validate_deck("collide-o", pack(10))
    assert codes(problems) == ["pack_size"]
    assert problems[0].message == (
        "A Collide-O! pack for 2 players needs at least 11 cards: the centre card and "
        "five for each player (rules: Set-Up). This pack has 10."
    )


def test_pack_is_checked_against_the_players_chosen():
    assert codes(validate_deck("collide-o", pack(15), players=3)) == ["pack_size"]
    assert validate_deck("collide-o", pack(16), players=3) == []


# --- Common --------------------------------------------------------------------


def test_a_zone_of_another_game_is_a_problem():
    problems = validate_deck(
        "collide-o", pack(11) + [{"card": card(2), "quantity": 1, "zone": "blade"}]
    )
    assert codes(problems) == ["bad_zone"]
    assert problems[0].cards == (2,)


def test_problems_serialise_with_code_message_and_cards():
    problem = validate_deck("collide-o", pack(3))[0]
    assert problem.as_dict() == {
        "code": "pack_size",
        "message": problem.message,
        "cards": [],
        "level": "error",
    }


@pytest.mark.parametrize("game", ["collision", "metal-fusion", "bakugan", "collide-o"])
def test_validating_a_hundred_card_deck_takes_under_five_milliseconds(game):
    entries = sample_decks(100)[game]
    timings = []
    for _ in range(50):
        start = time.perf_counter()
        validate_deck(game, entries)
        timings.append(time.perf_counter() - start)
    assert statistics.median(timings) < 0.005
