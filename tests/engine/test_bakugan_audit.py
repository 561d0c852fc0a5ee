"""The rules findings of the independent Bakugan effects audit (issue 35, item 5):
each one a scenario from the real card as fixtures/bakugan.json encodes it."""

import re

import pytest

from cards import effects
from cards.effects import effect_sentence, parse_effects
from decks.engine import bakugan as bk
from tests.engine.scenarios import (
    HAOS,
    VENTUS,
    _cards,
    game,
    make_deck,
    p1_stands,
    pass_windows,
    plain,
    real,
    result,
    roll,
    to_battle,
)
from tests.engine.scenarios import bakugan_act as act

# --- G-Power Exchange swaps the printed G-Power ------------------------------


def test_g_power_exchange_swaps_printed_g_power_and_each_side_keeps_its_bonus():
    exchange = [real("1-48", "19/48")] * 3  # G-Power Exchange: Darkus 50, Ventus 80
    doom = real("1-48", "46/48")  # Doom Card: +30 for Darkus, before the battle
    assert effect_sentence(exchange[0]["effects"], is_gate=True) == (
        "When this gate opens: the two battling Bakugan swap printed G-Power."
    )
    p1 = [("Hydranoid", "darkus", 320), HAOS[0], HAOS[1]]
    state = game(p1, VENTUS, p1_gates=exchange, p1_ab=[doom, *plain()])
    state = p1_stands(state)
    state = roll(state, "P2 rolls B3", "landed on gate P1-G1")  # Skyress 350
    assert state.window_kind == "before_battle"
    state = pass_windows(act(state, "P1 plays A1"))
    # Hydranoid: Skyress's printed 350, its own Doom Card 30, Darkus 50; Skyress:
    # Hydranoid's printed 320 and Ventus 80. Swapping the G-Power as it stood
    # would have given Skyress the Doom Card's 30 (430 against 400).
    assert (
        result(state) == "Player 2's Skyress 400 G against Player 1's Hydranoid 430 G."
    )
    assert state.won == [[0], []]
    assert state.removed == [[], [2]]  # the Doom Card removes the loser


# --- a used-pile re-roll counts for the roll it was played before ------------

USED_PILE_REROLLS = [
    ("1-48e", "25/48e", ("Preyas", "aquos", 310)),  # Rip Tide: Aquos, Haos
    ("1-48e", "26/48e", ("Preyas", "aquos", 310)),  # Hard Rain: Aquos, Ventus
    ("1-48e", "27/48e", ("Preyas", "aquos", 310)),  # Lightning: Pyrus, Aquos
    ("1-48e", "28/48e", ("Preyas", "aquos", 310)),  # Stormy Night: Aquos, Darkus
    ("1-48i", "25/48i", ("Gorem", "subterra", 330)),  # Rainbow Portal
    ("1-48i", "26/48i", ("Preyas", "aquos", 310)),  # Rainbow Prism
]


def test_every_used_pile_reroll_card_is_one_of_those_checked():
    found = {
        key
        for key, card in _cards().items()
        for raw in card.get("effects") or ()
        if raw["op"] == "reroll_on_miss" and raw["timing"] == "used_pile"
    }
    assert found == {(slug, key) for slug, key, _ in USED_PILE_REROLLS}


@pytest.mark.parametrize(("slug", "key", "rolled"), USED_PILE_REROLLS)
def test_a_used_pile_reroll_card_rerolls_the_roll_it_was_played_before(
    slug, key, rolled
):
    card = real(slug, key)
    p1 = [HAOS[0], rolled, ("Frosch", "aquos", 320)]
    state = game(p1, VENTUS, p1_ab=[card, *plain()])
    state = pass_windows(roll(state, "P1 rolls B1", "landed on gate P2-G1"))
    state = pass_windows(roll(state, "P2 rolls B3", "landed on gate P2-G1"))
    assert state.won == [[], [3]]  # Player 1 is behind: the "arm" cards start
    state = act(act(state, "P1 rolls B2"), "P1 plays A1")
    assert (
        f"Player 1's {rolled[0]} rolls again if it misses ({card['name']}, in the "
        "used pile)." in state.events
    )
    state = act(pass_windows(state), "missed")
    assert state.phase == "roll" and state.rolling == 1
    assert state.events[-1] == f"Player 1's {rolled[0]} is rolled again."


def test_rip_tide_played_before_a_haos_roll_does_not_reroll_a_pyrus_one():
    card = real("1-48e", "25/48e")  # Rip Tide: Aquos and Haos only
    p1 = [HAOS[0], ("Dragonoid", "pyrus", 340), ("Frosch", "aquos", 320)]
    state = game(p1, VENTUS, p1_ab=[card, *plain()])
    state = pass_windows(roll(state, "P1 rolls B1", "landed on gate P2-G1"))
    state = pass_windows(roll(state, "P2 rolls B3", "landed on gate P2-G1"))
    state = pass_windows(act(act(state, "P1 rolls B2"), "P1 plays A1"))
    assert not any("rolls again" in event for event in state.events)
    state = pass_windows(act(state, "missed"))  # Pyrus: no re-roll
    assert state.used[0] == [0, 1] and state.turn_player == 1


# --- the site's sentences ------------------------------------------------------


def test_anemoys_call_reads_without_a_condition_on_the_rolled_bakugan():
    card = real("1-48ah", "41/48ah")
    assert effect_sentence(card["effects"]) == (
        "Before a roll: you put every used Haos or Ventus Bakugan back into the "
        "unused pile."
    )
    p1 = [("Tigrerra", "haos", 300), ("Gorem", "subterra", 330), HAOS[2]]
    state = game(p1, VENTUS, p1_ab=[card, *plain()])
    state = pass_windows(roll(state, "P1 rolls B1", "missed"))  # Tigrerra used
    state = pass_windows(roll(state, "P2 rolls B1", "missed"))
    state = pass_windows(act(act(state, "P1 rolls B2"), "P1 plays A1"))  # Subterra
    assert "Player 1 puts 1 used Bakugan back to roll." in state.events
    assert state.unused[0] == [0, 2]


def test_blowback_reads_that_each_player_who_won_the_fewest_gates_takes_one_back():
    card = real("1-48q-2", "14/48q")
    assert effect_sentence(card["effects"], is_gate=True) == (
        "When this gate opens: each battling player takes back 1 used Ability card "
        "into the hand if that player has won the fewest gates."
    )


def test_shadow_vortex_reads_with_its_if():
    card = real("1-48i", "42/48i")
    assert effect_sentence(card["effects"]) == (
        "In battle: the opposing Bakugan gets no gate bonus on its owner's own gate "
        "if your battling Bakugan is Darkus or Ventus."
    )


def _encoded():
    for (slug, key), card in _cards().items():
        if card.get("effects"):
            yield f"{slug} {key}", card


def test_every_encoded_sentence_has_no_doubled_possessive():
    doubled = re.compile(r"\b\w+'s \w+'s\b")
    for name, card in _encoded():
        sentence = effect_sentence(card["effects"], is_gate=card["card_type"] == "gate")
        assert not doubled.search(sentence), (name, sentence)
        assert "owner's owner" not in sentence, (name, sentence)


def test_every_encoded_condition_is_in_its_sentence():
    """Each "if" and "unless" of a step is said; a filter is named in the action."""
    for name, card in _encoded():
        is_gate = card["card_type"] == "gate"
        for raw in card["effects"]:
            (step,) = parse_effects([raw])
            words = effect_sentence([raw], is_gate=is_gate)
            for cond, value in step.when:
                if cond == "attribute" and step.op in effects._ATTRIBUTE_IN_ACTION:
                    for attribute in value:
                        assert attribute.capitalize() in words, (name, words)
                    continue
                clause = effects._clause(cond, value)
                for kind in ("if ", "unless "):
                    if clause.startswith(kind):
                        assert f" {kind}" in words, (name, cond, words)


# --- B10: four players, the battle windows start with the turn player ---------


def test_b10_four_player_battle_windows_start_with_the_turn_player_who_battles():
    colorstorm = real("1-48i", "36/48i")  # Pyrus +70, Haos +50
    decks = [
        make_deck(s, abilities=[{**colorstorm, "id": 900 + s}, *plain()])
        for s in range(4)
    ]
    state = bk.new_game(decks, {"players": 4, "first": 0}, 7)
    for seat in range(4):
        state = act(state, f"P{seat + 1} places G1")
    state = pass_windows(roll(state, "P1 rolls B1", "landed on gate P1-G1"))
    state = pass_windows(roll(state, "P2 rolls B1", "missed"))
    state = bk.apply(state, bk.parse_action("P3 rolls B3"))
    # A window anyone may play in starts with the player whose turn is next.
    assert (state.window_kind, bk.to_act(state)) == ("before_roll", 3)
    state = pass_windows(state)
    state = bk.apply(state, bk.parse_action("landed on gate P1-G1"))
    assert (state.window_kind, bk.to_act(state)) == ("after_roll", 3)
    state = bk.apply(state, bk.Action("pass", 3))
    for seat in (0, 1, 2):  # the last pass starts the battle
        state = bk.apply(state, bk.Action("pass", seat))
    assert (state.window_kind, state.window_seats) == ("before_battle", [2, 0])
    state = bk.apply(bk.apply(state, bk.Action("pass", 2)), bk.Action("pass", 0))
    assert (state.window_kind, bk.to_act(state)) == ("in_battle", 2)  # P3 first
    state = act(state, "P3 plays A1")  # Mantris (Haos 330) +50
    state = act(state, "P1 plays A1")  # Dragonoid (Pyrus 340) +70
    state = pass_windows(state)
    assert "Player 3's Mantris 380 G against Player 1's Dragonoid 410 G." in (
        state.events
    )


def test_rip_tide_played_in_an_opponents_window_asks_whether_its_player_is_behind():
    card = real("1-48e", "25/48e")  # Rip Tide: "if an opponent has won more gates"
    state = game(HAOS, VENTUS, p2_ab=[card, *plain()])
    state = pass_windows(roll(state, "P1 rolls B1", "landed on gate P2-G1"))
    state = pass_windows(roll(state, "P2 rolls B2", "landed on gate P2-G1"))
    assert state.won == [[3], []]  # Saurus 300 ties Tigrerra: the defender wins
    state = act(act(state, "P1 rolls B2"), "P2 plays A1")  # Player 2 is behind
    assert state.events[-1] == "Rip Tide: its lasting effect starts."


# --- Whiplash: after the card owner's own Darkus Bakugan loses ----------------


def _whiplash_after(p1_first, p2_third=VENTUS[2]):
    """Return the game once P1 plays Whiplash after ``p1_first`` battles."""
    whiplash = real("1-48ah", "47/48ah")
    p1 = [p1_first, HAOS[0], ("Frosch", "aquos", 320)]
    p2 = [*VENTUS[:2], p2_third]  # P2 rolls its third Bakugan onto P1-G1
    state = to_battle(game(p1, p2, p1_ab=[whiplash, *plain()]))
    while state.window_kind != "after_battle":
        state = bk.apply(state, bk.Action("pass", bk.to_act(state)))
    while bk.to_act(state) != 0:
        state = act(state, "P2 passes")
    assert state.ability_hand[1] == [0, 1, 2]
    return act(state, "P1 plays A1")


def test_whiplash_reads_that_your_darkus_bakugan_lost():
    card = real("1-48ah", "47/48ah")
    assert effect_sentence(card["effects"]) == (
        "After the battle: your opponent puts 1 unused Ability card into the used "
        "pile if a Darkus Bakugan of yours lost the battle."
    )


def test_whiplash_after_your_darkus_bakugan_loses_the_opponent_uses_an_ability():
    state = _whiplash_after(("Hydranoid", "darkus", 320))
    assert state.won == [[], [0]]  # Skyress 350 beat Hydranoid
    assert "Player 2 puts 1 unused Ability card(s) into the used pile." in state.events
    assert (state.ability_hand[1], state.abilities_used[1]) == ([1, 2], [0])


@pytest.mark.parametrize(
    ("p1_first", "p2_third", "won"),
    [
        (("Gorem", "subterra", 330), VENTUS[2], [[], [0]]),
        (("Hydranoid", "darkus", 400), VENTUS[2], [[0], []]),
        (("Tigrerra", "haos", 400), ("Hydranoid", "darkus", 350), [[0], []]),
    ],
    ids=["own-subterra-loses", "own-darkus-wins", "opponents-darkus-loses"],
)
def test_whiplash_does_nothing_unless_your_darkus_bakugan_lost(p1_first, p2_third, won):
    state = _whiplash_after(p1_first, p2_third)
    assert state.won == won
    assert "Its condition does not hold: no effect." in state.events
    assert (state.ability_hand[1], state.abilities_used[1]) == ([0, 1, 2], [])
