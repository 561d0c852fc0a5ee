"""Collide-O! packs from a census: the counted pack and the official one as decks.

A census (``cards/community/collide_o_census.py``) plays for its owner at once: the
owner's census pack is a deck kept equal to the census on every count, so the
deck builder, the playtest, reports and the doctor all take it as they take any
pack. Once the official composition is known, anyone makes a deck of it here.
"""

from django.db import transaction

from cards.community.collide_o_census import GAME, census_pack, official_pack
from cards.models import Census

from .models import Deck
from .services import deck_create, deck_update

CENSUS_DECK_NAME = "My Collide-O! pack (census)"
OFFICIAL_DECK_NAME = "Official Collide-O! pack"


def _entries(pack) -> list[dict]:
    return [{"card": card.pk, "quantity": n, "zone": "pack"} for card, n in pack]


@transaction.atomic
def census_deck_refresh(census: Census) -> Deck:
    """Make the census's pack deck, or bring it to the census as it is now."""
    entries = _entries(census_pack(census=census))
    deck = Deck.objects.filter(census=census).first()
    if deck is None:
        deck = deck_create(
            owner=census.owner,
            game=GAME,
            name=CENSUS_DECK_NAME,
            notes="Kept equal to your pack census: count on the census page.",
            entries=entries,
        )
        Deck.objects.filter(pk=deck.pk).update(census=census)
        deck.census = census
        return deck
    # Each tap is a change: taps close together are one version, not one each.
    return deck_update(deck=deck, entries=entries, merge=True)


def census_deck(census: Census | None) -> Deck | None:
    """Return the census's pack deck (None before its first count)."""
    if census is None:
        return None
    return Deck.objects.filter(census=census).first()


@transaction.atomic
def official_pack_deck(*, owner) -> Deck | None:
    """Make ``owner`` a deck of the official pack; None while it is not known."""
    pack = official_pack()
    if not pack:
        return None
    return deck_create(
        owner=owner,
        game=GAME,
        name=OFFICIAL_DECK_NAME,
        notes="The official pack, as two agreeing censuses counted it.",
        entries=_entries(pack),
    )
