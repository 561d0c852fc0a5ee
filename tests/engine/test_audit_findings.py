"""The rules audit's findings (issue 20), one scenario each, failing on the old engines.

- Collision: every player refills (and discards down to five) at the end of every
  turn, a turn skipped because its player was knocked out at its start included.
- Bakugan: a face-down gate is labelled by its place on the field and reveals
  nothing of which card it is to anyone but its owner (a property test too).
- Bakugan: an ability window goes round every seat; a seat with nothing to play
  passes, and its pass looks the same to the others as a chosen one.
- Bakugan, four players: when two players want the same window, the one whose
  turn comes next plays first (the four-player text).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from decks.engine import bakugan as bk
from decks.engine import collision as co
from decks.engine.bots import RandomBot
from decks.engine.core import CHANCE, Rng, resolve_chance
from tests.engine.scenarios import (
    ability,
    arrange,
    collision_act,
    collision_card,
    gate,
    make_deck,
    play,
    practice_deck,
    step,
)

# --- Collision: the refill after a skipped turn -----------------------------


def test_collision_a_turn_skipped_at_its_start_still_ends_with_every_hand_at_five():
    drain = [
        {
            "op": "lose_spin",
            "timing": "passive",
            "target": "opponent",
            "turn": "opponent",
        }
    ]
    draw = [{"op": "draw", "timing": "passive", "amount": 1, "turn": "opponent"}]
    s = co.new_game(
        [
            practice_deck(
                "A",
                specials=[
                    collision_card(
                        "A-drain", "character", "red", title="Drain", effects=drain
                    )
                ],
            ),
            practice_deck("B"),
            practice_deck(
                "C",
                specials=[
                    collision_card(
                        "C-draw", "character", "red", title="Draw", effects=draw
                    )
                ],
            ),
        ],
        {"first": 0, "advanced": True},
        5,
    )
    arrange(s, 0, characters=["A-drain"])
    arrange(s, 2, characters=["C-draw"])
    arrange(s, 1, spin=1)  # Player 2 goes out to Player 1's text at turn 2's start
    collision_act(s, "pass")  # Player 1 passes: turn 2 is Player 2's, skipped
    assert s.out[1]
    # Player 3 drew one at turn 2's start; the skipped turn still ends with the
    # discard down to five, Player 3 choosing (C12).
    assert co.to_act(s) == 2
    assert s.phase == "choice"
    assert len(s.hand[2]) == 6
    collision_act(s, co.legal_actions(s)[0].text)
    assert len(s.hand[2]) == 5
    assert s.turn_player == 2


# --- Bakugan: face-down gates reveal nothing ---------------------------------


def _bk_decks(p2_abilities=None):
    return [
        make_deck(0),
        make_deck(
            1,
            gates=[
                gate("Sunforge", 40, ident=110),
                gate("Moonpool", 80, ident=111),
                gate("Rust Pit", 120, ident=112),
            ],
            abilities=p2_abilities,
        ),
    ]


def _placed(p2_choice):
    state = bk.new_game(_bk_decks(), {"first": 0}, 7)
    state = bk.apply(state, bk.parse_action("P1 places G1"))
    return bk.apply(state, bk.parse_action(f"P2 places G{p2_choice}"))


def test_bakugan_a_face_down_gate_is_labelled_by_its_place_not_its_deck_position():
    # Player 2 puts a different card of its deck face down in each game; to
    # Player 1 the two tables must read exactly alike.
    views = [bk.view(_placed(choice), 0).to_json() for choice in (1, 2, 3)]
    assert views[0] == views[1] == views[2]
    assert [g["id"] for g in views[0]["field"]] == ["P1-G1", "P2-G1"]
    assert views[0]["log"] == ["P1 places G1", "P2 places a gate"]
    # The owner still knows which card lies there.
    own = bk.view(_placed(3), 1)["field"][1]
    assert (own["id"], own["name"]) == ("P2-G1", "Rust Pit")


def _translated(action, swap):
    """The same move in the game where Player 2's hand gates ``swap`` trade places."""
    if action.kind == "place" and action.seat == 1 and action.arg in swap:
        other = swap[1] if action.arg == swap[0] else swap[0]
        return bk.Action("place", 1, other)
    return action


def _revealed(state, cards, viewer=0):
    """Whether a gate holding one of Player 2's ``cards`` is known to ``viewer``."""
    # (An engine without ``gate_card`` labelled a gate by its deck position.)
    placed = getattr(state, "gate_card", None) or [c % 3 for c in range(6)]
    for code in range(3, 6):
        if placed[code] in cards and (
            code in state.opened or code in state.won[viewer]
        ):
            return True
    return False


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    swap=st.sampled_from([(0, 1), (0, 2), (1, 2)]),
)
def test_bakugan_hidden_information_a_face_down_gate_tells_nothing_of_its_card(
    seed, swap
):
    """Property: until Player 2's gate is opened (or taken by Player 1), every
    view Player 1 gets is the same whichever of Player 2's gates lies there."""
    decks = _bk_decks()
    a = bk.new_game(decks, {"first": 0}, seed)
    b = bk.new_game(decks, {"first": 0}, seed)
    bots = [RandomBot(seed), RandomBot(seed + 1)]
    chance = Rng(seed + 2)
    compared = 0
    while not bk.is_over(a) and not _revealed(a, swap) and not _revealed(b, swap):
        assert bk.view(a, 0).to_json() == bk.view(b, 0).to_json()
        compared += 1
        seat = bk.to_act(a)
        if seat == CHANCE:
            action = resolve_chance(bk, a, chance)
        else:
            action = bots[seat].choose(bk, a)
        a = bk.apply(a, action, inplace=True)
        b = bk.apply(b, _translated(action, swap), inplace=True)
    assert compared >= 3


# --- Bakugan: ability windows go round every seat ----------------------------


def _battle_with_passes(p2_abilities):
    """P1 stands on its gate, P2 lands there; every seat passes every window.

    Return the game and the seats asked, window by window."""
    state = bk.new_game(_bk_decks(p2_abilities), {"first": 0}, 7)
    asked = []
    for text in (
        "P1 places G1",
        "P2 places G1",
        "P1 rolls B1",
        "landed on gate P1-G1",
        "P2 rolls B3",
        "landed on gate P1-G1",
    ):
        while state.phase == "window":
            seat = bk.to_act(state)
            asked.append((state.window_kind, seat))
            state = bk.apply(state, bk.Action("pass", seat))
        state = bk.apply(state, bk.parse_action(text))
    while state.phase == "window":
        seat = bk.to_act(state)
        asked.append((state.window_kind, seat))
        state = bk.apply(state, bk.Action("pass", seat))
    return state, asked


def test_bakugan_every_window_asks_every_seat_and_a_forced_pass_looks_like_a_chosen_one():
    late = [
        ability(f"Late {c}", "after-battle", colour=c, ident=130 + i)
        for i, c in enumerate(("red", "blue", "green"))
    ]
    holding = [
        ability("Boost", "in-battle", [step("add_g_power", amount=80)], ident=140),
        ability("Guard", "before-battle", colour="blue", ident=141),
        ability("Early", "before-roll", colour="green", ident=142),
    ]
    empty, asked_empty = _battle_with_passes(late)  # P2 holds nothing for most
    full, asked_full = _battle_with_passes(holding)  # P2 passes by choice
    # Player 2 is asked in every window, holding a card for it or not.
    assert asked_empty == asked_full
    battle_windows = [w for w, _ in asked_empty if w in bk.BATTLE_WINDOWS]
    assert battle_windows.count("in_battle") == 2
    assert ("in_battle", 1) in asked_empty and ("before_roll", 1) in asked_empty
    # ... and Player 1 cannot tell the two games apart.
    assert bk.view(empty, 0).to_json() == bk.view(full, 0).to_json()
    assert empty.log == full.log


def test_bakugan_a_seat_with_nothing_to_play_has_one_move_pass():
    late = [
        ability(f"Late {c}", "after-battle", colour=c, ident=130 + i)
        for i, c in enumerate(("red", "blue", "green"))
    ]
    state = bk.new_game(_bk_decks(late), {"first": 0}, 7)
    for text in ("P1 places G1", "P2 places G1", "P1 rolls B1"):
        state = bk.apply(state, bk.parse_action(text))
    assert (state.window_kind, bk.to_act(state)) == ("before_roll", 0)
    state = bk.apply(state, bk.parse_action("P1 passes"))
    assert bk.to_act(state) == 1
    assert bk.legal_actions(state) == [bk.Action("pass", 1)]


# --- Bakugan: four-player priority --------------------------------------------


def test_bakugan_four_players_the_player_whose_turn_is_next_plays_first():
    early = ability("Early", timing="before-roll")
    decks = [make_deck(s, abilities=[early] * 3) for s in range(4)]
    state = bk.new_game(decks, {"players": 4, "first": 0}, 7)
    for seat in range(4):
        state = bk.apply(state, bk.parse_action(f"P{seat + 1} places G1"))
    state = bk.apply(state, bk.parse_action("P1 rolls B1"))
    assert bk.to_act(state) == 1  # Player 2's turn is next
    order = []
    while state.phase == "window":
        order.append(bk.to_act(state))
        state = bk.apply(state, bk.Action("pass", bk.to_act(state)))
    assert order == [1, 2, 3, 0]


def test_bakugan_two_players_the_player_whose_turn_it_is_plays_first():
    early = ability("Early", timing="before-roll")
    decks = [make_deck(s, abilities=[early] * 3) for s in range(2)]
    state = bk.new_game(decks, {"first": 1}, 7)
    for text in ("P2 places G1", "P1 places G1", "P2 rolls B1"):
        state = bk.apply(state, bk.parse_action(text))
    assert bk.to_act(state) == 1  # ruling B10: the player whose turn it is


# --- Collision: a battle of 0 hits says why ----------------------------------


def test_collision_a_battle_that_scores_no_hits_says_why():
    blank = collision_card("A-blank", "action", "red", edge="......")
    s = co.new_game(
        [practice_deck("A", specials=[blank]), practice_deck("B")],
        {"first": 0},
        5,
    )
    arrange(s, 0, hand=["A-blank"])
    arrange(s, 1, hand=[])
    play(s, "A-blank", 1)
    while s.phase == "stop":
        collision_act(s, "nostop")
    said = [e for e in s.events if "0 hits" in e]
    assert said and "no notch where a live or strike piece" in said[0]
