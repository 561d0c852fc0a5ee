"""The Collision engine: worked examples, rulings C1-C20, playouts, golden game."""

import json
from pathlib import Path

import pytest

from decks.engine import collision as game
from decks.engine.bots import make_bot
from decks.engine.core import EngineError, Rng, apply_as, replay, seed_state
from decks.engine.simulate import run_games
from tests.engine.scenarios import (
    arrange,
    play,
    practice_deck,
    uid_of,
)
from tests.engine.scenarios import (
    collision_act as act,
)
from tests.engine.scenarios import (
    collision_card as card,
)

GOLDEN = Path(__file__).parent / "golden" / "collision.json"


def ids(state, uids):
    return [state.cards[u].id for u in uids]


def scripted(specials_a=(), specials_b=(), options=None, seed=5, players=2):
    """Return a new game whose decks carry the given special cards."""
    decks = [
        practice_deck("A", specials=specials_a),
        practice_deck("B", specials=specials_b),
    ]
    decks += [practice_deck(tag) for tag in "CD"[: players - 2]]
    return game.new_game(decks, {"first": 0, **(options or {})}, seed)


def stop(state, cid):
    return act(state, f"stop {uid_of(state, cid)}")


def fillers(tag, colour, count=3):
    return [card(f"{tag}-f{i}", colour=colour, edge="......") for i in range(count)]


def refuses(state, text):
    before = game.to_json(state)
    with pytest.raises(EngineError) as error:
        game.apply(state, game.parse_action(text))
    assert game.to_json(state) == before
    return error.value


# --- the worked examples of the rules text -----------------------------------


def worked_battle(defender_edge):
    """Play the booklet's battle: red, yellow stop, green, blue declined."""
    specials_a = [
        card("A-red", "action", "red", "......"),
        card("A-green", "character", "green", "LL.SL."),
        *fillers("A", "red"),
    ]
    specials_b = [
        card("B-yellow", "action", "yellow", defender_edge),
        card("B-blue", "action", "blue", "LLLLLL"),
        *fillers("B", "red"),
    ]
    s = scripted(specials_a, specials_b)
    arrange(s, 0, hand=["A-red", "A-green", "A-f0", "A-f1", "A-f2"])
    arrange(s, 1, hand=["B-yellow", "B-blue", "B-f0", "B-f1", "B-f2"])
    play(s, "A-red", 1)
    stop(s, "B-yellow")
    stop(s, "A-green")
    assert [a.text for a in game.legal_actions(s)] == [
        f"stop {uid_of(s, 'B-blue')}",
        "nostop",
    ]
    spin_before = s.spin[1][:]
    act(s, "nostop")
    return s, spin_before


def test_worked_example_scores_three_hits_on_the_attackers_turn():
    s, spin_before = worked_battle(".L.LEL")
    assert len(s.spin[1]) == 3
    assert s.spin[1] == spin_before[:3]
    assert ids(s, s.discard[1]) == ids(s, spin_before[3:][::-1]) + ["B-yellow"]
    assert ids(s, s.discard[0]) == ["A-red", "A-green"]
    assert "A-green against B-yellow: 3 hits; Player 2 loses 3 spin." in s.events


def test_worked_battle_ends_when_the_defender_keeps_blue_and_refills_both():
    s, _ = worked_battle(".L.LEL")
    assert "Player 2 does not stop: Player 1 wins the battle." in s.events
    assert ids(s, s.hand[1])[:3] == ["B-blue", "B-f0", "B-f1"]
    assert (len(s.hand[0]), len(s.hand[1])) == (5, 5)
    assert (s.turn, s.turn_player, s.phase) == (2, 1, "main")


def test_worked_example_with_a_defending_strike_piece_scores_two():
    s, _ = worked_battle(".S.LEL")
    assert len(s.spin[1]) == 4
    assert "A-green against B-yellow: 2 hits; Player 2 loses 2 spin." in s.events


def test_worked_example_with_roles_reversed_scores_one():
    specials_a = [card("A-yellow", "action", "yellow", "LL.SL."), *fillers("A", "red")]
    specials_b = [
        card("B-red", "action", "red", "......"),
        card("B-green", "action", "green", ".L.LEL"),
        *fillers("B", "red"),
    ]
    s = scripted(specials_a, specials_b, {"first": 1})
    arrange(s, 0, hand=["A-yellow", "A-f0", "A-f1", "A-f2"])
    arrange(s, 1, hand=["B-red", "B-green", "B-f0", "B-f1", "B-f2"])
    play(s, "B-red", 0)
    stop(s, "A-yellow")
    stop(s, "B-green")
    act(s, "nostop")
    assert len(s.spin[0]) == 5
    assert "B-green against A-yellow: 1 hits; Player 1 loses 1 spin." in s.events


def test_hits_count_live_strike_and_empty_pieces_by_whose_turn_it_is():
    s = scripted()
    mine = s.cards[uid_of(s, "A0")]  # "LL.SL."
    theirs = s.cards[uid_of(s, "B1")]  # ".L.LEL"
    assert (game.hits(mine, theirs), game.hits(theirs, mine)) == (3, 1)


# --- rulings ------------------------------------------------------------------


def test_c1_engine_accepts_a_sixty_card_deck_with_the_blade_counted():
    """C1: the deck builder owns the 60-card minimum; the engine takes such a deck."""
    decks = [practice_deck("A"), practice_deck("B")]
    assert len(decks[0]["blade"]) + len(decks[0]["deck"]) == 60
    s = game.new_game(decks, {}, 1)
    assert [len(s.deck[p]) + len(s.hand[p]) + len(s.spin[p]) for p in (0, 1)] == [
        59,
        59,
    ]


def test_c1_a_deck_too_small_to_set_up_is_refused():
    deck = practice_deck("A")
    deck["deck"] = deck["deck"][:11]
    with pytest.raises(EngineError) as error:
        game.new_game([deck, practice_deck("B")], {}, 1)
    assert error.value.code == "bad_deck"
    assert "11 cards besides the Blade" in error.value.message


def test_c2_setup_shuffles_then_deals_the_spin_pile_then_five():
    decks = [practice_deck("A"), practice_deck("B")]
    s = game.new_game(decks, {"first": 0}, 11)
    rng = Rng(seed_state(11, 0))
    for seat in (0, 1):
        order = list(range(1 + 60 * seat, 60 * (seat + 1)))
        rng.shuffle(order)
        assert s.spin[seat] == order[-6:][::-1]
        assert s.hand[seat] == order[-11:-6][::-1]
        assert s.deck[seat] == order[:-11]


def test_c3_first_player_is_the_seat_chosen():
    s = game.new_game([practice_deck("A"), practice_deck("B")], {"first": 1}, 3)
    assert (s.turn_player, game.to_act(s)) == (1, 1)


def test_c3_cut_puts_the_most_live_pieces_first_and_ties_cut_again():
    strong = practice_deck("A")
    for i, c in enumerate(strong["deck"]):
        c["battle_edge"] = "LL...." if i % 2 else "L....."
    weak = practice_deck("B")
    for c in weak["deck"]:
        c["battle_edge"] = "L....."
    s = game.new_game([weak, strong], {"first": "cut"}, 4)
    cuts = [e for e in s.events if e.startswith("Cut:")]
    assert s.turn_player == 1
    assert "Player 2 wins the cut and goes first." in s.events
    assert cuts[-1].endswith("(2 live).") and cuts[-1].startswith("Cut: Player 2")
    assert all(e.endswith("(1 live).") for e in cuts[:-2])


def test_c3_cut_that_always_ties_falls_back_to_the_seed():
    decks = [practice_deck("A"), practice_deck("B")]
    for deck in decks:
        for c in deck["deck"]:
            c["battle_edge"] = "L.L..."
    s = game.new_game(decks, {"first": "cut"}, 4)
    assert len([e for e in s.events if e.startswith("Cut:")]) == 2 * game.CUT_LIMIT
    assert s.events[-2] == f"The cut stays tied; the seed picks Player {s.first + 1}."


def test_c3_without_a_choice_the_seed_picks():
    decks = [practice_deck("A"), practice_deck("B")]
    firsts = {game.new_game(decks, {}, seed).first for seed in range(12)}
    assert firsts == {0, 1}
    assert game.new_game(decks, {}, 5).first == game.new_game(decks, {}, 5).first


@pytest.mark.parametrize(
    "mine, theirs, expected",
    [
        ("L.....", "L.....", 1),  # live always counts
        ("S.....", "L.....", 1),  # strike counts on its owner's turn
        ("L.....", "S.....", 0),  # ... and not on anyone else's
        ("L.....", "E.....", 1),  # empty counts when it is not its owner's turn
        ("E.....", "L.....", 0),  # ... and not on its owner's turn
        ("S.E...", "S.E...", 0),
    ],
)
def test_c4_strike_counts_on_its_owners_turn_and_empty_off_it(mine, theirs, expected):
    attacking = game._make_card(0, 0, card("x", edge=mine))
    defending = game._make_card(1, 1, card("y", edge=theirs))
    assert game.hits(attacking, defending) == expected


def test_c5_an_unstopped_attack_is_compared_with_the_defenders_blade():
    s = scripted([card("A-hit", "action", "red", "L.L.L."), *fillers("A", "red", 4)])
    arrange(s, 0, hand=["A-hit", "A-f0", "A-f1", "A-f2", "A-f3"])
    play(s, "A-hit", 1)
    act(s, "nostop")  # Blade "L.E.S.": live-live and live-empty hit, strike off
    assert len(s.spin[1]) == 4
    assert "A-hit against B-blade: 2 hits; Player 2 loses 2 spin." in s.events


def test_c6_hits_beyond_the_spin_pile_are_lost_and_the_player_is_out():
    s = scripted([card("A-hit", "action", "red", "LLLLLL"), *fillers("A", "red", 4)])
    arrange(s, 0, hand=["A-hit", "A-f0", "A-f1", "A-f2", "A-f3"])
    arrange(s, 1, spin=1)
    play(s, "A-hit", 1)
    act(s, "nostop")
    assert (s.spin[1], s.out, game.is_over(s), game.winner(s)) == (
        [],
        [False, True],
        True,
        0,
    )
    assert s.events[-3] == (
        "A-hit against B-blade: 2 hits; Player 2 loses 1 spin; "
        "1 beyond the spin pile are lost (C6)."
    )
    assert len(s.discard[1]) == 1


def test_c7_refill_reshuffles_the_moment_the_last_card_is_drawn():
    s = scripted()
    del s.deck[0][:-2]  # the rest of the deck leaves the game for this test
    bottom, top = s.deck[0]
    hand = s.hand[0][:]
    act(s, "pass")
    assert s.hand[0][:2] == [top, bottom]
    assert sorted(s.hand[0][2:] + s.deck[0]) == sorted(hand)
    assert (len(s.deck[0]), s.discard[0]) == (2, [])
    assert s.events[-4:-1] == [
        "Player 1 passes and discards the whole hand.",
        "Player 1 shuffles the discard pile into a new deck.",
        "Player 1 draws 5.",
    ]


def test_refusals_name_the_rule_broken():
    s = scripted(
        [card("A-kai", "character", "red", title="Kai")],
        options={"advanced": True},
        players=3,
    )
    arrange(s, 0, hand=["A-kai"])
    s.out[2] = True
    kai = uid_of(s, "A-kai")
    assert refuses(s, f"test {kai} vs 2").message == (
        "Player 3 is not an opponent still in the game."
    )
    assert refuses(s, f"test {kai} vs 0").message == (
        "Player 1 is not an opponent still in the game."
    )
    assert refuses(s, "nostop").message == (
        "That move is not allowed now: nostop. Player 1 plays a card or passes."
    )
    basic = scripted()
    assert refuses(basic, f"test {basic.hand[0][0]} vs 1").message == (
        "Tests belong to the advanced game."
    )


def test_c7_a_player_with_no_deck_and_no_discard_stops_drawing():
    s = scripted()
    s.deck[1].clear()
    s.hand[1][:] = s.hand[1][:2]
    act(s, "pass")
    assert (len(s.hand[0]), len(s.hand[1])) == (5, 2)


def test_c7_refill_goes_in_turn_order_from_the_player_whose_turn_it_is():
    s = scripted(options={"first": 1})
    s.deck[0][0:0] = s.hand[0][-2:]
    del s.hand[0][-2:]
    act(s, "pass")
    assert s.events[-4:-1] == [
        "Player 2 passes and discards the whole hand.",
        "Player 2 draws 5.",
        "Player 1 draws 2.",
    ]


def test_c8_last_player_left_wins_a_three_player_game():
    s = scripted(
        [card("A-hit", "action", "red", "LLLLLL"), *fillers("A", "red", 4)], players=3
    )
    arrange(s, 0, hand=["A-hit", "A-f0", "A-f1", "A-f2", "A-f3"])
    s.out[2] = True
    arrange(s, 1, spin=1)
    play(s, "A-hit", 1)
    act(s, "nostop")
    assert (game.is_over(s), game.winner(s)) == (True, 0)
    assert s.reason == "Player 1 is the last player left and wins."


def test_c8_everyone_out_at_once_is_a_draw():
    text = [{"op": "lose_spin", "timing": "play", "target": "all"}]
    s = scripted(
        [
            card("A-doom", "action", "red", "......", effects=text),
            *fillers("A", "red", 4),
        ],
        options={"advanced": True},
    )
    arrange(s, 0, hand=["A-doom", "A-f0", "A-f1", "A-f2", "A-f3"], spin=1)
    arrange(s, 1, spin=1)
    play(s, "A-doom", 1)
    assert (game.is_over(s), game.winner(s), s.out) == (True, None, [True, True])
    assert s.reason == "Every remaining player went out at once: a draw (C8)."


def test_c9_a_stopper_must_be_exactly_the_next_colour():
    specials_b = [
        card("B-y", "action", "yellow"),
        card("B-g", "action", "green"),
        card("B-b", "action", "blue"),
        card("B-r", "action", "red"),
    ]
    s = scripted([card("A-red", "action", "red")], specials_b)
    arrange(s, 0, hand=["A-red"])
    arrange(s, 1, hand=["B-y", "B-g", "B-b", "B-r"])
    play(s, "A-red", 1)
    assert [a.text for a in game.legal_actions(s)] == [
        f"stop {uid_of(s, 'B-y')}",
        "nostop",
    ]
    error = refuses(s, f"stop {uid_of(s, 'B-g')}")
    assert (error.code, error.message) == (
        "illegal_action",
        "Stop needs a yellow card: red is stopped by yellow.",
    )


@pytest.mark.parametrize(
    ("colour", "stops"),
    [("red", "yellow"), ("yellow", "green"), ("green", "blue"), ("blue", "red")],
)
def test_c9_the_stop_colour_is_the_next_round_the_bar(colour, stops):
    assert game.stopper(colour) == stops


def test_c9_an_unknown_colour_has_no_stopper():
    assert game.stopper("black") is None


def test_c9_blue_is_stopped_by_red():
    s = scripted([card("A-blue", "action", "blue")], [card("B-r", "action", "red")])
    arrange(s, 0, hand=["A-blue"])
    arrange(s, 1, hand=["B-r"])
    play(s, "A-blue", 1)
    assert [a.text for a in game.legal_actions(s)] == [
        f"stop {uid_of(s, 'B-r')}",
        "nostop",
    ]


def test_c10_a_defenders_win_symbol_action_fires_when_the_defender_wins():
    text = [{"op": "draw", "timing": "win", "amount": 2}]
    s = scripted(
        [card("A-red", "action", "red")],
        [card("B-win", "action", "yellow", effects=text), *fillers("B", "red", 4)],
        {"advanced": True},
    )
    arrange(s, 0, hand=["A-red"])
    arrange(s, 1, hand=["B-win", "B-f0", "B-f1", "B-f2", "B-f3"])
    play(s, "A-red", 1)
    stop(s, "B-win")
    act(s, "nostop")
    assert "B-win: Player 2 draws 2." in s.events
    assert (s.phase, game.to_act(s), s.choice[3]) == ("choice", 1, 1)


def test_c10_a_defenders_play_symbol_text_costs_the_attacker_spin():
    text = [{"op": "lose_spin", "timing": "play", "target": "opponent"}]
    s = scripted(
        [card("A-red", "action", "red")],
        [card("B-ouch", "action", "yellow", effects=text)],
        {"advanced": True},
    )
    arrange(s, 0, hand=["A-red"])
    arrange(s, 1, hand=["B-ouch"])
    play(s, "A-red", 1)
    stop(s, "B-ouch")
    assert (len(s.spin[0]), s.phase, game.to_act(s)) == (5, "stop", 0)


def test_c11_a_test_passes_on_one_matched_notch():
    s = scripted(
        [card("A-kai", "character", "red", "L.....", title="Kai")],
        [card("B-top", "action", "red", "E.....")],
        {"advanced": True},
    )
    arrange(s, 0, hand=["A-kai"])
    arrange(s, 1, deck_top=["B-top"])
    act(s, f"test {uid_of(s, 'A-kai')} vs 1")
    assert ids(s, s.characters[0]) == ["A-kai"]
    assert any("1 matched, it passes." in e for e in s.events)


def test_c11_a_test_with_no_matched_notch_fails():
    s = scripted(
        [card("A-kai", "character", "red", "L.....", title="Kai")],
        [card("B-top", "action", "red", "S.....")],
        {"advanced": True},
    )
    arrange(s, 0, hand=["A-kai"])
    arrange(s, 1, deck_top=["B-top"])
    act(s, f"test {uid_of(s, 'A-kai')} vs 1")
    assert s.characters[0] == []
    assert ids(s, s.discard[0]) == ["A-kai"]


def test_c12_refill_discards_down_to_five_by_the_owners_choice():
    s = scripted(options={"advanced": True})
    extra = s.deck[1][-2:]
    del s.deck[1][-2:]
    s.hand[1] += extra
    act(s, "pass")
    assert (s.phase, game.to_act(s)) == ("choice", 1)
    hand = s.hand[1][:]
    assert [a.text for a in game.legal_actions(s)] == [f"discard {u}" for u in hand]
    act(s, f"discard {hand[3]}")
    act(s, f"discard {hand[0]}")
    assert s.hand[1] == [hand[1], hand[2]] + hand[4:]
    assert s.discard[1][-2:] == [hand[3], hand[0]]
    assert (s.phase, s.turn_player) == ("main", 1)


def test_c13_match_loser_goes_first_and_two_wins_take_it():
    match = game.Match()
    assert game.next_game_first(match) == "cut"
    match = game.match_record(match, 0, 0)
    assert (game.next_game_first(match), game.match_winner(match)) == (1, None)
    match = game.match_record(match, 1, None)
    assert game.next_game_first(match) == 0
    match = game.match_record(match, 0, 0)
    assert game.match_winner(match) == 0
    assert match == game.Match((0, 1, 0), (0, None, 0))


def test_c14_gained_spin_goes_under_the_pile_and_stops_at_the_strength():
    text = [{"op": "gain_spin", "timing": "play", "amount": 3}]
    s = scripted(
        [card("A-gain", "action", "red", effects=text)], options={"advanced": True}
    )
    arrange(s, 0, hand=["A-gain"], spin=4)
    top_two = s.deck[0][-2:]
    pile = s.spin[0][:]
    play(s, "A-gain", 1)
    assert s.spin[0] == [top_two[0], top_two[1]] + pile
    assert "A-gain: Player 1 gains 2 spin (1 lost to the cap, C14)." in s.events


def test_c14_lost_spin_comes_off_the_top():
    text = [{"op": "lose_spin", "timing": "play", "amount": 2, "target": "opponent"}]
    s = scripted(
        [card("A-hurt", "action", "red", effects=text)], options={"advanced": True}
    )
    arrange(s, 0, hand=["A-hurt"])
    pile = s.spin[1][:]
    play(s, "A-hurt", 1)
    assert (s.spin[1], s.discard[1]) == (pile[:4], [pile[5], pile[4]])


def test_c15_a_random_discard_is_picked_face_down_by_the_opponent():
    text = [{"op": "discard", "timing": "play", "target": "opponent", "random": True}]
    s = scripted(
        [card("A-rand", "action", "red", effects=text)], options={"advanced": True}
    )
    arrange(s, 0, hand=["A-rand"])
    hand = s.hand[1][:]
    play(s, "A-rand", 1)
    assert (s.phase, game.to_act(s)) == ("choice", 0)
    assert [a.text for a in game.legal_actions(s)] == [f"pick {i}" for i in range(1, 6)]
    assert game.view(s, 0)["choice"] == {
        "kind": "pick",
        "chooser": 0,
        "subject": 1,
        "remaining": 1,
        "face_down": 5,
    }
    hidden = s.choice[4]
    assert sorted(hidden) == sorted(hand)
    act(s, "pick 2")
    assert s.discard[1] == [hidden[1]]
    assert (s.phase, game.to_act(s)) == ("stop", 1)


def test_c16_test_cards_and_removed_characters_go_to_their_owners_discard():
    text = [{"op": "remove", "timing": "play", "target": "opponent"}]
    s = scripted(
        [card("A-rm", "action", "red", effects=text)],
        [card("B-ray", "character", "red", title="Ray")],
        {"advanced": True},
    )
    arrange(s, 0, hand=["A-rm"])
    arrange(s, 1, characters=["B-ray"])
    play(s, "A-rm", 1)
    assert (s.characters[1], ids(s, s.discard[1])) == ([], ["B-ray"])
    s2 = scripted(
        [card("A-kai", "character", "red", "L.....", title="Kai")],
        [card("B-top", "action", "red", "L.....")],
        {"advanced": True},
    )
    arrange(s2, 0, hand=["A-kai"])
    arrange(s2, 1, deck_top=["B-top"])
    act(s2, f"test {uid_of(s2, 'A-kai')} vs 1")
    assert ids(s2, s2.discard[1]) == ["B-top"]


def test_c17_a_player_out_to_play_text_mid_battle_ends_it_without_hits():
    text = [{"op": "lose_spin", "timing": "play", "target": "each_opponent"}]
    s = scripted(
        [card("A-bomb", "action", "red", "LLLLLL", effects=text)],
        options={"advanced": True},
        players=3,
    )
    arrange(s, 0, hand=["A-bomb"])
    arrange(s, 2, spin=1)
    play(s, "A-bomb", 1)
    assert (s.out, len(s.spin[1]), s.turn_player, s.phase) == (
        [False, False, True],
        5,
        1,
        "main",
    )
    assert (
        "A player is out mid-battle: the battle ends at once, no hits counted (C17)."
        in (s.events)
    )
    assert ids(s, s.discard[0]) == ["A-bomb"]


def test_c18_an_unstopped_win_symbol_action_fires_after_its_hits():
    text = [{"op": "lose_spin", "timing": "win", "target": "opponent"}]
    s = scripted(
        [card("A-win", "action", "red", "L.L...", effects=text)],
        options={"advanced": True},
    )
    arrange(s, 0, hand=["A-win"])
    play(s, "A-win", 1)
    act(s, "nostop")
    hit_line = s.events.index("A-win against B-blade: 2 hits; Player 2 loses 2 spin.")
    assert s.events[hit_line + 1] == "A-win: Player 2 loses 1 spin."
    assert (len(s.spin[1]), ids(s, s.discard[0])) == (3, ["A-win"])


def test_c19_opponents_turn_text_is_on_during_every_other_players_turn():
    text = [{"op": "draw", "timing": "passive", "turn": "opponent"}]
    s = scripted(
        specials_b=[card("B-max", "character", "red", title="Max", effects=text)],
        options={"advanced": True},
        players=3,
    )
    arrange(s, 1, characters=["B-max"])
    act(s, "pass")  # turn 2 is Player 2's own: no draw
    assert [e for e in s.events if e.startswith("B-max")] == []
    act(s, "pass")  # turn 3 is Player 3's: Player 2's text is on
    assert [e for e in s.events if e.startswith("B-max")] == [
        "B-max: Player 2 draws 1."
    ]
    assert len(s.hand[1]) == 6  # refilled to five, then the text drew one


def test_c20_one_in_play_uses_the_title_so_two_tysons_block_each_other():
    """C20: the four-per-title count belongs to the deck builder; titles drive play."""
    s = scripted(
        [
            card(
                "A-t1", "character", "red", title="Tyson", name="Tyson, Eager Champion"
            ),
            card("A-t2", "character", "red", title="Tyson", name="Tyson, Bladebreaker"),
        ],
        options={"advanced": True},
    )
    arrange(s, 0, hand=["A-t2"], characters=["A-t1"])
    assert [a.text for a in game.legal_actions(s)] == ["pass"]


def test_c20_a_comma_inside_a_title_is_no_split_so_other_titles_do_not_block():
    s = scripted(
        [
            card("A-k1", "character", "red", title="Kai, Jr.", name="Kai, Jr., Rookie"),
            card("A-k2", "character", "red", title="Kai", name="Kai, Champion"),
        ],
        options={"advanced": True},
    )
    arrange(s, 0, hand=["A-k2"], characters=["A-k1"])
    assert [a.text for a in game.legal_actions(s)] == [
        f"test {uid_of(s, 'A-k2')} vs 1",
        "pass",
    ]


def test_c20_a_character_without_its_title_field_is_not_read_from_its_name():
    assert game.card_problems(
        {
            "card_type": "character",
            "colour": "red",
            "battle_edge": "L.....",
            "name": "Kai, Champion",
        }
    ) == ["its title is unknown (the one-in-play rule needs it)"]


# --- the advanced game ---------------------------------------------------------


def test_advanced_only_actions_open_battles_and_others_are_tested():
    s = scripted(
        [
            card("A-act", "action", "red"),
            card("A-char", "character", "red", title="Kenny"),
            card("A-ev", "event", "red"),
        ],
        options={"advanced": True},
    )
    arrange(s, 0, hand=["A-act", "A-char", "A-ev"])
    u = {cid: uid_of(s, cid) for cid in ("A-act", "A-char", "A-ev")}
    assert [a.text for a in game.legal_actions(s)] == [
        f"play {u['A-act']} vs 1",
        f"test {u['A-char']} vs 1",
        f"test {u['A-ev']} vs 1",
        "pass",
    ]
    error = refuses(s, f"play {u['A-char']} vs 1")
    assert (
        error.message == "Only an Action opens a battle; a character is tested instead."
    )


def test_advanced_an_opponents_copy_of_a_title_does_not_block():
    s = scripted(
        [card("A-kai", "character", "red", title="Kai")],
        [card("B-kai", "character", "red", title="Kai")],
        {"advanced": True},
    )
    arrange(s, 0, hand=["A-kai"])
    arrange(s, 1, characters=["B-kai"])
    assert [a.text for a in game.legal_actions(s)] == [
        f"test {uid_of(s, 'A-kai')} vs 1",
        "pass",
    ]


def test_advanced_a_passing_character_stays_and_its_passive_text_works():
    text = [{"op": "draw", "timing": "passive", "turn": "your"}]
    s = scripted(
        [card("A-kai", "character", "red", "L.....", title="Kai", effects=text)],
        [card("B-top", "action", "red", "L.....")],
        {"advanced": True},
    )
    arrange(s, 0, hand=["A-kai"])
    arrange(s, 1, deck_top=["B-top"])
    act(s, f"test {uid_of(s, 'A-kai')} vs 1")
    assert [e for e in s.events if e.startswith("A-kai")] == []  # Player 2's turn
    act(s, "pass")
    assert (s.turn, s.turn_player, ids(s, s.characters[0])) == (3, 0, ["A-kai"])
    assert [e for e in s.events if e.startswith("A-kai")] == [
        "A-kai: Player 1 draws 1."
    ]
    assert len(s.hand[0]) == 6


def test_advanced_a_passing_event_fires_once_and_is_discarded():
    text = [{"op": "draw", "timing": "play", "amount": 2}]
    s = scripted(
        [
            card("A-ev", "event", "red", "L.....", effects=text),
            *fillers("A", "red", 4),
        ],
        [card("B-top", "action", "red", "L.....")],
        {"advanced": True},
    )
    arrange(s, 0, hand=["A-ev", "A-f0", "A-f1", "A-f2", "A-f3"])
    arrange(s, 1, deck_top=["B-top"])
    act(s, f"test {uid_of(s, 'A-ev')} vs 1")
    assert [e for e in s.events if e.startswith("A-ev:")] == ["A-ev: Player 1 draws 2."]
    assert ids(s, s.discard[0]) == ["A-ev"]
    assert (s.phase, game.to_act(s), s.choice[3]) == ("choice", 0, 1)


def test_advanced_a_failing_event_is_discarded_with_no_effect():
    text = [{"op": "draw", "timing": "play", "amount": 2}]
    s = scripted(
        [card("A-ev", "event", "red", "L.....", effects=text)],
        [card("B-top", "action", "red", ".L....")],
        {"advanced": True},
    )
    arrange(s, 0, hand=["A-ev"])
    arrange(s, 1, deck_top=["B-top"])
    act(s, f"test {uid_of(s, 'A-ev')} vs 1")
    assert [e for e in s.events if e.startswith("A-ev:")] == []
    assert (ids(s, s.discard[0]), len(s.hand[0]), s.turn_player) == (["A-ev"], 5, 1)


def test_advanced_a_play_symbol_fires_when_the_card_hits_the_table():
    text = [{"op": "draw", "timing": "play", "amount": 1}]
    s = scripted(
        [card("A-draw", "action", "red", effects=text)], options={"advanced": True}
    )
    arrange(s, 0, hand=["A-draw"])
    before = len(s.hand[0])
    play(s, "A-draw", 1)
    assert (len(s.hand[0]), s.phase) == (before, "stop")


def test_advanced_a_covered_win_symbol_action_gives_nothing():
    text = [{"op": "lose_spin", "timing": "win", "amount": 3, "target": "opponent"}]
    s = scripted(
        [
            card("A-win", "action", "red", effects=text),
            card("A-green", "action", "green"),
        ],
        [card("B-y", "action", "yellow")],
        {"advanced": True},
    )
    arrange(s, 0, hand=["A-win", "A-green"])
    arrange(s, 1, hand=["B-y"])
    play(s, "A-win", 1)
    stop(s, "B-y")
    stop(s, "A-green")
    act(s, "nostop")
    assert len(s.spin[1]) == 6
    assert [e for e in s.events if e.startswith("A-win:")] == []


def test_advanced_a_character_in_play_stops_with_its_text_off():
    text = [{"op": "draw", "timing": "play", "amount": 3}]
    s = scripted(
        [card("A-red", "action", "red")],
        [card("B-ray", "character", "yellow", title="Ray", effects=text)],
        {"advanced": True},
    )
    arrange(s, 0, hand=["A-red"])
    arrange(s, 1, characters=["B-ray"])
    play(s, "A-red", 1)
    hand = len(s.hand[1])
    stop(s, "B-ray")
    assert (s.characters[1], len(s.hand[1]), ids(s, s.pile[1])) == ([], hand, ["B-ray"])
    assert "Player 2 stops with B-ray (yellow) from the table." in s.events


def test_advanced_a_card_without_encoded_text_plays_as_basic_and_says_so():
    s = scripted([card("A-plain", "action", "red")], options={"advanced": True})
    arrange(s, 0, hand=["A-plain"])
    play(s, "A-plain", 1)
    assert (
        s.events[-1]
        == "A-plain: its text is not encoded; it plays as in the basic game."
    )


def test_advanced_unsupported_text_plays_as_basic():
    text = [{"op": "test", "timing": "play"}]
    s = scripted(
        [card("A-odd", "action", "red", effects=text)], options={"advanced": True}
    )
    arrange(s, 0, hand=["A-odd"])
    play(s, "A-odd", 1)
    assert s.events[-1] == (
        "A-odd: its text step test/play is unsupported; it plays as in the basic game."
    )


def test_advanced_remove_asks_the_texts_owner_which_character_goes():
    text = [{"op": "remove", "timing": "play", "target": "opponent"}]
    s = scripted(
        [card("A-rm", "action", "red", effects=text)],
        [
            card("B-ray", "character", "red", title="Ray"),
            card("B-max", "character", title="Max"),
        ],
        {"advanced": True},
    )
    arrange(s, 0, hand=["A-rm"])
    arrange(s, 1, characters=["B-ray", "B-max"])
    play(s, "A-rm", 1)
    assert (s.phase, game.to_act(s)) == ("choice", 0)
    act(s, f"remove {uid_of(s, 'B-max')}")
    assert (ids(s, s.characters[1]), ids(s, s.discard[1]), s.phase) == (
        ["B-ray"],
        ["B-max"],
        "stop",
    )


def test_advanced_blade_text_works_from_the_first_turn():
    decks = [practice_deck("A", text=True), practice_deck("B")]
    s = game.new_game(decks, {"advanced": True, "first": 0}, 2)
    assert "A-blade: Player 1 draws 1." in s.events
    assert len(s.hand[0]) == 6


# --- errors, views, cap -------------------------------------------------------


def test_unknown_card_data_blocks_the_game_naming_the_card():
    deck = practice_deck("A")
    deck["deck"][3]["battle_edge"] = None
    with pytest.raises(EngineError) as error:
        game.new_game([deck, practice_deck("B")], {}, 1)
    assert (error.value.code, error.value.message) == (
        "bad_deck",
        "A3 in Player 1's deck cannot be played: its battle edge is unknown.",
    )


def test_card_problems_lists_every_unknown_field():
    assert game.card_problems({"card_type": "blade", "battle_edge": "L....."}) == [
        "its spin strength is unknown"
    ]
    assert game.card_problems({"card_type": "action", "battle_edge": "LX...."}) == [
        "its battle edge is not six notches of . L S E",
        "its colour is unknown",
    ]


def test_junk_action_text_is_a_bad_action():
    for text in ("", "play", "play 1 at 2", "stop x", "jump"):
        with pytest.raises(EngineError) as error:
            game.parse_action(text)
        assert error.value.code == "bad_action"


def test_moving_out_of_turn_is_refused_as_not_your_turn():
    s = scripted()
    error = refuses(s, f"stop {s.hand[1][0]}")
    assert error.code == "not_your_turn"
    with pytest.raises(EngineError) as error:
        apply_as(game, s, 1, game.PASS)
    assert (error.value.code, error.value.message) == (
        "not_your_turn",
        "It is Player 1's move, not Player 2's.",
    )


def test_a_finished_game_refuses_moves():
    s, _ = worked_battle(".L.LEL")
    s.phase = "over"
    assert refuses(s, "pass").code == "game_over"


def test_the_turn_cap_ends_the_game_as_a_draw():
    s = scripted()
    s.turn = game.TURN_CAP
    act(s, "pass")
    assert (game.is_over(s), game.winner(s), game.length(s)) == (True, None, 300)
    assert s.reason == "The 300-turn cap is reached (E3): a draw."


def test_view_hides_hands_deck_order_and_spin_faces():
    s = scripted()
    v = game.view(s, 0).to_json()
    assert v["seats"][1]["hand"] == 5
    assert [c["uid"] for c in v["seats"][0]["hand"]] == s.hand[0]
    assert (v["seats"][1]["deck"], v["seats"][1]["spin"]) == (48, 6)
    assert json.loads(json.dumps(v)) == v
    assert "B0" not in json.dumps(game.view(s, 0)["seats"][1])


def test_describe_reads_in_plain_words():
    s = scripted()
    u = s.hand[0][0]
    name = s.cards[u].name
    assert (
        game.describe(s, game.parse_action(f"play {u} vs 1"))
        == f"Play {name} against Player 2."
    )
    assert game.describe(s, game.NOSTOP) == "Don't stop: let the battle end."


# --- random playouts ------------------------------------------------------------


def test_greedy_bot_beats_random_most_of_the_time():
    decks = [practice_deck("A"), practice_deck("B")]
    summary = run_games(game, decks, {}, 40, seed=1, bots=("greedy", "random"))
    assert (summary["wins"], summary["draws"]) == ([40, 0], 0)


def test_golden_game_replays_to_the_recorded_end():
    golden = json.loads(GOLDEN.read_text())
    decks = [practice_deck("A", text=True), practice_deck("B", text=True)]
    s = replay(game, decks, golden["options"], golden["seed"], golden["log"])
    assert s.events == golden["events"]
    assert {
        "winner": game.winner(s),
        "turns": game.length(s),
        "spin": [len(p) for p in s.spin],
        "reason": s.reason,
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


def named_decks(players, text):
    """Return practice decks whose card names are unique and inside no other."""
    decks = [practice_deck(tag, text=text) for tag in "ABCD"[:players]]
    for deck in decks:
        for raw in deck["blade"] + deck["deck"]:
            raw["name"] = f"{raw['id']}Z"
    return decks


@pytest.mark.parametrize(
    "players, advanced", [(2, False), (3, False), (2, True), (3, True)]
)
def test_no_view_ever_shows_a_hand_deck_or_spin_card_hidden_from_its_viewer(
    players, advanced
):
    decks = named_decks(players, advanced)
    checked = 0
    for seed in range(6):
        s = game.new_game(decks, {"advanced": advanced}, seed)
        bot = make_bot("random", seed)
        known = [set() for _ in range(players)]
        before = None
        while True:
            public = set(s.blade)
            for zone in (s.discard, s.pile, s.characters):
                for p in range(players):
                    public.update(zone[p])
            if before is not None:
                # A move can discard a card and shuffle the discard pile into
                # the deck at once: the cards it takes from the pile were face
                # up, whether they stay in the deck or are drawn straight away.
                shuffled = s.events[before[1] :]
                for p in range(players):
                    said = f"Player {p + 1} shuffles the discard pile into a new deck."
                    if said in shuffled:
                        taken = set(s.deck[p] + s.hand[p] + s.spin[p])
                        public |= taken - set(before[0][p])
            for p in range(players):
                known[p] |= public | set(s.hand[p])
                hidden = {u for q in range(players) for u in s.deck[q] + s.spin[q]}
                hidden.update(u for q in range(players) if q != p for u in s.hand[q])
                view = game.view(s, p).to_json()
                assert set(values_of(view, "uid")) & hidden == set()
                text = json.dumps(view)
                secret = {s.cards[u].name for u in hidden - known[p]}
                checked += len(secret)
                assert [name for name in secret if name in text] == []
            if game.is_over(s):
                break
            actor = game.to_act(s)
            secret = {
                s.cards[u].name
                for q in range(players)
                for u in s.deck[q] + s.spin[q] + (s.hand[q] if q != actor else [])
            }
            for action in game.legal_actions(s):
                words = game.describe(s, action)
                assert [name for name in secret - known[actor] if name in words] == []
            before = ([s.hand[p] + s.spin[p] for p in range(players)], len(s.events))
            game.apply(s, bot.choose(game, s), inplace=True)
    assert checked > 5000
