"""How much of each game's printed cards is known: the home and game page figures.

Per game, over its official sets: numbered slots (cards on record), cards with a
known name, cards fully known (every field their type prints recorded),
confirmed (two agreeing readings) and verified (a moderator). The figures are
worked out once per change: the cache key is the newest card and field
verification write, read with two indexed ``MAX`` queries, so a page pays a
constant cost and a card write makes the next page count afresh. (A deleted
official card, which only the admin does, shows in the figures after the next
card write.)
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Max

from ..choices import SetKind, Verification
from ..models import Card, FieldVerification
from .services import unknown_fields

CACHE_KEY = "community:data-counts"


@dataclass(frozen=True)
class Counts:
    slots: int = 0
    named: int = 0
    fully_known: int = 0
    confirmed: int = 0
    verified: int = 0
    practice: int = 0


def _stamp() -> tuple:
    cards = Card.objects.aggregate(at=Max("updated_at"))["at"]
    fields = FieldVerification.objects.aggregate(at=Max("updated_at"))["at"]
    return (cards, fields)


def _count() -> dict[str, Counts]:
    tallies: dict[str, dict] = {}
    cards = Card.objects.filter(
        card_set__kind__in=(SetKind.OFFICIAL, SetKind.PRACTICE)
    ).select_related("card_set__game")
    for card in cards.iterator(chunk_size=2000):
        game = card.card_set.game.slug
        tally = tallies.setdefault(game, dict.fromkeys(Counts.__dataclass_fields__, 0))
        if card.card_set.kind == SetKind.PRACTICE:
            tally["practice"] += 1
            continue
        tally["slots"] += 1
        tally["named"] += card.name is not None
        tally["fully_known"] += not unknown_fields(card)
        tally["confirmed"] += card.verification == Verification.CONFIRMED
        tally["verified"] += card.verification == Verification.VERIFIED
    return {game: Counts(**tally) for game, tally in tallies.items()}


def data_counts() -> dict[str, Counts]:
    """Return {game slug: Counts}, worked out again only after a card write."""
    stamp = _stamp()
    cached = cache.get(CACHE_KEY)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    counts = _count()
    cache.set(CACHE_KEY, (stamp, counts), None)
    return counts


def game_counts(slug: str) -> Counts:
    """Return the figures of one game (all zero when it has no cards)."""
    return data_counts().get(slug, Counts())
