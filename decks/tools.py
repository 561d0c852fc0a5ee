"""Deck statistics: breakdowns, Collision hand odds, Metal Fusion power, Bakugan
G-Power per gate, Collide-O! colour coverage and a seeded sample hand.

Everything reads the same plain entries as the rules (``decks.rules.to_lines``),
so one query for the deck's entries feeds the legality list and every tool.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations
from math import comb

from .rules import Line, to_lines

COLLISION_COLOURS = ("red", "yellow", "green", "blue")
MF_COLOURS = ("red", "blue", "green", "yellow")
COLLIDE_O_COLOURS = {"B": "blue", "Y": "yellow", "R": "red", "G": "green", "K": "black"}
HAND_SIZE = 5
BAR_WIDTH = 240
UNKNOWN = "unknown"


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


def stop_colour(colour: str) -> str:
    """Return the colour that stops ``colour`` (red->yellow->green->blue->red)."""
    order = COLLISION_COLOURS
    return order[(order.index(colour) + 1) % len(order)]


def p_at_least_one(population: int, successes: int, draws: int = HAND_SIZE) -> float:
    """Return P(at least one success) drawing ``draws`` cards without replacement.

    Hypergeometric: 1 - C(N-K, n) / C(N, n); a deck smaller than the hand is drawn
    whole.
    """
    draws = min(draws, population)
    if population <= 0 or draws <= 0 or successes <= 0:
        return 0.0
    return 1 - comb(population - successes, draws) / comb(population, draws)


def p_each_present(population: int, counts: list[int], draws: int = HAND_SIZE) -> float:
    """Return P(at least one card of every group) in one hand (inclusion-exclusion)."""
    draws = min(draws, population)
    if population <= 0 or draws <= 0 or any(k <= 0 for k in counts):
        return 0.0
    missing = 0
    for size in range(1, len(counts) + 1):
        for group in combinations(counts, size):
            missing += (-1) ** (size + 1) * comb(population - sum(group), draws)
    return 1 - missing / comb(population, draws)


def breakdown(lines: list[Line], field: str, order=()) -> list[Bar]:
    """Return how many cards have each value of ``field`` (unknown last)."""
    counts: dict[str, int] = {}
    for line in lines:
        value = line.get(field)
        key = str(value) if value not in (None, "") else UNKNOWN
        counts[key] = counts.get(key, 0) + line.quantity
    size = sum(counts.values()) or 1
    keys = [k for k in order if k in counts]
    keys += sorted(k for k in counts if k not in keys and k != UNKNOWN)
    keys += [UNKNOWN] if UNKNOWN in counts else []
    return [Bar(k, counts[k], counts[k] / size, f"{field}-{k}") for k in keys]


def collision_hand_odds(lines: list[Line]) -> dict:
    """Return per colour the chance of a five-card hand holding it and its stop.

    The hand is drawn from the deck zone without the Blade (ruling C2).
    """
    drawn = [
        line
        for line in lines
        if line.zone == "deck" and line.get("card_type") != "blade"
    ]
    population = sum(line.quantity for line in drawn)
    counts = {colour: 0 for colour in COLLISION_COLOURS}
    for line in drawn:
        if line.get("colour") in counts:
            counts[line.get("colour")] += line.quantity
    rows = []
    for colour in COLLISION_COLOURS:
        stop = stop_colour(colour)
        rows.append(
            {
                "colour": colour,
                "count": counts[colour],
                "p_colour": p_at_least_one(population, counts[colour]),
                "stop": stop,
                "stop_count": counts[stop],
                "p_stop": p_at_least_one(population, counts[stop]),
            }
        )
        row = rows[-1]
        row["colour_bar"] = Bar(
            colour, row["count"], row["p_colour"], f"colour-{colour}"
        )
        row["stop_bar"] = Bar(stop, row["stop_count"], row["p_stop"], f"colour-{stop}")
    p_all = p_each_present(population, list(counts.values()))
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
    from .playtest.adapter import card_to_engine

    return card_to_engine(card)


def metal_fusion_power(lines: list[Line]) -> dict:
    """Return the line-up's power in each launcher colour and its deck average.

    The count itself is the engine's ``lineup_power`` (ruling M3, M10), so the
    deck page and the playtest never disagree. The average weighs each colour by
    how many deck cards carry that launcher; unknown launchers are left out.
    """
    from .engine.core import EngineError
    from .engine.metal_fusion import lineup_power

    lineup = [
        _engine_card(line.card)
        for line in lines
        if line.zone == "lineup"
        for _ in range(line.quantity)
    ]
    rows, error = [], None
    for colour in MF_COLOURS:
        try:
            total, parts = lineup_power(lineup, colour)
        except EngineError as exc:
            error = exc.message
            rows = []
            break
        rows.append({"colour": colour, "total": total, "parts": parts})
    launchers = {colour: 0 for colour in MF_COLOURS}
    for line in lines:
        if line.zone == "deck" and line.get("launcher") in launchers:
            launchers[line.get("launcher")] += line.quantity
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


def bakugan_gate_table(lines: list[Line]) -> dict:
    """Return each Bakugan's G-Power on each of the deck's gates (None: unknown)."""
    from .engine.bakugan import g_power_on_gate

    bakugan = [line for line in lines if line.zone == "bakugan"]
    gates = [line for line in lines if line.zone == "gate"]
    rows = []
    for b in bakugan:
        figure = _engine_card(b.card)
        rows.append(
            {
                "line": b,
                "g_power": b.get("g_power"),
                "cells": [g_power_on_gate(figure, _engine_card(g.card)) for g in gates],
            }
        )
    return {"gates": gates, "rows": rows}


def _section_colours(section: str | None) -> set[str]:
    return {COLLIDE_O_COLOURS[c] for c in (section or "") if c in COLLIDE_O_COLOURS}


def collide_o_coverage(lines: list[Line]) -> dict:
    """Return per colour the cards whose middle, or either end, offers it.

    ``section_2`` is the middle; a wild (five-colour) section offers every
    colour (ruling O2). Cards with an unknown section are counted apart.
    """
    size = sum(line.quantity for line in lines) or 1
    rows = []
    for colour in COLLIDE_O_COLOURS.values():
        middle = ends = 0
        for line in lines:
            if colour in _section_colours(line.get("section_2")):
                middle += line.quantity
            if colour in _section_colours(line.get("section_1")) | _section_colours(
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


def sample_hand(game_slug: str, lines: list[Line], seed: int) -> dict:
    """Return a seeded opening: five cards, Metal Fusion's top card, Bakugan's gates."""
    rng = random.Random(seed)
    if game_slug == "bakugan":
        return {
            "kind": "gates",
            "cards": [line for line in lines if line.zone == "gate"],
        }
    if game_slug == "collision":
        pool = [
            line
            for line in lines
            if line.zone == "deck" and line.get("card_type") != "blade"
        ]
        size, kind = HAND_SIZE, "hand"
    elif game_slug == "metal-fusion":
        pool = [line for line in lines if line.zone == "deck"]
        size, kind = 1, "top"
    else:
        pool = list(lines)
        size, kind = HAND_SIZE, "hand"
    copies = [line for line in pool for _ in range(line.quantity)]
    rng.shuffle(copies)
    return {"kind": kind, "cards": copies[:size]}


def deck_tools(game_slug: str, entries, *, seed: int = 0) -> dict:
    """Return every statistic the deck page shows for this game."""
    lines = to_lines(entries)
    tools = {
        "colours": breakdown(lines, "colour"),
        "types": breakdown(lines, "card_type"),
        "rarities": breakdown(lines, "rarity"),
        "hand": sample_hand(game_slug, lines, seed),
        "seed": seed,
        "colour_caption": "Colours",
    }
    if game_slug == "collision":
        tools["colours"] = breakdown(lines, "colour", COLLISION_COLOURS)
        tools["odds"] = collision_hand_odds(lines)
    elif game_slug == "metal-fusion":
        tools["colours"] = breakdown(lines, "launcher", MF_COLOURS)
        tools["colour_caption"] = "Launcher colours"
        tools["power"] = metal_fusion_power(lines)
    elif game_slug == "bakugan":
        tools["gate_table"] = bakugan_gate_table(lines)
    elif game_slug == "collide-o":
        tools["coverage"] = collide_o_coverage(lines)
    return tools
