"""Collide-O! pack rules (rules text: Set-Up).

All players share one pack: any cards, each any number of times. Set-up turns
one card face up in the centre and every player needs five cards to start, so a
pack holds at least ``pack_minimum(players)`` cards; the deck page checks it for
two players, the playtest for the number of players chosen.
"""

from . import Line, Problem, total

SLUG = "collide-o"
NAME = "Collide-O!"
ZONES = ("pack",)
HAND = 5
DEFAULT_PLAYERS = 2


def pack_minimum(players: int) -> int:
    """Return the fewest cards a pack needs: the centre card and five per player."""
    return 1 + HAND * players


def validate(
    lines: list[Line], *, players: int = DEFAULT_PLAYERS, **options
) -> list[Problem]:
    """Return the problems of a Collide-O! pack for this many players."""
    size = total(lines)
    needed = pack_minimum(players)
    if size >= needed:
        return []
    return [
        Problem(
            "pack_size",
            f"A Collide-O! pack for {players} players needs at least {needed} cards: "
            f"the centre card and five for each player (rules: Set-Up). This pack has "
            f"{size}.",
        )
    ]
