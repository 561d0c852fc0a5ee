"""Factories for the tests: sets, cards, decks and collection entries.

Rows are made the way the site makes them: cards pass ``full_clean()`` (a test
row is a card the site would accept), decks and collection entries go through
their services. Each card gets a fresh key unless one is given.
"""

import io
import itertools

from PIL import Image

from cards.models import Card, CardSet, GameRecord
from collection.models import CollectionEntry
from collection.services import collection_entry_create
from decks.models import Deck
from decks.services import deck_create

C, MF, CO, B = "collision", "metal-fusion", "collide-o", "bakugan"
GAMES = (C, MF, CO, B)

_keys = itertools.count(1)


def fresh_key(prefix: str = "") -> str:
    """Return a card key no other factory call has returned."""
    return f"{prefix}{next(_keys)}"


def make_set(game=C, kind="official", slug=None, owner=None, **fields) -> CardSet:
    """Return the set of ``game`` with this kind and slug, creating it once."""
    slug = slug or f"{kind}-set"
    card_set, _ = CardSet.objects.get_or_create(
        game=GameRecord.objects.get(slug=game),
        slug=slug,
        defaults={
            "name": slug.replace("-", " ").title(),
            "kind": kind,
            "owner": owner,
            **fields,
        },
    )
    return card_set


def build_card(game=C, *, card_set=None, kind="official", key=None, **fields) -> Card:
    """Return an unsaved card of ``game`` (in its set of ``kind`` unless given one)."""
    card_set = card_set or make_set(game, kind)
    fields.setdefault("source", "test rows")
    return Card(card_set=card_set, key=key or fresh_key(), **fields)


def make_card(game=C, *, card_set=None, kind="official", key=None, **fields) -> Card:
    """Create a valid card of ``game`` through ``full_clean()``."""
    card = build_card(game, card_set=card_set, kind=kind, key=key, **fields)
    card.full_clean()
    card.save()
    return card


def three_rows(rows) -> list[Card]:
    """Create the cards described by (game, fields) pairs; return them in order."""
    return [make_card(game, **dict(fields)) for game, fields in rows]


def make_deck(
    owner, game=C, *, name="Test deck", entries=(), is_public=False, **fields
) -> Deck:
    """Create a deck (legal or not) and its first version through the service."""
    return deck_create(
        owner=owner,
        game=game,
        name=name,
        entries=entries,
        is_public=is_public,
        **fields,
    )


def make_entry(user, card, **fields) -> CollectionEntry:
    """Create one collection entry of ``user`` for ``card`` through the service."""
    return collection_entry_create(user=user, card=card, **fields)


def make_png(width=40, height=56, colour=(200, 30, 30)) -> bytes:
    """Return a small PNG picture of one colour."""
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(buffer, format="PNG")
    return buffer.getvalue()
