"""Engine speed: random-versus-random complete games per second, one core."""

from cards.games import GAMES
from decks.engine import engine_for
from decks.engine.simulate import run_games
from decks.play.simulation import engine_decks_from_specs
from tools.bench.timing import Row


def add_arguments(parser) -> None:
    parser.add_argument("--games", type=int, default=2000)


def engine_figures(games: int = 2000, seed: int = 1):
    """Yield games/s for every engine set-up, practice sample decks, random bots."""
    for slug, spec in GAMES.items():
        game = engine_for(slug)
        for options, players in spec.bench_setups:
            if spec.shared_pack:
                decks = engine_decks_from_specs(slug, ["sample"], players=players)
                options = {**options, "players": players}
            else:
                samples = [f"sample:{i}" for i in range(players)]
                decks = engine_decks_from_specs(slug, samples, players=players)
            run_games(game, decks, options, min(50, games), seed)  # warm caches
            summary = run_games(game, decks, options, games, seed)
            yield {
                "game": slug,
                "players": players,
                "options": {k: v for k, v in options.items() if k != "players"},
                "games": games,
                "games_per_second": summary["games_per_second"],
                "mean_length": summary["mean_length"],
                "draws": summary["draws"],
            }


def rows(args):
    """Yield one row per engine set-up."""
    for r in engine_figures(args.games):
        shown = "".join(f" {k}" for k, v in r["options"].items() if v)
        yield Row(
            f"engine {r['game']}{shown}, {r['players']} players",
            f"{r['games_per_second']} games/s",
            f"random bots, mean length {r['mean_length']}, {r['games']} games",
            seconds=1 / r["games_per_second"],
            data=r,
        )
