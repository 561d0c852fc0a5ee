"""Choices of the deck models: the zones a deck's cards sit in, per game."""

from django.db import models

from cards.games import GAMES

# Every game's zones (``cards.games``), each value once.
Zone = models.TextChoices(
    "Zone",
    [
        (value.upper(), (value, label))
        for value, label in dict(
            (z.value, z.label) for g in GAMES.values() for z in g.zones
        ).items()
    ],
)

# One entry holds at most this many copies; more is a typing slip, not a deck.
MAX_QUANTITY = 99
# A deck lists at most this many distinct entries (bad input, not a real deck).
MAX_ENTRIES = 400


def zones_for(game_slug: str) -> tuple[str, ...]:
    """Return the zone values a deck of this game uses, in the order the page shows them."""
    game = GAMES.get(game_slug)
    return game.zone_values if game else ()


def default_zone(game_slug: str, card_type: str | None) -> str:
    """Return the zone a card of this type goes to when none is named."""
    return GAMES[game_slug].default_zone(card_type)


class BudgetKind(models.TextChoices):
    """What a budget counts (``decks.budgets``)."""

    BOT_THINKING = "bot-thinking", "Seconds of bot thinking"
    PROXY_SHEET = "proxy-sheet", "Proxy sheets built"
    VISITOR_GAME = "visitor-game", "Games started by visitors"
