"""Choices of the deck models: the zones a deck's cards sit in, per game."""

from django.db import models


class Zone(models.TextChoices):
    BLADE = "blade", "Blade"
    DECK = "deck", "Deck"
    LINEUP = "lineup", "Line-up"
    BAKUGAN = "bakugan", "Bakugan"
    GATE = "gate", "Gate cards"
    ABILITY = "ability", "Ability cards"
    PACK = "pack", "Pack"


# Each game's zones, in the order the deck page shows them.
GAME_ZONES = {
    "collision": (Zone.BLADE, Zone.DECK),
    "metal-fusion": (Zone.LINEUP, Zone.DECK),
    "bakugan": (Zone.BAKUGAN, Zone.GATE, Zone.ABILITY),
    "collide-o": (Zone.PACK,),
}

# The zone a card goes to when none is named: by game, then by card type.
DEFAULT_ZONES = {
    "collision": {"blade": Zone.BLADE},
    "metal-fusion": {},
    "bakugan": {"bakugan": Zone.BAKUGAN, "gate": Zone.GATE, "ability": Zone.ABILITY},
    "collide-o": {},
}

# One entry holds at most this many copies; more is a typing slip, not a deck.
MAX_QUANTITY = 99
# A deck lists at most this many distinct entries (bad input, not a real deck).
MAX_ENTRIES = 400


def zones_for(game_slug: str) -> tuple[str, ...]:
    """Return the zone values a deck of this game uses."""
    return tuple(str(z) for z in GAME_ZONES.get(game_slug, ()))


def default_zone(game_slug: str, card_type: str | None) -> str:
    """Return the zone a card of this type goes to when none is named."""
    zones = zones_for(game_slug)
    chosen = DEFAULT_ZONES.get(game_slug, {}).get(card_type or "")
    if chosen is not None:
        return str(chosen)
    return str(Zone.DECK) if str(Zone.DECK) in zones else zones[0]
