"""Engine decks for batch work: stored decks by id, or the practice samples."""

from __future__ import annotations

from cards.models import Card

from ..samples import sample_entries
from .adapter import entries_to_engine


class DeckSpecError(ValueError):
    """A deck named on the command line that cannot be used."""


def engine_deck_from_spec(game_slug: str, spec: str) -> tuple[str, dict]:
    """Return (label, engine deck) for a deck id or ``sample[:N]`` (a practice sample)."""
    from ..models import Deck
    from ..rules import is_legal, validate_deck

    if spec.startswith("sample"):
        _, _, variant = spec.partition(":")
        try:
            entries = sample_entries(game_slug, int(variant or 0))
        except (LookupError, ValueError) as exc:
            raise DeckSpecError(str(exc)) from exc
        cards = Card.objects.select_related("card_set__game").in_bulk(
            [e["card"] for e in entries]
        )
        return spec, entries_to_engine(
            game_slug, [(cards[e["card"]], e["zone"], e["quantity"]) for e in entries]
        )
    try:
        deck = Deck.objects.select_related("game").get(pk=int(spec))
    except (ValueError, Deck.DoesNotExist):
        raise DeckSpecError(
            f"No deck {spec!r}: give a deck id or sample[:N]."
        ) from None
    if deck.game.slug != game_slug:
        raise DeckSpecError(f"Deck {deck.pk} is a {deck.game.name} deck.")
    entries = list(deck.entries.select_related("card__card_set__game"))
    problems = [p for p in validate_deck(game_slug, entries) if not is_legal([p])]
    if problems:
        raise DeckSpecError(
            f"Deck {deck.pk} is not legal: " + " ".join(p.message for p in problems)
        )
    return deck.name, entries_to_engine(
        game_slug, [(e.card, e.zone, e.quantity) for e in entries]
    )
