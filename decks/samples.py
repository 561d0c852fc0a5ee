"""Sample decks built from each game's practice set: legal, deterministic, playable.

New users start from them, and the tests, benchmarks and browser tests use them.
"""

from __future__ import annotations

from cards.choices import SetKind
from cards.models import Card

from .rules import rules_module
from .services import deck_create


def _practice(game_slug: str):
    return list(
        Card.objects.filter(
            card_set__game__slug=game_slug, card_set__kind=SetKind.PRACTICE
        )
        .select_related("card_set__game")
        .order_by("card_set__sort_order", "number", "key")
    )


def sample_entries(game_slug: str, variant: int = 0) -> list[dict]:
    """Return ``{"card", "quantity", "zone"}`` entries of a legal practice deck.

    ``variant`` rotates the card choices, so two samples can face each other. Each
    game's rules module builds it (``decks.rules.<game>.sample``).
    """
    cards = _practice(game_slug)
    if not cards:
        raise LookupError(f"No practice set is loaded for {game_slug}.")
    return rules_module(game_slug).sample(cards, variant)


def sample_deck(
    *,
    owner,
    game_slug: str,
    variant: int = 0,
    name: str | None = None,
    is_public: bool = False,
):
    """Create and return a legal sample deck of ``game_slug`` for ``owner``."""
    return deck_create(
        owner=owner,
        game=game_slug,
        name=name or f"Practice sample {variant + 1}",
        is_public=is_public,
        entries=sample_entries(game_slug, variant),
    )
