"""Beyblade Metal Fusion deck rules (rules text: steps 1, 2 and 7; ruling M1).

The line-up is exactly one Character, one Beyblade and one Customizer. The deck
is exactly fifteen more cards, of any type, with no two cards sharing a number
(ruling M1: "in a deck" means the fifteen; the line-up is not part of it).

The number compared is the card's ``number`` (its printed number when no number
is recorded). A card whose number is unknown cannot be checked: the deck gets a
warning (code ``unknown_number``), which does not make it illegal, and that card
is never reported as a duplicate. The site does not guess a number it lacks.
"""

from collections import defaultdict

from . import WARNING, Line, Problem, count_phrase, ids, total

SLUG = "metal-fusion"
NAME = "Metal Fusion"
ZONES = ("lineup", "deck")
LINEUP_TYPES = ("character", "beyblade", "customizer")
TYPE_NAMES = {
    "character": "Character",
    "beyblade": "Beyblade",
    "customizer": "Customizer",
}
DECK_SIZE = 15
LINEUP = "rules: 1. Build your battle line-up"
DECK = "rules: 2. Build a deck of fifteen"
FINE_PRINT = "rules: 7. The fine print"


def card_number(line: Line):
    """Return the number M1 compares, or None when it is unknown."""
    number = line.get("number")
    if number is not None:
        return number
    printed = (line.get("printed_number") or "").strip()
    return printed or None


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
    for number, group in by_number.items():
        if total(group) > 1:
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
