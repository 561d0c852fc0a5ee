"""Deck statistics: breakdowns, hand odds with each colour's stopper, line-up
power, G-Power per gate, section colour coverage and a seeded opening.

Everything reads the same plain entries as the rules (``decks.rules.to_lines``),
so one query for the deck's entries feeds the legality list and every tool. Which
tools a game shows, its colours and its opening are the registry's
(``cards.games``); the play rules they count (the stop colour, battle power,
G-Power on a gate) are the engine's.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations
from math import comb

from cards.games import GAMES, Game

from .engine import get_game
from .engine.core import EngineError
from .playtest.adapter import card_to_engine
from .rules import Line, to_lines

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
    """Return whether the line's card is of a type that prints no ``field``."""
    kind = game.kind(line.get("card_type")) if game is not None else None
    return kind is not None and field not in kind.fields


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


def section_bars(game: Game, lines: list[Line]) -> list[Bar]:
    """Return per colour the cards with that colour in any of their sections.

    A card counts once per colour it shows (a red-blue stripe counts for red and
    for blue; the wild stripe for every colour, ruling O2), so the bars add up to
    more than the deck; cards with a section nobody has recorded count as unknown.
    """
    names = {c.letter: c.value for c in game.colours}
    fields = ("section_1", "section_2", "section_3")
    size = sum(line.quantity for line in lines) or 1
    counts = dict.fromkeys(names.values(), 0)
    unknown = 0
    for line in lines:
        sections = [line.get(f) for f in fields]
        if any(section is None for section in sections):
            unknown += line.quantity
            continue
        for colour in {names[c] for section in sections for c in section if c in names}:
            counts[colour] += line.quantity
    bars = [Bar(c, n, n / size, f"colour-{c}") for c, n in counts.items() if n]
    if unknown:
        bars.append(Bar(UNKNOWN, unknown, unknown / size, "colour-unknown"))
    return bars


def hand_odds(game: Game, lines: list[Line]) -> dict:
    """Return per colour the chance of an opening hand holding it and its stopper.

    The hand is the game's opening (Collision: five cards from the deck, the Blade
    left out, ruling C2); the stopper is the engine's.
    """
    stopper = get_game(game.slug).stopper
    drawn = opening_pool(game, lines)
    draws = game.opening.size
    population = sum(line.quantity for line in drawn)
    colours = colour_order(game)
    counts = {colour: 0 for colour in colours}
    for line in drawn:
        if line.get(game.colour_field) in counts:
            counts[line.get(game.colour_field)] += line.quantity
    rows = []
    for colour in colours:
        stop = stopper(colour)
        rows.append(
            {
                "colour": colour,
                "count": counts[colour],
                "p_colour": p_at_least_one(population, counts[colour], draws),
                "stop": stop,
                "stop_count": counts[stop],
                "p_stop": p_at_least_one(population, counts[stop], draws),
            }
        )
        row = rows[-1]
        row["colour_bar"] = Bar(
            colour, row["count"], row["p_colour"], f"colour-{colour}"
        )
        row["stop_bar"] = Bar(stop, row["stop_count"], row["p_stop"], f"colour-{stop}")
    p_all = p_each_present(population, list(counts.values()), draws)
    return {
        "population": population,
        "rows": rows,
        "p_all_colours": p_all,
        "p_all_percent": round(p_all * 100, 1),
    }


def _engine_card(card) -> dict:
    """Return the plain card dict the engines read."""
    if isinstance(card, dict):
        return card
    return card_to_engine(card)


def lineup_power(game: Game, lines: list[Line]) -> dict:
    """Return the line-up's power in each launcher colour and its deck average.

    The count itself is the engine's ``lineup_power`` (ruling M3, M10), so the
    deck page and the playtest never disagree. The average weighs each colour by
    how many deck cards carry that launcher; unknown launchers are left out.
    """
    count = get_game(game.slug).lineup_power
    colours = colour_order(game)
    launcher = game.colour_field
    lineup = [
        _engine_card(line.card)
        for line in lines
        if line.zone == "lineup"
        for _ in range(line.quantity)
    ]
    rows, error = [], None
    for colour in colours:
        try:
            total, parts = count(lineup, colour)
        except EngineError as exc:
            error = exc.message
            rows = []
            break
        rows.append({"colour": colour, "total": total, "parts": parts})
    launchers = {colour: 0 for colour in colours}
    for line in lines:
        if line.zone == "deck" and line.get(launcher) in launchers:
            launchers[line.get(launcher)] += line.quantity
    weighed = sum(launchers.values())
    average = None
    if rows and weighed:
        power = {row["colour"]: row["total"] for row in rows}
        average = sum(power[c] * n for c, n in launchers.items()) / weighed
    top = max((row["total"] for row in rows), default=0) or 1
    for row in rows:
        row["bar"] = Bar(
            row["colour"],
            row["total"],
            max(row["total"], 0) / top,
            f"colour-{row['colour']}",
        )
        row["launchers"] = launchers[row["colour"]]
    return {"rows": rows, "error": error, "average": average, "launchers": weighed}


def _zone_printing(game: Game, field: str) -> str:
    """Return the zone of the card type that prints ``field``."""
    return next(game.default_zone(k.value) for k in game.kinds if field in k.fields)


def gate_table(game: Game, lines: list[Line]) -> dict:
    """Return each Bakugan's G-Power on each of the deck's gates (None: unknown).

    The Bakugan are the cards that print a G-Power, the gates those with a class.
    """
    on_gate = get_game(game.slug).g_power_on_gate
    figures, gated = _zone_printing(game, "g_power"), _zone_printing(game, "gate_class")
    bakugan = [line for line in lines if line.zone == figures]
    gates = [line for line in lines if line.zone == gated]
    rows = []
    for b in bakugan:
        figure = _engine_card(b.card)
        rows.append(
            {
                "line": b,
                "g_power": b.get("g_power"),
                "cells": [on_gate(figure, _engine_card(g.card)) for g in gates],
            }
        )
    return {"gates": gates, "rows": rows}


def coverage(game: Game, lines: list[Line]) -> dict:
    """Return per colour the cards whose middle, or either end, offers it.

    ``section_2`` is the middle; a wild (five-colour) section offers every
    colour (ruling O2). Cards with an unknown section are counted apart.
    """
    names = {c.letter: c.value for c in game.colours}

    def offered(section: str | None) -> set[str]:
        return {names[c] for c in (section or "") if c in names}

    size = sum(line.quantity for line in lines) or 1
    rows = []
    for colour in names.values():
        middle = ends = 0
        for line in lines:
            if colour in offered(line.get("section_2")):
                middle += line.quantity
            if colour in offered(line.get("section_1")) | offered(
                line.get("section_3")
            ):
                ends += line.quantity
        rows.append(
            {
                "colour": colour,
                "middle": Bar(colour, middle, middle / size, f"colour-{colour}"),
                "ends": Bar(colour, ends, ends / size, f"colour-{colour}"),
            }
        )
    unknown = sum(
        line.quantity
        for line in lines
        if any(line.get(f) is None for f in ("section_1", "section_2", "section_3"))
    )
    return {"rows": rows, "unknown": unknown}


# The registry's ``deck_tools`` names, each the function that computes it.
TOOLS = {
    "colours": colour_bars,
    "odds": hand_odds,
    "power": lineup_power,
    "gate_table": gate_table,
    "coverage": coverage,
    "sections": section_bars,
}


def sample_hand(game_slug: str, lines: list[Line], seed: int) -> dict:
    """Return a seeded opening as the registry describes it (``Game.opening``)."""
    game = GAMES[game_slug]
    opening = game.opening
    pool = opening_pool(game, lines)
    if opening.size is None:
        return {"kind": opening.kind, "cards": pool}
    copies = [line for line in pool for _ in range(line.quantity)]
    random.Random(seed).shuffle(copies)
    return {"kind": opening.kind, "cards": copies[: opening.size]}


def deck_tools(game_slug: str, entries, *, seed: int = 0) -> dict:
    """Return every statistic the deck page shows for this game."""
    game = GAMES[game_slug]
    lines = to_lines(entries)
    tools = {
        # A game whose cards carry no colour of their own (Collide-O!: colours are
        # the sections') has no colour chart; its deck_tools say what it shows.
        "colours": breakdown(lines, "colour", colour_order(game), game)
        if game.colour_field
        else None,
        "types": breakdown(lines, "card_type"),
        "rarities": breakdown(lines, "rarity", (), game),
        "hand": sample_hand(game_slug, lines, seed),
        "seed": seed,
        "colour_caption": game.colour_caption,
    }
    for name in game.deck_tools:
        tools[name] = TOOLS[name](game, lines)
    return tools
