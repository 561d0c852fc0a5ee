"""Which of its owner's copies plays in each slot of a deck whose copies each
print a value (a Bakugan figure's G-Power: the how-to-play page, "Copy G-Power").

A slot plays the copy it names (as recorded now), else the value typed on it,
else the owner's strongest recorded copy that no other slot names or has taken.
``slot_plays`` is the one resolver: the playtest and its start page, deck
reports, the deck doctor, batch simulation, the deck tools and the table
companion all read a deck through it (most through ``deck_lines``), so they
agree on what each slot plays. A slot left with no
copy to take plays no value: the engine cannot play it, and the pages link to
recording a copy's value in the collection, never to a value on the card
(copies of one figure differ).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import groupby
from typing import Any

from collection.models import CollectionEntry
from collection.selectors import owned_copies

from .rules import Line, to_lines

# (value each copy plays, how many copies): a slot's copies, strongest first.
Plays = list[tuple[int | None, int]]


def takes_copy(line: Line) -> bool:
    """Return whether the line's copies play the owner's recorded copies when it
    names no value: a card whose type prints a value on each copy and whose
    card records none (a practice figure prints one on the card itself)."""
    card = line.card
    if isinstance(card, dict) or getattr(card, "is_private_stand_in", False):
        return False
    if line.g_power is not None or line.get("g_power") is not None:
        return False
    check = card.card_set.game.spec.copy_check
    # A type whose copies print a value accepts any value a copy may print.
    return check is not None and check(card.card_type, 10) is None


def slot_plays(*, owner, entries: Iterable[Any]) -> list[tuple[Line, Plays]]:
    """Return each entry as a line with the values its copies play.

    ``owner`` is the deck's owner (whose copies play); None (a deck given as
    plain entries) takes no copy.
    """
    entries = list(entries)
    lines = to_lines(entries)
    open_ids = {line.card_id for line in lines if takes_copy(line)}
    held = owned_copies(user=owner, card_ids=open_ids) if owner and open_ids else {}
    # A copy a slot names plays in that slot, not a second time in another.
    for entry, line in zip(entries, lines, strict=True):
        named = entry.named_copy() if hasattr(entry, "named_copy") else None
        pool = held.get(line.card_id)
        for _ in range(line.quantity if named is not None and pool else 0):
            if named.g_power in pool:
                pool.remove(named.g_power)
    result = []
    for line in lines:
        if not takes_copy(line):
            result.append((line, [(line.g_power, line.quantity)]))
            continue
        pool = held.get(line.card_id, [])
        taken, held[line.card_id] = pool[: line.quantity], pool[line.quantity :]
        plays: Plays = [(value, len(list(run))) for value, run in groupby(taken)]
        if len(taken) < line.quantity:
            plays.append((None, line.quantity - len(taken)))
        result.append((line, plays))
    return result


def lines_played(plays: list[tuple[Line, Plays]]) -> list[Line]:
    """Return the lines of ``slot_plays``, one per value played."""
    return [
        line._replace(quantity=count, g_power=value)
        for line, values in plays
        for value, count in values
    ]


def deck_lines(*, owner, entries: Iterable[Any]) -> list[Line]:
    """Return a deck's entries as lines, each slot with the copies it plays."""
    return lines_played(slot_plays(owner=owner, entries=entries))


def unrecorded_copies(owner, card_ids) -> dict[int, int]:
    """Return card id -> the id of one of ``owner``'s copies of it with no value
    recorded (where recording it adds no copy the collection does not hold)."""
    if owner is None or not card_ids:
        return {}
    rows = CollectionEntry.objects.filter(
        user=owner, card_id__in=card_ids, g_power__isnull=True, quantity__gt=0
    ).order_by("-pk")
    return dict(rows.values_list("card_id", "pk"))
