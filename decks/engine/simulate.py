"""Batch simulation: many seeded bot games, summarised."""

from __future__ import annotations

import statistics
import time

from .bots import make_bot, play_out
from .core import Rng, pinned, seed_state


def run_games(
    game,
    decks,
    options: dict,
    games: int,
    seed: int,
    bots=("random", "random"),
    record=None,
) -> dict:
    """Play ``games`` bot games and return a JSON-ready summary.

    ``bots`` names one bot kind per seat (the last repeats for extra seats).
    ``record`` is called as ``record(i, state)`` after each game when given.
    """
    decks = pinned(decks)  # one deck read for every game, no comparison
    seats = None
    wins: list[int] = []
    draws = 0
    lengths = []
    started = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        state = game.new_game(decks, options, game_seed)
        if seats is None:
            seats = game.player_count(state)
            wins = [0] * seats
        seat_bots = [
            make_bot(bots[min(s, len(bots) - 1)], game_seed * 31 + s)
            for s in range(seats)
        ]
        state = play_out(game, state, seat_bots, Rng(seed_state(game_seed, 7)))
        winner = game.winner(state)
        if winner is None:
            draws += 1
        else:
            wins[winner] += 1
        lengths.append(game.length(state))
        if record is not None:
            record(i, state)
    elapsed = time.perf_counter() - started
    return {
        "game": game.SLUG,
        "games": games,
        "seed": seed,
        "bots": list(bots),
        "wins": wins,
        "draws": draws,
        "mean_length": round(statistics.fmean(lengths), 3) if lengths else 0,
        "median_length": statistics.median(lengths) if lengths else 0,
        "seconds": round(elapsed, 4),
        "games_per_second": round(games / elapsed, 1) if elapsed > 0 else None,
    }
