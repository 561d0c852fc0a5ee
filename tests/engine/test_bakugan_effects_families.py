"""Bakugan effects added for the later series: one scenario per new effect
family, each from a real official card as fixtures/bakugan.json encodes it."""

import random

from cards.effects import effect_sentence
from decks.engine import bakugan as bk
from tests.engine.scenarios import (
    HAOS,
    VENTUS,
    _cards,
    figure,
    game,
    p1_stands,
    pass_windows,
    plain,
    real,
    result,
    roll,
    to_battle,
)
from tests.engine.scenarios import bakugan_act as act


def test_reroll_on_miss_go_for_perfect_rolls_a_missed_bakugan_twice_more():
    card = real("1-48d", "28/48d")  # Go For Perfect: up to two more rolls
    state = game(HAOS, VENTUS, p1_ab=[card, *plain()])
    state = pass_windows(act(act(state, "P1 rolls B1"), "P1 plays A1"))
    assert "Player 1's Tigrerra rolls again if it misses." in state.events
    state = act(state, "missed")
    assert state.phase == "roll" and state.rolling == 0
    state = act(state, "missed")
    assert state.phase == "roll"
    state = pass_windows(act(state, "missed"))  # the third miss stands
    assert state.used[0] == [0] and state.turn_player == 1


def test_first_roll_dan_and_marucho_loses_its_bonus_after_a_reroll():
    card = real("1-48q-1", "25/48q")  # Dan and Marucho: +50, re-roll once
    p2 = [("Dragonoid", "pyrus", 300), VENTUS[1], VENTUS[2]]
    for misses, dragonoid in ((0, 300 + 50 + 140), (1, 300 + 140)):
        state = game(
            HAOS, p2, p1_gates=[real("1-48", "1/48")] * 3, p2_ab=[card, *plain()]
        )
        state = p1_stands(state)  # Tigrerra (Haos 20 on Fire Pit)
        state = pass_windows(act(act(state, "P2 rolls B1"), "P2 plays A1"))
        for _ in range(misses):
            state = act(state, "missed")
        state = pass_windows(act(state, "landed on gate P1-G1"))
        assert result(state) == (
            f"Player 2's Dragonoid {dragonoid} G against Player 1's Tigrerra 320 G."
        )


def test_used_pile_gate_forest_fire_gives_fire_earth_and_dark_fifty():
    fire = real("1-48b", "13/48b")  # Forest Fire: only from a used pile
    pit = real("1-48", "1/48")  # Fire Pit: Pyrus 140, Darkus 20, Ventus 60
    p1 = [("Dragonoid", "pyrus", 300), HAOS[1], HAOS[2]]
    state = game(p1, VENTUS, p1_gates=[fire, pit, pit])
    assert effect_sentence(fire["effects"], is_gate=True) == (
        "While this card lies in a used pile: each battling Bakugan gets +50 "
        "G-Power if it is Pyrus, Darkus or Subterra."
    )
    state = to_battle(state)  # on Forest Fire itself: no +50 yet
    state = pass_windows(state)
    assert result(state) == (
        "Player 2's Skyress 510 G against Player 1's Dragonoid 360 G."
    )
    assert state.won == [[], [0]]  # Player 2 holds Forest Fire now
    state = pass_windows(roll(state, "P1 rolls B2", "landed on gate P2-G1"))
    state = pass_windows(roll(state, "P2 rolls B2", "landed on gate P2-G1"))
    # On a plain gate: Saurus (Pyrus 300 + 50) against Gorem (Subterra 330 + 50).
    assert "Player 2's Saurus: +50 G-Power (a card in a used pile)." in state.events
    assert result(state) == "Player 2's Saurus 350 G against Player 1's Gorem 380 G."


def test_used_pile_ability_power_card_alpha_keeps_the_bonus_from_the_stronger():
    card = real("1-48n", "45/48n")  # Power Card Alpha
    pit = [real("1-48", "1/48")] * 3  # Fire Pit: Pyrus 140, Darkus 20
    p1 = [("Hydranoid", "darkus", 320), HAOS[1], HAOS[0]]
    p2 = [VENTUS[0], VENTUS[2], ("Dragonoid", "pyrus", 300)]
    state = game(p1, p2, p1_gates=pit, p1_ab=[card, *plain()])
    state = pass_windows(act(act(state, "P1 rolls B1"), "P1 plays A1"))
    state = pass_windows(act(state, "landed on gate P1-G1"))
    state = pass_windows(roll(state, "P2 rolls B3", "landed on gate P1-G1"))
    assert (
        "Player 1's Hydranoid: no gate bonus (a card in a used pile)." in state.events
    )
    assert (
        result(state)
        == "Player 2's Dragonoid 440 G against Player 1's Hydranoid 320 G."
    )


def test_used_pile_reroll_rainbow_portal_rolls_a_missed_subterra_again():
    card = real("1-48i", "25/48i")  # Rainbow Portal: Pyrus, Subterra, Darkus
    state = game(HAOS, VENTUS, p1_ab=[card, *plain()])
    state = pass_windows(act(act(state, "P1 rolls B1"), "P1 plays A1"))
    state = pass_windows(act(state, "missed"))  # Tigrerra is Haos: no re-roll
    assert state.used[0] == [0]
    state = pass_windows(roll(state, "P2 rolls B1", "missed"))
    state = act(state, "P1 rolls B2")  # Gorem, Subterra
    assert (
        "Player 1's Gorem rolls again if it misses (Rainbow Portal, in the used pile)."
        in state.events
    )
    state = act(pass_windows(state), "missed")
    assert state.phase == "roll" and state.rolling == 1


def test_change_attribute_siege_switch_takes_the_best_bonus_on_the_gate():
    card = real("1-48", "42/48")  # Siege Switch
    pit = [real("1-48", "1/48")] * 3  # Fire Pit: Pyrus 140 is its best
    p1 = [("Siege", "darkus", 300), HAOS[1], HAOS[2]]
    state = to_battle(game(p1, VENTUS, p1_gates=pit, p1_ab=[card, *plain()]))
    state = pass_windows(act(state, "P1 plays A1"))
    assert "Player 1's Siege is now Pyrus." in state.events
    assert result(state) == "Player 2's Skyress 410 G against Player 1's Siege 440 G."


def test_change_attribute_spectrum_null_gate_takes_the_strongers_attribute():
    nulls = [real("1-48q-1", "18/48q")] * 3  # Haos 200, Ventus 100
    state = pass_windows(to_battle(game(HAOS, VENTUS, p1_gates=nulls)))
    assert "Player 2's Skyress has no attribute now." in state.events
    assert (
        result(state) == "Player 2's Skyress 350 G against Player 1's Tigrerra 500 G."
    )


def test_change_attribute_color_swap_swaps_only_when_it_helps():
    card = real("1-48d", "47/48d")  # Color Swap, for the lower printed G-Power
    pit = [real("1-48", "1/48")] * 3  # Fire Pit: Haos 20, Ventus 60
    state = to_battle(game(HAOS, VENTUS, p1_gates=pit, p1_ab=[card, *plain()]))
    state = pass_windows(act(state, "P1 plays A1"))
    assert "The two battling Bakugan swap attributes." in state.events
    assert (
        result(state) == "Player 2's Skyress 370 G against Player 1's Tigrerra 360 G."
    )


def test_best_gate_bonus_runos_launcher_gives_the_weaker_haos_the_top_bonus():
    card = real("1-48c", "25/48c")  # Runo's Launcher, before a Haos roll
    pit = [real("1-48", "1/48")] * 3  # Fire Pit: best Pyrus 140, Haos 20
    p2 = [VENTUS[0], VENTUS[1], ("Blade Tigrerra", "haos", 280)]
    state = p1_stands(game(HAOS, p2, p1_gates=pit, p2_ab=[card, *plain()]))
    state = pass_windows(act(act(state, "P2 rolls B3"), "P2 plays A1"))
    state = pass_windows(act(state, "landed on gate P1-G1"))
    assert result(state) == (
        "Player 2's Blade Tigrerra 420 G against Player 1's Tigrerra 320 G."
    )


def test_cap_gate_bonus_ground_cuts_every_bonus_to_fifty():
    card = real("1-48c", "46/48c")  # Ground, before a battle with a Subterra
    pit = [real("1-48", "1/48")] * 3  # Fire Pit: Subterra 80, Ventus 60
    p1 = [("Gorem", "subterra", 330), HAOS[0], HAOS[2]]
    state = to_battle(game(p1, VENTUS, p1_gates=pit, p1_ab=[card, *plain()]))
    assert state.window_kind == "before_battle"
    state = pass_windows(act(state, "P1 plays A1"))
    assert "Gate bonuses above 50 count as 50 in this battle." in state.events
    assert result(state) == "Player 2's Skyress 400 G against Player 1's Gorem 380 G."


def test_clear_bonuses_abisomega_drops_the_gate_bonus_and_adds_fifty():
    card = real("1-48q-2", "46/48q")  # Abisomega
    pit = [real("1-48", "1/48")] * 3  # Fire Pit: Aquos 120, Ventus 60
    p1 = [("Abis Omega", "aquos", 300), HAOS[1], HAOS[2]]
    state = to_battle(game(p1, VENTUS, p1_gates=pit, p1_ab=[card, *plain()]))
    state = pass_windows(act(state, "P1 plays A1"))
    assert "Every G-Power bonus so far in this battle is lost." in state.events
    # A tie goes to the defender: Abis Omega keeps the gate.
    assert (
        result(state) == "Player 2's Skyress 350 G against Player 1's Abis Omega 350 G."
    )
    assert state.won == [[0], []]


def test_colour_ban_dark_tunnel_bars_blue_and_green_ability_cards():
    tunnel = [real("1-48i", "20/48i")] * 3  # Dark Tunnel: Haos 80, Ventus 140
    light = real("1-48", "33/48")  # Bright Light, a blue card
    state = to_battle(game(HAOS, VENTUS, p1_gates=tunnel, p1_ab=[light, *plain()]))
    assert (
        "Player 1 may not play Green or Blue Ability cards in this battle."
        in state.events
    )
    state = pass_windows(state)
    assert state.ability_hand[0] == [0, 1, 2]
    assert (
        result(state) == "Player 2's Skyress 490 G against Player 1's Tigrerra 380 G."
    )


def test_late_count_percival_field_counts_the_cards_played_in_the_battle():
    field = [real("1-48n", "9/48n")] * 3  # Percival Field: Darkus 150, Ventus 120
    brawl = real("1-48d", "36/48d")  # Big Brawl: Darkus 20 per attribute in play
    p1 = [("Percival", "darkus", 300), HAOS[0], HAOS[1]]
    state = to_battle(game(p1, VENTUS, p1_gates=field, p1_ab=[brawl, *plain()]))
    state = pass_windows(act(state, "P1 plays A1"))
    # 300 + 150, +40 (Darkus and Ventus in play), +100 (one card played).
    assert "Player 1's Percival: +40 G-Power." in state.events
    assert (
        result(state) == "Player 2's Skyress 470 G against Player 1's Percival 590 G."
    )


def test_win_gate_gorem_and_needles_eye_decide_the_battle_when_it_opens():
    gorem = [real("1-48b", "14/48b")] * 3
    p1 = [("Gorem", "subterra", 330), HAOS[0], HAOS[2]]
    p2 = [VENTUS[0], VENTUS[1], ("Saurus", "pyrus", 180)]
    state = to_battle(game(p1, p2, p1_gates=gorem))
    assert "Player 1's Gorem wins the battle at once." in state.events
    assert state.won == [[0], []]
    needle = [real("1-48n", "17/48n")] * 3  # the lower printed G-Power wins
    state = to_battle(game(HAOS, VENTUS, p1_gates=needle))
    assert "Player 1's Tigrerra wins the battle at once." in state.events
    assert state.won == [[0], []]


def test_opponent_used_graveyard_fire_reads_the_opponents_used_bakugan():
    card = real("1-48q-1", "37/48q")  # Graveyard Fire: Aquos 150
    state = p1_stands(game(HAOS, VENTUS, p1_ab=[card, *plain()]))
    state = pass_windows(roll(state, "P2 rolls B1", "missed"))  # Preyas, Aquos
    state = pass_windows(roll(state, "P1 rolls B2", "missed"))
    state = roll(state, "P2 rolls B3", "landed on gate P1-G1")
    state = pass_windows(act(state, "P1 plays A1"))
    assert "Player 1's Tigrerra: +150 G-Power." in state.events
    assert (
        result(state) == "Player 2's Skyress 350 G against Player 1's Tigrerra 450 G."
    )


def test_trap_conditions_hold_never_heavy_water_adds_its_bonus_once():
    card = real("1-48e", "37/48e")  # Heavy Water: Aquos 80, again with a Trap
    p1 = [("Preyas", "aquos", 310), HAOS[1], HAOS[2]]
    state = to_battle(game(p1, VENTUS, p1_ab=[card, *plain()]))
    state = pass_windows(act(state, "P1 plays A1"))
    assert "Its condition does not hold: no effect." in state.events
    assert result(state) == "Player 2's Skyress 350 G against Player 1's Preyas 390 G."


def test_swap_battler_aquos_2_makes_the_opponent_bring_an_unused_bakugan():
    card = real("1-48b", "41/48b")  # Aquos 2: the opponent swaps from unused
    p1 = [("Preyas", "aquos", 310), HAOS[1], HAOS[2]]
    state = to_battle(game(p1, VENTUS, p1_ab=[card, *plain()]))
    assert state.window_kind == "before_battle"
    state = pass_windows(act(state, "P1 plays A1"))
    # Player 2 picks its strongest unused one: Preyas (310) over Saurus (300).
    assert "Player 2's Skyress is replaced by Player 2's Preyas." in state.events
    assert result(state) == "Player 2's Preyas 310 G against Player 1's Preyas 310 G."
    assert sorted(state.used[1]) == [0, 2] and state.unused[1] == [1]


def test_join_gate_flames_of_light_stands_a_bakugan_to_meet_the_landing():
    card = real("1-48i", "29/48i")  # Flames of Light: an unused Pyrus or Haos
    p1 = [HAOS[1], ("Dragonoid", "pyrus", 340), HAOS[0]]
    state = game(p1, VENTUS, p1_ab=[card, *plain()])
    state = pass_windows(roll(state, "P1 rolls B1", "landed on gate P2-G1"))
    state = roll(state, "P2 rolls B3", "landed on gate P1-G1")
    state = pass_windows(act(state, "P1 plays A1"))
    assert "Player 1's Dragonoid stands on P1-G1 (Plain)." in state.events
    assert (
        result(state) == "Player 2's Skyress 350 G against Player 1's Dragonoid 340 G."
    )


def test_place_gate_marucho_launcher_adds_a_gate_when_one_is_left():
    card = real("1-48c", "27/48c")  # Marucho's Launcher, before an Aquos roll
    p2 = [VENTUS[0], ("Frosch", "aquos", 320), VENTUS[2]]
    state = game(HAOS, p2, p2_ab=[card, *plain()])
    state = pass_windows(roll(state, "P1 rolls B1", "landed on gate P2-G1"))
    state = pass_windows(roll(state, "P2 rolls B1", "landed on gate P2-G1"))
    assert state.won == [[], [3]] and state.field_gates == [0]
    state = pass_windows(roll(state, "P1 rolls B2", "missed"))
    state = pass_windows(act(act(state, "P2 rolls B2"), "P2 plays A1"))
    assert "Player 2 places gate P2-G2 face down." in state.events
    assert state.field_gates == [0, 4] and state.gate_hand[1] == [2]


def test_copy_printed_copy_cat_takes_the_printed_g_power_of_a_used_bakugan():
    card = real("1-15a", "12/15a")  # Copy Cat, at the start of a battle
    state = p1_stands(game(HAOS, VENTUS, p1_ab=[card, *plain()]))
    state = pass_windows(roll(state, "P2 rolls B1", "missed"))  # Preyas, 310
    state = pass_windows(roll(state, "P1 rolls B2", "missed"))
    state = roll(state, "P2 rolls B3", "landed on gate P1-G1")
    state = pass_windows(act(state, "P1 plays A1"))
    assert "Player 1's Tigrerra: printed G-Power 310 from now." in state.events
    assert (
        result(state) == "Player 2's Skyress 350 G against Player 1's Tigrerra 310 G."
    )


def test_bank_gate_balance_echo_puts_a_gate_in_the_used_pile_after_a_tie():
    card = real("1-48q-2", "43/48q")  # Balance Echo, when a battle is a tie
    p2 = [VENTUS[0], VENTUS[2], ("Saurus", "pyrus", 300)]
    state = to_battle(game(HAOS, p2, p1_ab=[card, *plain()]))
    assert state.window_kind == "after_battle"
    state = act(act(state, "P2 passes"), "P1 plays A1")
    assert "Player 1 puts an unused gate into the used pile." in state.events
    assert state.won[0] == [0, 1] and state.gate_hand[0] == [2]


def test_opponent_reroll_skull_shogun_makes_the_opponent_roll_again():
    card = real("1-48ah", "27/48ah")  # Skull Shogun, with a Darkus standing
    p1 = [HAOS[2], HAOS[0], HAOS[1]]  # Hydranoid, Darkus, first
    state = p1_stands(game(p1, VENTUS, p1_ab=[card, *plain()]))
    state = roll(state, "P2 rolls B3", "landed on gate P2-G1")
    state = pass_windows(act(state, "P1 plays A1"))
    assert "Player 2's Skyress will roll again." in state.events
    assert state.phase == "roll" and state.rolling == 5


def test_arm_rip_tide_starts_its_lasting_reroll_only_when_behind():
    card = real("1-48e", "25/48e")  # Rip Tide: from the used pile, Aquos/Haos
    p1 = [HAOS[0], ("Preyas", "aquos", 310), ("Frosch", "aquos", 320)]
    state = game(p1, VENTUS, p1_ab=[card, *plain()])
    state = pass_windows(roll(state, "P1 rolls B1", "landed on gate P2-G1"))
    state = pass_windows(roll(state, "P2 rolls B3", "landed on gate P2-G1"))
    assert state.won == [[], [3]]  # Player 1 is behind now
    state = pass_windows(act(act(state, "P1 rolls B2"), "P1 plays A1"))
    assert "Rip Tide: its lasting effect starts." in state.events
    state = act(state, "missed")  # Preyas rolls again: the card counts already
    state = pass_windows(act(state, "missed"))
    state = pass_windows(roll(state, "P2 rolls B1", "missed"))
    state = act(state, "P1 rolls B3")
    assert (
        "Player 1's Frosch rolls again if it misses (Rip Tide, in the used pile)."
        in state.events
    )
    state = game(p1, VENTUS, p1_ab=[card, *plain()])  # not behind: never starts
    state = pass_windows(act(act(state, "P1 rolls B2"), "P1 plays A1"))
    assert state.events[-1] == (
        "Rip Tide: its condition does not hold, so its lasting effect never starts."
    )


def test_own_piles_lightning_berserker_counts_each_attribute_in_the_piles():
    card = real("1-48ah", "39/48ah")  # Haos 110, Subterra 100, Ventus 50, ...
    state = to_battle(game(HAOS, VENTUS, p1_ab=[card, *plain()]))
    state = pass_windows(act(state, "P1 plays A1"))
    # Tigrerra: Haos 110, then Subterra 100 and Darkus (not printed) for its
    # owner's unused Gorem and Hydranoid. Skyress: Ventus 50, then Aquos 50
    # and Pyrus 100 for Preyas and Saurus.
    assert (
        result(state) == "Player 2's Skyress 550 G against Player 1's Tigrerra 510 G."
    )


def test_send_used_taking_you_with_me_clears_an_enemy_after_a_miss():
    card = real("1-48i", "27/48i")  # Taking You With Me, after a missed roll
    state = game(HAOS, VENTUS, p1_ab=[card, *plain()])
    state = pass_windows(roll(state, "P1 rolls B1", "missed"))
    state = pass_windows(roll(state, "P2 rolls B1", "landed on gate P2-G1"))
    state = roll(state, "P1 rolls B2", "missed")
    state = pass_windows(act(state, "P1 plays A1"))
    assert "Player 2's Preyas goes to the used pile." in state.events
    assert state.field_bakugan == [-1, -1] and state.used[1] == [0]


def test_peek_and_face_up_gates_show_an_opponents_face_down_gate():
    shun = real("1-48", "28/48")  # Shun's Throw: look at one face-down gate
    state = game(HAOS, VENTUS, p1_ab=[shun, *plain()])
    assert bk._known(state, 3, 0) is False  # P2-G1, face down
    state = act(act(state, "P1 rolls B1"), "P1 plays A1")
    assert "Player 1 looks at 1 face-down gate(s)." in state.events
    assert bk._known(state, 3, 0) is True and bk._known(state, 3, 1) is True
    hercules = real("1-48e", "46/48e")  # after a Subterra's win
    p1 = [HAOS[1], HAOS[0], HAOS[2]]  # Gorem 330 against Saurus 300
    p2 = [VENTUS[0], VENTUS[2], VENTUS[1]]
    state = to_battle(game(p1, p2, p1_ab=[hercules, *plain()]))
    state = act(act(state, "P2 passes"), "P1 plays A1")
    assert "Player 2's gates lie face up from now on." in state.events
    assert bk._known(state, 3, 0) is True


def test_clear_field_galeforce_sends_the_standing_away_and_feeds_ventus():
    gale = [real("1-48n", "16/48n")] * 3  # Galeforce: Aquos 150, Ventus 100
    p1 = [HAOS[0], ("Skyress", "ventus", 350), HAOS[2]]
    state = game(p1, VENTUS, p1_gates=gale)
    state = pass_windows(roll(state, "P1 rolls B1", "landed on gate P2-G1"))
    state = pass_windows(roll(state, "P2 rolls B1", "landed on gate P1-G1"))
    state = pass_windows(roll(state, "P1 rolls B2", "landed on gate P1-G1"))
    assert "1 standing Bakugan go to their owners' used piles." in state.events
    assert result(state) == "Player 1's Skyress 550 G against Player 2's Preyas 460 G."
    assert 0 in state.used[0]


NEW_OPS = {
    "reroll_on_miss", "best_gate_bonus", "cap_gate_bonus", "change_attribute",
    "clear_bonuses", "no_traps", "discard_traps", "return_traps", "copy_printed",
    "bank_gate", "place_gate", "join_gate", "swap_battler", "arm", "send_used",
    "peek_gates", "face_up_gates", "clear_field",
}  # fmt: skip


def _new_family_cards():
    gates, abilities = [], []
    for (slug, key), card in _cards().items():
        steps = card["effects"]
        if not any(
            s["op"] in NEW_OPS or s["timing"] == "used_pile" or s.get("per")
            for s in steps
        ):
            continue
        if card["card_type"] == "ability":
            abilities.append(real(slug, key, 7000 + len(abilities)))
        elif all(
            card[f"bonus_{a}"] is not None or f"bonus_{a}" in card["not_printed"]
            for a in bk.ATTRIBUTES
        ):
            gates.append(real(slug, key, 8000 + len(gates)))
    return gates, abilities


def test_random_games_with_the_new_families_keep_every_bakugan_and_replay():
    gates, abilities = _new_family_cards()
    assert len(gates) >= 15 and len(abilities) >= 50
    names = ("Siege", "Gorem", "Percival", "Verias", "Abis Omega", "El Condor")
    rng = random.Random(18)
    for game_no in range(60):
        n = 4 if game_no % 6 == 0 else 2
        decks = [
            {
                "bakugan": [
                    figure(
                        rng.choice(names),
                        rng.choice(bk.ATTRIBUTES),
                        rng.randrange(20, 60) * 10,
                        ident=seat * 10 + i,
                    )
                    for i in range(3)
                ],
                "gate": rng.sample(gates, 3),
                "ability": rng.sample(abilities, 3),
            }
            for seat in range(n)
        ]
        state = bk.new_game(decks, {"first": 0}, game_no)
        while not bk.is_over(state):
            state = bk.apply(state, rng.choice(bk.legal_actions(state)), inplace=True)
            for seat in range(n):
                where = (
                    state.unused[seat]
                    + state.used[seat]
                    + state.removed[seat]
                    + [b % 3 for b in state.field_bakugan if b >= 0 and b // 3 == seat]
                    + [
                        b % 3
                        for b in (
                            (state.battle.attacker, state.battle.defender)
                            if state.battle and not state.battle.decided
                            else ()
                        )
                        if b // 3 == seat
                    ]
                    + ([state.rolling % 3] if state.rolling // 3 == seat else [])
                )
                assert sorted(where) == [0, 1, 2], (game_no, state.log[-1])
        replayed = bk.new_game(decks, {"first": 0}, game_no)
        for text in state.log:
            replayed = bk.apply(replayed, bk.parse_action(text))
        assert bk.to_json(replayed) == bk.to_json(state)
        assert bk.to_json(bk.from_json(bk.to_json(state))) == bk.to_json(state)
