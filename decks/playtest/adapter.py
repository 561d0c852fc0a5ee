"""The one adapter between database decks and the engines.

It turns cards into the plain card dicts the engines read (the card's id and its
game's columns, ``effects`` included) and decks into per-seat zone dicts.
"""

from __future__ import annotations

from cards.games import GAMES as CARD_GAMES

from ..engine import get_game

BASE_FIELDS = (
    "name",
    "card_type",
    "number",
    "printed_number",
    "rarity",
    "text",
    "effects",
    "not_printed",
)


def card_to_engine(card) -> dict:
    """Return the engine's card dict for ``card``."""
    fields = CARD_GAMES[card.card_set.game.slug].fields
    data = {"id": card.pk, "set_kind": card.card_set.kind, "label": card.display_name}
    for name in BASE_FIELDS + tuple(fields):
        data[name] = getattr(card, name)
    return data


def entries_to_engine(game_slug: str, entries) -> dict:
    """Return zone -> list of card dicts (one per copy) for ``(card, zone, quantity)`` entries."""
    zones: dict[str, list[dict]] = {}
    for card, zone, quantity in entries:
        cached = card_to_engine(card)
        zones.setdefault(zone, []).extend(dict(cached) for _ in range(quantity))
    return zones


def deck_to_engine(deck) -> dict:
    """Return the engine deck (zone -> card dicts) of a database deck."""
    entries = deck.entries.select_related("card__card_set__game")
    return entries_to_engine(
        deck.game.slug if hasattr(deck.game, "slug") else deck.game,
        [(e.card, e.zone, e.quantity) for e in entries],
    )


def blocking_cards(game_slug: str, engine_deck: dict) -> list[dict]:
    """Return ``{"id", "name", "problems"}`` for every card the engine cannot play."""
    game = get_game(game_slug)
    seen, blocked = set(), []
    for cards in engine_deck.values():
        for card in cards:
            if card["id"] in seen:
                continue
            seen.add(card["id"])
            problems = game.card_problems(card)
            if problems:
                blocked.append(
                    {
                        "id": card["id"],
                        "name": card.get("label")
                        or card.get("name")
                        or f"card {card['id']}",
                        "problems": problems,
                    }
                )
    return blocked
