"""Collide-O! pack rules (rules text: Set-Up).

All players share one pack: any cards, each any number of times. Set-up turns
one card face up in the centre and every player needs five cards to start, so a
pack holds at least ``pack_minimum(players)`` cards (the engine's count); the
deck page checks it for two players, the playtest for the number of players
chosen.
"""

from cards.games.collide_o import GAME

from ..engine.collide_o import pack_minimum
from . import Line, Problem, total

__all__ = ["pack_minimum", "sample", "timing_entries", "validate"]

SLUG = GAME.slug
NAME = GAME.short_name
ZONES = GAME.zone_values
DEFAULT_PLAYERS = GAME.min_players


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


def sample(cards: list, variant: int = 0) -> list[dict]:
    """Return entries of a pack of one copy of each of ``cards``."""
    return [{"card": c.pk, "quantity": 1, "zone": "pack"} for c in cards]


def timing_entries(size: int) -> list[dict]:
    """Return a plain pack of ``size`` cards."""
    return [
        {
            "card": {"id": 500 + i, "name": f"Card {500 + i}", "card_type": "sections"},
            "quantity": 1,
            "zone": "pack",
        }
        for i in range(size)
    ]
