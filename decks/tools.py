"""Deck statistics: breakdowns by colour, type and rarity and a seeded opening.

Everything reads the same plain entries as the rules (``decks.rules.to_lines``),
so one query for the deck's entries feeds the legality list and every tool. The
colours and the opening are the registry's (``cards.games``); a game's own
figures (hand odds with each colour's stopper, line-up power, G-Power per gate,
section colour coverage) come from its rules module's ``deck_tools``, which
count by its engine's rules.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations
from math import comb

from cards.games import GAMES, Game

from .rules import Line, rules_module, to_lines

BAR_WIDTH = 240
UNKNOWN = "unknown"
NO_COLOUR = "no colour"
NOT_PRINTED = "not printed"
COLOUR_FIELDS = ("colour", "launcher")


@dataclass(frozen=True)
class Bar:
    """One bar of a chart: its label, count, share of the total and drawn width."""

    label: str
    count: int
    share: float
    css: str = ""

    @property
    def width(self) -> float:
        return round(self.share * BAR_WIDTH, 1)

    @property
    def percent(self) -> float:
        return round(self.share * 100, 1)


def p_at_least_one(population: int, successes: int, draws: int) -> float:
    """Return P(at least one success) drawing ``draws`` cards without replacement.

    Hypergeometric: 1 - C(N-K, n) / C(N, n); a deck smaller than the hand is drawn
    whole.
    """
    draws = min(draws, population)
    if population <= 0 or draws <= 0 or successes <= 0:
        return 0.0
    return 1 - comb(population - successes, draws) / comb(population, draws)


def p_each_present(population: int, counts: list[int], draws: int) -> float:
    """Return P(at least one card of every group) in one hand (inclusion-exclusion)."""
    draws = min(draws, population)
    if population <= 0 or draws <= 0 or any(k <= 0 for k in counts):
        return 0.0
    missing = 0
    for size in range(1, len(counts) + 1):
        for group in combinations(counts, size):
            missing += (-1) ** (size + 1) * comb(population - sum(group), draws)
    return 1 - missing / comb(population, draws)


def _not_printed(game: Game | None, line: Line, field: str) -> bool:
    """Return whether the line's card prints no ``field`` (``Game.prints``)."""
    if game is None:
        return False
    return not game.prints(field, line.get("card_type"), line.get("not_printed") or ())


def breakdown(
    lines: list[Line], field: str, order=(), game: Game | None = None
) -> list[Bar]:
    """Return how many cards have each value of ``field``.

    A card whose type prints no such value (a Blade's colour, a gate's) counts as
    ``no colour`` (``not printed`` for other fields), apart from a card whose value
    nobody has recorded yet (``unknown``, last).
    """
    absent = NO_COLOUR if field in COLOUR_FIELDS else NOT_PRINTED
    counts: dict[str, int] = {}
    for line in lines:
        value = line.get(field)
        if value not in (None, ""):
            key = str(value)
        else:
            key = absent if _not_printed(game, line, field) else UNKNOWN
        counts[key] = counts.get(key, 0) + line.quantity
    size = sum(counts.values()) or 1
    last = (absent, UNKNOWN)
    keys = [k for k in order if k in counts]
    keys += sorted(k for k in counts if k not in keys and k not in last)
    keys += [k for k in last if k in counts]
    css = {NO_COLOUR: "none", NOT_PRINTED: "none"}
    return [
        Bar(k, counts[k], counts[k] / size, f"{field}-{css.get(k, k)}") for k in keys
    ]


def colour_order(game: Game) -> tuple[str, ...]:
    """Return the game's colours in its own order."""
    return tuple(c.value for c in game.colours)


def opening_pool(game: Game, lines: list[Line]) -> list[Line]:
    """Return the lines a game's opening is drawn from (its ``Opening``)."""
    opening = game.opening
    return [
        line
        for line in lines
        if (opening.zone is None or line.zone == opening.zone)
        and line.get("card_type") not in opening.leaves_out
    ]


def colour_bars(game: Game, lines: list[Line]) -> list[Bar]:
    """Return the deck's cards per colour of the game's colour field, in its order."""
    return breakdown(lines, game.colour_field, colour_order(game), game)


def engine_card(card) -> dict:
    """Return the plain card dict the engines read."""
    if isinstance(card, dict):
        return card
    # Imported here: the rules modules use these tools and stay free of the ORM.
    from .play.adapter import card_to_engine

    return card_to_engine(card)


def zone_printing(game: Game, field: str) -> str:
    """Return the zone of the card type that prints ``field``."""
    return next(game.default_zone(k.value) for k in game.kinds if field in k.fields)


def sample_hand(game_slug: str, lines: list[Line], seed: int) -> dict:
    """Return a seeded opening as the registry describes it (``Game.opening``)."""
    game = GAMES[game_slug]
    opening = game.opening
    pool = opening_pool(game, lines)
    if opening.size is None:
        return {"kind": opening.kind, "heading": opening.heading, "cards": pool}
    copies = [line for line in pool for _ in range(line.quantity)]
    random.Random(seed).shuffle(copies)
    return {
        "kind": opening.kind,
        "heading": opening.heading,
        "cards": copies[: opening.size],
        "redraw": True,
    }


def deck_tools(game_slug: str, entries, *, seed: int = 0) -> dict:
    """Return every statistic the deck page shows for this game."""
    game = GAMES[game_slug]
    lines = to_lines(entries)
    tools = {
        # A game whose cards carry no colour of their own (Collide-O!: colours are
        # the sections') has no colour chart; its own tools say what it shows.
        "colours": colour_bars(game, lines) if game.colour_field else None,
        "types": breakdown(lines, "card_type"),
        "rarities": breakdown(lines, "rarity", (), game),
        "hand": sample_hand(game_slug, lines, seed),
        "seed": seed,
        "colour_caption": game.colour_caption,
    }
    own = getattr(rules_module(game_slug), "deck_tools", None)
    if own is not None:
        tools.update(own(game, lines))
    return tools
