"""Reads over cards with parameters: the lists, sets and neighbours the pages show.

Apps above ``cards`` add to what a card list carries without ``cards`` importing
them: ``collection`` registers its owned/wanted counts in its AppConfig.ready()
with ``register_card_list_annotator``, and every checklist page then gets them.
"""

from collections.abc import Callable

from django.db.models import Case, Count, F, Q, Sum, When

from .choices import SetKind
from .models import Card, CardSet, GameRecord

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
    return GameRecord.objects.annotate(
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


# Official sets first, then practice, then the collectors' custom sets.
KIND_ORDER = Case(
    When(kind=SetKind.OFFICIAL, then=0),
    When(kind=SetKind.PRACTICE, then=1),
    default=2,
)


def game_sets(game: GameRecord, user):
    """Return the sets of ``game`` that ``user`` may see, official ones first.

    Each set's ``cards_total`` is its card count, kept on every card write.
    """
    return game.sets.visible_to(user).order_by(KIND_ORDER, "sort_order", "slug")


def unofficial_total(user, game_slug: str | None = None) -> int:
    """Return how many practice and custom cards ``user`` may see (of one game)."""
    sets = CardSet.objects.visible_to(user).exclude(kind=SetKind.OFFICIAL)
    if game_slug is not None:
        sets = sets.filter(game__slug=game_slug)
    return sets.aggregate(total=Sum("cards_total"))["total"] or 0


def game_cover(game: GameRecord) -> Card | None:
    """Return the card that pictures ``game``: its first named printed card, else practice."""
    return (
        Card.objects.filter(
            card_set__game=game,
            card_set__kind__in=(SetKind.OFFICIAL, SetKind.PRACTICE),
            name__isnull=False,
        )
        .select_related("card_set")
        # "official" sorts before "practice": a printed card wins when there is one.
        .order_by(
            "card_set__kind", "card_set__sort_order", F("number").asc(nulls_last=True)
        )
        .first()
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


# -- Private custom cards ------------------------------------------------------

PRIVATE_CARD_NAME = "a private custom card"
PRIVATE_SET_NAME = "a private custom set"


def hidden_card_ids(user, card_ids) -> set[int]:
    """Return the ids among ``card_ids`` of cards ``user`` may not see.

    ``Card.objects.visible_to`` decides, as it does for every list and search.
    """
    ids = set(card_ids)
    if not ids:
        return set()
    visible = Card.objects.visible_to(user).filter(pk__in=ids)
    return ids - set(visible.values_list("pk", flat=True))


def private_stand_in(card: Card) -> Card:
    """Return an unsaved card that shows nothing of ``card`` but its id and game."""
    card_set = CardSet(
        kind=SetKind.CUSTOM,
        name=PRIVATE_SET_NAME,
        slug="",
        game=card.card_set.game,
        is_public=False,
    )
    stand_in = Card(pk=card.pk, card_set=card_set, key="", name=PRIVATE_CARD_NAME)
    stand_in.is_private_stand_in = True
    return stand_in


def hide_private_cards(rows, user, *, attr: str = "card") -> set[int]:
    """Swap each row's card that ``user`` may not see for its stand-in; return their ids.

    Rows are entries (a deck's, a collection's) holding a card in ``attr``.
    """
    rows = list(rows)
    hidden = hidden_card_ids(user, {getattr(row, f"{attr}_id") for row in rows})
    for row in rows:
        if getattr(row, f"{attr}_id") in hidden:
            setattr(row, attr, private_stand_in(getattr(row, attr)))
    return hidden


def hide_private_names(snapshot: list[dict], user) -> list[dict]:
    """Return a stored list of ``{"card": id, "name": ...}`` rows with hidden names replaced."""
    hidden = hidden_card_ids(user, {row["card"] for row in snapshot if "card" in row})
    return [
        {**row, "name": PRIVATE_CARD_NAME} if row.get("card") in hidden else row
        for row in snapshot
    ]
