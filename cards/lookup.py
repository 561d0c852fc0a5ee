"""Find rows by text with case and surrounding spaces ignored, through an index.

Imports, bulk adds and decklists name cards by what a person types: "dragoon"
for "Dragoon", "#9/48C" for "9/48c". ``folded_match`` asks the database for the
rows whose field, trimmed and lower-cased, is one of the texts (the cards' name,
key and printed number carry an index on exactly that expression), so a lookup
reads the rows it finds, not the table.
"""

from collections.abc import Callable, Iterable

from django.db.models import Q
from django.db.models.functions import Lower, Trim


def _lowered(text: str) -> str:
    return text.strip().lower()


def folded_match(
    queryset,
    fields: tuple[str, ...],
    texts: Iterable[str],
    *,
    fold: Callable[[str], str] = _lowered,
    narrow: Q | None = None,
) -> list:
    """Return the rows of ``queryset`` one of whose ``fields`` folds to a text's fold.

    ``fold`` is the caller's rule (strip and lower by default); Python applies it
    to every candidate, so the answer is exactly that rule's. The database folds
    with Lower(Trim()); SQLite lowers only ASCII letters, so texts with other
    letters that found nothing are looked for again among the rows whose field
    is not plain ASCII (a scan, but only for such input). ``narrow`` is a
    condition on the model's own columns the matching ids must also meet (the
    sets a ``set#key`` names), so a key shared by every set is not read in all.
    """
    texts = {t for t in texts if t.strip()}
    if not texts:
        return []
    wanted = {fold(t) for t in texts}

    def folds(row) -> set[str]:
        return {fold(getattr(row, f) or "") for f in fields}

    condition = Q()
    for f in fields:
        condition |= Q(**{f"_folded_{f}__in": {_lowered(t) for t in texts}})
    # The folded ids come from the model's own table, where the expression
    # indexes serve them, read first in a query of their own: asked as a
    # subquery, PostgreSQL guessed a few thousand ids for a common name and
    # started from the visible sets instead, reading all their cards (issue 22).
    ids = list(
        queryset.model._base_manager.using(queryset.db)
        .alias(**{f"_folded_{f}": Lower(Trim(f)) for f in fields})
        .filter(condition, narrow or Q())
        .order_by()  # the model's ordering would join and sort the sets
        .values_list("pk", flat=True)
    )
    rows = [row for row in queryset.filter(pk__in=ids) if folds(row) & wanted]
    found = set().union(*(folds(row) for row in rows)) if rows else set()
    others = {fold(t) for t in texts if not t.isascii()} - found
    if others:
        condition = Q()
        for f in fields:
            condition |= Q(**{f"{f}__isnull": False}) & ~Q(
                **{f"{f}__regex": r"^[ -~]*$"}
            )
        seen = {row.pk for row in rows}
        rows += [
            row
            for row in queryset.filter(condition)
            if row.pk not in seen and folds(row) & others
        ]
    return rows
