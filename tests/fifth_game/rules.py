"""Tally Ho deck rules: exactly ten cards, at most two copies of any card."""

from decks.rules import Line, Problem, ids, total

from .engine import DECK_SIZE, GAME

MAX_COPIES = 2

NAME = GAME.short_name
ZONES = GAME.zone_values

__all__ = ["MAX_COPIES", "NAME", "ZONES", "sample", "timing_entries", "validate"]


def validate(lines: list[Line], **options) -> list[Problem]:
    """Return the problems of a Tally Ho deck."""
    problems = []
    size = total(lines)
    if size != DECK_SIZE:
        problems.append(
            Problem(
                "deck_size",
                f"A Tally Ho deck has exactly {DECK_SIZE} cards. This deck has {size}.",
                ids(lines),
            )
        )
    copies: dict = {}
    for line in lines:
        copies.setdefault(line.card_id, []).append(line)
    for card_lines in copies.values():
        count = total(card_lines)
        if count > MAX_COPIES:
            problems.append(
                Problem(
                    "too_many_copies",
                    f"{card_lines[0].label}: at most {MAX_COPIES} copies of a card; "
                    f"this deck has {count}.",
                    ids(card_lines),
                )
            )
    return problems


def sample(cards: list, variant: int = 0) -> list[dict]:
    """Return a legal deck: one copy each of the first ten cards, turned by ``variant``."""
    chosen = [cards[(variant + i) % len(cards)] for i in range(min(len(cards), 10))]
    return [{"card": c.pk, "quantity": 1, "zone": "deck"} for c in chosen]


def timing_entries(size: int) -> list[dict]:
    """Return a plain deck of ``size`` cards."""
    return [
        {
            "card": {"id": 900 + i, "name": f"Card {i}", "card_type": "tally",
                     "g_power": 1 + i % 9},
            "quantity": 1,
            "zone": "deck",
        }
        for i in range(size)
    ]  # fmt: skip
