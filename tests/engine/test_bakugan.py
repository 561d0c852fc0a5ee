"""Bakugan engine: scenarios, rulings B1-B12, playouts, determinism, golden game."""

import json
from pathlib import Path

import pytest

from decks.engine import bakugan as bk
from decks.engine.bots import RandomBot, make_bot, play_out
from decks.engine.core import (
    CHANCE,
    EngineError,
    Rng,
    replay,
    resolve_chance,
    seed_state,
)
from tests.engine.scenarios import (
    ALL_ACTIONS,
    ability,
    figure,
    gate,
    hidden_names,
    make_deck,
    pass_windows,
    secret_decks,
    step,
)
from tests.engine.scenarios import (
    bakugan_act as act,
)

GOLDEN = Path(__file__).parent / "golden" / "bakugan.json"
SEED_FIRST_2 = 5  # a seed whose four-player game starts with Player 3


def two_player(decks=None, **options):
    """Return a two-player game, P1 first, both gates placed (G1 each)."""
    state = bk.new_game(
        decks or [make_deck(0), make_deck(1)], {"first": 0, **options}, 7
    )
    state = act(state, "P1 places G1")
    return act(state, "P2 places G1")


def four_player(decks=None, **options):
    """Return a four-player game, P1 first, each player's G1 in the cross."""
    decks = decks or [make_deck(s) for s in range(4)]
    state = bk.new_game(decks, {"players": 4, "first": 0, **options}, 7)
    for seat in range(4):
        state = act(state, f"P{seat + 1} places G1")
    return state


def texts(actions):
    return [a.text for a in actions]


# --- landing cases -------------------------------------------------------


def test_a_bakugan_landing_on_an_empty_gate_stands_there_and_the_turn_ends():
    state = act(two_player(), "P1 rolls B1")
    assert bk.to_act(state) == CHANCE
    state = act(state, "landed on gate P2-G1")
    assert state.field_gates == [0, 3]
    assert state.field_bakugan == [-1, 0]
    assert state.unused == [[1, 2], [0, 1, 2]]
    assert state.turn_player == 1
    assert state.phase == "choose"
    assert state.events[-1] == "Player 1's Dragonoid stands on P2-G1 (Gate 2.1)."


def test_a_missed_roll_puts_the_bakugan_in_the_used_pile():
    state = act(act(two_player(), "P1 rolls B2"), "missed")
    assert state.used == [[1], []]
    assert state.field_bakugan == [-1, -1]
    assert state.turn_player == 1


def test_landing_on_an_opponents_bakugan_starts_a_battle_the_stronger_wins():
    state = act(act(two_player(), "P1 rolls B1"), "landed on gate P1-G1")
    state = act(act(state, "P2 rolls B3"), "landed on gate P1-G1")
    # Skyress 350 against Dragonoid 340 on a gate without bonuses.
    assert state.battle.attacker == 5 and state.battle.defender == 0
    assert bk.to_act(state) == 1  # in battle, the player whose turn it is first
    state = pass_windows(state)
    assert state.won == [[], [0]]
    assert state.field_gates == [3]
    assert state.used == [[0], [2]]
    assert state.turn_player == 0
    assert (
        "Player 2's Skyress 350 G against Player 1's Dragonoid 340 G." in state.events
    )


def test_a_tie_goes_to_the_bakugan_that_landed_first():
    decks = [make_deck(0), make_deck(1, figures=[("Twin", "pyrus", 340)] * 3)]
    state = act(act(two_player(decks), "P1 rolls B1"), "landed on gate P2-G1")
    state = pass_windows(act(act(state, "P2 rolls B1"), "landed on gate P2-G1"))
    assert state.battle is None
    assert state.won == [[3], []]
    assert "Player 1's Dragonoid wins: Player 1 takes P2-G1 (Gate 2.1)." in state.events


def test_landing_on_ones_own_bakugan_moves_to_the_only_other_gate():
    state = act(act(two_player(), "P1 rolls B1"), "landed on gate P1-G1")
    state = act(act(state, "P2 rolls B1"), "missed")
    state = act(act(state, "P1 rolls B2"), "landed on gate P1-G1")
    assert state.field_bakugan == [0, 1]
    assert state.turn_player == 1
    assert "Player 1's Gorem must move off its own gate." in state.events


def test_moving_off_ones_own_gate_onto_an_opponent_starts_a_battle():
    state = act(act(two_player(), "P1 rolls B1"), "landed on gate P1-G1")
    state = act(act(state, "P2 rolls B1"), "landed on gate P2-G1")
    state = act(act(state, "P1 rolls B2"), "landed on gate P1-G1")
    assert state.battle.attacker == 1  # Gorem moved on to Tigrerra
    assert state.battle.defender == 3
    assert state.battle.gate == 3
    state = pass_windows(state)
    assert state.won == [[3], []]
    assert state.field_bakugan == [0]


# --- rulings ----------------------------------------------------------------


def test_b1_each_player_chooses_which_gate_to_place_face_down():
    state = bk.new_game([make_deck(0), make_deck(1)], {"first": 1}, 3)
    assert state.phase == "place"
    assert texts(bk.legal_actions(state)) == [
        "P2 places G1",
        "P2 places G2",
        "P2 places G3",
    ]
    state = act(state, "P2 places G3")
    state = act(state, "P1 places G2")
    # Each is its owner's first gate on the field: P2-G1 and P1-G1 (codes 3, 0),
    # holding deck gates 3 and 2.
    assert state.field_gates == [3, 0]
    assert state.gate_card == [1, -1, -1, 2, -1, -1]
    assert state.field_open == [0, 0]
    assert state.gate_hand == [[0, 2], [0, 1]]
    seen = bk.view(state, 0)["field"]
    assert seen[0] == {"id": "P2-G1", "owner": 1, "open": False, "bakugan": None}
    assert seen[1]["name"] == "Gate 1.2"


def test_b2_a_roll_lands_with_probability_0_6_spread_over_the_gates():
    state = act(two_player(), "P1 rolls B1")
    outcomes = [(a.text, p) for a, p in bk.chance_outcomes(state)]
    assert outcomes == [
        ("missed", 0.4),
        ("landed on gate P1-G1", 0.3),
        ("landed on gate P2-G1", 0.3),
    ]
    assert texts(bk.legal_actions(state)) == [t for t, _ in outcomes]


def test_b2_the_land_probability_option_changes_the_odds():
    state = act(two_player(land_probability=0.9), "P1 rolls B1")
    assert [p for _, p in bk.chance_outcomes(state)] == [1 - 0.9, 0.45, 0.45]
    with pytest.raises(EngineError) as error:
        bk.new_game([make_deck(0), make_deck(1)], {"land_probability": 1.5}, 1)
    assert error.value.code == "bad_options"


def test_b2_in_table_mode_the_rolling_player_enters_the_outcome():
    state = act(two_player(table=True), "P1 rolls B1")
    assert bk.to_act(state) == 0
    assert bk.chance_outcomes(state) == []
    assert texts(bk.legal_actions(state)) == [
        "missed",
        "landed on gate P1-G1",
        "landed on gate P2-G1",
    ]
    state = act(state, "landed on gate P1-G1")
    assert state.field_bakugan == [0, -1]


def test_b3_with_several_gates_free_the_player_chooses_where_to_move():
    state = act(act(four_player(), "P1 rolls B1"), "landed on gate P1-G1")
    for seat in (2, 3, 4):
        state = act(act(state, f"P{seat} rolls B1"), "missed")
    state = act(act(state, "P1 rolls B2"), "landed on gate P1-G1")
    assert state.phase == "move"
    assert texts(bk.legal_actions(state)) == [
        "P1 moves to P2-G1",
        "P1 moves to P3-G1",
        "P1 moves to P4-G1",
    ]
    state = act(state, "P1 moves to P3-G1")
    assert state.field_bakugan == [0, -1, 1, -1]
    assert state.turn_player == 1


def test_b4_an_ability_card_is_used_once_and_an_unencoded_one_is_its_bonus_alone():
    card = ability("Printed Only", pyrus=500, subterra=60)
    decks = [make_deck(0, abilities=[card] * 3), make_deck(1)]
    state = act(act(two_player(decks), "P1 rolls B1"), "landed on gate P1-G1")
    state = act(act(state, "P2 rolls B3"), "landed on gate P1-G1")
    state = pass_windows(act(state, "P2 passes"))
    assert state.window_kind == "" and state.won == [[], [0]]
    state = act(act(state, "P1 rolls B2"), "landed on gate P2-G1")
    state = act(act(state, "P2 rolls B1"), "landed on gate P2-G1")
    state = act(state, "P2 passes")
    assert texts(bk.legal_actions(state)) == [
        "P1 plays A1",
        "P1 plays A2",
        "P1 plays A3",
        "P1 passes",
    ]
    state = act(state, "P1 plays A2")
    assert state.ability_hand[0] == [0, 2] and state.abilities_used[0] == [1]
    assert state.events[-2:] == [
        "Player 1 plays Printed Only: its text is not encoded, "
        "so it plays as its printed bonus alone.",
        "Player 1's Gorem: +60 G-Power.",
    ]
    state = pass_windows(state)
    # Gorem (Subterra) gets the printed Subterra 60, not the Pyrus 500.
    assert "Player 2's Tigrerra 300 G against Player 1's Gorem 390 G." in state.events
    with pytest.raises(EngineError) as error:
        act(state, "P1 plays A2")
    assert (error.value.code, error.value.message) == (
        "illegal_action",
        "No player may play ability cards now.",
    )


def test_b5_each_bakugan_adds_the_gate_bonus_for_its_own_attribute():
    gates = [gate("Fire Pit", pyrus=140, haos=-50, ident=1)] * 3
    state = two_player([make_deck(0, gates=gates), make_deck(1)])
    state = act(act(state, "P1 rolls B1"), "landed on gate P1-G1")
    state = act(act(state, "P2 rolls B1"), "landed on gate P1-G1")
    state = pass_windows(state)
    assert (
        "Player 2's Tigrerra 250 G against Player 1's Dragonoid 480 G." in state.events
    )
    assert state.won == [[0], []]


def test_b5_an_unknown_gate_bonus_blocks_the_game_and_names_the_card():
    unknown = gate("Mystery Gate", ident=77)
    unknown["bonus_darkus"] = None
    assert bk.card_problems(unknown) == ["Its G-Power bonus is unknown for Darkus"]
    with pytest.raises(EngineError) as error:
        bk.new_game([make_deck(0, gates=[unknown] * 3), make_deck(1)], {}, 1)
    assert error.value.code == "bad_deck"
    assert error.value.message == (
        "Player 1's gate card Mystery Gate (id 77) cannot be played: "
        "Its G-Power bonus is unknown for Darkus"
    )


def test_b5_a_bonus_not_printed_counts_zero_and_g_power_on_gate_adds_it():
    blank = gate("Blank", pyrus=80)
    blank["bonus_aquos"] = None
    blank["not_printed"] = ["bonus_aquos"]
    assert bk.card_problems(blank) == []
    assert bk.g_power_on_gate(figure("Dragonoid", "pyrus", 340), blank) == 420
    assert bk.g_power_on_gate(figure("Preyas", "aquos", 310), blank) == 310
    unknown = gate("Unknown", haos=None)
    assert bk.g_power_on_gate(figure("Tigrerra", "haos", 300), unknown) is None
    assert bk.g_power_on_gate(figure("?", "haos", None), blank) is None


def test_b6_after_a_battle_the_winner_takes_the_gate_and_both_bakugan_are_used():
    state = act(act(two_player(), "P1 rolls B2"), "landed on gate P2-G1")
    state = pass_windows(act(act(state, "P2 rolls B1"), "landed on gate P2-G1"))
    assert state.won == [[3], []]
    assert state.used == [[1], [0]]
    assert state.field_gates == [0] and state.field_bakugan == [-1]


def test_b7_an_empty_field_gets_a_gate_from_each_player_holding_one():
    state = act(act(two_player(), "P1 rolls B1"), "landed on gate P1-G1")
    state = pass_windows(act(act(state, "P2 rolls B3"), "landed on gate P1-G1"))
    state = act(act(state, "P1 rolls B2"), "landed on gate P2-G1")
    state.gate_hand[1] = []  # Player 2 has no gate left to place
    state = pass_windows(act(act(state, "P2 rolls B1"), "landed on gate P2-G1"))
    assert state.field_gates == []
    assert state.phase == "place"
    assert state.queue == [0]  # P2 holds none and places none
    assert state.turn_player == 0
    state = act(state, "P1 places G3")
    # Player 1's second gate on the field: P1-G2, holding deck gate 3.
    assert state.field_gates == [1] and state.phase == "choose"
    assert state.gate_card[1] == 2


def test_b7_with_no_gate_placeable_the_game_ends_on_gates_won():
    state = act(two_player(), "P1 rolls B1")
    state.gate_hand = [[], []]
    state.won = [[4], [1]]
    state.field_gates, state.field_open, state.field_bakugan = [0], [0], [-1]
    state = act(state, "landed on gate P1-G1")
    state = pass_windows(act(act(state, "P2 rolls B3"), "landed on gate P1-G1"))
    assert bk.is_over(state)
    assert bk.winner(state) == 1
    assert (
        state.reason
        == "No gate is left to place (B7): Player 2 has won the most gates."
    )


def test_b7_equal_gates_won_with_nothing_to_place_is_a_draw():
    state = act(two_player(), "P1 rolls B1")
    state.gate_hand = [[], []]
    state.won = [[4], []]
    state.field_gates, state.field_open, state.field_bakugan = [0], [0], [-1]
    state = act(state, "landed on gate P1-G1")
    state = pass_windows(act(act(state, "P2 rolls B3"), "landed on gate P1-G1"))
    assert bk.is_over(state) and bk.winner(state) is None
    assert state.reason == "No gate is left to place (B7): equal gates won, a draw."


def test_b8_four_players_each_place_a_gate_in_the_cross_in_turn_order():
    decks = [make_deck(s) for s in range(4)]
    state = bk.new_game(decks, {"players": 4}, SEED_FIRST_2)
    first = Rng(seed_state(SEED_FIRST_2, 1)).below(4)
    assert state.turn_player == first == 2
    assert state.queue == [2, 3, 0, 1]
    for seat in (3, 4, 1, 2):
        state = act(state, f"P{seat} places G2")
    assert state.field_gates == [6, 9, 0, 3]  # each owner's first gate placed
    assert state.turn_player == 2 and state.phase == "choose"


def test_b8_only_the_two_battlers_play_battle_cards_in_a_four_player_game():
    state = act(act(four_player(), "P1 rolls B1"), "landed on gate P1-G1")
    state = act(act(state, "P2 rolls B1"), "missed")
    state = act(act(state, "P3 rolls B3"), "landed on gate P1-G1")
    assert state.window_kind == "in_battle"
    seats = []
    while state.phase == "window":
        seats.append(bk.to_act(state))
        state = bk.apply(state, bk.Action("pass", bk.to_act(state)))
    # In battle and after it, only the battlers answer, P3 first: the battlers
    # alternate from the player whose turn it is (B10), with four players too.
    assert seats == [2, 0, 2, 0]
    assert state.won == [[0], [], [], []]  # Dragonoid 340 beats Mantris 330


def test_b9_the_first_player_is_the_option_or_else_the_seed():
    decks = [make_deck(0), make_deck(1)]
    assert bk.new_game(decks, {"first": 1}, 5).turn_player == 1
    firsts = [bk.new_game(decks, {}, seed).turn_player for seed in range(6)]
    assert firsts == [Rng(seed_state(s, 1)).below(2) for s in range(6)]
    assert firsts == [1, 1, 1, 1, 1, 0]
    with pytest.raises(EngineError) as error:
        bk.new_game(decks, {"first": 2}, 5)
    assert error.value.code == "bad_options"


def test_b10_in_battle_cards_alternate_from_the_player_whose_turn_it_is():
    boost = step("add_g_power", amount=100)
    p1 = [ability("Boost", effects=[boost])] * 3
    p2 = [ability("Boost", effects=[boost])] * 3
    state = two_player([make_deck(0, abilities=p1), make_deck(1, abilities=p2)])
    state = act(act(state, "P1 rolls B1"), "landed on gate P2-G1")
    state = act(act(state, "P2 rolls B3"), "landed on gate P2-G1")
    assert (state.window_kind, bk.to_act(state)) == ("in_battle", 1)
    state = act(state, "P2 plays A1")
    assert bk.to_act(state) == 0
    state = act(state, "P1 passes")
    state = act(state, "P2 plays A2")
    state = act(state, "P1 plays A1")
    state = act(state, "P2 passes")
    assert bk.to_act(state) == 0  # one pass is not yet two in a row
    state = act(state, "P1 passes")
    assert state.phase == "choose"
    # Skyress 350 + 200 against Dragonoid 340 + 100.
    assert (
        "Player 2's Skyress 550 G against Player 1's Dragonoid 440 G." in state.events
    )
    assert state.won == [[], [3]]


def test_b10_four_player_windows_go_round_from_the_player_whose_turn_is_next():
    early = ability("Early", timing="before-roll")
    decks = [make_deck(s, abilities=[early] * 3) for s in range(4)]
    state = four_player(decks)
    state = act(state, "P1 rolls B1")
    assert bk.to_act(state) == 1  # P2's turn is next: P2 answers first
    state = act(state, "P2 plays A1")
    order = []
    for _ in range(4):
        order.append(bk.to_act(state))
        state = bk.apply(state, bk.Action("pass", bk.to_act(state)))
    assert order == [2, 3, 0, 1]  # after P2's card, P3, P4, P1 and P2 pass in a row
    assert bk.to_act(state) == CHANCE


def test_b11_with_no_gate_to_move_to_the_player_wins_the_gate_with_both_bakugan():
    state = act(act(two_player(), "P1 rolls B1"), "landed on gate P1-G1")
    state = act(act(state, "P2 rolls B1"), "missed")
    state = act(act(state, "P1 rolls B2"), "landed on gate P2-G1")
    state = act(act(state, "P2 rolls B2"), "missed")
    state = act(act(state, "P1 rolls B3"), "landed on gate P1-G1")
    assert state.won == [[0], []]
    assert state.used == [[0, 2], [0, 1]]
    assert state.field_gates == [3] and state.field_bakugan == [1]
    assert state.events[-1] == (
        "Player 1's Hydranoid has nowhere to move: Player 1 wins P1-G1 (Gate 1.1) "
        "with both Bakugan."
    )


def test_b12_a_doom_gate_removes_the_loser_from_the_game():
    doom = step("remove_bakugan", timing="after_battle", target="opponent")
    gates = [gate("Doom Card", effects=[doom])] * 3
    state = two_player([make_deck(0, gates=gates), make_deck(1)])
    state = act(act(state, "P1 rolls B1"), "landed on gate P1-G1")
    state = pass_windows(act(act(state, "P2 rolls B1"), "landed on gate P1-G1"))
    assert state.won == [[0], []]
    assert state.removed == [[], [0]]
    assert state.used == [[0], []]
    assert "Player 2's Tigrerra is removed from the game (B12)." in state.events


def test_b12_a_player_with_no_bakugan_to_roll_moves_a_standing_one_into_battle():
    state = four_player()
    state.removed[0] = [2]
    state.unused[0] = []
    state.field_bakugan = [
        0,
        4,
        1,
        -1,
    ]  # P1's B1 and B2 stand; P2's Preyas stands on P2-G1
    state.unused[1] = [0, 2]
    assert texts(bk.legal_actions(state)) == [
        "P1 moves B1 to P2-G1",
        "P1 moves B2 to P2-G1",
    ]
    state = pass_windows(act(state, "P1 moves B2 to P2-G1"))
    # Gorem 330 moved on to Preyas 310.
    assert state.won == [[3], [], [], []]
    assert state.field_bakugan == [0, -1, -1]


def test_b12_with_no_enemy_standing_the_player_takes_a_gate_with_their_bakugan():
    state = two_player()
    state.removed[0] = [2]
    state.unused[0] = []
    state.field_bakugan = [0, 1]
    assert texts(bk.legal_actions(state)) == ["P1 clears P1-G1", "P1 clears P2-G1"]
    state = act(state, "P1 clears P2-G1")
    assert state.won == [[3], []]
    assert state.field_gates == [0] and state.field_bakugan == [-1]
    assert state.used == [[0, 1], []]
    assert state.turn_player == 1


def test_a_player_with_every_bakugan_removed_skips_the_turn():
    state = two_player()
    state.removed[0], state.unused[0] = [0, 1, 2], []
    assert texts(bk.legal_actions(state)) == ["P1 skips"]
    state = act(state, "P1 skips")
    assert state.turn_player == 1 and state.turns == 1


def test_the_used_pile_is_recycled_when_no_bakugan_is_unused():
    state = two_player()
    for _ in range(3):
        state = act(act(state, f"P1 rolls B{state.unused[0][0] + 1}"), "missed")
        state = act(act(state, f"P2 rolls B{state.unused[1][0] + 1}"), "missed")
    assert state.unused == [[0, 1, 2], []]
    assert state.used == [[], [0, 1, 2]]
    assert "Player 1 takes back the used Bakugan." in state.events


def test_e3_the_turn_cap_ends_the_game_as_a_draw():
    state = two_player()
    state.turns = bk.TURN_CAP - 1
    state = act(act(state, "P1 rolls B1"), "missed")
    assert bk.is_over(state) and bk.winner(state) is None
    assert state.reason == "The turn cap (300 turns) is reached: a draw (E3)."
    with pytest.raises(EngineError) as error:
        act(state, "P2 rolls B1")
    assert error.value.code == "game_over"


# --- effects ----------------------------------------------------------------


def battle_with(p1_steps=(), p2_steps=(), gate_steps=(), gates=None):
    """Return P2's Skyress (350) attacking P1's Dragonoid (340) with P1 to play."""
    p1 = [ability("P1 card", effects=p1_steps)] + [ability("Later", "after-battle")] * 2
    p2 = [ability("P2 card", effects=p2_steps)] + [ability("Later", "after-battle")] * 2
    gates = gates or [gate("Gate", effects=gate_steps)] * 3
    state = two_player(
        [make_deck(0, gates=gates, abilities=p1), make_deck(1, abilities=p2)]
    )
    state = act(act(state, "P1 rolls B1"), "landed on gate P1-G1")
    state = act(act(state, "P2 rolls B3"), "landed on gate P1-G1")
    return act(state, "P2 passes")


def test_lower_wins_makes_the_weaker_bakugan_win():
    state = pass_windows(act(battle_with([step("lower_wins")]), "P1 plays A1"))
    assert state.won == [[0], []]
    assert (
        "Player 2's Skyress 350 G against Player 1's Dragonoid 340 G (lower wins)."
        in (state.events)
    )


def test_add_g_power_to_the_opponent_can_be_negative():
    card = [step("add_g_power", amount=-30, target="opponent")]
    state = pass_windows(act(battle_with(card), "P1 plays A1"))
    assert (
        "Player 2's Skyress 320 G against Player 1's Dragonoid 340 G." in state.events
    )
    assert state.won == [[0], []]


def test_swap_g_power_exchanges_before_the_gate_bonus_is_added():
    gates = [gate("Fire", pyrus=100)] * 3
    state = pass_windows(
        act(battle_with([step("swap_g_power")], gates=gates), "P1 plays A1")
    )
    # 350 and 340 swap; Dragonoid then adds its Pyrus 100.
    assert (
        "Player 2's Skyress 340 G against Player 1's Dragonoid 450 G." in state.events
    )


def test_cancel_gate_drops_the_bonus_and_the_gates_steps():
    gates = [gate("Reverse", ventus=200, effects=[step("lower_wins", "gate_open")])] * 3
    state = battle_with(gate_steps=(), gates=gates)
    assert "In this battle the lower G-Power wins." in state.events
    state = pass_windows(act(state, "P1 plays A1"))  # P1's card has no steps
    assert (
        "Player 2's Skyress 550 G against Player 1's Dragonoid 340 G (lower wins)."
        in (state.events)
    )
    assert state.won == [[0], []]
    cancel = battle_with([step("cancel_gate")], gates=gates)
    cancel = pass_windows(act(cancel, "P1 plays A1"))
    assert (
        "Player 2's Skyress 350 G against Player 1's Dragonoid 340 G." in cancel.events
    )
    assert cancel.won == [[], [0]]
    assert "The gate P1-G1 (Reverse) is cancelled." in cancel.events


def test_win_gate_ends_the_battle_at_once():
    state = act(battle_with([step("win_gate")]), "P1 plays A1")
    assert state.won == [[0], []]
    assert state.battle.powers == [-1, -1]
    assert "Player 1's Dragonoid wins the battle at once." in state.events


def test_remove_bakugan_in_battle_gives_the_battle_to_the_other():
    state = act(battle_with([step("remove_bakugan", target="opponent")]), "P1 plays A1")
    assert state.removed == [[], [2]]
    assert state.won == [[0], []]
    assert state.used == [[0], []]


def test_a_step_limited_to_an_attribute_or_a_turn_applies_only_then():
    card = [
        step("add_g_power", amount=50, attribute="haos"),
        step("add_g_power", amount=5, turn="your"),
        step("add_g_power", amount=7, turn="opponent"),
    ]
    state = pass_windows(act(battle_with(card), "P1 plays A1"))
    assert (
        "Player 2's Skyress 350 G against Player 1's Dragonoid 347 G." in state.events
    )


def test_a_before_roll_card_waits_for_a_battle_and_lapses_without_one():
    early = ability("Early", "before-roll", [step("add_g_power", amount=100)])
    decks = [make_deck(0, abilities=[early] * 3), make_deck(1)]
    state = act(two_player(decks), "P1 rolls B1")
    state = act(act(state, "P1 plays A1"), "P1 passes")
    assert state.pending == [[0], []]
    state = act(state, "landed on gate P1-G1")
    assert state.pending == [[], []]
    assert "Player 1's held ability steps lapse: no battle came." in state.events
    # Anyone may play before a roll: P1 plays during P2's turn, then defends.
    state = act(act(act(state, "P2 rolls B3"), "P1 plays A2"), "P1 passes")
    assert state.pending == [[1], []]
    state = act(state, "landed on gate P1-G1")
    state = act(state, "P2 passes")
    assert (
        "Player 2's Skyress 350 G against Player 1's Dragonoid 440 G." in state.events
    )
    assert state.won == [[0], []]


def test_the_unencoded_gate_gives_its_bonus_only_and_the_log_says_so():
    state = battle_with()
    assert "P1-G1 (Gate) opens: its text is not encoded, bonus only." in state.events


def test_an_after_battle_card_removes_the_bakugan_that_just_battled():
    doom = [step("remove_bakugan", "after_battle", target="opponent")]
    p2 = [ability("Doom", "after-battle", doom)] * 3
    state = two_player([make_deck(0), make_deck(1, abilities=p2)])
    state = act(act(state, "P1 rolls B1"), "landed on gate P1-G1")
    state = act(act(state, "P2 rolls B3"), "landed on gate P1-G1")
    state = act(state, "P1 passes")  # P1's plain cards; P2 has none in battle
    assert (state.window_kind, bk.to_act(state)) == ("after_battle", 1)
    assert texts(bk.legal_actions(state)) == [
        "P2 plays A1",
        "P2 plays A2",
        "P2 plays A3",
        "P2 passes",
    ]
    state = act(state, "P2 plays A1")
    assert state.removed == [[0], []]
    assert state.used == [[], [2]]
    assert state.won == [[], [0]]
    assert bk.describe(state, bk.parse_action("P1 rolls B2")) == "Player 1 rolls Gorem."


# --- whole games, invariants, determinism, golden ------------------------


def practice_decks(players):
    boost = step("add_g_power", amount=80)
    cards = [
        ability("Boost", "in-battle", [boost], "red"),
        ability("Reverse", "before-roll", [step("lower_wins")], "blue"),
        ability(
            "Doom",
            "after-battle",
            [step("remove_bakugan", "after_battle", target="opponent")],
            "green",
        ),
    ]
    gates = [
        gate("Fire Pit", 20, pyrus=140, aquos=120, subterra=80),
        gate("Exchange", 50, effects=[step("swap_g_power", "gate_open")]),
        gate("Muddy", -20, subterra=140, haos=120, darkus=80),
    ]
    return [make_deck(s, gates=gates, abilities=cards) for s in range(players)]


def play_bots(players, seed, bots=("random",)):
    decks = practice_decks(players)
    state = bk.new_game(decks, {"players": players}, seed)
    seat_bots = [
        make_bot(bots[min(s, len(bots) - 1)], seed * 31 + s) for s in range(players)
    ]
    return play_out(bk, state, seat_bots, Rng(seed_state(seed, 7)))


def test_a_two_player_game_is_played_to_the_end():
    state = play_bots(2, 3, ("greedy", "random"))
    assert (bk.winner(state), bk.length(state), len(state.log)) == (0, 11, 104)
    assert state.won == [[3, 4, 1], [0]]
    assert state.reason == "Player 1 has won three gates."


def test_a_four_player_game_is_played_to_the_end():
    state = play_bots(4, 5)
    assert (bk.winner(state), bk.length(state), len(state.log)) == (2, 17, 244)
    assert state.won == [[], [9, 4], [6, 10, 1], [3, 0]]
    assert state.reason == "Player 3 has won three gates."


def test_the_golden_game_replays_exactly():
    golden = json.loads(GOLDEN.read_text())
    state = replay(
        bk, golden["decks"], golden["options"], golden["seed"], golden["log"]
    )
    assert bk.winner(state) == golden["winner"]
    assert bk.length(state) == golden["turns"]
    assert state.won == golden["won"]
    assert state.removed == golden["removed"]
    assert state.events == golden["events"]
    assert state.reason == golden["reason"]


# --- interface details --------------------------------------------------------


def test_actions_round_trip_through_their_text():
    for action in ALL_ACTIONS:
        assert bk.parse_action(action.text) == action
    with pytest.raises(EngineError) as error:
        bk.parse_action("P5 rolls B1")
    assert error.value.code == "bad_action"


def test_a_move_out_of_turn_is_refused_and_the_state_is_unchanged():
    state = two_player()
    before = bk.to_json(state)
    with pytest.raises(EngineError) as error:
        act(state, "P2 rolls B1")
    assert error.value.code == "not_your_turn"
    with pytest.raises(EngineError) as error:
        act(state, "missed")
    assert (error.value.code, error.value.message) == (
        "illegal_action",
        "No Bakugan is being rolled now.",
    )
    assert bk.to_json(state) == before


def test_a_deck_of_the_wrong_shape_or_with_an_unknown_figure_is_refused():
    short = make_deck(0)
    short["gate"] = short["gate"][:2]
    with pytest.raises(EngineError) as error:
        bk.new_game([short, make_deck(1)], {}, 1)
    assert error.value.message == "Player 1's deck needs exactly three gate cards."
    blank = make_deck(1, figures=[("Unknown", "pyrus", None)] * 3)
    with pytest.raises(EngineError) as error:
        bk.new_game([make_deck(0), blank], {}, 1)
    assert error.value.message == (
        "Player 2's bakugan card Unknown (id 100) cannot be played: "
        "Its G-Power is unknown."
    )
    assert bk.card_problems(
        {"card_type": "bakugan", "attribute": None, "g_power": 5}
    ) == ["Its attribute is unknown."]


def test_the_view_hides_other_hands_and_face_down_gates():
    state = act(two_player(), "P1 rolls B1")
    seen = bk.view(state, 1)
    assert seen["seats"][0]["gate_hand"] == 2
    assert seen["seats"][0]["ability_hand"] == 3
    # A gate in hand is named as the place action names it.
    assert [g["id"] for g in seen["seats"][1]["gate_hand"]] == ["G2", "G3"]
    assert seen["field"][0] == {
        "id": "P1-G1",
        "owner": 0,
        "open": False,
        "bakugan": None,
    }
    assert seen["field"][1]["name"] == "Gate 2.1"
    assert seen["rolling"]["name"] == "Dragonoid"
    assert seen["legal_actions"] == []


# --- hidden information ------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_no_view_ever_names_a_face_down_gate_or_a_hidden_ability(players):
    decks = secret_decks(players)
    hidden_seen = 0
    for seed in range(40):
        state = bk.new_game(decks, {"players": players}, seed)
        bots = [RandomBot(seed * 10 + s) for s in range(players)]
        chance = Rng(seed_state(seed, 9))
        while True:
            for k, opened in enumerate(state.field_open):
                assert not opened or state.field_gates[k] in state.opened
            for player in range(players):
                secret = hidden_names(state, player)
                hidden_seen += len(secret)
                text = json.dumps(bk.view(state, player).to_json())
                assert [name for name in secret if name in text] == []
            if bk.is_over(state):
                break
            seat = bk.to_act(state)
            if seat == CHANCE:
                unopened = {
                    decks[g // 3]["gate"][state.gate_card[g]]["name"]
                    for g in range(3 * players)
                    if g not in state.opened and state.gate_card[g] >= 0
                }
                for action, _ in bk.chance_outcomes(state):
                    words = bk.describe(state, action)
                    assert [name for name in unopened if name in words] == []
                action = resolve_chance(bk, state, chance)
            else:
                secret = hidden_names(state, seat)
                for action in bk.legal_actions(state):
                    words = bk.describe(state, action)
                    assert [name for name in secret if name in words] == []
                action = bots[seat].choose(bk, state)
            state = bk.apply(state, action, inplace=True)
    assert hidden_seen > 1000


def test_a_face_down_gate_is_named_in_events_only_to_those_who_may_see_it():
    state = act(two_player(), "P1 rolls B1")
    state = act(state, "landed on gate P2-G1")
    assert state.events[-2:] == [
        "Player 1's Dragonoid lands on P2-G1 (Gate 2.1).",
        "Player 1's Dragonoid stands on P2-G1 (Gate 2.1).",
    ]
    assert bk.view(state, 0)["events"][-2:] == [
        "Player 1's Dragonoid lands on P2-G1.",
        "Player 1's Dragonoid stands on P2-G1.",
    ]
    assert bk.view(state, 1)["events"][-2:] == state.events[-2:]
    assert bk.describe(state, bk.Action("land", -1, 3)) == (
        "The Bakugan lands on P2-G1."
    )


def test_a_gate_won_before_it_opens_stays_face_down_to_the_loser():
    strike = ability("Strike", "before-battle", [step("win_gate")])
    decks = [make_deck(0), make_deck(1, abilities=[strike] * 3)]
    state = two_player(decks)
    state = act(state, "P1 rolls B1")
    state = act(state, "landed on gate P1-G1")  # P1's gate, placed before P2
    state = act(state, "P2 rolls B1")
    state = act(state, "landed on gate P1-G1")
    state = act(state, "P2 plays A1")
    assert state.won == [[], [0]]
    assert state.opened == []
    assert bk.view(state, 1)["seats"][1]["gates_won"] == [
        {
            "id": "P1-G1",
            "owner": 0,
            "ref": "P1-G1",
            "name": "Gate 1.1",
            "bonus": {a: 0 for a in bk.ATTRIBUTES},
            "encoded": False,
            "effect": "Not encoded: it gives its bonus alone.",
        }
    ]
    assert bk.view(state, 0)["seats"][1]["gates_won"][0]["name"] == "Gate 1.1"
    four = bk.new_game([make_deck(s) for s in range(4)], {"players": 4}, 1)
    assert bk.view(four, 2)["seats"][1]["gates_won"] == []
