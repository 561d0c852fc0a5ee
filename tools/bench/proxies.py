"""Proxy sheet: a 60-card PDF with faces not yet drawn, faces drawn, sheet cached."""

import tempfile

from django.test.utils import override_settings

from cards.games import GAMES
from cards.models import Card
from decks.samples import sample_entries
from decks.table import proxies
from tools.bench.timing import BenchError, Row, measure, ms


def add_arguments(parser) -> None:
    parser.add_argument("--runs", type=int, default=5)


def sixty_card_lines(slug: str) -> list[proxies.ProxyLine]:
    """Return the proxy lines of the game's practice sample deck."""
    entries = sample_entries(slug)
    cards = Card.objects.select_related("card_set__game").in_bulk(
        [e["card"] for e in entries]
    )
    return [proxies.ProxyLine(cards[e["card"]], e["quantity"]) for e in entries]


def rows(args):
    """Yield the three times of one sheet."""
    slug = next(iter(GAMES))  # the first game: 60-card decks
    try:
        lines = sixty_card_lines(slug)
    except LookupError as error:
        raise BenchError(f"{error} Run `make data` first.") from None
    copies = sum(line.copies for line in lines)
    name = f"proxy sheet, {copies} cards ({GAMES[slug].short_name}, A4)"

    def render():
        return proxies.render_sheet(lines, paper="a4", title="bench")

    def sheet():
        return proxies.proxy_sheet(lines, paper="a4", title="bench")

    with tempfile.TemporaryDirectory() as media, override_settings(MEDIA_ROOT=media):
        cold = measure(render, 1, warm=0)
        warm = measure(render, args.runs, warm=0)
        cached = measure(sheet, 1, warm=1)
    yield Row(
        f"{name}, faces drawn first",
        f"{cold.median:.2f} s",
        cold.cpu_text(),
        cold.median,
    )
    yield Row(
        f"{name}, faces cached",
        f"median {warm.median:.2f} s",
        f"{warm.runs} runs",
        warm.median,
    )
    yield Row(f"{name}, sheet cached", ms(cached.median), "one run", cached.median)
