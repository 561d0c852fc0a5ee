"""Deck report in the worker process: seconds for 1,000 random-bot games per game."""

import time

from cards.games import GAMES
from decks.play.models import DeckReport
from decks.play.reports import simulate_report
from decks.play.simulation import engine_decks_from_specs
from tools.bench.timing import Row


def add_arguments(parser) -> None:
    parser.add_argument("--games", type=int, default=1000)


def report_seconds(slug: str, games: int = 1000) -> float:
    """Return the seconds a deck report of ``games`` random-bot games takes."""
    shared = GAMES[slug].shared_pack
    specs = ["sample"] if shared else ["sample:0", "sample:1"]
    report = DeckReport(
        game=slug,
        games=games,
        seed=1,
        bot="random",
        decks=engine_decks_from_specs(slug, specs, players=2),
        options={"players": 2} if shared else {},
    )
    started = time.perf_counter()
    simulate_report(report)
    return time.perf_counter() - started


def rows(args):
    """Yield each game's report time."""
    for slug in GAMES:
        seconds = report_seconds(slug, args.games)
        yield Row(
            f"deck report, {args.games} games, {slug}",
            f"{seconds:.2f} s",
            "random bots, in process",
            seconds=seconds / args.games,
        )
