"""Reads over decks with parameters: the decks a user may see, entries, editor cards."""

import dataclasses

from django.db.models import Sum

from cards.choices import SetKind
from cards.community.readings import entries_as_read
from cards.games import GAMES
from cards.models import Card
from cards.selectors import PRIVATE_CARD_NAME, hide_private_cards
from collection.models import CollectionEntry
from collection.selectors import counts_for_cards, owned_card_ids

from .copies import lines_played, slot_plays, unrecorded_copies
from .models import Deck, DeckEntry, DeckVersion
from .rules import validate_deck
from .tools import deck_tools


def visible_decks(user):
    """Return the decks ``user`` may see (public ones and their own)."""
    return Deck.objects.visible_to(user).select_related("game", "owner")


def own_decks(user):
    """Return the decks ``user`` owns."""
    return Deck.objects.owned_by(user).select_related("game", "owner")


def public_decks():
    """Return every public deck, newest change first (card counts: with_card_counts)."""
    return (
        Deck.objects.filter(is_public=True)
        .select_related("game", "owner")
        .order_by("-updated_at", "-id")
    )


def user_decks(user, *, game_slug: str | None = None):
    """Return ``user``'s decks (of one game when given), newest change first."""
    decks = (
        Deck.objects.owned_by(user)
        .select_related("game")
        .order_by("-updated_at", "-id")
    )
    if game_slug is not None:
        decks = decks.filter(game__slug=game_slug)
    return decks


def with_card_counts(decks) -> list:
    """Return a page of decks as a list, each with ``card_count``, in one query.

    Counting after the page is taken sums the entries of the decks shown only,
    not of every deck the list could hold.
    """
    decks = list(decks)
    totals = dict(
        DeckEntry.objects.filter(deck_id__in=[d.pk for d in decks])
        .order_by()
        .values("deck_id")
        .annotate(n=Sum("quantity"))
        .values_list("deck_id", "n")
    )
    for deck in decks:
        deck.card_count = totals.get(deck.pk, 0)
    return decks


def recorded_copies(owner, card_ids) -> dict[int, list]:
    """Return card id -> ``owner``'s copies of it with a recorded G-Power, strongest first."""
    if owner is None or not card_ids:
        return {}
    copies: dict[int, list] = {}
    rows = CollectionEntry.objects.filter(
        user=owner, card_id__in=card_ids, g_power__isnull=False, quantity__gt=0
    ).order_by("-g_power", "pk")
    for copy in rows:
        copies.setdefault(copy.card_id, []).append(copy)
    return copies


def deck_entries(deck: Deck, *, ordered: bool = True) -> list:
    """Return the deck's entries with their cards, in checklist order."""
    entries = deck.entries.select_related("card__card_set__game", "copy", "deck")
    if ordered:
        entries = entries.order_by("card__number", "card__key", "card_id", "g_power")
    return list(entries)


def deck_version(deck: Deck, number: int):
    """Return the queryset of the deck's version ``number`` (empty if none)."""
    return DeckVersion.objects.filter(deck=deck, number=number)


def editor_cards(deck: Deck, user, *, only_owned: bool = False):
    """Return the cards the deck's editor may add: ``user``'s visible cards of its game."""
    cards = (
        Card.objects.visible_to(user)
        .filter(card_set__game=deck.game)
        .select_related("card_set__game")
    )
    if only_owned:
        cards = cards.filter(pk__in=owned_card_ids(user=user))
    return cards


def collection_counts(user, card_ids) -> dict[int, tuple[int, int]]:
    """Return {card id: (owned, wanted)} from ``user``'s collection."""
    if not user.is_authenticated or not card_ids:
        return {}
    return counts_for_cards(user=user, card_ids=card_ids)


def hide_private(entries: list, problems: list, user) -> tuple[list, list]:
    """Show the cards ``user`` may not see as stand-ins, in the entries and the problems.

    The rules check the real cards (a deck's legality is the same for every
    reader); only what is shown of a hidden card changes.
    """
    real = {e.card_id: e.card.display_name for e in entries}
    hidden = hide_private_cards(entries, user)
    names = sorted({real[pk] for pk in hidden}, key=len, reverse=True)
    if not names:
        return entries, problems
    shown = []
    for problem in problems:
        message = problem.message
        for name in names:
            message = message.replace(name, PRIVATE_CARD_NAME)
        shown.append(dataclasses.replace(problem, message=message))
    return entries, shown


@dataclasses.dataclass(frozen=True)
class DeckPage:
    """What the deck page shows ``user``: entries with collection counts, problems, tools."""

    deck: Deck
    entries: list  # each with ``owned``, ``wanted``, ``missing`` and its copy slot
    problems: list
    missing_total: int  # printed copies the collection lacks
    printed_total: int  # printed copies the deck holds (the ones anyone can own)
    is_owner: bool
    tools: object


def deck_page(deck: Deck, user, *, seed: int = 0) -> DeckPage:
    """Return the deck's entries, problems, collection counts and tools as ``user`` sees them."""
    # The viewer's own readings of cards apply to what they see of the deck.
    entries = entries_as_read(user, deck_entries(deck))
    slug = deck.game.slug
    entries, problems = hide_private(entries, validate_deck(slug, entries), user)
    needed: dict[int, int] = {}
    printed: set[int] = set()
    for entry in entries:
        needed[entry.card_id] = needed.get(entry.card_id, 0) + entry.quantity
        if entry.card.card_set.kind == SetKind.OFFICIAL:
            printed.add(entry.card_id)
    counts = collection_counts(user, list(needed))
    # Only printed cards can be missing from a collection (and wished for):
    # practice and custom cards are not products anyone can own.
    missing_total = 0
    for card_id, count in needed.items():
        if card_id in printed:
            missing_total += max(0, count - counts.get(card_id, (0, 0))[0])
    is_owner = user.is_authenticated and deck.owner_id == user.pk
    # What each slot plays, as a playtest plays it (its owner's copies).
    plays = slot_plays(owner=deck.owner, entries=entries)
    _slot_choices(deck, entries, user if is_owner else None, plays)
    for entry in entries:
        owned, wanted = counts.get(entry.card_id, (0, 0))
        entry.owned = owned
        entry.wanted = wanted
        entry.missing = (
            max(0, needed[entry.card_id] - owned) if entry.card_id in printed else 0
        )
    return DeckPage(
        deck=deck,
        entries=entries,
        problems=problems,
        missing_total=missing_total,
        printed_total=sum(needed[card_id] for card_id in printed),
        is_owner=is_owner,
        tools=deck_tools(slug, lines_played(plays), seed=seed),
    )


def _slot_choices(deck: Deck, entries: list, owner, plays: list) -> None:
    """Mark the entries whose copies each print a value (a figure's G-Power), with
    the values the strongest recorded copies give those that name none, and, for
    the owner, list the copies of that card recorded in their collection."""
    check = GAMES[deck.game.slug].copy_check
    # A card type whose copies print a value accepts one any copy may print.
    valued = [
        e
        for e in entries
        if check is not None
        and not getattr(e.card, "is_private_stand_in", False)
        and check(e.card.card_type, 10) is None
    ]
    copies = recorded_copies(owner, [e.card_id for e in valued])
    unrecorded = unrecorded_copies(owner, [e.card_id for e in valued])
    for entry, (_, values) in zip(entries, plays, strict=True):
        entry.takes_g_power = entry in valued
        entry.plays_g_power = entry.play_g_power() if entry.takes_g_power else None
        entry.slot_copies = copies.get(entry.card_id, [])
        # Left on the strongest copy: the values taken, and copies left without one.
        entry.strongest = [v for v, n in values for _ in range(n) if v is not None]
        entry.without_copy = sum(n for v, n in values if v is None)
        entry.unrecorded_copy = unrecorded.get(entry.card_id)
