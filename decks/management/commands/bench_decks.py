"""Time deck validation: median and p95 per game over many runs, no database."""

import statistics
import time

from django.core.management.base import BaseCommand

from cards.games import GAMES
from decks.rules import rules_module, validate_deck


def sample_decks(size: int = 100) -> dict[str, list[dict]]:
    """Return one plain-data deck of about ``size`` cards per game."""
    return {slug: rules_module(slug).timing_entries(size) for slug in GAMES}


class Command(BaseCommand):
    help = "Print the median and p95 time to validate a 100-card deck of each game."

    def add_arguments(self, parser):
        parser.add_argument("--runs", type=int, default=2000)
        parser.add_argument("--size", type=int, default=100)

    def handle(self, *args, runs, size, **options):
        runs = max(1, runs)
        for game, entries in sample_decks(size).items():
            cards = sum(e["quantity"] for e in entries)
            wall, cpu = [], []
            for _ in range(runs):
                start, start_cpu = time.perf_counter(), time.process_time()
                validate_deck(game, entries)
                cpu.append((time.process_time() - start_cpu) * 1000)
                wall.append((time.perf_counter() - start) * 1000)
            # CPU time leaves out the waits of a machine shared with other work.
            self.stdout.write(
                f"{game:13} {cards:4} cards  wall median {_median(wall):.3f} ms "
                f"p95 {_p95(wall):.3f} ms  cpu median {_median(cpu):.3f} ms "
                f"p95 {_p95(cpu):.3f} ms  ({runs} runs)"
            )


def _median(values: list[float]) -> float:
    return statistics.median(values)


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
