"""Tests of the Beyblade Metal Fusion engine (rulings M1-M10, E3)."""

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.engine import metal_fusion as mf
from decks.engine.bots import RandomBot
from decks.engine.core import EngineError, apply_as, replay
from tests.engine.scenarios import (
    deck_cards,
    lineup,
    playout_decks,
    stats,
    varied_decks,
)
from tests.engine.scenarios import (
    mf_card as card,
)
from tests.engine.scenarios import (
    mf_deck as deck,
)

GOLDEN = Path(__file__).parent / "golden" / "metal-fusion.json"


# --- card and deck builders ---------------------------------------------------


def gingka_lineup():
    """Return the rules' worked example line-up (other colours made up)."""
    gingka = dict(card(1, "character"), name="Gingka", emblem="pegasus")
    gingka.update(stats(red=2, blue=3, green=1, yellow=4))
    pegasus = dict(card(2, "beyblade"), name="Storm Pegasus", emblem="pegasus")
    pegasus.update(stats(red=3, blue=1, green=2, yellow=2))
    pegasus.update(
        move_name="Star Blast", move_kind="landing", move_yellow=-1, move_red=2
    )
    customizer = dict(card(3, "customizer"), name="Customizer", **stats(1, 1, 1, 5))
    return [gingka, pegasus, customizer]


def index_of(state, seat, number):
    return state.seats[seat].by_number[number]


def arranged(
    decks,
    options=None,
    seed=1,
    attacker=0,
    tops=None,
    hands=None,
    boosters=None,
    discards=None,
    empty=(),
):
    """Return a new game patched so the given cards lie where a scenario needs them.

    ``tops`` maps a seat to numbers from the top of its deck down; ``hands``
    and ``discards`` map a seat to numbers; ``boosters`` maps a seat to (slot,
    number) pairs; seats in ``empty`` start with an empty deck.
    """
    state = mf.new_game(decks, options or {}, seed)
    data = mf.to_json(state)

    def take(seat, number):
        index = index_of(state, seat, number)
        for pile in (
            data["deck"][seat],
            data["hand"][seat],
            data["discard"][seat],
            *data["boosters"][seat],
        ):
            if index in pile:
                pile.remove(index)
        return index

    for seat, numbers in (hands or {}).items():
        data["hand"][seat] = [take(seat, n) for n in numbers]
    for seat, numbers in (discards or {}).items():
        data["discard"][seat] = [take(seat, n) for n in numbers]
    for seat, pairs in (boosters or {}).items():
        for slot, number in pairs:
            data["boosters"][seat][mf.SLOTS.index(slot)].append(take(seat, number))
    for seat, numbers in (tops or {}).items():
        indices = [take(seat, n) for n in numbers]
        data["deck"][seat].extend(reversed(indices))
    for seat in empty:
        data["discard"][seat].extend(data["deck"][seat])
        data["deck"][seat] = []
    data.update(attacker=attacker, phase="reveal", events=[])
    return mf.from_json(data)


def play(state, *texts):
    for text in texts:
        state = mf.apply(state, mf.parse_action(text))
    return state


def texts(state):
    return [a.text for a in mf.legal_actions(state)]


# --- power (ruling M3) ------------------------------------------------------


def test_worked_example_makes_thirteen_on_yellow():
    total, parts = mf.lineup_power(gingka_lineup(), "yellow", boosters=("Y", "Y"))
    assert total == 13
    assert parts == {
        "character": 4, "beyblade": 2, "customizer": 5, "emblem": 1, "move": -1,
        "boosters": 2, "effects": 0,
    }  # fmt: skip


def test_worked_example_in_a_game_counts_thirteen_when_a_yellow_card_is_revealed():
    cards = deck_cards(launcher="yellow", boosters="Y")
    decks = [
        deck(gingka_lineup(), cards),
        deck(lineup((1, 1, 1, 1), (1, 1, 1, 1), (1, 1, 1, 1))),
    ]
    state = arranged(
        decks, boosters={0: [("character", 5), ("customizer", 6)]}, tops={0: [1]}
    )
    state = play(state, "reveal")
    assert state.events[:2] == [
        "Player 1 reveals Character #1: a yellow launcher.",
        "Battle power on yellow: Player 1 13, Player 2 4.",
    ]
    assert mf.power(state, 0) == (13, {
        "character": 4, "beyblade": 2, "customizer": 5, "emblem": 1, "move": -1,
        "boosters": 2, "effects": 0,
    })  # fmt: skip
    assert texts(state) == ["hand", "boost character"]


def test_power_of_a_line_up_for_each_colour_needs_no_game():
    line = gingka_lineup()
    totals = {colour: mf.lineup_power(line, colour)[0] for colour in mf.COLOURS}
    assert totals == {"red": 9, "blue": 6, "green": 5, "yellow": 11}


def test_double_booster_fires_on_either_colour_and_multicolour_on_every_colour():
    line = lineup((0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))
    fired = {
        c: mf.lineup_power(line, c, boosters=("RB", "RBGY", "G"))[1]["boosters"]
        for c in mf.COLOURS
    }
    assert fired == {"red": 2, "blue": 2, "green": 2, "yellow": 1}


def test_emblems_must_be_equal_and_recorded_to_add_one():
    assert mf.lineup_power(lineup(emblems=("x", "x")), "red")[1]["emblem"] == 1
    assert mf.lineup_power(lineup(emblems=("x", "y")), "red")[1]["emblem"] == 0
    line = lineup(emblems=(None, None))
    for c in line[:2]:
        c["not_printed"] = ["emblem"]
    assert mf.lineup_power(line, "red")[1]["emblem"] == 0


def test_line_up_power_refuses_unknown_values():
    line = lineup()
    line[2]["stat_green"] = None
    with pytest.raises(EngineError) as error:
        mf.lineup_power(line, "red")
    assert error.value.code == "bad_deck"
    assert (
        error.value.message
        == "This line-up's Customizer cannot be played: its green stat is unknown."
    )


# --- deck shape, unknown data (M1, E4) ----------------------------------------


def test_m1_two_deck_cards_with_one_number_are_refused():
    cards = deck_cards()
    cards[4]["number"] = 1
    with pytest.raises(EngineError) as error:
        mf.new_game([deck(cards=cards), deck()], {}, 1)
    assert error.value.code == "bad_deck"
    assert error.value.message == (
        "Player 1's deck holds two cards numbered 1 (Character #1 and Beyblade #5); "
        "a deck may not repeat a card number (ruling M1)."
    )


def test_m1_line_up_may_share_a_number_with_a_deck_card():
    line = lineup()
    line[0]["number"] = 1
    state = mf.new_game([deck(line), deck()], {}, 1)
    assert state.phase == "reveal"


@pytest.mark.parametrize(
    ("decks", "message"),
    [
        (
            lambda: [deck(cards=deck_cards(count=14)), deck()],
            "Player 1's deck holds 14 cards; it must hold exactly 15 besides the line-up.",
        ),
        (
            lambda: [deck(), deck(lineup()[:2])],
            "Player 2's line-up must be three cards: one Character, one Beyblade, one Customizer.",
        ),
        (
            lambda: [deck(lineup()[:2] + [card(50, "effect")]), deck()],
            "Player 1's line-up holds Effect #50, a effect card; it takes one Character, one Beyblade and one Customizer.",
        ),
        (
            lambda: [deck(lineup()[:2] + [lineup()[1]]), deck()],
            "Player 1's line-up holds two beyblade cards (Beyblade and Beyblade); it takes one of each type.",
        ),
        (lambda: [deck()], "Metal Fusion is played by 2 to 4 players."),
        (lambda: [{"deck": []}, deck()], "Player 1's deck needs a line-up and a deck."),
    ],
)
def test_decks_of_the_wrong_shape_are_refused(decks, message):
    with pytest.raises(EngineError) as error:
        mf.new_game(decks(), {}, 1)
    assert (error.value.code, error.value.message) == ("bad_deck", message)


def test_unknown_stats_and_launcher_block_play_and_name_the_card():
    line = lineup()
    line[0]["stat_blue"] = None
    with pytest.raises(EngineError) as error:
        mf.new_game([deck(line), deck()], {}, 1)
    assert (
        error.value.message
        == "Player 1's Character cannot be played: its blue stat is unknown."
    )
    cards = deck_cards()
    cards[2]["launcher"] = None
    with pytest.raises(EngineError) as error:
        mf.new_game([deck(), deck(cards=cards)], {}, 1)
    assert (
        error.value.message
        == "Player 2's Customizer #3 cannot be played: its launcher colour is unknown."
    )


def test_card_problems_lists_every_unknown_value_the_engine_needs():
    blank = {"name": "Blank", "card_type": "beyblade"}
    assert mf.card_problems(blank) == [
        "its red stat is unknown",
        "its blue stat is unknown",
        "its green stat is unknown",
        "its yellow stat is unknown",
        "its emblem is unknown",
        "its launch or landing move is not recorded (list the move colours as not printed if it has none)",
        "its launcher colour is unknown",
        "its card number is unknown (it decides who attacks first)",
        "its booster colour is unknown",
    ]
    assert mf.card_problems(blank, "deck") == [
        "its launcher colour is unknown",
        "its card number is unknown (it decides who attacks first)",
        "its booster colour is unknown",
    ]
    assert mf.card_problems({"card_type": None}) == ["its card type is unknown"]
    assert mf.card_problems(card(7, "effect", launcher="purple", boosters=None)) == [
        "its launcher 'purple' is not red, blue, green or yellow"
    ]


def test_not_printed_values_do_not_block_play():
    plain = card(7, "customizer", boosters=None, not_printed=["boosters"])
    assert mf.card_problems(plain, "deck") == []
    bey = dict(card(8, "beyblade"), emblem=None, **stats(1, 1, 1, 1))
    bey["not_printed"] = [
        "emblem",
        "move_red",
        "move_blue",
        "move_green",
        "move_yellow",
    ]
    assert mf.card_problems(bey, "lineup") == []


def test_options_are_checked():
    with pytest.raises(EngineError) as error:
        mf.new_game([deck(), deck()], {"variant": "right"}, 1)
    assert error.value.code == "bad_options"
    with pytest.raises(EngineError) as error:
        mf.new_game([deck(), deck()], {"varaint": "all"}, 1)
    assert (error.value.code, error.value.message) == (
        "bad_options",
        "Metal Fusion has no option 'varaint'.",
    )


# --- first attacker (M2) ----------------------------------------------------


def test_m2_highest_top_card_number_attacks_first():
    assert mf.first_attacker([[3, 9], [12, 1]]) == (1, [1, 1])


def test_m2_equal_numbers_turn_again_and_only_the_tied_players_turn():
    assert mf.first_attacker([[7, 2, 9], [7, 5, 1], [4, 15, 15]]) == (1, [2, 2, 1])
    assert mf.first_attacker([[7, 5, 9], [7, 5, 1]]) == (0, [3, 3])


def test_m2_new_game_reports_the_turn_over_and_shuffles_the_decks_again():
    state = mf.new_game([deck(), deck(cards=deck_cards(base=101))], {}, 5)
    assert state.events == [
        "Player 1 turns over #8; Player 2 turns over #109: Player 2 attacks first (ruling M2)."
    ]
    assert state.attacker == 1
    assert mf.to_act(state) == 1
    assert texts(state) == ["reveal"]


# --- battles (M4, M5) -------------------------------------------------------


def test_m4_a_tie_goes_to_the_defender_and_the_card_is_discarded():
    state = arranged([deck(), deck()], tops={0: [4]})
    state = play(state, "reveal")
    assert state.events == [
        "Player 1 reveals Character #4: a red launcher.",
        "Battle power on red: Player 1 4, Player 2 4.",
        "A tie goes to the defender.",
        "Character #4 is discarded.",
    ]
    assert state.discard[0] == [index_of(state, 0, 4)]
    assert (state.attacker, state.phase, state.hand) == (1, "reveal", [[], []])


def test_m4_a_defenders_win_discards_the_card_and_roles_swap():
    strong = lineup((3, 3, 3, 3))
    state = arranged([deck(), deck(strong)], tops={0: [4]})
    state = play(state, "reveal")
    assert state.events[1:] == [
        "Battle power on red: Player 1 4, Player 2 6.",
        "Player 1 loses the battle.",
        "Character #4 is discarded.",
    ]
    assert (state.attacker, len(state.discard[0])) == (1, 1)


def test_m4_attacker_who_wins_chooses_hand_or_booster():
    strong = lineup((3, 3, 3, 3))
    state = arranged([deck(strong), deck()], tops={0: [2, 5]}, seed=2)
    state = play(state, "reveal")
    assert (mf.to_act(state), texts(state)) == (0, ["hand", "boost beyblade"])
    to_hand = play(state, "hand")
    assert to_hand.hand[0] == [index_of(state, 0, 2)]
    boosted = play(state, "boost beyblade")
    assert boosted.hand[0] == []
    assert boosted.boosters[0] == [[], [index_of(state, 0, 2)], []]
    assert mf.power(boosted, 0, "red") == (7, {
        "character": 3, "beyblade": 1, "customizer": 1, "emblem": 1, "move": 0,
        "boosters": 1, "effects": 0,
    })  # fmt: skip
    assert (
        boosted.events[-1]
        == "Player 1 slides Beyblade #2 under their beyblade as a booster."
    )
    with pytest.raises(EngineError) as error:
        play(state, "boost character")
    assert error.value.code == "illegal_action"
    assert (
        error.value.message
        == "That move is not allowed now (boost character): Beyblade #2 can only go under the line-up's beyblade."
    )


def test_m4_effect_card_goes_under_the_line_up_only_when_its_text_allows():
    cards = deck_cards()
    cards[0] = card(1, "effect")
    cards[1] = card(2, "effect", effects=[{"op": "as_booster", "timing": "revealed"}])
    strong = lineup((3, 3, 3, 3))
    state = arranged([deck(strong, cards), deck()], tops={0: [1]})
    plain = play(state, "reveal")
    assert (
        plain.events[1] == "Effect #1's text is not encoded; it plays as a plain card."
    )
    assert texts(plain) == ["hand"]
    with pytest.raises(EngineError) as error:
        play(plain, "boost customizer")
    assert error.value.message == (
        "That move is not allowed now (boost customizer): Effect #1 is an Effect card whose "
        "text does not let it become a booster (ruling M4)."
    )
    state = arranged([deck(strong, cards), deck()], tops={0: [2]})
    allowed = play(state, "reveal")
    assert texts(allowed) == [
        "hand",
        "boost character",
        "boost beyblade",
        "boost customizer",
    ]
    assert play(allowed, "boost customizer").boosters[0][2] == [index_of(state, 0, 2)]


def test_m5_the_fifth_card_in_hand_wins_at_once():
    strong = lineup((3, 3, 3, 3))
    state = arranged([deck(strong), deck()], tops={0: [5]}, hands={0: [1, 2, 3, 4]})
    state = play(state, "reveal", "hand")
    assert (mf.is_over(state), mf.winner(state), len(state.hand[0])) == (True, 0, 5)
    assert state.reason == "Player 1 holds 5 cards in hand and wins (ruling M5)."
    assert mf.legal_actions(state) == []
    with pytest.raises(EngineError) as error:
        play(state, "reveal")
    assert error.value.code == "game_over"


def test_m4_only_the_attacker_gains_so_a_strong_defender_never_takes_a_card():
    strong = lineup((3, 3, 3, 3))
    state = arranged([deck(), deck(strong)], attacker=0, tops={0: [1]})
    state = play(state, "reveal")
    assert state.hand == [[], []]
    assert state.events[2] == "Player 1 loses the battle."


# --- running out (M6) ---------------------------------------------------------


def test_m6_empty_deck_shuffles_the_discard_pile_into_a_new_deck():
    state = arranged([deck(), deck()], empty=(0,))
    assert (len(state.deck[0]), len(state.discard[0])) == (0, 15)
    state = play(state, "reveal")
    assert (
        state.events[0]
        == "Player 1's deck is empty: the discard pile is shuffled into a new deck (ruling M6)."
    )
    assert (len(state.deck[0]), len(state.discard[0])) == (14, 1)


def _no_cards_left(hands):
    """Return a finished game where Player 1 must reveal with nothing left."""
    strong = lineup((3, 3, 3, 3))
    boosted = [("character", n) for n in range(1, 16) if n not in hands[0] and n != 15]
    state = arranged(
        [deck(strong), deck()],
        tops={0: [15]},
        hands=hands,
        boosters={0: boosted},
        seed=3,
    )
    state = play(state, "reveal", "boost customizer")
    assert state.attacker == 1
    # Player 2 loses its battle; then Player 1 has no deck and no discard pile.
    return play(state, "reveal")


def test_m6_with_nothing_to_shuffle_the_player_with_more_cards_in_hand_wins():
    state = _no_cards_left({0: [1, 2], 1: [1]})
    assert (state.phase, state.winner) == ("over", 0)
    assert state.reason == (
        "Player 1 has no card left to reveal; cards in hand: Player 1 2, Player 2 1. "
        "Player 1 wins (ruling M6)."
    )


def test_m6_with_nothing_to_shuffle_equal_hands_are_a_draw():
    state = _no_cards_left({0: [1, 2], 1: [1, 2]})
    assert (state.phase, state.winner) == ("over", None)
    assert state.reason.endswith(
        "cards in hand: Player 1 2, Player 2 2. The game is a draw (ruling M6)."
    )


# --- card text (M4, M7, M10 and the fine print) ---------------------------


def boost_card(number, amount, target="self", timing="discard_from_hand", **step):
    return card(
        number,
        "effect",
        effects=[
            dict(op="add_power", timing=timing, amount=amount, target=target, **step)
        ],
    )


def test_m4_revealed_effect_applies_and_the_battle_is_counted_all_the_same():
    cards = deck_cards()
    cards[0] = boost_card(1, 3, timing="revealed")
    state = arranged([deck(cards=cards), deck()], tops={0: [1]})
    state = play(state, "reveal")
    assert state.events == [
        "Player 1 reveals Effect #1: a red launcher.",
        "Effect #1 adds +3 to the power of Player 1.",
        "Battle power on red: Player 1 7, Player 2 4.",
        "Player 1 wins the battle and takes Effect #1.",
    ]
    assert texts(state) == ["hand"]


def test_m7_discard_from_hand_effect_is_used_before_power_is_compared():
    cards = deck_cards()
    cards[0] = boost_card(1, 2)
    strong = lineup((2, 1, 1, 1))
    state = arranged([deck(strong), deck(cards=cards)], tops={0: [5]}, hands={1: [1]})
    state = play(state, "reveal")
    assert (state.phase, mf.to_act(state), texts(state)) == (
        "window",
        1,
        ["use 1", "pass"],
    )
    assert state.events == ["Player 1 reveals Beyblade #5: a red launcher."]
    used = play(state, "use 1")
    assert used.events[1:] == [
        "Player 2 discards Effect #1 from their hand to use it.",
        "Effect #1 adds +2 to the power of Player 2.",
        "Battle power on red: Player 1 5, Player 2 6.",
        "Player 1 loses the battle.",
        "Beyblade #5 is discarded.",
    ]
    assert (used.hand[1], used.discard[1]) == ([], [index_of(state, 1, 1)])
    passed = play(state, "pass")
    assert passed.events[1] == "Battle power on red: Player 1 5, Player 2 4."
    assert passed.phase == "choose"


def test_m7_a_use_gives_the_other_player_a_chance_to_answer():
    cards0 = deck_cards()
    cards0[0] = boost_card(1, 1)
    cards1 = deck_cards()
    cards1[0] = boost_card(1, 2, target="opponent")
    state = arranged(
        [deck(cards=cards0), deck(cards=cards1)], tops={0: [5]}, hands={0: [1], 1: [1]}
    )
    state = play(state, "reveal")
    assert (mf.to_act(state), texts(state)) == (0, ["use 1", "pass"])
    state = play(state, "pass")
    assert (mf.to_act(state), texts(state)) == (1, ["use 1", "pass"])
    state = play(state, "use 1")
    assert (mf.to_act(state), texts(state)) == (0, ["use 1", "pass"])
    state = play(state, "use 1")
    assert (state.phase, mf.to_act(state), texts(state)) == (
        "choose",
        0,
        ["hand", "boost beyblade"],
    )
    assert state.events[-2:] == [
        "Battle power on red: Player 1 7, Player 2 4.",
        "Player 1 wins the battle and takes Beyblade #5.",
    ]


def test_m7_a_bystander_cannot_use_a_hand_effect_in_the_left_variant():
    cards = deck_cards()
    cards[0] = boost_card(1, 2, target="defender")
    decks = [deck(), deck(), deck(cards=cards)]
    state = arranged(decks, tops={0: [5]}, hands={2: [1]})
    state = play(state, "reveal")
    assert state.phase == "reveal"
    assert state.events[1] == "Battle power on red: Player 1 4, Player 2 4."


def test_m10_move_colours_not_printed_count_zero():
    line = gingka_lineup()
    moves = {c: mf.lineup_power(line, c)[1]["move"] for c in mf.COLOURS}
    assert moves == {"red": 2, "blue": 0, "green": 0, "yellow": -1}


def test_m10_boosters_lie_face_down_and_their_text_is_off():
    cards = deck_cards()
    cards[0] = card(
        1,
        "character",
        boosters="G",
        effects=[{"op": "add_power", "timing": "in_lineup", "amount": 5}],
    )
    cards[1] = dict(boost_card(2, 4), boosters="G")
    cards[1]["effects"].append({"op": "as_booster", "timing": "discard_from_hand"})
    state = arranged(
        [deck(cards=cards), deck()],
        tops={0: [5]},
        boosters={0: [("character", 1), ("beyblade", 2)]},
    )
    state = play(state, "reveal")
    assert state.events[1] == "Battle power on red: Player 1 4, Player 2 4."
    assert mf.power(state, 0, "green")[1]["boosters"] == 2
    assert mf.power(state, 0, "green")[1]["effects"] == 0


def test_line_up_text_applies_only_in_the_line_up():
    line = lineup()
    line[2]["effects"] = [
        {"op": "add_power", "timing": "in_lineup", "amount": 2, "turn": "your"}
    ]
    cards = deck_cards()
    cards[0] = dict(card(1, "customizer"), effects=line[2]["effects"])
    state = arranged([deck(line, cards), deck()], tops={0: [1]})
    attacking = play(state, "reveal")
    assert attacking.events[1] == "Battle power on red: Player 1 6, Player 2 4."
    assert mf.lineup_power(line, "red", role="attacker")[1]["effects"] == 2
    assert mf.lineup_power(line, "red", role="defender")[1]["effects"] == 0
    defending = arranged([deck(line, cards), deck()], attacker=1, tops={1: [1]})
    defending = play(defending, "reveal")
    assert defending.events[1] == "Battle power on red: Player 2 4, Player 1 4."


def test_line_up_text_can_weaken_the_opponent_on_one_colour():
    line = lineup()
    line[0]["effects"] = [
        {
            "op": "add_power",
            "timing": "in_lineup",
            "amount": -2,
            "target": "opponent",
            "attribute": "red",
        }
    ]
    state = arranged([deck(line), deck()], tops={0: [1]})
    state = play(state, "reveal")
    assert state.events[1] == "Battle power on red: Player 1 4, Player 2 2."
    assert mf.power(state, 1) == (2, {
        "character": 1, "beyblade": 1, "customizer": 1, "emblem": 1, "move": 0,
        "boosters": 0, "effects": -2,
    })  # fmt: skip
    cards = deck_cards()
    cards[0]["launcher"] = "blue"
    blue = arranged([deck(line, cards), deck()], tops={0: [1]})
    assert (
        play(blue, "reveal").events[1]
        == "Battle power on blue: Player 1 4, Player 2 4."
    )


def test_revealed_to_hand_effect_keeps_the_card_after_a_lost_battle():
    cards = deck_cards()
    cards[0] = card(1, "effect", effects=[{"op": "to_hand", "timing": "revealed"}])
    state = arranged([deck(cards=cards), deck(lineup((3, 3, 3, 3)))], tops={0: [1]})
    state = play(state, "reveal")
    assert state.hand[0] == [index_of(state, 0, 1)]
    assert state.events[-1] == "Effect #1 goes to Player 1's hand all the same."


def test_revealed_draw_effect_takes_cards_from_the_deck():
    cards = deck_cards()
    cards[0] = card(
        1, "effect", effects=[{"op": "draw", "timing": "revealed", "amount": 2}]
    )
    state = arranged([deck(cards=cards), deck()], tops={0: [1, 7, 8]})
    state = play(state, "reveal")
    assert sorted(state.hand[0]) == sorted(
        [index_of(state, 0, 7), index_of(state, 0, 8)]
    )
    assert len(state.deck[0]) == 12


def test_revealed_discard_effect_lets_the_opponent_choose_what_to_discard():
    cards = deck_cards()
    cards[0] = card(
        1,
        "effect",
        effects=[{"op": "discard", "timing": "revealed", "target": "opponent"}],
    )
    state = arranged([deck(cards=cards), deck()], tops={0: [1]}, hands={1: [3, 9]})
    state = play(state, "reveal")
    assert (state.phase, mf.to_act(state), texts(state)) == (
        "discard",
        1,
        ["discard 3", "discard 9"],
    )
    with pytest.raises(EngineError) as error:
        play(state, "discard 4")
    assert error.value.code == "illegal_action"
    state = play(state, "discard 9")
    assert state.hand[1] == [index_of(state, 1, 3)]
    assert state.events[1:3] == [
        "Player 2 discards Customizer #9.",
        "Battle power on red: Player 1 4, Player 2 4.",
    ]


def test_unsupported_text_plays_as_the_basic_card_and_the_log_says_so():
    line = lineup()
    line[1]["effects"] = [{"op": "draw", "timing": "in_lineup"}]
    state = mf.new_game([deck(line), deck()], {}, 1)
    assert (
        state.events[0]
        == "Player 1's Beyblade: its text is not one the engine knows; it plays as its basic self."
    )
    assert mf.lineup_power(line, "red")[1]["effects"] == 0


def test_m8_stat_names_by_colour_are_data_only():
    """Ruling M8 is about how card data names its colour rows; the engine reads colours only."""
    pytest.skip(
        "M8 is a data ruling: stats are stored by colour, no engine behaviour follows."
    )


# --- variants (M9) and the cap (E3) ------------------------------------------


def test_left_variant_attacker_battles_the_left_neighbour_who_attacks_next():
    state = arranged([deck(), deck(), deck()], tops={0: [1], 1: [1], 2: [1]})
    seen = []
    for _ in range(3):
        state = play(state, "reveal")
        seen.append(state.events[-3])
    assert seen == [
        "Battle power on red: Player 1 4, Player 2 4.",
        "Battle power on red: Player 2 4, Player 3 4.",
        "Battle power on red: Player 3 4, Player 1 4.",
    ]


def test_m9_all_variant_needs_power_above_every_other_player():
    decks = [deck(lineup((2, 1, 1, 1))), deck(), deck(lineup((2, 1, 1, 1)))]
    state = arranged(decks, {"variant": "all"}, tops={0: [1], 1: [1], 2: [1]})
    state = play(state, "reveal")
    assert state.events[1:3] == [
        "Battle power on red: Player 1 5, Player 2 4, Player 3 5.",
        "A tie goes to the defender.",
    ]
    assert state.attacker == 1
    state = play(state, "reveal")
    assert state.events[-3:-1] == [
        "Battle power on red: Player 2 4, Player 3 5, Player 1 5.",
        "Player 2 loses the battle.",
    ]
    decks[2] = deck()
    state = arranged(decks, {"variant": "all"}, tops={0: [1]})
    state = play(state, "reveal")
    assert state.phase == "choose"


def test_m9_all_variant_is_won_with_two_cards_in_hand():
    decks = [deck(lineup((2, 1, 1, 1))), deck(), deck()]
    state = arranged(decks, {"variant": "all"}, tops={0: [2]}, hands={0: [1]})
    state = play(state, "reveal", "hand")
    assert (state.winner, state.reason) == (
        0,
        "Player 1 holds 2 cards in hand and wins (ruling M5).",
    )


def _play_random(state, seed):
    bots = [RandomBot(seed * 10 + s) for s in range(state.players)]
    while not mf.is_over(state):
        state = mf.apply(state, bots[mf.to_act(state)].choose(mf, state), inplace=True)
    return state


def test_left_variant_with_three_players_is_played_to_the_end():
    state = _play_random(mf.new_game(playout_decks(3), {"variant": "left"}, 11), 11)
    assert (state.winner, mf.length(state)) == (2, 30)
    assert [len(h) for h in state.hand] == [2, 2, 5]
    assert len(state.hand[state.winner]) == 5


def test_all_variant_with_four_players_is_played_to_the_end():
    state = _play_random(mf.new_game(playout_decks(4), {"variant": "all"}, 13), 13)
    assert (state.winner, mf.length(state)) == (0, 22)
    assert [len(h) for h in state.hand] == [2, 1, 0, 0]
    assert len(state.hand[state.winner]) == 2


def test_e3_a_mirror_match_ends_as_a_draw_at_the_turn_cap():
    state = _play_random(mf.new_game([deck(), deck()], {}, 4), 4)
    assert (state.phase, state.winner, mf.length(state)) == ("over", None, 200)
    assert (
        state.reason
        == "200 battles are fought with no winner: the game is a draw (ruling E3)."
    )


# --- interface --------------------------------------------------------------


def test_actions_read_back_from_their_text_and_junk_is_refused():
    for text in ("reveal", "hand", "pass", "boost character", "use 12", "discard 3"):
        assert mf.parse_action(text).text == text
    for junk in ("", "boost", "boost deck", "use x", "reveal now", "attack"):
        with pytest.raises(EngineError) as error:
            mf.parse_action(junk)
        assert error.value.code == "bad_action"


def test_acting_out_of_turn_is_refused_with_the_state_unchanged():
    state = mf.new_game([deck(), deck(cards=deck_cards(base=101))], {}, 5)
    before = mf.to_json(state)
    with pytest.raises(EngineError) as error:
        apply_as(mf, state, 0, mf.REVEAL)
    assert (error.value.code, error.value.message) == (
        "not_your_turn",
        "It is Player 2's move, not Player 1's.",
    )
    with pytest.raises(EngineError) as error:
        mf.apply(state, mf.HAND)
    assert (
        error.value.message
        == "That move is not allowed now (hand): Player 2 attacks: the only move is to reveal the top card."
    )
    assert mf.to_json(state) == before


def test_view_hides_other_hands_deck_order_and_face_down_boosters():
    strong = lineup((3, 3, 3, 3))
    state = arranged(
        [deck(strong), deck()],
        tops={0: [2]},
        hands={0: [1], 1: [3]},
        boosters={0: [("customizer", 6)]},
    )
    state = play(state, "reveal")
    mine, theirs = mf.view(state, 0), mf.view(state, 1)
    assert mine["seats"][0]["hand"] == [
        {
            "id": 1001,
            "name": "Character #1",
            "number": 1,
            "type": "character",
            "launcher": "red",
        }
    ]
    assert theirs["seats"][0]["hand"] == 1
    assert theirs["seats"][0]["boosters"]["customizer"] == [{"boosters": "R"}]
    assert mine["seats"][0]["boosters"]["customizer"][0]["name"] == "Customizer #6"
    assert theirs["seats"][0]["deck"] == 12
    assert (mine["legal_actions"], theirs["legal_actions"]) == (
        ["hand", "boost beyblade"],
        [],
    )
    assert mine["battle"]["power"][0] == {
        "player": 0,
        "total": 7,
        "parts": {
            "character": 3,
            "beyblade": 1,
            "customizer": 1,
            "emblem": 1,
            "move": 0,
            "boosters": 1,
            "effects": 0,
        },
    }
    json.dumps(mine.to_json())


def test_describe_says_the_move_in_plain_words():
    strong = lineup((3, 3, 3, 3))
    state = play(arranged([deck(strong), deck()], tops={0: [2]}), "reveal")
    assert [mf.describe(state, a) for a in mf.legal_actions(state)] == [
        "Put Beyblade #2 into your hand.",
        "Slide Beyblade #2 under your beyblade as a booster.",
    ]


def test_a_deck_changed_in_place_between_games_is_read_again():
    one = deck()
    assert mf.new_game([one, deck()], {}, 1).seats[0].base == (4, 4, 4, 4)
    one["lineup"][0]["stat_red"] = 5
    assert mf.new_game([one, deck()], {}, 1).seats[0].base == (8, 4, 4, 4)


def test_helpers_report_players_length_score_and_no_chance_steps():
    strong = lineup((3, 3, 3, 3))
    state = play(
        arranged([deck(strong), deck()], tops={0: [2]}, hands={0: [1]}),
        "reveal",
        "hand",
    )
    assert (mf.player_count(state), mf.length(state), mf.chance_outcomes(state)) == (
        2,
        1,
        [],
    )
    # Mean power (6 and 4) plus the race: two cards against none (3 + 0.6 per
    # card squared, the rival's taken off).
    assert (mf.score(state, 0), mf.score(state, 1)) == pytest.approx((14.4, -4.4))


def test_saved_games_from_elsewhere_are_refused():
    with pytest.raises(EngineError) as error:
        mf.from_json({"game": "collision"})
    assert (error.value.code, error.value.message) == (
        "bad_state",
        "This is not a saved Metal Fusion game.",
    )
    data = mf.to_json(mf.new_game([deck(), deck()], {}, 1))
    del data["hand"]
    with pytest.raises(EngineError) as error:
        mf.from_json(data)
    assert error.value.code == "bad_state"


def test_greedy_bots_finish_a_game():
    from decks.engine.bots import GreedyBot

    state = mf.new_game(playout_decks(2), {}, 3)
    bots = [GreedyBot(1), GreedyBot(2)]
    while not mf.is_over(state):
        state = mf.apply(state, bots[mf.to_act(state)].choose(mf, state), inplace=True)
    assert (state.winner, mf.length(state)) == (1, 13)


# --- playouts, determinism, golden ----------------------------------------


def _refused(state, action):
    try:
        mf.apply(state, action)
    except EngineError as error:
        return error.code in ("illegal_action", "bad_action")
    return False


def test_same_seed_gives_the_same_game_whatever_the_global_random_state():
    logs = []
    for disturbance in (1, 999):
        random.seed(disturbance)
        random.random()
        state = _play_random(mf.new_game(playout_decks(2), {}, 77), 77)
        logs.append((state.log, state.events))
    assert logs[0] == logs[1]


def test_golden_game_replays_to_the_recorded_result():
    golden = json.loads(GOLDEN.read_text())
    decks = varied_decks(golden["players"])
    state = replay(mf, decks, golden["options"], golden["seed"], golden["log"])
    assert {
        "winner": state.winner,
        "length": mf.length(state),
        "reason": state.reason,
        "hands": [len(h) for h in state.hand],
        "events": state.events,
    } == golden["summary"]


# --- hidden information ------------------------------------------------------


def values_of(data, key):
    """Return every value stored under ``key`` anywhere in a JSON-like value."""
    found = []
    if isinstance(data, dict):
        for k, v in data.items():
            if k == key:
                found.append(v)
            found += values_of(v, key)
    elif isinstance(data, list):
        for item in data:
            found += values_of(item, key)
    return found


def named_decks(players):
    """Return ``playout_decks`` whose card names and ids are unique."""
    decks = playout_decks(players)
    for seat, one in enumerate(decks):
        for i, raw in enumerate(one["lineup"] + one["deck"]):
            raw["id"] = seat * 100 + i
            raw["name"] = f"S{seat}x{i}Z"
    return decks


@pytest.mark.parametrize("players, variant", [(2, "left"), (3, "left"), (4, "all")])
def test_no_view_ever_shows_a_hand_deck_or_booster_card_hidden_from_its_viewer(
    players, variant
):
    decks = named_decks(players)
    checked = 0
    for seed in range(25):
        state = mf.new_game(decks, {"variant": variant}, seed)
        bot = random.Random(seed)
        known = [set() for _ in range(players)]
        before = None
        while True:
            s = state
            public = {(q, i) for q in range(players) for i in range(3)}
            public.update((q, i) for q in range(players) for i in s.discard[q])
            if s.card >= 0:
                public.add((s.attacker, s.card))
            if before is not None:
                decks_before, hands_before, events_before, turn, a = before
                if s.turn != turn and decks_before[a]:
                    public.add((a, decks_before[a][-1]))  # the card revealed
                said = "the discard pile is shuffled into a new deck (ruling M6)."
                if any(said in event for event in s.events[events_before:]):
                    # The face-up discard pile became the deck (and may be drawn).
                    for q in range(players):
                        taken = set(s.deck[q] + s.hand[q]) - set(hands_before[q])
                        public.update((q, i) for i in taken)
            for p in range(players):
                own = {(p, i) for i in s.hand[p]}
                own.update((p, i) for pile in s.boosters[p] for i in pile)
                known[p] |= public | own
                hidden = {(q, i) for q in range(players) for i in s.deck[q]}
                for q in range(players):
                    if q != p:
                        hidden.update((q, i) for i in s.hand[q])
                        hidden.update((q, i) for pile in s.boosters[q] for i in pile)
                view = mf.view(s, p).to_json()
                ids = {q * 100 + i for q, i in hidden}
                assert set(values_of(view, "id")) & ids == set()
                text = json.dumps(view)
                secret = {s.seats[q].cards[i].name for q, i in hidden - known[p]}
                checked += len(secret)
                assert [name for name in secret if name in text] == []
            if mf.is_over(s):
                break
            actor = mf.to_act(s)
            legal = mf.legal_actions(s)
            for action in legal:
                words = mf.describe(s, action)
                secret = {
                    s.seats[q].cards[i].name
                    for q in range(players)
                    for i in s.deck[q] + (s.hand[q] if q != actor else [])
                }
                assert [n for n in secret - known[actor] if n in words] == []
            before = (
                [d[:] for d in s.deck],
                [h[:] for h in s.hand],
                len(s.events),
                s.turn,
                s.attacker,
            )
            state = mf.apply(s, bot.choice(legal), inplace=True)
    assert checked > 20000


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    variant=st.sampled_from(["left", "all"]),
)
def test_the_battle_fast_path_counts_what_the_plain_power_counts(
    players, seed, variant
):
    decks = playout_decks(players)
    state = mf.new_game(decks, {"variant": variant}, seed)
    bot = random.Random(seed)
    while not mf.is_over(state):
        if state.card >= 0:
            involved = mf._involved(state)
            for seat in involved:
                assert (
                    mf._battle_power(state, seat, involved)
                    == (mf.power(state, seat)[0])
                )
        state = mf.apply(state, bot.choice(mf.legal_actions(state)), inplace=True)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), colour=st.sampled_from(mf.COLOURS))
def test_the_line_up_count_from_cards_equals_the_power_in_a_new_game(seed, colour):
    decks = varied_decks(2)
    state = mf.new_game(decks, {}, seed)
    for seat, one in enumerate(decks):
        assert mf.lineup_power(one["lineup"], colour) == mf.power(state, seat, colour)
