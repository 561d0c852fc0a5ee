"""The table companion's arithmetic, against the rules texts' worked examples."""

import pytest

from cards.games import GAMES
from decks.companion import score
from decks.engine import collide_o

MF = GAMES["metal-fusion"].module
COLLISION = GAMES["collision"].module
BAKUGAN = GAMES["bakugan"].module
COLLIDE_O = GAMES["collide-o"].module


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
    power, parts = score.battle_power(_gingka_lineup(), "yellow", ["Y", "Y"])
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
    defender = score.typed_lineup(
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
    lineup = score.typed_lineup(
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
    assert score.edge_hits("LL.SL.", ".L.LEL") == 3
    # Had theirs a strike piece at 2, that notch is ignored: two hits.
    assert score.edge_hits("LL.SL.", ".S.LEL") == 2
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
    assert score.battle_totals(fighters, gate) == [490, 500]
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
        score.battle_totals(
            [{"player": 0, "g_power": 300, "attribute": "pyrus"}], {"bonus_pyrus": None}
        )


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_collide_o_deal_matches_the_engines(players):
    pack = [{"id": i, "card_type": "sections", "section_1": "B", "section_2": "Y",
             "section_3": "R"} for i in range(90)]  # fmt: skip
    state = collide_o.new_game([{"pack": pack}], {"players": players}, seed=1)
    shares, aside = score.deal(90, players)
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
