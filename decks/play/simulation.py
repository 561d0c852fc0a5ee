"""Engine decks for batch work: stored decks by id, or the practice samples."""

from __future__ import annotations

from cards.games import GAMES
from cards.models import Card

from ..models import Deck
from ..samples import sample_entries
from .adapter import PlaytestError, engine_decks


class DeckSpecError(ValueError):
    """A deck named on the command line that cannot be used."""


def deck_from_spec(game_slug: str, spec: str) -> tuple[str, list] | Deck:
    """Return the stored deck of an id (its figure slots play its owner's copies),
    or (name, entries) for ``sample[:N]`` (a practice sample)."""
    if spec.startswith("sample"):
        _, _, variant = spec.partition(":")
        try:
            entries = sample_entries(game_slug, int(variant or 0))
        except (LookupError, ValueError) as exc:
            raise DeckSpecError(str(exc)) from exc
        cards = Card.objects.select_related("card_set__game").in_bulk(
            [e["card"] for e in entries]
        )
        return spec, [{**e, "card": cards[e["card"]]} for e in entries]
    try:
        deck = Deck.objects.select_related("game").get(pk=int(spec))
    except (ValueError, Deck.DoesNotExist):
        raise DeckSpecError(
            f"No deck {spec!r}: give a deck id or sample[:N]."
        ) from None
    if deck.game.slug != game_slug:
        raise DeckSpecError(f"Deck {deck.pk} is a {deck.game.name} deck.")
    return deck


def engine_decks_from_specs(game_slug: str, specs, *, players: int) -> list[dict]:
    """Return the seats' engine decks for deck specs, checked as a playtest's are.

    A shared pack (Collide-O!) is the first deck; otherwise seat ``i`` takes deck
    ``i``, the last repeating.
    """
    decks = [deck_from_spec(game_slug, spec) for spec in specs]
    if GAMES[game_slug].shared_pack:
        seats = [0]
    else:
        seats = [min(i, len(decks) - 1) for i in range(max(players, len(decks)))]
    try:
        return engine_decks(game_slug, decks, players=players, seats=seats)
    except PlaytestError as exc:
        raise DeckSpecError(exc.message) from exc
