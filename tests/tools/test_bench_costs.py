"""The cost table's benchmark: CPU seconds per report game, per game and bot."""

import argparse

from cards.games import GAMES
from decks.engine.bots import BOT_NAMES
from decks.play.workload import COSTS
from tools.bench.costs import add_arguments, rounded_up, rows


def test_costs_are_rounded_up_to_two_significant_digits():
    assert [rounded_up(s) for s in (0.0004213, 2.7184, 0.03743, 0.65)] == [
        0.00043,
        2.8,
        0.038,
        0.65,
    ]


def test_the_benchmark_times_the_games_it_is_asked_for():
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["--bot", "random", "--games", "3"])
    found = [row.data for row in rows(args)]
    assert [(r["game"], r["bot"], r["games"]) for r in found] == [
        (slug, "random", 3) for slug in sorted(GAMES)
    ]
    assert all(0 < r["mean"] <= r["longest"] for r in found)


def test_the_cost_table_holds_every_game_and_bot():
    assert {(g, b) for g in COSTS for b in COSTS[g]} == {
        (g, b) for g in GAMES for b in BOT_NAMES
    }
