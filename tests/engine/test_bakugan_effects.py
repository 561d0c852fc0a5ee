"""Bakugan effects: one scenario per effect family, each from a real official
card as the card data file encodes it (fixtures/bakugan.json)."""

import pytest

from cards.effects import effect_sentence
from decks.engine import bakugan as bk
from tests.engine.scenarios import (
    HAOS,
    VENTUS,
    game,
    make_deck,
    p1_stands,
    pass_windows,
    plain,
    plain_gate,
    real,
    result,
    roll,
    to_battle,
)
from tests.engine.scenarios import bakugan_act as act


def step_passive():
    """A gate step that does nothing (its text adds nothing to the battle)."""
    return {"op": "no_effect", "timing": "passive"}


def pass_until(state, kind):
    """Pass every window until the window ``kind`` opens."""
    while state.phase == "window" and state.window_kind != kind:
        state = bk.apply(state, bk.Action("pass", bk.to_act(state)))
    return state


def test_attribute_bonus_bright_light_adds_its_printed_bonus_for_the_attribute():
    card = real("1-48", "33/48")  # Bright Light: Haos 80
    state = to_battle(game(HAOS, VENTUS, p1_ab=[card, *plain()]))
    state = act(state, "P1 plays A1")
    assert "Player 1's Tigrerra: +80 G-Power." in state.events
    state = pass_windows(state)
    assert (
        result(state) == "Player 2's Skyress 350 G against Player 1's Tigrerra 380 G."
    )
    assert state.won == [[0], []]


@pytest.mark.parametrize(
    ("gate_card", "tigrerra"),
    [
        (("1-48b", "18/48b"), 300 + 80 + 80 + 70),  # a copper grid: Haos 70
        (("1-48", "1/48"), 300 + 80 + 20),  # Fire Pit, silver: Haos 20
    ],
)
def test_bonus_again_on_a_gate_class_copper_boost_doubles_on_copper(
    gate_card, tigrerra
):
    card = real("1-48q-1", "33/48q")  # Copper Boost: Haos 80, once more on copper
    gates = [real(*gate_card)] * 3
    if gate_card == ("1-48b", "18/48b"):
        # A copper gate whose own text does nothing to G-Power from abilities.
        gates = [
            {**gates[0], "effects": [{"op": "no_effect", "timing": "passive"}]}
        ] * 3
    state = to_battle(game(HAOS, VENTUS, p1_gates=gates, p1_ab=[card, *plain()]))
    state = pass_windows(act(state, "P1 plays A1"))
    assert result(state).endswith(f"Player 1's Tigrerra {tigrerra} G.")


def test_gate_bonus_again_gargonoid_gives_a_gargonoid_its_bonus_twice():
    gates = [real("1-48", "9/48")] * 3  # Gargonoid: Darkus 150
    p1 = [("Gargonoid", "darkus", 300), ("Gorem", "subterra", 330), HAOS[2]]
    state = pass_windows(to_battle(game(p1, VENTUS, p1_gates=gates)))
    assert "Player 1's Gargonoid: the gate bonus counts again." in state.events
    # Skyress 350 + Ventus 50 against Gargonoid 300 + 150 + 150.
    assert (
        result(state) == "Player 2's Skyress 400 G against Player 1's Gargonoid 600 G."
    )


def test_no_gate_bonus_shadowfire_takes_the_opponents_bonus_on_their_gate():
    card = real("1-48i", "41/48i")  # Shadowfire
    p2_gates = [real("1-48", "1/48")] * 3  # Fire Pit: Ventus 60, Darkus 20
    p1 = [("Hydranoid", "darkus", 320), HAOS[1], HAOS[0]]
    state = to_battle(
        game(p1, VENTUS, p2_gates=p2_gates, p1_ab=[card, *plain()]), "P2-G1"
    )
    state = pass_windows(act(state, "P1 plays A1"))
    assert "Player 2's Skyress: no gate bonus." in state.events
    assert (
        result(state) == "Player 2's Skyress 350 G against Player 1's Hydranoid 340 G."
    )


def test_nullify_gate_rikimaros_surprise_keeps_the_bonus_and_drops_the_text():
    card = real("1-48", "32/48")  # Rikimaro's Surprise, before the roll
    gates = [real("1-48", "18/48")] * 3  # Duck & Win: the lower G-Power wins
    state = game(HAOS, VENTUS, p1_gates=gates, p2_ab=[card, *plain()])
    state = p1_stands(state)
    state = act(act(state, "P2 rolls B3"), "P2 plays A1")
    state = pass_windows(act(pass_windows(state), "landed on gate P1-G1"))
    assert any("does not count; its bonus does" in e for e in state.events)
    # Skyress 350 + 110 against Tigrerra 300 + 120: the higher wins again.
    assert (
        result(state) == "Player 2's Skyress 460 G against Player 1's Tigrerra 420 G."
    )
    assert state.won == [[], [0]]


def test_no_abilities_stand_off_closes_the_battle_windows():
    gates = [real("1-48", "20/48")] * 3  # Stand Off
    boost = real("1-48", "33/48")
    state = to_battle(game(HAOS, VENTUS, p1_gates=gates, p1_ab=[boost, *plain()]))
    assert "Player 1 may not play Ability cards in this battle." in state.events
    assert "Player 2 may not play Ability cards in this battle." in state.events
    assert state.ability_hand[0] == [0, 1, 2]
    assert state.window_kind != "in_battle"


def test_no_abilities_a_barred_player_is_still_asked_and_may_only_pass():
    gates = [real("1-48", "20/48")] * 3  # Stand Off
    boost = real("1-48", "33/48")  # in battle
    state = game(HAOS, VENTUS, p1_gates=gates, p1_ab=[boost, *plain()])
    # Step by step: ``act`` would play the barred seat's forced passes itself.
    state = pass_windows(bk.apply(p1_stands(state), bk.parse_action("P2 rolls B3")))
    state = bk.apply(state, bk.parse_action("landed on gate P1-G1"))
    state = pass_until(state, "in_battle")
    # Every window goes round its seats (B10): the barred P1 is asked, but
    # its Bright Light may not be played, only passed.
    while bk.to_act(state) != 0:
        state = bk.apply(state, bk.Action("pass", bk.to_act(state)))
    assert state.window_kind == "in_battle"
    assert bk.legal_actions(state) == [bk.Action("pass", 0)]
    with pytest.raises(bk.EngineError) as error:
        bk.apply(state, bk.parse_action("P1 plays A1"))
    assert error.value.message == "You may not play Ability cards in this battle."
    assert bk.view(state, 0)["legal_actions"] == ["P1 passes"]


def test_a_gate_placed_from_another_deck_place_acts_as_that_card():
    """The field code (P1-G1: P1's first placed) is not the deck place (G2): the
    gate's class, bonus and text are the card's that lies there."""
    card = real("1-48q-1", "33/48q")  # Copper Boost: Haos 80, once more on copper
    copper = {**real("1-48b", "18/48b"), "effects": [step_passive()]}  # Haos 70
    fire_pit = real("1-48", "1/48")  # silver: Haos 20
    decks = [
        make_deck(0, HAOS, [fire_pit, copper, fire_pit], [card, *plain()]),
        make_deck(1, VENTUS, [plain_gate()] * 3, plain(3)),
    ]
    state = bk.new_game(decks, {"first": 0}, 7)
    state = act(act(state, "P1 places G2"), "P2 places G1")
    assert state.field_gates[0] == 0 and state.gate_card[0] == 1
    field = bk.view(state, 0)["field"][0]
    assert field["id"] == "P1-G1" and field["name"] == copper["name"]
    assert field["effect"] == state.static.gate_text[1]
    state = act(to_battle(state), "P1 plays A1")
    state = pass_windows(state)
    assert result(state).endswith(f"Player 1's Tigrerra {300 + 80 + 80 + 70} G.")


def test_double_ability_bonus_lockdown_doubles_bright_light():
    gates = [real("1-48b", "18/48b")] * 3  # Lockdown: Haos 70
    card = real("1-48", "33/48")
    state = to_battle(game(HAOS, VENTUS, p1_gates=gates, p1_ab=[card, *plain()]))
    state = pass_windows(act(state, "P1 plays A1"))
    assert result(state).endswith("Player 1's Tigrerra 530 G.")  # 300 + 2 * 80 + 70


def test_zero_ability_bonus_stuck_makes_ability_cards_add_nothing():
    stuck = real("1-48b", "32/48b")  # before rolling a Subterra
    p2 = [VENTUS[0], VENTUS[1], ("Gorem", "subterra", 330)]
    state = game(
        HAOS, p2, p1_ab=[real("1-48", "33/48"), *plain()], p2_ab=[stuck, *plain()]
    )
    state = p1_stands(state)
    state = act(act(state, "P2 rolls B3"), "P2 plays A1")
    state = act(pass_windows(state), "landed on gate P1-G1")
    state = pass_windows(act(state, "P1 plays A1"))
    assert "Ability cards add no G-Power in this battle." in state.events
    assert result(state) == "Player 2's Gorem 330 G against Player 1's Tigrerra 300 G."


def test_return_abilities_stand_your_ground_gives_back_the_used_cards():
    gates = [real("1-48", "24/48")] * 3  # Stand Your Ground
    card = real("1-48", "33/48")
    state = to_battle(game(HAOS, VENTUS, p1_gates=gates, p1_ab=[card, *plain()]))
    state = pass_windows(act(state, "P1 plays A1"))
    assert "Player 1 takes back 1 used Ability card(s)." in state.events
    assert state.ability_hand[0] == [0, 1, 2] and state.abilities_used[0] == []


def test_discard_ability_masquerades_throw_costs_the_opponent_a_card():
    card = real("1-48", "29/48")  # before the roll
    state = game(HAOS, VENTUS, p2_ab=[card, *plain()])
    state = p1_stands(state)
    state = act(act(state, "P2 rolls B3"), "P2 plays A1")
    assert state.abilities_used[0] == [0] and state.ability_hand[0] == [1, 2]


def test_reroll_try_again_rolls_a_missed_pyrus_again():
    card = real("1-15a", "7/15a")
    state = game(HAOS, [VENTUS[1], VENTUS[0], VENTUS[2]], p2_ab=[card, *plain()])
    state = p1_stands(state)
    state = act(act(state, "P2 rolls B1"), "missed")  # Saurus, Pyrus
    state = pass_windows(act(state, "P2 plays A1"))
    assert (
        state.phase == "roll" and "Player 2's Saurus is rolled again." in state.events
    )
    state = pass_windows(act(state, "landed on gate P2-G1"))
    assert state.field_bakugan == [0, 3]


def test_extra_turn_moon_lance_gives_another_turn_without_a_battle():
    card = real("1-48ah", "26/48ah")
    state = game(HAOS, VENTUS, p2_ab=[card, *plain()])
    state = p1_stands(state)
    state = act(act(state, "P2 rolls B3"), "landed on gate P2-G1")
    state = pass_windows(act(state, "P2 plays A1"))
    assert "Player 2 takes another turn." in state.events
    assert (state.turn_player, state.phase) == (1, "choose")


def test_take_gate_haos_2_takes_a_won_gate_from_the_stronger_opponent():
    card = real("1-48b", "42/48b")  # Haos, opponent printed 160 or more higher
    p2 = [VENTUS[0], VENTUS[1], ("Skyress", "ventus", 460)]
    state = game(HAOS, p2, p1_ab=[card, *plain()])
    state.won[1].append(4)  # P2 has won a gate already (P2-G2)
    state.gate_hand[1].remove(1)
    state.gate_card[4] = 1  # P2-G2 is P2's deck gate 2
    state = act(to_battle(state), "P1 plays A1")
    assert "Player 1 takes P2-G2 (Plain) from Player 2's used pile." in state.events
    assert state.won[0][:1] == [4]


def test_keep_gate_sub_terra_keeps_the_gate_after_a_narrow_loss():
    card = real("1-48", "47/48")  # after losing with a Subterra by less than 100
    p1 = [("Gorem", "subterra", 330), HAOS[0], HAOS[2]]
    state = pass_until(
        to_battle(game(p1, VENTUS, p1_ab=[card, *plain()])), "after_battle"
    )
    assert state.window_kind == "after_battle" and state.won == [[], [0]]
    while bk.to_act(state) != 0:
        state = act(state, "P2 passes")
    state = act(state, "P1 plays A1")
    assert (
        "P1-G1 (Plain) stays in the field: Player 2 does not take it." in state.events
    )
    assert state.won == [[], []] and 0 in state.field_gates


def test_move_bakugan_maruchos_throw_moves_the_landed_bakugan_into_battle():
    card = real("1-48", "25/48")
    state = game(HAOS, VENTUS, p2_ab=[card, *plain()])
    state = p1_stands(state)
    state = act(act(state, "P2 rolls B3"), "landed on gate P2-G1")
    state = act(state, "P2 plays A1")
    assert state.battle is not None and state.battle.gate == 0


def test_lower_wins_duck_and_win_and_swap_g_power_exchange():
    duck = [real("1-48", "18/48")] * 3
    state = pass_windows(to_battle(game(HAOS, VENTUS, p1_gates=duck)))
    assert result(state).endswith("(lower wins).") and state.won == [[0], []]
    exchange = [real("1-48", "19/48")] * 3  # Haos 20, Ventus 80
    state = pass_windows(to_battle(game(HAOS, VENTUS, p1_gates=exchange)))
    assert (
        result(state) == "Player 2's Skyress 380 G against Player 1's Tigrerra 370 G."
    )


def test_remove_bakugan_doom_card_removes_the_loser():
    card = real("1-48", "46/48")  # before the battle; Darkus bonus 30
    state = game(HAOS, VENTUS, p2_ab=[card, *plain()])
    state = p1_stands(state)
    state = act(act(state, "P2 rolls B3"), "landed on gate P1-G1")
    state = pass_windows(act(state, "P2 plays A1"))
    assert state.removed == [[0], []]
    assert "Player 1's Tigrerra is removed from the game (B12)." in state.events


def test_counted_bonus_rainbow_adds_per_attribute_its_owner_uses():
    gates = [real("1-48b", "19/48b")] * 3  # +100 per attribute; Haos 90, Ventus 50
    state = pass_windows(to_battle(game(HAOS, VENTUS, p1_gates=gates)))
    assert (
        result(state) == "Player 2's Skyress 700 G against Player 1's Tigrerra 690 G."
    )


def test_battle_condition_pleasant_stone_needs_a_subterra_in_the_battle():
    gates = [real("1-48n", "10/48n")] * 3  # Subterra present: Haos, Darkus +300
    p2 = [VENTUS[0], VENTUS[1], ("Gorem", "subterra", 330)]
    state = pass_windows(to_battle(game(HAOS, p2, p1_gates=gates)))
    assert result(state) == "Player 2's Gorem 530 G against Player 1's Tigrerra 600 G."
    state = pass_windows(to_battle(game(HAOS, VENTUS, p1_gates=gates)))
    assert "Its condition does not hold: no effect." in state.events


def test_return_bakugan_and_clear_field_and_zero_printed_act_before_the_roll():
    call = real("1-48ah", "41/48ah")  # Haos and Ventus back from the used pile
    state = game(HAOS, VENTUS, p2_ab=[call, *plain()])
    state = p1_stands(state)
    state = pass_windows(roll(state, "P2 rolls B3", "missed"))
    state = pass_windows(roll(state, "P1 rolls B2", "missed"))
    assert state.used[1] == [2]
    state = act(act(state, "P2 rolls B1"), "P2 plays A1")
    assert state.unused[1] == [1, 2] and state.used[1] == []
    slate = real("1-48b", "29/48b")  # before rolling a Darkus: the field clears
    state = game(
        HAOS, [("Hydranoid", "darkus", 320), *VENTUS[1:]], p2_ab=[slate, *plain()]
    )
    state = p1_stands(state)
    state = act(act(state, "P2 rolls B1"), "P2 plays A1")
    assert state.field_bakugan == [-1, -1] and state.used[0] == [0]
    pyrus = real("1-48", "41/48")  # before rolling a Pyrus: printed counts zero
    state = game(HAOS, [("Saurus", "pyrus", 300), *VENTUS[1:]], p2_ab=[pyrus, *plain()])
    state = p1_stands(state)
    state = act(act(state, "P2 rolls B1"), "P2 plays A1")
    state = pass_windows(act(pass_windows(state), "landed on gate P1-G1"))
    assert result(state) == "Player 2's Saurus 0 G against Player 1's Tigrerra 0 G."


def test_no_effect_gate_and_not_encoded_cards():
    fire_pit = [real("1-48", "1/48")] * 3
    # Thundercrack: its reference description is a placeholder, so it stays
    # not encoded until someone reads the card.
    julie, heavy = real("1-48", "26/48"), real("1-48i", "35/48i")
    assert julie["effects"] == [] and heavy["effects"] == []
    state = to_battle(
        game(HAOS, VENTUS, p1_gates=fire_pit, p1_ab=[heavy, julie, plain(1)[0]])
    )
    assert "P1-G1 (Fire Pit) opens." in state.events
    assert bk.legal_actions(state)[0].text == "P1 plays A1"  # Thundercrack, in battle
    state = act(state, "P1 plays A1")
    assert state.events[-2] == (
        "Player 1 plays Thundercrack: its text is not encoded, "
        "so it plays as its printed bonus alone."
    )
    view = bk.view(state, 0)
    hand = {a["name"]: a for a in view["seats"][0]["ability_hand"]}
    assert hand["Julie's Throw"]["encoded"] is False
    assert (
        hand["Julie's Throw"]["effect"] == "Not encoded: it only goes to the used pile."
    )


def test_the_board_shows_the_sentence_generated_from_the_encoding():
    card = real("1-48q-1", "33/48q")
    state = game(HAOS, VENTUS, p1_ab=[card, *plain()])
    hand = bk.view(state, 0)["seats"][0]["ability_hand"]
    assert (
        hand[0]["effect"]
        == effect_sentence(card["effects"])
        == (
            "In battle: your Bakugan gets this card's bonus for its attribute, "
            "and once more on a copper gate."
        )
    )
    gates = bk.view(state, 0)["seats"][0]["gate_hand"]
    assert all(g["effect"] == "Not encoded: it gives its bonus alone." for g in gates)


def test_a_reroll_after_maruchos_throw_moves_the_new_landing_or_is_spent():
    """Do Over after Marucho's Throw: a miss spends the move, a landing moves."""
    throw, again = real("1-48", "25/48"), real("1-15a", "14/15a", 901)
    state = game(HAOS, VENTUS, p2_ab=[throw, again, *plain(1)])
    state = p1_stands(state)
    state = act(act(state, "P2 rolls B3"), "landed on gate P2-G1")
    state = act(act(state, "P2 plays A1"), "P2 plays A2")
    assert state.phase == "roll" and "Player 2's Skyress is rolled again." in (
        state.events
    )
    missed = pass_windows(act(state, "missed"))  # raised ValueError before
    assert missed.phase == "choose" and missed.field_bakugan == [0, -1]
    assert "Player 2's Skyress misses every gate." in missed.events
    landed = act(state, "landed on gate P2-G1")
    assert landed.battle is not None and landed.battle.gate == 0  # moved to P1-G1


def test_sentences_read_the_owners_battler_for_the_ops_the_engine_does():
    # cards.effects may not import the engine, so it keeps its own copy of the list.
    from cards import effects
    from decks.engine.bakugan import effects as engine_effects

    assert effects._WHOLE_BATTLE_OPS == set(engine_effects._WHOLE_BATTLE)
