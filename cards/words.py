"""The word index of card names, texts and emblems, which serves word searches.

The search language matches a bare word or a quoted phrase "at the start of a
word" (``cards.search.word_q``): the value occurs, ignoring case, at the start
of the column or right after a character that is not a letter, digit or ``_``.
Checked row by row that is a scan of the whole card table; the index narrows it.

For each searched column of each card, ``CardWord`` holds one row per place a
word may start (the start of the column, and every place after a character that
is not an ASCII letter, digit or ``_``), with the next ``PREFIX_LENGTH``
characters from there, folded. A value matching at a word start has its folded
first ``PREFIX_LENGTH`` characters at the start of one of these rows, so::

    CardWord.objects.filter(field__in=columns, word__prefix=fold(value)[:N])

finds every card the scan would find, and maybe a few more; ``word_q`` then
runs today's exact check over those few rows only, so the results are the
scan's, on every database, by construction.

Why "after any non-ASCII-word character": SQLite's check uses Python's ``\\W``
and PostgreSQL's its own, which (in the C locale) takes "é" for a non-word
character. Both treat ASCII letters, digits and ``_`` as word characters, so a
word start under either is a place listed here.

Why the fold: each character is replaced by one representative of every
character case-insensitive matching could take for it (its lower and upper
case, Python's extra ``re.IGNORECASE`` equivalences such as "ſ" and "s"), so
two strings either database calls equal ignoring case fold the same. The fold
keeps the length, so a prefix of the value folds to a prefix of the row.

Every write of a card's searched columns refreshes its rows: ``post_save`` of
``Card`` (``card_save``, the data files, community and custom cards, fixtures
and the factories all save cards one by one), once per block inside
``cards.signals.card_refreshes_deferred`` (a data file's load); anything saving
cards in bulk (``bulk_create``, ``update``) calls ``card_words_refresh`` itself.
"""

from __future__ import annotations

import functools

from django.db.models import BigIntegerField, Expression, F, Lookup

# The columns word_q searches; the index holds these only.
WORD_COLUMNS = ("name", "text", "emblem")
PREFIX_LENGTH = 24
_ASCII_WORD = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
)
# Cased characters all lie below this code point (Unicode 15: Adlam, U+1E943).
_CASED_LIMIT = 0x20000


@functools.cache
def _fold_table() -> dict[int, str]:
    """Return {code point: representative} for every character with a case partner."""
    parent: dict[int, int] = {}

    def find(c: int) -> int:
        while parent.get(c, c) != c:
            c = parent[c]
        return c

    def union(a: int, b: int) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            lo, hi = min(ra, rb), max(ra, rb)
            parent[hi] = lo
            parent.setdefault(lo, lo)

    for cp in range(_CASED_LIMIT):
        ch = chr(cp)
        for other in (ch.lower(), ch.upper(), ch.casefold()):
            if len(other) == 1 and other != ch:
                union(cp, ord(other))
    try:  # Python's own extra equivalences of re.IGNORECASE ("ſ" is "s").
        from re._casefix import _EXTRA_CASES
    except ImportError:  # pragma: no cover - another Python
        _EXTRA_CASES = {}
    for cp, extras in _EXTRA_CASES.items():
        for other in extras:
            union(cp, other)
    roots = {cp: find(cp) for cp in parent}
    members = set(roots)

    def representative(root: int) -> str:
        lower = chr(root).lower()  # "s" rather than "S": easier to read
        return lower if len(lower) == 1 and ord(lower) in members else chr(root)

    reps = {root: representative(root) for root in set(roots.values())}
    return {cp: reps[root] for cp, root in roots.items()}


def fold(text: str) -> str:
    """Return ``text`` with each character replaced by its case representative."""
    return text.translate(_fold_table())


def word_starts(text: str | None) -> set[str]:
    """Return the folded ``PREFIX_LENGTH`` characters from each place a word may start."""
    if not text:
        return set()
    folded = fold(text)
    starts = {folded[:PREFIX_LENGTH]}
    for i, ch in enumerate(text[:-1]):
        if ch not in _ASCII_WORD:
            starts.add(folded[i + 1 : i + 1 + PREFIX_LENGTH])
    return starts


def search_prefix(value: str) -> str:
    """Return what a row of a card the value matches starts with."""
    return fold(value)[:PREFIX_LENGTH]


def card_word_rows(card) -> list:
    """Return the unsaved ``CardWord`` rows of ``card``."""
    from .models import CardWord

    return [
        CardWord(card_id=card.pk, field=column, word=word)
        for column in WORD_COLUMNS
        for word in sorted(word_starts(getattr(card, column)))
    ]


def card_words_refresh(cards, *, model=None, word_model=None) -> int:
    """Rewrite the index rows of ``cards`` (cards or pks); return the rows written.

    ``model``/``word_model`` are the historical models in a migration.
    """
    from .models import Card, CardWord

    model = model or Card
    word_model = word_model or CardWord
    pks = [getattr(c, "pk", c) for c in cards]
    written = 0
    for start in range(0, len(pks), 500):
        chunk = pks[start : start + 500]
        word_model.objects.filter(card_id__in=chunk).delete()
        rows = [
            word_model(card_id=pk, field=column, word=word)
            for pk, *values in model.objects.filter(pk__in=chunk).values_list(
                "pk", *WORD_COLUMNS
            )
            for column, value in zip(WORD_COLUMNS, values, strict=True)
            for word in sorted(word_starts(value))
        ]
        word_model.objects.bulk_create(rows, batch_size=1000)
        written += len(rows)
    return written


def refresh_on_save(
    sender, instance, raw=False, update_fields=None, using=None, **kwargs
):
    """``post_save`` of ``Card``: rewrite the card's rows if a searched column changed."""
    from .models import CardWord
    from .signals import deferred

    if update_fields is not None and not set(update_fields) & set(WORD_COLUMNS):
        return
    noted = deferred(using)
    if noted is not None:  # a data file's load rewrites them once at its end
        noted.word_card_ids.add(instance.pk)
        return
    CardWord.objects.filter(card_id=instance.pk).delete()
    CardWord.objects.bulk_create(card_word_rows(instance))


def _next_string(prefix: str) -> str | None:
    """Return the least string greater than every string starting with ``prefix``."""
    while prefix:
        cp = ord(prefix[-1]) + 1
        if 0xD800 <= cp <= 0xDFFF:  # surrogates cannot be stored
            cp = 0xE000
        if cp <= 0x10FFFF:
            return prefix[:-1] + chr(cp)
        prefix = prefix[:-1]
    return None


class Prefix(Lookup):
    """``Prefix(F("word"), "dra")``: starts with, case-sensitive, served by the B-tree index.

    SQLite's LIKE ignores ASCII case and so skips the index; a range on the
    binary-collated column does not. PostgreSQL's LIKE with a fixed prefix uses
    the ``varchar_pattern_ops`` index.
    """

    lookup_name = "prefix"
    prepare_rhs = False

    def as_sql(self, compiler, connection):
        lhs, lhs_params = self.process_lhs(compiler, connection)
        prefix = str(self.rhs)
        if connection.vendor == "postgresql":
            escaped = (
                prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            )
            return f"{lhs} LIKE %s", [*lhs_params, escaped + "%"]
        upper = _next_string(prefix)
        if upper is None:
            return f"{lhs} >= %s", [*lhs_params, prefix]
        return f"({lhs} >= %s AND {lhs} < %s)", [
            *lhs_params,
            prefix,
            *lhs_params,
            upper,
        ]


class WordCandidates(Expression):
    """The ids of the cards with a word of ``columns`` starting with ``prefix``.

    The subquery is built when the search is compiled, not when it is read:
    building a queryset for each word was most of a long query's parse time.
    """

    output_field = BigIntegerField()

    def __init__(self, columns, prefix: str):
        super().__init__()
        self.columns, self.prefix = tuple(columns), prefix

    def as_sql(self, compiler, connection):
        from .models import CardWord

        found = CardWord.objects.filter(
            Prefix(F("word"), self.prefix), field__in=self.columns
        ).values("card_id")
        sql, params = found.query.get_compiler(connection=connection).as_sql()
        return f"({sql})", params
