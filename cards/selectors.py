"""Reads over cards with parameters: the lists, sets and neighbours the pages show.

Apps above ``cards`` add to what a card list carries without ``cards`` importing
them: ``collection`` registers its owned/wanted counts in its AppConfig.ready()
with ``register_card_list_annotator``, and every checklist page then gets them.
"""

from collections.abc import Callable

from django.db.models import Count, Q

from .choices import SetKind
from .models import Card, CardSet, Game

CardListAnnotator = Callable[[list[Card], object], list[Card]]
_ANNOTATORS: list[CardListAnnotator] = []


def register_card_list_annotator(annotator: CardListAnnotator) -> None:
    """Have ``annotator(cards, user)`` run on every page of cards the site lists."""
    if annotator not in _ANNOTATORS:
        _ANNOTATORS.append(annotator)


def annotate_card_list(cards, user) -> list[Card]:
    """Return a page of cards as a list, with what each registered app adds."""
    cards = list(cards)
    for annotator in _ANNOTATORS:
        cards = annotator(cards, user)
    return cards


def games_with_counts():
    """Return the games with their official and practice card counts, in order."""
    return Game.objects.annotate(
        official_count=Count("sets__cards", filter=Q(sets__kind=SetKind.OFFICIAL)),
        practice_count=Count("sets__cards", filter=Q(sets__kind=SetKind.PRACTICE)),
    ).order_by("sort_order")


def visible_cards(user):
    """Return the cards ``user`` may see, with what a card list shows of each."""
    return Card.objects.visible_to(user).with_related()


def visible_card(user, pk) -> Card | None:
    """Return the card ``pk`` if ``user`` may see it, with its set and game."""
    return (
        Card.objects.visible_to(user)
        .filter(pk=pk)
        .select_related("card_set__game")
        .first()
    )


def card_by_id(pk) -> Card | None:
    """Return the card ``pk`` whoever owns it (None when there is none)."""
    return Card.objects.filter(pk=pk).first()


def game_sets(game: Game, user):
    """Return the sets of ``game`` that ``user`` may see, with their card counts."""
    return (
        game.sets.visible_to(user)
        .annotate(card_count=Count("cards"))
        .order_by("kind", "sort_order", "slug")
    )


def visible_sets(user):
    """Return the sets ``user`` may see, with their game and owner."""
    return CardSet.objects.visible_to(user).select_related("game", "owner")


def custom_sets(user):
    """Return ``user``'s own custom sets with their games, by game then name."""
    return (
        CardSet.objects.filter(kind=SetKind.CUSTOM, owner=user)
        .select_related("game")
        .order_by("game__sort_order", "name")
    )


def custom_cards(user):
    """Return the cards of ``user``'s own custom sets."""
    return Card.objects.with_related().filter(
        card_set__kind=SetKind.CUSTOM, card_set__owner=user
    )


def card_neighbours(card: Card) -> dict:
    """Return the previous and next card of ``card``'s set, its position and size."""
    ids = list(
        Card.objects.filter(card_set_id=card.card_set_id)
        .order_by("number", "key", "pk")
        .values_list("pk", flat=True)
    )
    index = ids.index(card.pk)
    neighbour_ids = [ids[i] for i in (index - 1, index + 1) if 0 <= i < len(ids)]
    neighbours = {c.pk: c for c in Card.objects.filter(pk__in=neighbour_ids)}
    return {
        "previous": neighbours.get(ids[index - 1]) if index > 0 else None,
        "next": neighbours.get(ids[index + 1]) if index + 1 < len(ids) else None,
        "position": index + 1,
        "set_size": len(ids),
    }
