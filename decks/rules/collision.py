"""Beyblade Collision deck rules (rules text: Building a deck; rulings C1, C20).

At least sixty cards in all, the Blade included (C1); exactly one Blade, which
sits in the Blade zone; at most four cards sharing a title, across subtitles and
the Blade included (C20). The title is the card's ``title`` field, never a split
of the name on a comma: an Action or Event may carry a comma in its own title. A
card whose title is unknown (null) counts under its own identity.

``sample`` builds a legal deck from a set's cards and ``timing_entries`` a large
plain one for the validation benchmark.

The table companion (``COMPANION``): each player's spin pile starts at their
Blade's spin strength; a battle's hits take cards off the defender's pile, hits
past the last card are lost and the player is out (ruling C6); gained spin never
passes the spin strength. Hits may be entered as a number, or counted from the
two battle edges by the engine's own rule (``engine.hits``, ruling C4).
"""

from collections import defaultdict
from types import SimpleNamespace

from cards.games import Game
from cards.games.collision import GAME, PIECE_NAMES

from ..engine import collision as engine
from ..table.companion.score import (
    Companion,
    ScoreError,
    seat,
    seat_name,
    typed,
    whole,
)
from ..tools import Bar, colour_order, opening_pool, p_at_least_one, p_each_present
from . import Line, Problem, count_phrase, ids, rotated, total

SLUG = GAME.slug
NAME = GAME.short_name
ZONES = GAME.zone_values
MIN_CARDS = 60
BLADES = 1
TITLE_LIMIT = 4
BUILDING = "rules: Building a deck"


def validate(lines: list[Line], **options) -> list[Problem]:
    """Return the problems of a Collision deck."""
    problems = []
    size = total(lines)
    if size < MIN_CARDS:
        problems.append(
            Problem(
                "too_few_cards",
                f"A Collision deck needs at least {MIN_CARDS} cards, the Blade included "
                f"({BUILDING}; ruling C1). This deck has {size}.",
            )
        )
    blades = [line for line in lines if line.get("card_type") == "blade"]
    blade_count = total(blades)
    if blade_count != BLADES:
        problems.append(
            Problem(
                "blade_count",
                f"A Collision deck has exactly one Blade ({BUILDING}; ruling C1). "
                f"This deck has {count_phrase(blade_count, 'Blade')}.",
                ids(blades),
            )
        )
    misplaced = [line for line in blades if line.zone != "blade"]
    if misplaced:
        problems.append(
            Problem(
                "blade_in_deck",
                "A Blade goes in the Blade zone, not among the deck's other cards "
                f"({BUILDING}; ruling C1): move "
                + ", ".join(line.label for line in misplaced)
                + ".",
                ids(misplaced),
            )
        )
    not_blades = [
        line
        for line in lines
        if line.zone == "blade" and line.get("card_type") != "blade"
    ]
    if not_blades:
        problems.append(
            Problem(
                "not_a_blade",
                f"Only a Blade goes in the Blade zone ({BUILDING}): "
                + ", ".join(
                    line.label
                    + (" (type unknown)" if line.get("card_type") is None else "")
                    for line in not_blades
                )
                + " is not one.",
                ids(not_blades),
            )
        )
    problems.extend(_title_problems(lines))
    return problems


def _title_problems(lines: list[Line]) -> list[Problem]:
    groups: dict[object, list[Line]] = defaultdict(list)
    for line in lines:
        title = line.get("title")
        # Ruling C20: the title field decides; an unknown title is its own card.
        key = ("title", title.strip().casefold()) if title else ("card", line.card_id)
        groups[key].append(line)
    problems = []
    for key, group in groups.items():
        count = total(group)
        if count <= TITLE_LIMIT:
            continue
        if key[0] == "title":
            what = f"titled “{group[0].get('title').strip()}”"
        else:
            what = f"of {group[0].label} (title unknown)"
        problems.append(
            Problem(
                "title_limit",
                f"A Collision deck holds at most {TITLE_LIMIT} cards sharing a title, "
                f"across subtitles and the Blade included ({BUILDING}; ruling C20). "
                f"This deck has {count} {what}.",
                ids(group),
            )
        )
    return problems


def sample(cards: list, variant: int = 0) -> list[dict]:
    """Return entries of a legal deck of ``cards``: a Blade and 59 cards, titles apart.

    ``variant`` turns the choice of cards, so two samples can face each other.
    """
    blades = rotated([c for c in cards if c.card_type == "blade"], variant)
    others = rotated([c for c in cards if c.card_type != "blade"], variant)
    entries = [{"card": blades[0].pk, "quantity": 1, "zone": "blade"}]
    per_title: dict[str, int] = {}
    size = BLADES
    for card in others * TITLE_LIMIT:
        if size >= MIN_CARDS:
            break
        title = card.title or f"#{card.pk}"
        if per_title.get(title, 0) >= TITLE_LIMIT or title == blades[0].title:
            continue
        per_title[title] = per_title.get(title, 0) + 1
        size += 1
        entries.append({"card": card.pk, "quantity": 1, "zone": "deck"})
    merged: dict[tuple, int] = {}
    for e in entries:
        merged[(e["card"], e["zone"])] = merged.get((e["card"], e["zone"]), 0) + 1
    return [
        {"card": card, "zone": zone, "quantity": q}
        for (card, zone), q in merged.items()
    ]


def timing_entries(size: int) -> list[dict]:
    """Return a plain deck of ``size`` cards whose every title group is walked."""
    colours = GAME.colours
    entries = [
        {
            "card": {
                "id": 1,
                "name": "Card 1",
                "card_type": "blade",
                "title": "Dragoon",
            },
            "quantity": 1,
            "zone": "blade",
        }
    ]
    # Single copies, so every title group is walked (the slow case).
    entries += [
        {
            "card": {
                "id": 100 + i,
                "name": f"Card {100 + i}",
                "card_type": "action",
                "title": f"Title {i // 3}",
                "colour": colours[i % len(colours)].value,
            },
            "quantity": 1,
            "zone": "deck",
        }
        for i in range(size - 1)
    ]
    return entries


# --- the table companion -------------------------------------------------------


def edge_ok(edge: str) -> bool:
    """Return whether ``edge`` is six notches, each . (bare), L, S or E."""
    return len(edge) == 6 and all(c in ".LSE" for c in edge)


def edge_hits(attacking_edge: str, defending_edge: str) -> int:
    """Return the hits of the turn player's edge against the other (ruling C4)."""
    for edge in (attacking_edge, defending_edge):
        if not isinstance(edge, str) or not edge_ok(edge):
            raise ScoreError(
                f"A battle edge is six notches, typed {GAME.notch_key_help}."
            )
    # The engine's own count, over its own notch masks.
    on, _, _ = engine._edge_masks(attacking_edge)
    _, off, _ = engine._edge_masks(defending_edge)
    return engine.hits(SimpleNamespace(on=on), SimpleNamespace(off=off))


def _score(setup: dict, log: list) -> dict:
    strengths = [
        whole(s, "A Blade's spin strength", 1, 30) for s in setup.get("strength", [])
    ]
    players = len(strengths)
    piles = list(strengths)
    history = []
    for event in log:
        kind = event.get("kind")
        if kind == "battle":
            defender = seat(event.get("defender"), players, "The defender")
            if "attacker_edge" in event:
                hits = edge_hits(event["attacker_edge"], event["defender_edge"])
            else:
                hits = whole(event.get("hits"), "Hits", 0, 6)
            if piles[defender] == 0:
                raise ScoreError(f"{seat_name(setup, defender)} is already out.")
            taken = min(hits, piles[defender])
            piles[defender] -= taken
            history.append(
                f"{seat_name(setup, defender)} takes {hits} hit{'s' * (hits != 1)}: "
                f"spin pile {piles[defender] + taken} → {piles[defender]}"
                + (" (out)" if piles[defender] == 0 else "")
            )
        elif kind in ("gain", "lose"):
            player = seat(event.get("player"), players)
            amount = whole(event.get("amount"), "The amount", 1, 30)
            before = piles[player]
            if before == 0:
                raise ScoreError(f"{seat_name(setup, player)} is already out.")
            if kind == "gain":
                piles[player] = min(strengths[player], before + amount)
            else:
                piles[player] = max(0, before - amount)
            history.append(
                f"{seat_name(setup, player)} {kind}s {amount} spin: "
                f"{before} → {piles[player]}"
            )
        else:
            raise ScoreError("A Collision event is a battle, a gain or a loss of spin.")
    live = [p for p in range(players) if piles[p] > 0]
    return {
        "rows": [
            {
                "player": p,
                "spin": piles[p],
                "strength": strengths[p],
                "out": piles[p] == 0,
            }
            for p in range(players)
        ],
        "winner": live[0] if len(live) == 1 and players > 1 else None,
        "history": history,
    }


def _setup(form, seats) -> dict:
    strengths = []
    for p, place in enumerate(seats):
        strength = typed(form.get(f"strength_{p}"))
        if strength is None and place.cards:
            blades = [
                c
                for zone in place.cards.values()
                for c in zone
                if c.get("card_type") == "blade"
            ]
            strength = blades[0].get("spin_strength") if blades else None
            if strength is None:
                raise ScoreError(
                    f"The Blade of {place.deck} has no recorded spin "
                    "strength: type it in."
                )
        if strength is None:
            raise ScoreError(f"Give {place.name}'s spin strength or a deck.")
        strengths.append(strength)
    return {"strength": strengths}


def _event(form, setup: dict) -> dict:
    what = form.get("event")
    if what == "battle":
        event = {"kind": "battle", "defender": typed(form.get("defender"))}
        a, d = (
            (form.get("attacker_edge") or "").strip(),
            (form.get("defender_edge") or "").strip(),
        )
        if a or d:
            event.update(
                attacker_edge=GAME.read_notches(a), defender_edge=GAME.read_notches(d)
            )
        else:
            event["hits"] = form.get("hits")
        return event
    return {
        "kind": what,
        "player": typed(form.get("player")),
        "amount": form.get("amount"),
    }


def _page(setup: dict) -> dict:
    return {"notch_key_help": GAME.notch_key_help}


COMPANION = Companion(replay=_score, setup=_setup, event=_event, page=_page)


# --- deck tools (the deck page's figures) --------------------------------------


def hand_odds(game: Game, lines: list[Line]) -> dict:
    """Return per colour the chance of an opening hand holding it and its stopper.

    The hand is the game's opening (Collision: five cards from the deck, the Blade
    left out, ruling C2); the stopper is the engine's.
    """
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
        stop = engine.stopper(colour)
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


def deck_tools(game, lines: list[Line]) -> dict:
    """Return this game's own figures for the deck page."""
    return {"odds": hand_odds(game, lines)}


# --- board helpers (the playtest board's template filters and tags) ----------


def next_colour(colour) -> str:
    """Return the Collision colour that stops ``colour`` (the next one round the bar)."""
    return engine.stopper(colour) or ""


def edge_notches(edge) -> list[dict]:
    """Return a battle edge's six notches as {number, x, piece} rows for an SVG."""
    if not isinstance(edge, str):
        return []
    return [
        {"number": i + 1, "x": 4 + i * 14, "piece": PIECE_NAMES.get(ch, "bare")}
        for i, ch in enumerate(edge[:6])
    ]


BOARD_FILTERS = {"next_colour": next_colour, "edge_notches": edge_notches}
