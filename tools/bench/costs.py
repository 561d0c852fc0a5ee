"""Worker CPU seconds per report game, per game and bot: the table of job costs.

The coach's estimate (one hint, or one move of a game review) is measured too:
``decks.engine.coach.move_chances`` from positions 5, 20 and 40 random moves
into games of the preset decks.

    python -m tools.bench costs                      # every game and bot
    python -m tools.bench costs --game bakugan --bot search:strong --games 4
    python -m tools.bench costs --write              # ... into decks/play/costs.json
    python -m tools.bench costs --bot coach --write  # the coach's estimate only

Each game is played as a report plays it (the same bot in every seat, the
preset decks, ``play_out``), timed in CPU seconds. ``decks/play/costs.json``
holds the means, rounded up to two significant digits; the quota of queued
work (``decks.play.workload``) is counted with them.
"""

import json
import math
import statistics
import time
from pathlib import Path

from cards.games import GAMES
from decks.engine import engine_for
from decks.engine.bots import BOT_NAMES, make_bot, play_out
from decks.engine.coach import coach_seed, move_chances
from decks.engine.core import CHANCE, Rng, resolve_chance, seed_state
from decks.presets import preset_decks
from tools.bench.timing import Row

# Fewer games for the slow bots: a strong search game takes seconds.
GAMES_PER_BOT = {"random": 200, "greedy": 100}


def add_arguments(parser) -> None:
    parser.add_argument("--game", choices=sorted(GAMES))
    parser.add_argument(
        "--bot", choices=[*BOT_NAMES, "coach"], help="coach: the coach's estimate only."
    )
    parser.add_argument("--games", type=int, help="Games per game and bot.")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--write", action="store_true", help="Store the means in costs.json."
    )


COSTS_FILE = Path(__file__).resolve().parents[2] / "decks" / "play" / "costs.json"


def rounded_up(seconds: float) -> float:
    """Return ``seconds`` rounded up to two significant digits."""
    scale = 10 ** (math.floor(math.log10(seconds)) - 1)
    return round(math.ceil(seconds / scale) * scale, 10)


def _preset_table(slug: str) -> tuple[list, dict]:
    """Return the preset decks a report seats for ``slug`` and its options."""
    presets = [p.deck() for p in preset_decks(slug)]
    if GAMES[slug].shared_pack:
        return presets[:1], {"players": 2}
    return presets[:2], {}


def game_seconds(slug: str, bot: str, games: int, seed: int = 1) -> list[float]:
    """Return the CPU seconds of each of ``games`` report games of ``slug``."""
    game = engine_for(slug)
    decks, options = _preset_table(slug)
    seconds = []
    for i in range(games):
        game_seed = seed + i
        start = time.process_time()
        state = game.new_game(decks, options, game_seed)
        bots = [
            make_bot(bot, game_seed * 31 + s) for s in range(game.player_count(state))
        ]
        play_out(game, state, bots, Rng(seed_state(game_seed, 7)))
        seconds.append(time.process_time() - start)
    return seconds


def estimate_seconds(slug: str, games: int, seed: int = 1) -> list[float]:
    """Return the CPU seconds of the coach's estimates at positions of ``games`` games."""
    game = engine_for(slug)
    decks, options = _preset_table(slug)
    seconds = []
    for i in range(games):
        game_seed = seed + i
        state = game.new_game(decks, options, game_seed)
        bot, chance = make_bot("random", game_seed), Rng(seed_state(game_seed, 7))
        for moves in range(41):
            if game.is_over(state):
                break
            if moves in (5, 20, 40) and game.to_act(state) != CHANCE:
                start = time.process_time()
                move_chances(game, state, coach_seed(game_seed, moves))
                seconds.append(time.process_time() - start)
            if game.to_act(state) == CHANCE:
                action = resolve_chance(game, state, chance)
            else:
                action = bot.choose(game, state)
            state = game.apply(state, action, inplace=True)
    return seconds


def rows(args):
    """Yield the mean and longest CPU seconds of a game, per game and bot."""
    table = json.loads(COSTS_FILE.read_text())
    for slug in sorted(GAMES):
        if args.game and slug != args.game:
            continue
        for bot in BOT_NAMES:
            if args.bot and bot != args.bot:
                continue
            games = args.games or GAMES_PER_BOT.get(bot, 6)
            seconds = game_seconds(slug, bot, games, args.seed)
            mean = statistics.fmean(seconds)
            table["seconds_per_game"].setdefault(slug, {})[bot] = rounded_up(mean)
            yield Row(
                f"report game {slug}, {bot}",
                f"{mean:.4f} s CPU a game",
                f"longest {max(seconds):.3f} s, {games} games",
                seconds=mean,
                data={
                    "game": slug,
                    "bot": bot,
                    "mean": mean,
                    "longest": max(seconds),
                    "games": games,
                },
            )
    for slug in sorted(GAMES):
        if (args.game and slug != args.game) or args.bot not in (None, "coach"):
            continue
        seconds = estimate_seconds(slug, args.games or 12, args.seed)
        mean = statistics.fmean(seconds)
        table["seconds_per_estimate"][slug] = rounded_up(mean)
        yield Row(
            f"coach estimate {slug}",
            f"{mean:.4f} s CPU an estimate",
            f"longest {max(seconds):.3f} s, {len(seconds)} positions",
            seconds=mean,
            data={"game": slug, "mean": mean, "longest": max(seconds)},
        )
    if args.write:
        COSTS_FILE.write_text(json.dumps(table, indent=1) + "\n")
