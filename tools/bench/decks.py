"""Deck validation: median and p95 per game of a 100-card deck, no database."""

from cards.games import GAMES
from decks.rules import rules_module, validate_deck
from tools.bench.timing import Row, measure


def add_arguments(parser) -> None:
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--size", type=int, default=100)


def sample_decks(size: int = 100) -> dict[str, list[dict]]:
    """Return one plain-data deck of about ``size`` cards per game."""
    return {slug: rules_module(slug).timing_entries(size) for slug in GAMES}


def rows(args):
    """Yield the validation time of each game's sample deck."""
    for game, entries in sample_decks(args.size).items():
        cards = sum(e["quantity"] for e in entries)
        t = measure(lambda g=game, e=entries: validate_deck(g, e), args.runs)
        yield Row(
            f"validate a {cards}-card {game} deck",
            t.text(),
            f"{t.cpu_text()}, {t.runs} runs",
            seconds=t.median,
            data={"game": game, "cards": cards, "median": t.median, "p95": t.p95},
        )
