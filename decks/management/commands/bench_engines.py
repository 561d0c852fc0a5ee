"""Print random-versus-random complete games per second for each engine, on one core."""

import json

from django.core.management.base import BaseCommand

from decks.engine import MODULES, get_game
from decks.engine.simulate import run_games
from decks.playtest.simulation import engine_deck_from_spec

SETUPS = {
    "collision": [({}, 2), ({"advanced": True}, 2)],
    "metal-fusion": [({}, 2)],
    "collide-o": [({}, 2), ({}, 5)],
    "bakugan": [({}, 2), ({}, 4)],
}


def engine_figures(games: int = 2000, seed: int = 1) -> list[dict]:
    """Return games/s for every engine set-up, practice sample decks, random bots."""
    rows = []
    for slug in MODULES:
        game = get_game(slug)
        for options, players in SETUPS[slug]:
            if slug == "collide-o":
                decks = [engine_deck_from_spec(slug, "sample")[1]]
                options = {**options, "players": players}
            else:
                decks = [
                    engine_deck_from_spec(slug, f"sample:{i}")[1]
                    for i in range(players)
                ]
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
