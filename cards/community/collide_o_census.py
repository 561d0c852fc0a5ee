"""Collide-O! pack censuses: a collector counts their pack pattern by pattern.

Collide-O! cards carry no name or number, so the official pack is known by its
composition: how many of its 90 cards show each pattern of three sections. A
census is one account's count, saved as it grows. It plays for its owner at
once: its patterns are cards of the owner's own (private, custom) set, and
apps above ``cards`` keep a pack of them up to date through
``register_census_listener``. Two complete censuses from independent
established accounts (``counts_toward_confirmation``) that agree pattern for
pattern make the composition the official set's cards, "confirmed"; complete
censuses that disagree are settled by a moderator, which makes the chosen
count "verified".
"""

from collections.abc import Callable

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Sum

from ..choices import Distribution, SetKind, Verification
from ..games import collide_o
from ..history import card_save
from ..models import Card, CardSet, Census, CensusCount, GameRecord
from .services import is_moderator
from .trust import counts_toward_confirmation

GAME = collide_o.GAME.slug
PACK_SIZE = collide_o.PACK_SIZE
Pattern = tuple[str, str, str]

CensusListener = Callable[[Census], None]
_LISTENERS: list[CensusListener] = []


def register_census_listener(listener: CensusListener) -> None:
    """Have ``listener(census)`` run inside every census change."""
    if listener not in _LISTENERS:
        _LISTENERS.append(listener)


# --- reading ------------------------------------------------------------------------


def census_of(user) -> Census | None:
    """Return ``user``'s census, or None before their first count."""
    if user is None or not user.is_authenticated:
        return None
    return Census.objects.filter(owner=user).select_related("card_set").first()


def census_counts(census: Census | None) -> dict[Pattern, int]:
    """Return the census's count per pattern (empty for no census)."""
    if census is None:
        return {}
    return {c.pattern: c.count for c in census.counts.all()}


def census_total(census: Census | None) -> int:
    """Return how many cards the census has counted."""
    if census is None:
        return 0
    return census.counts.aggregate(n=Sum("count"))["n"] or 0


def colours() -> list[dict]:
    """Return the game's colours, each with its letter and its name, in order."""
    return [{"letter": c.letter, "value": c.value} for c in collide_o.GAME.colours]


def section_colours(section: str) -> list[str]:
    """Return the names of a section's colours: one (solid), two (stripe) or five."""
    names = {c.letter: c.value for c in collide_o.GAME.colours}
    return [names[letter] for letter in section]


def pattern_words(pattern: Pattern) -> str:
    """Return a pattern as words: "red | blue-yellow | wild"."""
    names = {c.letter: c.value for c in collide_o.GAME.colours}

    def word(section: str) -> str:
        if len(section) == len(collide_o.WILD):
            return "wild"
        return "-".join(names[c] for c in section)

    return " | ".join(word(s) for s in pattern)


def official_set() -> CardSet | None:
    """Return the official Collide-O! set (None before the card data is loaded).

    The game is one boxed pack, so its one official set is that pack.
    """
    return (
        CardSet.objects.filter(game__slug=GAME, kind=SetKind.OFFICIAL)
        .order_by("sort_order", "pk")
        .first()
    )


def official_pack() -> list[tuple[Card, int]]:
    """Return the official pack's cards, one copy each (empty while unknown)."""
    card_set = official_set()
    if card_set is None:
        return []
    return [(card, 1) for card in card_set.cards.order_by("number", "key")]


def census_pack(*, census: Census) -> list[tuple[Card, int]]:
    """Return the census's own cards with the number counted of each."""
    if census.card_set_id is None:
        return []
    cards = {c.key: c for c in census.card_set.cards.all()}
    return [
        (cards[_key(c.pattern)], c.count)
        for c in census.counts.all()
        if _key(c.pattern) in cards
    ]


# --- counting -----------------------------------------------------------------------


def pattern_check(sections) -> Pattern:
    """Return the pattern of three sections one way round, or raise what is wrong."""
    sections = [str(s or "").strip().upper() for s in sections]
    if len(sections) != 3:
        raise ValidationError("A card has three sections.", code="bad_pattern")
    for index, section in enumerate(sections, 1):
        if not section:
            problem = "tick its colour, the two colours of its stripe, or wild."
        elif collide_o.WILD in section and section != collide_o.WILD:
            problem = "wild is all five colours: untick the others."
        else:
            problem = collide_o.section_problem(section)
        if problem:
            raise ValidationError(f"Section {index}: {problem}", code="bad_section")
    return collide_o.canonical(sections)


@transaction.atomic
def census_change(*, user, sections, delta: int) -> Census:
    """Count one more (``delta`` 1) or one fewer (-1) card of a pattern in ``user``'s census."""
    if user is None or not user.is_authenticated:
        raise PermissionDenied("Sign in to count your pack.")
    if delta not in (1, -1):
        raise ValidationError("Count one card at a time.", code="bad_delta")
    pattern = pattern_check(sections)
    census, _ = Census.objects.get_or_create(owner=user)
    # Two taps at once (two tabs) queue here, so the count never passes the pack.
    census = Census.objects.select_for_update().get(pk=census.pk)
    row = census.counts.filter(
        section_1=pattern[0], section_2=pattern[1], section_3=pattern[2]
    ).first()
    if delta > 0:
        if census_total(census) >= PACK_SIZE:
            raise ValidationError(
                f"A Collide-O! pack is {PACK_SIZE} cards, and this count has them "
                "all: take one off (-1) where you slipped.",
                code="pack_full",
            )
        if row is None:
            row = CensusCount(census=census, section_1=pattern[0],
                              section_2=pattern[1], section_3=pattern[2], count=0)  # fmt: skip
        row.count += 1
        row.full_clean()
        row.save()
        _own_card(census, pattern)
    elif row is not None:
        if row.count > 1:
            row.count -= 1
            row.save(update_fields=["count"])
        else:
            row.delete()
    census.save(update_fields=["updated_at"])
    for listener in _LISTENERS:
        listener(census)
    _confirm_if_agreed(census)
    return census


def _key(pattern: Pattern) -> str:
    return "-".join(pattern)


def _own_card(census: Census, pattern: Pattern) -> Card:
    """Return the owner's card of ``pattern``, made (with its set) the first time."""
    owner = census.owner
    if census.card_set_id is None:
        card_set = CardSet(
            game=GameRecord.objects.get(slug=GAME),
            slug=f"census-{owner.pk}",
            name="My Collide-O! pack (census)",
            kind=SetKind.CUSTOM,
            owner=owner,
            is_public=False,
            source=f"Counted by {owner.get_username()} in their pack census; "
            "not a printed product's record.",
            notes="The patterns of your Collide-O! census; they play as your pack.",
        )
        card_set.full_clean()
        card_set.save()
        census.card_set = card_set
        census.save(update_fields=["card_set"])
    card = census.card_set.cards.filter(key=_key(pattern)).first()
    if card is not None:
        return card
    card = Card(
        card_set=census.card_set,
        key=_key(pattern),
        name=pattern_words(pattern),
        card_type="sections",
        section_1=pattern[0],
        section_2=pattern[1],
        section_3=pattern[2],
        source=f"Counted by {owner.get_username()} in their Collide-O! pack census.",
        verification=Verification.UNVERIFIED,
        distribution=Distribution.CUSTOM,
    )
    return card_save(card=card, user=owner, source="Counted in a pack census")


# --- confirmation -------------------------------------------------------------------


def complete_censuses() -> list[tuple[Census, dict[Pattern, int]]]:
    """Return every census that counts a whole pack, with its counts, oldest first."""
    full = (
        Census.objects.annotate(total=Sum("counts__count"))
        .filter(total=PACK_SIZE)
        .select_related("owner")
        .order_by("pk")
    )
    return [(c, census_counts(c)) for c in full]


def _confirm_if_agreed(census: Census) -> None:
    """Make the pack official when this census and another independent one agree."""
    mine = census_counts(census)
    if sum(mine.values()) != PACK_SIZE or not counts_toward_confirmation(census.owner):
        return
    card_set = official_set()
    if card_set is None:
        return
    # Two censuses completed at once would both make the pack: the second waits
    # here and then finds the cards made.
    card_set = CardSet.objects.select_for_update().get(pk=card_set.pk)
    if card_set.cards.exists():
        return
    for other, counts in complete_censuses():
        if other.owner_id == census.owner_id or counts != mine:
            continue
        if counts_toward_confirmation(other.owner):
            _make_official(
                card_set, mine, Verification.CONFIRMED,
                f"Two agreeing Collide-O! pack censuses (#{other.pk} by "
                f"{other.owner.get_username()} and #{census.pk} by "
                f"{census.owner.get_username()}): every pattern counted alike.",
                census.owner,
            )  # fmt: skip
            return


def census_disagreements() -> dict:
    """Return the complete censuses pattern by pattern, for a moderator to settle.

    ``rows`` has one row per pattern any of them counted, with each census's
    count and whether they differ.
    """
    full = complete_censuses()
    patterns = sorted({p for _, counts in full for p in counts})
    rows = [
        {
            "pattern": p,
            "words": pattern_words(p),
            "counts": [counts.get(p, 0) for _, counts in full],
            "differs": len({counts.get(p, 0) for _, counts in full}) > 1,
        }
        for p in patterns
    ]
    return {
        "censuses": [c for c, _ in full],
        "rows": rows,
        "agree": not any(r["differs"] for r in rows),
        "settled": bool(official_pack()),
    }


@transaction.atomic
def census_settle(*, moderator, census: Census) -> CardSet:
    """Make ``census``'s complete count the official pack, as a moderator's choice."""
    if not is_moderator(moderator):
        raise PermissionDenied("Only moderators settle the official pack.")
    card_set = official_set()
    if card_set is None:
        raise ValidationError("The official Collide-O! set is not loaded.")
    card_set = CardSet.objects.select_for_update().get(pk=card_set.pk)
    if card_set.cards.exists():
        raise ValidationError(
            "The official pack is already known.", code="already_official"
        )
    counts = census_counts(census)
    if sum(counts.values()) != PACK_SIZE:
        raise ValidationError(
            f"Only a census of all {PACK_SIZE} cards can be the official pack.",
            code="incomplete",
        )
    _make_official(
        card_set, counts, Verification.VERIFIED,
        f"Collide-O! pack census #{census.pk} by {census.owner.get_username()}, "
        f"chosen by the moderator {moderator.get_username()} among disagreeing "
        "censuses.",
        moderator,
    )  # fmt: skip
    return card_set


def _make_official(card_set, counts: dict, level: str, source: str, user) -> None:
    """Create the official set's cards, one per card of the pack, from ``counts``."""
    # The set's notes said the composition was not known: say how it is known now.
    card_set.notes = (
        f"The game is one pack of {PACK_SIZE} cards with three sections each. Its "
        f"composition, pattern by pattern, comes from this site: {source} The "
        "cards carry no name or number; the numbers here only order the patterns."
    )
    card_set.full_clean()
    card_set.save(update_fields=["notes"])
    number = 0
    for pattern in sorted(counts):
        for _ in range(counts[pattern]):
            number += 1
            card = Card(
                card_set=card_set,
                key=str(number),
                number=number,
                card_type="sections",
                section_1=pattern[0],
                section_2=pattern[1],
                section_3=pattern[2],
                source=source,
                verification=level,
                distribution=Distribution.PACK,
            )
            card_save(card=card, user=user, source=source)
