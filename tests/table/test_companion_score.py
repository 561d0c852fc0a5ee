"""The table companion's arithmetic, against the rules texts' worked examples."""

import pytest

from cards.games import GAMES
from decks.engine import bakugan as bakugan_engine
from decks.engine import collide_o
from decks.engine import metal_fusion as mf_engine
from decks.rules import bakugan as bakugan_rules
from decks.rules import collide_o as collide_o_rules
from decks.rules import collision as collision_rules
from decks.rules import metal_fusion as mf_rules
from decks.table.companion import score
from tests.engine.scenarios import lineup as mf_lineup
from tests.engine.scenarios import mf_deck

MF = GAMES["metal-fusion"].slug
COLLISION = GAMES["collision"].slug
BAKUGAN = GAMES["bakugan"].slug
COLLIDE_O = GAMES["collide-o"].slug


def _gingka_lineup():
    """The Metal Fusion rules' worked example: Gingka, Storm Pegasus, a Customizer."""
    others = {"stat_red": 1, "stat_blue": 1, "stat_green": 1}
    return [
        {"card_type": "character", "name": "Gingka", **others, "stat_yellow": 4,
         "emblem": "pegasus"},
        {"card_type": "beyblade", "name": "Storm Pegasus", **others, "stat_yellow": 2,
         "emblem": "pegasus", "move_yellow": -1,
         "not_printed": ["move_red", "move_blue", "move_green"]},
        {"card_type": "customizer", "name": "Customizer", **others, "stat_yellow": 5},
    ]  # fmt: skip


def test_the_metal_fusion_worked_example_totals_thirteen():
    power, parts = mf_rules.battle_power(_gingka_lineup(), "yellow", ["Y", "Y"])
    assert power == 13
    assert parts == {
        "character": 4,
        "emblem": 1,
        "beyblade": 2,
        "customizer": 5,
        "boosters": 2,
        "move": -1,
        "effects": 0,
    }


def test_a_metal_fusion_turn_counts_the_worked_example_and_the_attacker_wins():
    defender = mf_rules.typed_lineup(
        {slot: {c: 3 for c in ("red", "blue", "green", "yellow")}
         for slot in ("character", "beyblade", "customizer")}
    )  # fmt: skip
    setup = {"lineups": [_gingka_lineup(), defender]}
    log = [
        {"kind": "turn", "attacker": 0, "defender": 1, "colour": "yellow",
         "keep": "booster", "booster": "Y"},
        {"kind": "turn", "attacker": 0, "defender": 1, "colour": "yellow",
         "keep": "booster", "booster": "RBGY"},
    ]  # fmt: skip
    result = score.score(MF, setup, log)
    # Two boosters firing on yellow: the worked example's 13.
    assert result["rows"][0]["power"]["yellow"] == 13
    assert result["rows"][0]["power"]["red"] == 1 + 1 + 1 + 1 + 0 + 1
    assert result["rows"][1]["power"]["yellow"] == 9


def test_a_metal_fusion_tie_goes_to_the_defender_and_five_in_hand_wins():
    lineup = mf_rules.typed_lineup(
        {slot: {c: 2 for c in ("red", "blue", "green", "yellow")}
         for slot in ("character", "beyblade", "customizer")}
    )  # fmt: skip
    setup = {"lineups": [lineup, lineup]}
    tie = {"kind": "turn", "attacker": 0, "defender": 1, "colour": "red"}
    result = score.score(MF, setup, [tie])
    assert [r["hand"] for r in result["rows"]] == [0, 0]
    win = {**tie, "adjust": {"0": 1}, "keep": "hand"}
    result = score.score(MF, setup, [win] * 5)
    assert result["rows"][0]["hand"] == 5
    assert result["winner"] == 0
    with pytest.raises(score.ScoreError, match="over"):
        score.score(MF, setup, [win] * 6)


def test_the_collision_worked_battle_scores_three_hits():
    # Yours: live at 1, 2 and 5, strike at 4. Theirs: live at 2, 4 and 6, empty at 5.
    assert collision_rules.edge_hits("LL.SL.", ".L.LEL") == 3
    # Had theirs a strike piece at 2, that notch is ignored: two hits.
    assert collision_rules.edge_hits("LL.SL.", ".S.LEL") == 2
    result = score.score(
        COLLISION,
        {"strength": [6, 6]},
        [{"kind": "battle", "defender": 1, "attacker_edge": "LL.SL.",
          "defender_edge": ".L.LEL"}],
    )  # fmt: skip
    assert [r["spin"] for r in result["rows"]] == [6, 3]


def test_collision_hits_past_the_pile_are_lost_and_gains_stop_at_the_strength():
    setup = {"strength": [6, 6]}
    log = [
        {"kind": "battle", "defender": 1, "hits": 4},
        {"kind": "gain", "player": 1, "amount": 5},
        {"kind": "gain", "player": 0, "amount": 2},
    ]
    assert [r["spin"] for r in score.score(COLLISION, setup, log)["rows"]] == [6, 6]
    out = score.score(COLLISION, setup, [{"kind": "battle", "defender": 0, "hits": 6},
                                         {"kind": "battle", "defender": 1, "hits": 5}])  # fmt: skip
    assert [r["spin"] for r in out["rows"]] == [0, 1]
    assert out["winner"] == 1  # ruling C6: the pile empties, that player is out


def test_a_bakugan_battle_adds_g_power_gate_bonus_and_ability_cards():
    gate = {"bonus_pyrus": 100, "bonus_aquos": 50, "bonus_subterra": 0,
            "bonus_haos": 0, "bonus_darkus": 0, "bonus_ventus": 0}  # fmt: skip
    fighters = [
        {"player": 0, "g_power": 340, "attribute": "pyrus", "abilities": [50]},
        {"player": 1, "g_power": 450, "attribute": "aquos", "abilities": []},
    ]
    assert bakugan_rules.battle_totals(fighters, gate) == [490, 500]
    result = score.score(
        BAKUGAN,
        {"players": 2},
        [{"kind": "battle", "gate": gate, "fighters": fighters}],
    )
    assert [r["gates"] for r in result["rows"]] == [0, 1]


def test_a_bakugan_tie_goes_to_the_one_that_landed_first_and_three_gates_win():
    gate = {"bonus_pyrus": 0, "bonus_ventus": 0}
    tie = {
        "kind": "battle",
        "gate": gate,
        "fighters": [
            {"player": 1, "g_power": 300, "attribute": "ventus"},
            {"player": 0, "g_power": 300, "attribute": "pyrus"},
        ],
    }
    result = score.score(BAKUGAN, {"players": 2}, [tie])
    assert [r["gates"] for r in result["rows"]] == [0, 1]
    result = score.score(BAKUGAN, {"players": 2}, [tie] * 3)
    assert result["winner"] == 1


def test_an_unknown_gate_bonus_is_a_message_not_a_guess():
    with pytest.raises(score.ScoreError, match="bonus for pyrus is unknown"):
        bakugan_rules.battle_totals(
            [{"player": 0, "g_power": 300, "attribute": "pyrus"}], {"bonus_pyrus": None}
        )


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_collide_o_deal_matches_the_engines(players):
    pack = [{"id": i, "card_type": "sections", "section_1": "B", "section_2": "Y",
             "section_3": "R"} for i in range(90)]  # fmt: skip
    state = collide_o.new_game([{"pack": pack}], {"players": players}, seed=1)
    shares, aside = collide_o_rules.deal(90, players)
    assert shares == [
        len(s) + len(h) for s, h in zip(state.stacks, state.hands, strict=True)
    ]
    assert aside == len(state.set_aside)


def test_collide_o_counts_cards_left_and_one_left_wins():
    setup = {"players": 2, "pack": 11}  # the centre card and five each
    result = score.score(COLLIDE_O, setup, [{"kind": "play", "player": 0}] * 4)
    assert [r["left"] for r in result["rows"]] == [1, 5]
    assert result["winner"] == 0


def test_a_bad_event_is_a_message():
    with pytest.raises(score.ScoreError):
        score.score(
            COLLISION,
            {"strength": [6, 6]},
            [{"kind": "battle", "defender": 7, "hits": 1}],
        )
    with pytest.raises(score.ScoreError):
        score.score(COLLISION, {"strength": [6, 6]}, ["nonsense"])


def test_the_companion_keeps_every_game_at_the_registrys_seat_counts():
    assert [g.slug for g in score.games()] == list(GAMES)
    # Bakugan is for two or four (the registry), whatever a range would allow.
    with pytest.raises(score.ScoreError, match="Bakugan is for 2 or 4 players"):
        score.score(BAKUGAN, {"players": 3}, [])
    with pytest.raises(score.ScoreError, match="Metal Fusion is for 2 or 3 or 4"):
        score.score(MF, {"lineups": [_gingka_lineup()] * 5}, [])


@pytest.mark.parametrize("variant", [v for v, _ in mf_engine.GAME.options[0].choices])
def test_metal_fusion_cards_to_win_are_the_engines_in_every_variant(variant):
    state = mf_engine.new_game([mf_deck(), mf_deck()], {"variant": variant}, seed=3)
    weak = {slot: dict.fromkeys(mf_engine.COLOURS, 1) for slot in mf_engine.SLOTS}
    strong = {**weak, "character": {**weak["character"], "red": 5}}
    lineups = [mf_rules.typed_lineup(strong), mf_rules.typed_lineup(weak)]
    setup = {"lineups": lineups, "variant": variant}
    win = {"kind": "turn", "attacker": 0, "defender": 1, "colour": "red"}
    needed = next(
        n for n in range(1, 10) if score.score(MF, setup, [win] * n)["winner"] == 0
    )
    assert needed == state.target
    assert score.score(MF, setup, [])["to_win"] == state.target


def test_gates_to_win_are_the_engines():
    gate = {"kind": "gate", "player": 1}
    needed = next(
        n
        for n in range(1, 10)
        if score.score(BAKUGAN, {"players": 2}, [gate] * n)["winner"] == 1
    )
    assert needed == bakugan_engine.GATES_TO_WIN


def _own_colour_deck(seat: int, own: int) -> dict:
    """Return a deck launching only in seat's colour, ``own`` in that colour's stat."""
    colour = mf_engine.COLOURS[seat]
    line = mf_lineup(char=tuple(own if c == colour else 1 for c in mf_engine.COLOURS))
    return mf_deck(line, launcher=colour)


def test_a_metal_fusion_game_against_everyone_is_scored_as_the_engine_scores_it():
    # Seat 0 and 1 beat everyone in their own colour; seat 2 only ties, and a
    # tie goes to the defenders (M4, M9).
    decks = [_own_colour_deck(0, 3), _own_colour_deck(1, 3), _own_colour_deck(2, 1)]
    state = mf_engine.new_game(decks, {"variant": "all", "players": 3}, seed=5)
    log = []
    while not mf_engine.is_over(state):
        actions = mf_engine.legal_actions(state)
        action = mf_engine.HAND if mf_engine.HAND in actions else actions[0]
        if action == mf_engine.REVEAL:
            attacker = state.attacker
            log.append(
                {"kind": "turn", "attacker": attacker, "keep": "hand",
                 "colour": mf_engine.COLOURS[attacker]}
            )  # fmt: skip
        state = mf_engine.apply(state, action)
    setup = {"lineups": [d["lineup"] for d in decks], "variant": "all"}
    result = score.score(MF, setup, log)
    assert [r["hand"] for r in result["rows"]] == [len(h) for h in state.hand]
    assert result["winner"] == mf_engine.winner(state)
    assert result["winner"] is not None
    assert len(log) > 3  # seat 2's attack failed at least once
