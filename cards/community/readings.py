"""Readings: what a collector transcribes from a card they hold.

A reading is a pending correction (``CardSubmission``) of one card by one
account. It works for its author at once: ``cards_as_read`` (and
``entries_as_read``, ``search_as_read``) is the one way cards are read for a
person, and lays the author's pending reading over the card wherever that author
meets it (pages, search, the API, proxy sheets, deck tools, playtests, reports,
the deck doctor); everyone else sees the card as stored. An author changes or
withdraws their reading until it is reviewed.

Two readings of a card by different accounts that count toward confirmation
(``trust.counts_toward_confirmation``: established accounts, never two made a
minute ago) and agree on a field the card does not know make it **confirmed**
(``FieldVerification`` rows, one per card and field): the agreed value is
written to the card, with history, for everyone. A reading that differs from a
value the card already has, or readings that disagree with each other, make the
field **disputed**, for a moderator to settle side by side; the card's value
stays. A moderator's acceptance stays the highest level (verified); readings
never overrule a verified value, they dispute it. Only readings take part, and
only in the fields the transcribe page asks for (``settled_fields``): a
proposal (the suggest form, ``POST /api/submissions/``) and any text, effect,
source or verification change only when a moderator accepts them.

Decisions where the issue is silent: a blank control means "I do not say", not
"unknown" (a reading never erases a value); a reading keeps every value its
author gave, even one equal to the card's, so that it can confirm that value;
a card's own level becomes confirmed only when every value its type prints that
is known is confirmed; a reading changed after it confirmed a field leaves that
confirmation (the value was agreed at the time and is in the card's history).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Q, Value
from django.db.models.constants import LOOKUP_SEP
from django.db.models.lookups import IsNull
from django.utils import timezone

from ..choices import Verification
from ..games import GAMES
from ..history import card_save, card_values
from ..models import Card, CardSubmission, FieldVerification, ReviewStatus
from ..words import WordCandidates
from . import scans
from .services import (
    MAX_SOURCE_CHARS,
    SUBMITTABLE_KINDS,
    _build_card,
    _clean_fields,
    _merge,
    card_submission_create,
    field_label,
)
from .trust import counts_toward_confirmation, reading_limit_check

DEFAULT_SOURCE = "My own copy of the card."
# Fields a reading never sets: provenance is the site's, text is not transcribed.
NOT_READ = ("source", "verification", "distribution", "effects", "text", "lore",
            "key", "code")  # fmt: skip
# The columns a card number may be read into: a game reads into one of them
# (``Game.card_number``), never the other.
NUMBER_COLUMNS = ("number", "printed_number")


def not_read(game: str) -> tuple[str, ...]:
    """Return the fields a reading of a card of ``game`` never sets."""
    number = GAMES[game].card_number
    return NOT_READ + tuple(name for name in NUMBER_COLUMNS if name != number)


def _pending_of(user):
    """Return ``user``'s pending corrections of existing cards: what their overlay lays."""
    return CardSubmission.objects.filter(
        submitter=user, status=ReviewStatus.PENDING, is_new=False
    )


def pending_readings(user, card_ids) -> dict[int, CardSubmission]:
    """Return {card id: ``user``'s pending reading} for these cards."""
    if user is None or not getattr(user, "is_authenticated", False):
        return {}
    ids = [i for i in card_ids if i is not None]
    if not ids:
        return {}
    found = {}
    for reading in (
        _pending_of(user).filter(card_id__in=ids).order_by("created_at", "pk")
    ):
        found[reading.card_id] = reading
    return found


def reading_of(user, card: Card) -> CardSubmission | None:
    """Return ``user``'s pending correction of ``card`` that applies to them, or None."""
    return pending_readings(user, [card.pk]).get(card.pk)


def own_reading(user, card: Card) -> CardSubmission | None:
    """Return ``user``'s pending reading of ``card`` (never a proposal), or None."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return (
        CardSubmission.objects.filter(
            submitter=user, status=ReviewStatus.PENDING, is_reading=True, card=card
        )
        .order_by("created_at", "pk")
        .last()
    )


def apply_reading(card: Card, reading: CardSubmission) -> Card:
    """Lay ``reading``'s values over ``card`` (in memory) and mark it as read."""
    for name, value in reading.fields.items():
        setattr(card, name, value)
    card.your_reading = reading
    return card


# --- the cards as a person reads them ------------------------------------------
# Every read path (pages, API, proxy sheets, deck tools, playtests, reports, the
# deck doctor) reads cards for a person through these: ``cards_as_read`` for rows
# in hand, ``entries_as_read`` for deck entries, ``search_as_read`` for a search.


def cards_as_read(user, cards) -> list[Card]:
    """Return these cards as ``user`` reads them: their pending readings laid over.

    Each card read gets ``your_reading`` (the submission); the others are left as
    they are. Nothing is saved; anyone but the author gets the cards as stored.
    """
    cards = list(cards)
    found = pending_readings(user, {card.pk for card in cards})
    for card in cards:
        if card.pk in found:
            apply_reading(card, found[card.pk])
    return cards


def entries_as_read(user, entries) -> list:
    """Return deck entries (or entry dicts) with their cards as ``user`` reads them."""
    entries = list(entries)
    cards_as_read(user, [e["card"] if isinstance(e, dict) else e.card for e in entries])
    return entries


def names_as_read(user, rows: list[dict]) -> list[dict]:
    """Return stored ``{"card": id, "name": ...}`` rows with ``user``'s read names."""
    found = pending_readings(user, {row.get("card") for row in rows})
    named = {pk: r.fields["name"] for pk, r in found.items() if r.fields.get("name")}
    return [
        {**row, "name": named[row["card"]]} if row.get("card") in named else row
        for row in rows
    ]


def read_card_ids(user) -> set[int]:
    """Return the ids of the cards ``user`` has a pending reading of."""
    if user is None or not getattr(user, "is_authenticated", False):
        return set()
    return set(_pending_of(user).values_list("card_id", flat=True))


def has_readings(user) -> bool:
    """Return True when ``user`` has a pending reading, so their cards differ."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return _pending_of(user).exists()


# Read cards are matched in groups, so one condition stays well inside the
# database's expression depth however many cards a collector has read.
MATCH_CHUNK = 100


def search_as_read(user, queryset, condition: Q):
    """Return ``queryset`` filtered by ``condition`` over the cards as ``user`` reads them.

    A card ``user`` read in a field the condition names matches by its read
    values (and no longer by the stored ones); every other card as stored.
    """
    if not has_readings(user):
        return queryset.filter(condition)
    named = _fields_named(condition)
    touched = {r.card_id: r for r in _pending_of(user).order_by("created_at", "pk")}
    touched = {pk: r for pk, r in touched.items() if named & set(_read_values(r))}
    if not touched:
        return queryset.filter(condition)
    matched: list[int] = []
    items = sorted(touched.items())
    for start in range(0, len(items), MATCH_CHUNK):
        branches = [
            Q(pk=pk) & _overlay(condition, _read_values(reading), pk)
            for pk, reading in items[start : start + MATCH_CHUNK]
        ]
        matched += Card.objects.filter(Q(*branches, _connector=Q.OR)).values_list(
            "pk", flat=True
        )
    return queryset.filter((condition & ~Q(pk__in=list(touched))) | Q(pk__in=matched))


def _read_values(reading: CardSubmission) -> dict:
    """Return the reading's values of the card's own columns."""
    columns = {f.name for f in Card._meta.concrete_fields}
    return {k: v for k, v in reading.fields.items() if k in columns}


def _fields_named(node) -> set[str]:
    """Return the card columns a condition (a Q, a lookup or an expression) reads."""
    if isinstance(node, Q):
        return set().union(
            *(
                {c[0].split(LOOKUP_SEP)[0]} | _fields_named(c[1])
                if isinstance(c, tuple)
                else _fields_named(c)
                for c in node.children
            )
        )
    if isinstance(node, F):
        return {node.name.split(LOOKUP_SEP)[0]}
    if hasattr(node, "get_source_expressions"):
        return set().union(
            *(_fields_named(e) for e in node.get_source_expressions() if e is not None)
        )
    return set()


def _overlay(node, values: dict, pk):
    """Return ``node`` reading ``values`` in place of the card's columns."""
    if isinstance(node, Q):
        return Q(
            *(
                _overlay_lookup(*c, values, pk)
                if isinstance(c, tuple)
                else _overlay(c, values, pk)
                for c in node.children
            ),
            _connector=node.connector,
            _negated=node.negated,
        )
    if isinstance(node, F):
        name = node.name
        if name in values:
            return Value(values[name], output_field=Card._meta.get_field(name))
        return node
    if hasattr(node, "get_source_expressions"):
        node = node.copy()
        node.set_source_expressions(
            [
                None if e is None else _overlay(e, values, pk)
                for e in node.get_source_expressions()
            ]
        )
    return node


def _overlay_lookup(key: str, rhs, values: dict, pk):
    """Return the lookup ``key=rhs`` over ``values``, as a lookup expression."""
    name, *rest = key.split(LOOKUP_SEP)
    if isinstance(rhs, WordCandidates):
        # The word index holds the stored words; the scan beside it decides.
        return Q(pk=pk)
    if name not in values:
        return (key, _overlay(rhs, values, pk))
    field = Card._meta.get_field(name)
    lhs = Value(values[name], output_field=field)
    lookup_name = rest.pop() if rest else "exact"
    for transform in rest:
        lhs = lhs.output_field.get_transform(transform)(lhs)
    lookup = lhs.output_field.get_lookup(lookup_name)
    if lookup is None:  # a transform last: compared as exact
        lhs = lhs.output_field.get_transform(lookup_name)(lhs)
        lookup, lookup_name = lhs.output_field.get_lookup("exact"), "exact"
    if rhs is None and lookup_name in ("exact", "iexact"):
        return IsNull(lhs, True)
    return lookup(lhs, _overlay(rhs, values, pk))


# --- saving, changing, withdrawing ------------------------------------------------


def reading_fields(game: str, card_type: str | None) -> tuple[str, ...]:
    """Return the fields the transcribe page asks of a card of this type."""
    spec = GAMES[game]
    asked = [f for f in spec.type_fields(card_type) if _transcribed(spec, f)]
    names = ["card_type", *asked, spec.card_number]
    if spec.name_from is not None and "name" in names:
        # The name is made of the title (and subtitle): ask for those instead.
        at = names.index("name")
        names[at : at + 1] = [] if "title" in names else ["title"]
    seen, result, skipped = set(), [], not_read(game)
    for name in names:
        if name in skipped or name in seen:
            continue
        seen.add(name)
        result.append(name)
    return tuple(result)


def _transcribed(spec, name: str) -> bool:
    declared = spec.printed_field(name)
    return declared is None or declared.transcribed


def _complete(game: str, values: dict, card: Card | None = None) -> dict:
    """Return ``values`` with the fields the game derives from others filled in."""
    spec = GAMES[game]
    values = dict(values)
    if spec.name_from is not None and ("title" in values or "subtitle" in values):
        title = values.get("title", getattr(card, "title", None))
        subtitle = values.get("subtitle", getattr(card, "subtitle", None))
        if isinstance(title, str) and title:
            values["name"] = spec.name_from(title, subtitle)
    if "not_printed" in values:
        values["not_printed"] = sorted(set(values["not_printed"]))
    return values


def _check_source(source: str, errors: dict) -> str:
    source = (source or "").strip() or DEFAULT_SOURCE
    if len(source) > MAX_SOURCE_CHARS:
        errors.setdefault("source", []).append(
            f"Keep the source note under {MAX_SOURCE_CHARS} characters."
        )
    return source


def card_reading_save(
    *, user, card: Card, fields: dict, source: str = "", scan=None
) -> CardSubmission:
    """Record ``user``'s reading of ``card`` (new, or changing their pending one).

    The reading is checked as the card would be saved with it (the card
    validator's messages, field by field); nothing is stored unless all of it is
    acceptable. Agreement with other readings is then settled in the same
    transaction. A new reading beyond the account's hourly limit raises
    ``trust.ReadingLimitReached``.
    """
    if user is None or not user.is_authenticated:
        raise PermissionDenied("Sign in to record what your card prints.")
    game = card.card_set.game.slug
    if card.card_set.kind not in SUBMITTABLE_KINDS:
        raise ValidationError(
            {"card": "Custom cards are changed by their owner, not by readings."}
        )
    skipped = not_read(game)
    fields = {k: v for k, v in dict(fields).items() if k not in skipped}
    errors: dict = {}
    values, field_errors = _clean_fields(game, fields)
    errors.update(field_errors)
    source = _check_source(source, errors)
    if not values and not errors and scan is None:
        errors.setdefault("fields", []).append(
            "Fill in at least one thing the card prints."
        )
    values = _complete(game, values, card)
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        locked = Card.objects.select_for_update().get(pk=card.pk)
        existing = own_reading(user, locked)
        if existing is None:
            reading_limit_check(user)
            reading = card_submission_create(
                user=user,
                game=game,
                card=locked,
                fields=values,
                source=source,
                scan=scan,
                reading=True,
            )
        else:
            reading = _reading_update(
                reading=existing, card=locked, values=values, source=source, scan=scan
            )
        readings_settle(card=locked)
    reading.refresh_from_db()
    return reading


def _reading_update(*, reading, card, values, source, scan) -> CardSubmission:
    errors: dict = {}
    try:
        _build_card(card=card, card_set=None, values=values)
    except ValidationError as error:
        _merge(errors, error)
    checked = None
    if scan is not None:
        try:
            scans.scan_quota_check(
                user=reading.submitter, adding_bytes=getattr(scan, "size", None) or 0
            )
            checked = scans.scan_check(upload=scan)
        except ValidationError as error:
            _merge(errors, error)
    if errors:
        raise ValidationError(errors)
    claimed = CardSubmission.objects.filter(
        pk=reading.pk, status=ReviewStatus.PENDING
    ).update(fields=values, source=source)
    if claimed != 1:
        raise ValidationError(
            "This reading was reviewed meanwhile; it can no longer change.",
            code="not_pending",
        )
    if checked is not None:
        from .services import scan_create

        scan_create(
            user=reading.submitter, checked=checked, card=card, submission=reading
        )
    return reading


@transaction.atomic
def card_reading_withdraw(*, user, reading: CardSubmission) -> None:
    """Withdraw ``user``'s own pending reading; it stops applying at once."""
    if reading.submitter_id != getattr(user, "pk", None):
        raise PermissionDenied("Only its author withdraws a reading.")
    claimed = CardSubmission.objects.filter(
        pk=reading.pk, status=ReviewStatus.PENDING
    ).update(status=ReviewStatus.WITHDRAWN, reviewed_at=timezone.now())
    if claimed != 1:
        raise ValidationError(
            "This reading was already reviewed or withdrawn.", code="not_pending"
        )


# --- agreement --------------------------------------------------------------------


def _latest_by_author(card: Card) -> list[CardSubmission]:
    """Return the latest pending reading of each account whose readings count."""
    latest = {}
    for reading in (
        CardSubmission.objects.filter(
            card=card, status=ReviewStatus.PENDING, is_new=False, is_reading=True
        )
        .select_related("submitter")
        .order_by("created_at", "pk")
    ):
        latest[reading.submitter_id] = reading
    return [r for r in latest.values() if counts_toward_confirmation(r.submitter)]


def settled_fields(game: str, card_type: str | None) -> tuple[str, ...]:
    """Return the fields agreement may settle: those the transcribe page asks for."""
    # A name made of the title is not settled itself: it follows the title.
    return (*reading_fields(game, card_type), "not_printed")


def _asked(card: Card, reading: CardSubmission) -> dict:
    """Return the reading's values of the fields agreement may settle."""
    card_type = reading.fields.get("card_type") or card.card_type
    names = settled_fields(card.card_set.game.slug, card_type)
    return {k: v for k, v in reading.fields.items() if k in names}


def contradicts(card: Card, name: str, value) -> bool:
    """Return True when a read ``value`` differs from one ``card`` already has."""
    if name == "not_printed":
        have, said = set(card.not_printed or []), set(value or [])
        # Unticking a box the card has, or calling a known value not printed.
        return bool(have - said) or any(
            getattr(card, f, None) not in (None, "") for f in said - have
        )
    current = getattr(card, name)
    if current in (None, "") and name not in (card.not_printed or []):
        return False  # unknown: a reading may fill it in
    return current != value


def _mark(card, field, level, value, readings) -> FieldVerification:
    """Create or move the card field's verification row, adding ``readings``."""
    try:
        with transaction.atomic():
            row, _ = FieldVerification.objects.get_or_create(
                card=card, field=field, defaults={"level": level, "value": value}
            )
    except IntegrityError:
        # Another transaction made it between our read and write.
        row = FieldVerification.objects.get(card=card, field=field)
    if row.level != level and level == Verification.DISPUTED:
        row.level = level
        row.save(update_fields=["level", "updated_at"])
    row.readings.add(*readings)
    return row


def readings_settle(*, card: Card) -> dict:
    """Compare the card's pending readings; confirm agreed fields, dispute the rest.

    Only readings (never proposals) by accounts that count toward confirmation
    take part, and only in the fields the transcribe page asks for. Two agreeing
    readings write a value only where the card's is unknown; a reading that
    differs from a value the card has disputes that field and changes nothing.
    Call with the card row locked. Return {"confirmed": [...], "disputed": [...]}
    naming the fields newly marked.
    """
    readings = _latest_by_author(card)
    asked = {r.pk: _asked(card, r) for r in readings}
    rows = {row.field: row for row in card.field_verifications.all()}
    verified = card.verification == Verification.VERIFIED
    agreed: dict[str, tuple] = {}
    disputed: dict[str, list] = {}
    for reading in readings:
        for name, value in asked[reading.pk].items():
            if contradicts(card, name, value):
                disputed.setdefault(name, []).append(reading)
    for a, b in combinations(readings, 2):
        fa, fb = asked[a.pk], asked[b.pk]
        common = set(fa) & set(fb)
        if not common:
            continue
        differ = [f for f in common if fa[f] != fb[f]]
        if differ:
            for name in differ:
                disputed.setdefault(name, []).extend([a, b])
            continue
        for name in common:
            agreed.setdefault(name, (fa[name], []))[1].extend([a, b])
    newly_confirmed, newly_disputed, changes = [], [], {}
    for name, (value, pair) in sorted(agreed.items()):
        if name in disputed:
            continue
        row = rows.get(name)
        current = getattr(card, name)
        if row is not None and row.level == Verification.DISPUTED:
            continue
        if (row is not None and row.value != value) or (verified and current != value):
            disputed.setdefault(name, []).extend(pair)
            continue
        if verified and row is None:
            continue  # A moderator already checked this very value.
        if row is None:
            newly_confirmed.append(name)
            if current != value:
                changes[name] = value
        _mark(card, name, Verification.CONFIRMED, value, pair)
    for name, pair in sorted(disputed.items()):
        row = rows.get(name)
        if row is None or row.level != Verification.DISPUTED:
            newly_disputed.append(name)
        _mark(card, name, Verification.DISPUTED, None, pair)
    name_from = GAMES[card.card_set.game.slug].name_from
    if name_from is not None and ("title" in changes or "subtitle" in changes):
        title = changes.get("title", card.title)
        if title:
            changes["name"] = name_from(title, changes.get("subtitle", card.subtitle))
    if changes or newly_confirmed or newly_disputed:
        _apply_settled(card, changes, newly_disputed, readings)
    return {"confirmed": newly_confirmed, "disputed": newly_disputed}


def _apply_settled(card, changes, newly_disputed, readings) -> None:
    old = card_values(card)
    try:
        built = _build_card(card=card, card_set=None, values=changes)
    except ValidationError:
        # The agreed values no longer fit the card as it is now (it changed
        # since the readings were checked): leave the card for a moderator.
        return
    level = card.verification
    if newly_disputed and level != Verification.VERIFIED:
        level = Verification.DISPUTED
    elif level == Verification.UNVERIFIED and _all_known_confirmed(built):
        level = Verification.CONFIRMED
    built.verification = level
    if card_values(built) == old:
        return
    names = ", ".join(f"#{r.pk} by {r.submitter.get_username()}" for r in readings)
    card_save(
        card=built,
        user=None,
        source=f"Readings {names}: "
        + ("agreed" if not newly_disputed else "disagree, now disputed"),
        old=old,
        checked=False,
    )


def _all_known_confirmed(card: Card) -> bool:
    confirmed = set(
        card.field_verifications.filter(level=Verification.CONFIRMED).values_list(
            "field", flat=True
        )
    )
    names = reading_fields(card.card_set.game.slug, card.card_type)
    known = [n for n in names if getattr(card, n) not in (None, "")]
    return bool(known) and all(n in confirmed for n in known)


# --- what the pages and the API show -----------------------------------------------


@dataclass(frozen=True)
class FieldLevel:
    level: str
    who: tuple[str, ...]
    when: object


def field_levels(card: Card) -> dict[str, FieldLevel]:
    """Return {field: level, who, when} for the card fields whose level is its own."""
    result = {}
    for row in card.field_verifications.prefetch_related("readings__submitter"):
        who = tuple(sorted({r.submitter.get_username() for r in row.readings.all()}))
        result[row.field] = FieldLevel(row.level, who, row.updated_at)
    return result


def card_verification(card: Card) -> dict:
    """Return the card's level and each field's where it differs from the card's."""
    fields = {
        name: {"level": fl.level, "by": list(fl.who), "at": fl.when.isoformat()}
        for name, fl in field_levels(card).items()
        if fl.level != card.verification
    }
    return {"level": card.verification, "fields": fields}


def disputes() -> list[dict]:
    """Return the disputed cards, each with its readings side by side, field by field.

    One entry per card: ``fields`` are the disputed field names, ``readings`` the
    pending readings that give any of them (with their scans), and ``rows`` one
    per field: its label, the card's value and each reading's value in order.
    """
    rows = (
        FieldVerification.objects.filter(level=Verification.DISPUTED)
        .select_related("card__card_set__game")
        .prefetch_related("readings__submitter", "readings__scans")
        .order_by("card_id", "field")
    )
    by_card: dict[int, dict] = {}
    for row in rows:
        entry = by_card.setdefault(
            row.card_id, {"card": row.card, "fields": [], "readings": {}}
        )
        entry["fields"].append(row.field)
        for reading in row.readings.all():
            if reading.status == ReviewStatus.PENDING:
                entry["readings"][reading.pk] = reading
    result = []
    for entry in by_card.values():
        shown = sorted(entry["readings"].values(), key=lambda r: (r.created_at, r.pk))
        entry["readings"] = shown
        entry["rows"] = [
            {
                "label": field_label(name),
                "current": getattr(entry["card"], name),
                "values": [r.fields.get(name, MISSING) for r in shown],
            }
            for name in entry["fields"]
        ]
        result.append(entry)
    return result


MISSING = object()
