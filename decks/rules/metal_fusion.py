"""Beyblade Metal Fusion deck rules (rules text: steps 1, 2 and 7; ruling M1).

The line-up is exactly one Character, one Beyblade and one Customizer. The deck
is exactly fifteen more cards, of any type, with no two cards sharing a number
(ruling M1: "in a deck" means the fifteen; the line-up is not part of it). The
line-up's slots, the deck size and the repeated-number test are the engine's.

The number compared is the card's ``number``, the one column a Metal Fusion
card number is kept and read into (``GAME.card_number``), as the engine compares
it. A card whose number is unknown cannot be checked: the deck gets a
warning (code ``unknown_number``), which does not make it illegal, and that card
is never reported as a duplicate. The site does not guess a number it lacks.
"""

from collections import defaultdict

from cards.games.metal_fusion import GAME

from ..engine.metal_fusion import DECK_SIZE, SLOTS, repeated_numbers
from . import WARNING, Line, Problem, count_phrase, ids, rotated, total

SLUG = GAME.slug
NAME = GAME.short_name
ZONES = GAME.zone_values
LINEUP_TYPES = SLOTS
TYPE_NAMES = {kind: GAME.kind(kind).label for kind in LINEUP_TYPES}
LINEUP = "rules: 1. Build your battle line-up"
DECK = "rules: 2. Build a deck of fifteen"
FINE_PRINT = "rules: 7. The fine print"


def card_number(line: Line):
    """Return the number M1 compares, or None when it is unknown."""
    return line.get(GAME.card_number)


def validate(lines: list[Line], **options) -> list[Problem]:
    """Return the problems of a Metal Fusion deck."""
    lineup = [line for line in lines if line.zone == "lineup"]
    deck = [line for line in lines if line.zone == "deck"]
    return _lineup_problems(lineup) + _deck_problems(deck)


def _lineup_problems(lineup: list[Line]) -> list[Problem]:
    problems = []
    for kind in LINEUP_TYPES:
        of_kind = [line for line in lineup if line.get("card_type") == kind]
        count = total(of_kind)
        if count != 1:
            name = TYPE_NAMES[kind]
            problems.append(
                Problem(
                    f"lineup_{kind}",
                    f"A Metal Fusion line-up is exactly one Character, one Beyblade and "
                    f"one Customizer ({LINEUP}). This line-up has "
                    f"{count_phrase(count, name)}.",
                    ids(of_kind),
                )
            )
    others = [line for line in lineup if line.get("card_type") not in LINEUP_TYPES]
    if others:
        problems.append(
            Problem(
                "lineup_wrong_type",
                "Only a Character, a Beyblade and a Customizer make up the line-up "
                f"({LINEUP}): "
                + ", ".join(
                    line.label
                    + (" (type unknown)" if line.get("card_type") is None else "")
                    for line in others
                )
                + " cannot sit there.",
                ids(others),
            )
        )
    return problems


def _deck_problems(deck: list[Line]) -> list[Problem]:
    problems = []
    size = total(deck)
    if size != DECK_SIZE:
        problems.append(
            Problem(
                "deck_size",
                f"A Metal Fusion deck is exactly {DECK_SIZE} cards beside the line-up "
                f"({DECK}). This deck has {size}.",
            )
        )
    by_number: dict[object, list[Line]] = defaultdict(list)
    unknown = []
    for line in deck:
        number = card_number(line)
        if number is None:
            unknown.append(line)
        else:
            by_number[str(number)].append(line)
    repeated = repeated_numbers(
        number
        for number, group in by_number.items()
        for line in group
        for _ in range(line.quantity)
    )
    for number, group in by_number.items():
        if number in repeated:
            problems.append(
                Problem(
                    "duplicate_number",
                    "No two cards in a Metal Fusion deck may share a number; the "
                    f"line-up does not count ({FINE_PRINT}; ruling M1). This deck has "
                    f"{total(group)} cards numbered {number}: "
                    + ", ".join(line.label for line in group)
                    + ".",
                    ids(group),
                )
            )
    if unknown:
        problems.append(
            Problem(
                "unknown_number",
                "The number of "
                + ", ".join(line.label for line in unknown)
                + " is unknown, so the no-duplicate-numbers rule cannot be checked "
                f"for it ({FINE_PRINT}; ruling M1).",
                ids(unknown),
                WARNING,
            )
        )
    return problems


def sample(cards: list, variant: int = 0) -> list[dict]:
    """Return entries of a legal deck of ``cards``: a line-up and fifteen numbers.

    ``variant`` turns the choice of cards, so two samples can face each other.
    """
    lineup = [
        rotated([c for c in cards if c.card_type == kind], variant)[0]
        for kind in LINEUP_TYPES
    ]
    rest, numbers = [], set()
    for card in rotated([c for c in cards if c not in lineup], variant):
        if card.number in numbers or len(rest) == DECK_SIZE:
            continue
        numbers.add(card.number)
        rest.append(card)
    return [{"card": c.pk, "quantity": 1, "zone": "lineup"} for c in lineup] + [
        {"card": c.pk, "quantity": 1, "zone": "deck"} for c in rest
    ]


def timing_entries(size: int) -> list[dict]:
    """Return a plain line-up and ``size - 3`` numbered deck cards."""
    lineup = [
        {
            "card": {"id": 2, "name": "Card 2", "card_type": kind, "number": n},
            "quantity": 1,
            "zone": "lineup",
        }
        for n, kind in enumerate(LINEUP_TYPES, start=1)
    ]
    return lineup + [
        {
            "card": {
                "id": 200 + i,
                "name": f"Card {200 + i}",
                "card_type": "effect",
                "number": i,
            },
            "quantity": 1,
            "zone": "deck",
        }
        for i in range(size - 3)
    ]
