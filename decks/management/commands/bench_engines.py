"""Print random-versus-random complete games per second for each engine, on one core."""

import json

from django.core.management.base import BaseCommand

from cards.games import GAMES
from decks.engine import get_game
from decks.engine.simulate import run_games
from decks.playtest.simulation import engine_decks_from_specs


def engine_figures(games: int = 2000, seed: int = 1) -> list[dict]:
    """Return games/s for every engine set-up, practice sample decks, random bots."""
    rows = []
    for slug, spec in GAMES.items():
        game = get_game(slug)
        for options, players in spec.bench_setups:
            if spec.shared_pack:
                decks = engine_decks_from_specs(slug, ["sample"], players=players)
                options = {**options, "players": players}
            else:
                samples = [f"sample:{i}" for i in range(players)]
                decks = engine_decks_from_specs(slug, samples, players=players)
            run_games(game, decks, options, min(50, games), seed)  # warm caches
            summary = run_games(game, decks, options, games, seed)
            rows.append(
                {
                    "game": slug,
                    "players": players,
                    "options": {k: v for k, v in options.items() if k != "players"},
                    "games": games,
                    "games_per_second": summary["games_per_second"],
                    "mean_length": summary["mean_length"],
                    "draws": summary["draws"],
                }
            )
    return rows


class Command(BaseCommand):
    help = "Benchmark each engine: complete random-vs-random games per second (one process, one core)."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=2000)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **opts):
        rows = engine_figures(opts["games"])
        if opts["json"]:
            self.stdout.write(json.dumps(rows))
            return
        self.stdout.write(
            f"{'game':<14}{'players':>8}  {'options':<18}{'games/s':>10}{'mean length':>13}"
        )
        for r in rows:
            self.stdout.write(
                f"{r['game']:<14}{r['players']:>8}  {json.dumps(r['options']):<18}{r['games_per_second']:>10}{r['mean_length']:>13}"
            )
