"""Build a legal deck from what a collector owns, and play it against a bot.

The game's rules module chooses the cards (``decks.rules.<game>.from_collection``);
the deck is saved like any other (``deck_create``) and the playtest started
like any other (``playtest_create``), so legality and play are the usual ones.
"""

from django.core.exceptions import ValidationError
from django.db import transaction

from cards.games import GAMES
from collection.models import CollectionEntry
from collection.selectors import owned_copies

from .rules import rules_module
from .services import deck_create


@transaction.atomic
def deck_from_collection(*, user, game: str):
    """Create and return a legal deck of ``game`` from ``user``'s owned cards.

    Raise ValidationError (nothing saved) saying what the collection lacks.
    """
    spec = GAMES.get(game)
    if spec is None or not spec.deck_from_collection:
        raise ValidationError("This game cannot build a deck from a collection.")
    owned = [
        e.card
        for e in CollectionEntry.objects.filter(
            user=user, quantity__gt=0, card__card_set__game__slug=game
        ).select_related("card__card_set__game")
    ]
    unique = list({c.pk: c for c in owned}.values())
    copies = owned_copies(user=user, card_ids=[c.pk for c in unique])
    try:
        entries = rules_module(game).from_collection(unique, copies)
    except ValueError as error:
        raise ValidationError(str(error), code="not_enough_cards") from None
    return deck_create(
        owner=user,
        game=game,
        name=f"{spec.short_name} deck from my collection",
        entries=name_copies(user=user, entries=entries),
    )


def name_copies(*, user, entries: list[dict]) -> list[dict]:
    """Return the entries with each G-Power slot naming the owned copy it came from.

    A slot of ``n`` copies at one G-Power names a collection entry holding at
    least ``n`` copies of that figure at that G-Power; where the copies are
    spread over entries (two conditions, say), the slot keeps the value typed.
    """
    wanted = {e["card"] for e in entries if e.get("g_power") is not None}
    rows = (
        CollectionEntry.objects.filter(
            user=user, card_id__in=wanted, g_power__isnull=False, quantity__gt=0
        )
        .order_by("-quantity", "pk")
        .values_list("pk", "card_id", "g_power", "quantity")
    )
    held: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for pk, card_id, g_power, quantity in rows:
        held.setdefault((card_id, g_power), []).append((pk, quantity))
    named = []
    for entry in entries:
        key = (entry["card"], entry.get("g_power"))
        copy = next(
            (pk for pk, quantity in held.get(key, ()) if quantity >= entry["quantity"]),
            None,
        )
        if copy is None:
            named.append(entry)
        else:
            named.append(
                {k: v for k, v in entry.items() if k != "g_power"} | {"copy": copy}
            )
    return named


def play_from_collection(*, user, game: str):
    """Build the deck from ``user``'s collection and start a game against a bot."""
    from .play.services import playtest_create

    deck = deck_from_collection(user=user, game=game)
    return playtest_create(owner=user, deck=deck, opponent="greedy")
