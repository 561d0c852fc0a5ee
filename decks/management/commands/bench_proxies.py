"""Time a 60-card proxy sheet: faces not yet drawn, faces drawn, the sheet cached."""

import statistics
import tempfile
import time

from django.core.management.base import BaseCommand, CommandError
from django.test.utils import override_settings

from cards.games import GAMES
from cards.models import Card
from decks.printing import proxies
from decks.samples import sample_entries


def sixty_card_lines(slug: str) -> list[proxies.ProxyLine]:
    """Return the proxy lines of the game's practice sample deck."""
    entries = sample_entries(slug)
    cards = Card.objects.select_related("card_set__game").in_bulk(
        [e["card"] for e in entries]
    )
    return [proxies.ProxyLine(cards[e["card"]], e["quantity"]) for e in entries]


class Command(BaseCommand):
    help = "Print the seconds a 60-card proxy PDF takes: cold, warm faces, cached."

    def add_arguments(self, parser):
        parser.add_argument("--runs", type=int, default=5)

    def handle(self, *args, runs, **options):
        slug = next(iter(GAMES))  # the first game: 60-card decks
        try:
            lines = sixty_card_lines(slug)
        except LookupError as error:
            raise CommandError(f"{error} Run `make data` first.") from None
        copies = sum(line.copies for line in lines)
        with (
            tempfile.TemporaryDirectory() as media,
            override_settings(MEDIA_ROOT=media),
        ):
            start, start_cpu = time.perf_counter(), time.process_time()
            proxies.render_sheet(lines, paper="a4", title="bench")
            cold = time.perf_counter() - start
            # CPU time leaves out the waits of a machine shared with other work.
            cold_cpu = time.process_time() - start_cpu
            warm = []
            for _ in range(max(1, runs)):
                start = time.perf_counter()
                proxies.render_sheet(lines, paper="a4", title="bench")
                warm.append(time.perf_counter() - start)
            proxies.proxy_sheet(lines, paper="a4", title="bench")
            start = time.perf_counter()
            proxies.proxy_sheet(lines, paper="a4", title="bench")
            cached = time.perf_counter() - start
        self.stdout.write(
            f"proxy sheet {copies} cards ({GAMES[slug].short_name}, A4): "
            f"faces drawn first {cold:.2f} s (CPU {cold_cpu:.2f} s), faces cached median "
            f"{statistics.median(warm):.2f} s, sheet cached {cached * 1000:.1f} ms"
        )
