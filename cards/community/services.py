"""Community card data: submissions and their review, card history, custom cards.

Every write here is keyword-only and atomic, and every card it writes passes
``Card.full_clean()`` first (the game's rules live in ``cards/games``); views,
the API, the admin and tests all call these functions. Each change to a card
leaves one ``CardChange`` row: who, when, field by field old -> new, and from
where.
"""

from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.text import slugify

from ..choices import Distribution, SetKind, Verification
from ..data import (
    LoadResult,
    _type_problem,
    card_data_diff,
    card_data_load,
    card_data_parse,
    card_fields,
)
from ..games import GAMES, type_fields

# card_history_record and values_diff are part of this module's interface.
from ..history import card_history_record, card_save, card_values, values_diff  # noqa: F401
from ..models import (
    Card,
    CardDataImport,
    CardSet,
    CardSubmission,
    Census,
    GameRecord,
    ReviewStatus,
    Scan,
)
from . import scans

MODERATORS_GROUP = "moderators"
MAX_SOURCE_CHARS = 2000
MAX_REASON_CHARS = 2000
MAX_IMPORT_BYTES = 4 * 1024 * 1024
# Kinds of set a submission may add to or correct: custom cards are their
# owner's to edit directly.
SUBMITTABLE_KINDS = (SetKind.OFFICIAL, SetKind.PRACTICE)


# --- who may do what ------------------------------------------------------------


def is_moderator(user) -> bool:
    """Return True for staff and members of the moderators group."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or user.is_superuser:
        return True
    return user.groups.filter(name=MODERATORS_GROUP).exists()


def moderators_group() -> Group:
    """Return the moderators group (made by a data migration)."""
    return Group.objects.get_or_create(name=MODERATORS_GROUP)[0]


def _require_moderator(user) -> None:
    if not is_moderator(user):
        raise PermissionDenied("Only moderators can do this.")


def visible_submissions(user):
    """Return the submissions ``user`` may see: their own, or all for moderators."""
    qs = CardSubmission.objects.select_related(
        "submitter", "reviewer", "game", "card", "card__card_set", "card_set"
    )
    if is_moderator(user):
        return qs
    if user is None or not user.is_authenticated:
        return qs.none()
    return qs.filter(submitter=user)


# --- fields and values ----------------------------------------------------------


def submission_fields(game: str) -> tuple[str, ...]:
    """Return the card fields a submission for ``game`` may propose, in file order."""
    # Verification is the moderator's call, made on acceptance.
    return tuple(f for f in card_fields(game) if f != "verification")


def _clean_fields(game: str, fields) -> tuple[dict, dict]:
    """Return (values, errors) for proposed ``fields``, checking names and types."""
    if not isinstance(fields, dict):
        return {}, {"fields": ["Give the fields as an object of name: value."]}
    allowed = submission_fields(game)
    values, errors = {}, {}
    for name, value in fields.items():
        if name not in allowed:
            label = GAMES[game].short_name
            errors[str(name)[:60]] = [f"Not a field a {label} card submission sets."]
            continue
        model_field = Card._meta.get_field(name)
        # A blank text value means unknown, which the database stores as null.
        if value == "" and model_field.null:
            value = None
        problem = _type_problem(model_field, value)
        if problem:
            errors[name] = [problem[0].upper() + problem[1:]]
            continue
        values[name] = value
    return values, errors


def _build_card(*, card: Card | None, card_set: CardSet | None, values: dict) -> Card:
    """Return the card as it would be with ``values`` applied, checked, unsaved."""
    if card is None:
        built = Card(card_set=card_set)
    else:
        built = Card.objects.get(pk=card.pk)
    for name, value in values.items():
        setattr(built, name, value)
    built.full_clean()
    return built


def _merge(errors: dict, error: ValidationError) -> None:
    for name, messages in error.message_dict.items():
        errors.setdefault(name, []).extend(messages)


# --- history --------------------------------------------------------------------


def card_history(*, card: Card):
    """Return the recorded changes of ``card``, newest first."""
    return card.changes.select_related("user", "submission")


# --- submissions ----------------------------------------------------------------


def _submission_target(*, game: str, card, fields: dict, errors: dict):
    """Return (card, card_set) a submission is about, adding to ``errors``."""
    if card is not None:
        if card.card_set.game.slug != game:
            errors.setdefault("card", []).append(
                f"This card is a {card.card_set.game.name} card, not a "
                f"{GAMES[game].short_name} card."
            )
        elif card.card_set.kind not in SUBMITTABLE_KINDS:
            errors.setdefault("card", []).append(
                "Custom cards are changed by their owner, not through submissions."
            )
        return card, None
    slug = fields.pop("set", None)
    if not isinstance(slug, str) or not slug:
        errors.setdefault("set", []).append(
            "A new card needs its set (the set's slug)."
        )
        return None, None
    card_set = CardSet.objects.filter(
        game__slug=game, slug=slug, kind__in=SUBMITTABLE_KINDS
    ).first()
    if card_set is None:
        errors.setdefault("set", []).append(
            f'No official or practice {GAMES[game].short_name} set "{slug[:60]}".'
        )
    return None, card_set


def card_submission_create(
    *,
    user,
    game: str,
    card: Card | None,
    fields: dict,
    source: str,
    scan=None,
    reading: bool = False,
) -> CardSubmission:
    """Propose a new card (``card`` None, ``fields`` naming its set) or a correction.

    The proposal is checked as the card would be saved (``Card.full_clean``);
    an attached scan is checked and re-encoded; nothing is stored unless all of
    it is acceptable. A reading (``reading``, made by ``card_reading_save`` only)
    keeps the values equal to the card's too: they are what its author read.
    """
    if user is None or not user.is_authenticated:
        raise PermissionDenied("Sign in to submit card data.")
    if game not in GAMES:
        raise ValidationError({"game": f'Unknown game "{str(game)[:40]}".'})
    if not isinstance(fields, dict):
        raise ValidationError(
            {"fields": "Give the fields as an object of name: value."}
        )
    errors: dict = {}
    fields = dict(fields)
    card, card_set = _submission_target(
        game=game, card=card, fields=fields, errors=errors
    )
    values, field_errors = _clean_fields(game, fields)
    errors.update(field_errors)
    source = (source or "").strip()
    if not source:
        errors.setdefault("source", []).append(
            "Say where the values come from (my own copy, a scan, a rulebook page)."
        )
    elif len(source) > MAX_SOURCE_CHARS:
        errors.setdefault("source", []).append(
            f"Keep the source note under {MAX_SOURCE_CHARS} characters."
        )
    if card is not None and not errors:
        current = card_values(card)
        changed = {k: v for k, v in values.items() if current[k] != v}
        if not reading:
            values = changed
        if not values and scan is None:
            errors.setdefault("fields", []).append(
                "This proposal changes nothing: every value is the card's own."
            )
    if not errors and (card is not None or card_set is not None):
        proposal = dict(values)
        if card is None:
            proposal.setdefault("source", source)
        try:
            _build_card(card=card, card_set=card_set, values=proposal)
        except ValidationError as error:
            _merge(errors, error)
    checked = None
    if scan is not None:
        try:
            # The quota is checked before the upload is decoded, and again
            # with the re-encoded size.
            scans.scan_quota_check(
                user=user, adding_bytes=getattr(scan, "size", None) or 0
            )
            checked = scans.scan_check(upload=scan)
            scans.scan_quota_check(user=user, adding_bytes=len(checked.data))
        except ValidationError as error:
            _merge(errors, error)
    if errors:
        raise ValidationError(errors)
    return _submission_save(
        user=user,
        game=game,
        card=card,
        card_set=card_set,
        values=values,
        source=source,
        checked=checked,
        reading=reading,
    )


@transaction.atomic
def _submission_save(
    *, user, game, card, card_set, values, source, checked, reading=False
):
    submission = CardSubmission(
        submitter=user,
        game=GameRecord.objects.get(slug=game),
        card=card,
        card_set=card_set,
        is_new=card is None,
        is_reading=reading,
        fields=values,
        source=source,
    )
    submission.full_clean()
    submission.save()
    if checked is not None:
        scan_create(user=user, checked=checked, card=card, submission=submission)
    return submission


def scan_create(
    *, user, checked: scans.CheckedScan, card=None, submission=None
) -> Scan:
    """Store a checked scan (pending review); remove its files if the row fails."""
    image, thumb = scans.scan_write_files(checked=checked)
    try:
        with transaction.atomic():
            scan = Scan(
                uploader=user,
                card=card,
                submission=submission,
                image=image,
                thumbnail=thumb,
                image_format=checked.image_format,
                width=checked.width,
                height=checked.height,
                size_bytes=len(checked.data),
            )
            scan.full_clean()
            scan.save()
    except Exception:
        scans.scan_delete_files(names=(image, thumb))
        raise
    return scan


def _claim(submission: CardSubmission, moderator, status: str, **extra) -> None:
    """Move a pending submission to ``status``; refuse if someone got there first."""
    claimed = CardSubmission.objects.filter(
        pk=submission.pk, status=ReviewStatus.PENDING
    ).update(status=status, reviewer=moderator, reviewed_at=timezone.now(), **extra)
    if claimed != 1:
        current = (
            CardSubmission.objects.filter(pk=submission.pk)
            .values_list("status", flat=True)
            .first()
        )
        raise ValidationError(
            f"This submission was already reviewed ({current or 'removed'}).",
            code="not_pending",
        )


@transaction.atomic
def card_submission_accept(
    *,
    submission: CardSubmission,
    moderator,
    verification: str = Verification.UNVERIFIED,
    note: str = "",
) -> Card:
    """Apply a pending submission to its card (or make the new card), once."""
    _require_moderator(moderator)
    if verification not in Verification.values:
        choices = ", ".join(Verification.values)
        raise ValidationError({"verification": f"Choose one of: {choices}."})
    note = (note or "").strip()[:MAX_REASON_CHARS]
    _claim(submission, moderator, ReviewStatus.ACCEPTED, verification=verification,
           reason=note)  # fmt: skip
    submission.refresh_from_db()
    values = {**submission.fields, "verification": verification}
    if submission.is_new:
        values.setdefault("source", submission.source)
        card, old = None, None
    else:
        card = Card.objects.select_for_update().get(pk=submission.card_id)
        old = card_values(card)
    built = _build_card(card=card, card_set=submission.card_set, values=values)
    by = submission.submitter.get_username()
    card_save(
        card=built,
        user=submission.submitter,
        source=f"Submission #{submission.pk} by {by}, accepted by "
        f"{moderator.get_username()}: {submission.source}",
        old=old,
        submission=submission,
        checked=True,
    )
    if submission.is_new:
        CardSubmission.objects.filter(pk=submission.pk).update(card=built)
        submission.card = built
    submission.scans.filter(status=ReviewStatus.PENDING).update(
        status=ReviewStatus.ACCEPTED, card=built, reviewed_at=timezone.now()
    )
    if verification == Verification.VERIFIED:
        # A moderator's check is the highest level: it settles the fields.
        built.field_verifications.filter(field__in=list(submission.fields)).delete()
    return built


@transaction.atomic
def card_submission_reject(
    *, submission: CardSubmission, moderator, reason: str
) -> None:
    """Reject a pending submission with a reason; its scans are deleted."""
    _require_moderator(moderator)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": "Say why the submission is rejected."})
    if len(reason) > MAX_REASON_CHARS:
        raise ValidationError(
            {"reason": f"Keep the reason under {MAX_REASON_CHARS} characters."}
        )
    _claim(submission, moderator, ReviewStatus.REJECTED, reason=reason)
    names = []
    for scan in submission.scans.all():
        names += [scan.image.name, scan.thumbnail.name]
    submission.scans.update(
        status=ReviewStatus.REJECTED, image="", thumbnail="", reviewed_at=timezone.now()
    )
    transaction.on_commit(lambda: scans.scan_delete_files(names=names))


def submission_diff(*, submission: CardSubmission) -> list[dict]:
    """Return one row per proposed field: its label, current and proposed values."""
    current = card_values(submission.card) if submission.card_id else None
    if submission.status == ReviewStatus.ACCEPTED and submission.is_new:
        current = None
    rows = []
    for name in submission_fields(submission.game.slug):
        if name not in submission.fields:
            continue
        proposed = submission.fields[name]
        before = current.get(name) if current is not None else None
        rows.append(
            {
                "field": name,
                "label": field_label(name),
                "current": before,
                "proposed": proposed,
                "changed": current is None or before != proposed,
            }
        )
    return rows


def field_label(name: str) -> str:
    """Return a field's human name."""
    return str(Card._meta.get_field(name).verbose_name).capitalize()


# --- custom cards -----------------------------------------------------------------


def _unique_set_slug(game: GameRecord, name: str, user) -> str:
    base = f"custom-{user.pk}-{slugify(name)[:30] or 'set'}"
    slug, n = base, 1
    while CardSet.objects.filter(game=game, slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def custom_set_create(
    *, user, game: str, name: str, is_public: bool = False, notes: str = ""
) -> CardSet:
    """Make a custom set of ``user``'s own cards for ``game`` (private by default)."""
    if user is None or not user.is_authenticated:
        raise PermissionDenied("Sign in to make custom cards.")
    game_row = GameRecord.objects.filter(slug=game).first()
    if game_row is None:
        raise ValidationError({"game": f'Unknown game "{str(game)[:40]}".'})
    name = (name or "").strip()
    card_set = CardSet(
        game=game_row,
        slug=_unique_set_slug(game_row, name, user),
        name=name,
        kind=SetKind.CUSTOM,
        owner=user,
        is_public=is_public,
        notes=notes,
        source=f"Custom cards made by {user.get_username()}; not a printed product.",
    )
    card_set.full_clean()
    card_set.save()
    return card_set


def _require_owner(user, card_set: CardSet) -> None:
    if card_set.kind != SetKind.CUSTOM or card_set.owner_id != getattr(
        user, "pk", None
    ):
        raise PermissionDenied("Only the owner of a custom set changes its cards.")


def _refuse_census_set(card_set: CardSet) -> None:
    """A pack census's cards follow its counts: they change on the census page."""
    if Census.objects.filter(card_set=card_set).exists():
        raise ValidationError(
            "These cards are your Collide-O! pack census: change them on the "
            "census page (+1 and -1), which keeps your census deck the same."
        )


@transaction.atomic
def custom_set_update(
    *, user, card_set: CardSet, name: str, is_public: bool, notes: str = ""
) -> CardSet:
    """Rename a custom set or change who may see it; its other fields stay as stored."""
    _require_owner(user, card_set)
    locked = CardSet.objects.select_for_update().get(pk=card_set.pk)
    locked.name = (name or "").strip()
    locked.is_public = is_public
    locked.notes = notes
    locked.full_clean()
    locked.save(update_fields=["name", "is_public", "notes"])
    return locked


def _next_key(card_set: CardSet) -> str:
    taken = set(card_set.cards.values_list("key", flat=True))
    n = card_set.cards.count() + 1
    while str(n) in taken:
        n += 1
    return str(n)


@transaction.atomic
def custom_card_create(*, user, card_set: CardSet, fields: dict) -> Card:
    """Add a card to ``user``'s custom set, checked by the game's rules."""
    _require_owner(user, card_set)
    _refuse_census_set(card_set)
    values, errors = _clean_fields(card_set.game.slug, fields)
    if errors:
        raise ValidationError(errors)
    values.setdefault("key", _next_key(card_set))
    if values.get("number") is None and values["key"].isdigit():
        values["number"] = int(values["key"])
    values.setdefault(
        "source", f"Custom card by {user.get_username()}; not a printed product."
    )
    values["distribution"] = Distribution.CUSTOM
    values["verification"] = Verification.UNVERIFIED
    card = _build_card(card=None, card_set=card_set, values=values)
    return card_save(
        card=card, user=user, source="Custom card made by its owner", checked=True
    )


@transaction.atomic
def custom_card_update(*, user, card: Card, fields: dict) -> Card:
    """Change fields of one of ``user``'s custom cards, recording the history."""
    _require_owner(user, card.card_set)
    _refuse_census_set(card.card_set)
    values, errors = _clean_fields(card.card_set.game.slug, fields)
    values.pop("distribution", None)
    if errors:
        raise ValidationError(errors)
    locked = Card.objects.select_for_update().get(pk=card.pk)
    old = card_values(locked)
    built = _build_card(card=locked, card_set=None, values=values)
    return card_save(
        card=built, user=user, source="Edited by its owner", old=old, checked=True
    )


@transaction.atomic
def custom_card_delete(*, user, card: Card) -> None:
    """Delete one of ``user``'s custom cards (collection entries and deck slots go)."""
    _require_owner(user, card.card_set)
    _refuse_census_set(card.card_set)
    card.delete()


# --- help wanted ------------------------------------------------------------------


def unknown_fields(card: Card) -> list[str]:
    """Return the fields of ``card`` that nobody has recorded (not-printed excluded)."""
    names = type_fields(card.card_set.game.slug, card.card_type)
    return [name for name in names if card.is_unknown(name)]


def with_demand(cards):
    """Annotate cards with how many wishlists, collections and decks name them.

    A deck naming a card whose play data is unknown cannot be playtested: for
    the help-wanted rows (cards with unknown fields) ``decks`` counts the decks
    such a card blocks.
    """
    return cards.annotate(
        wishlists=Count(
            "collection_entries__user",
            filter=Q(collection_entries__wanted_quantity__gt=0),
            distinct=True,
        ),
        collections=Count(
            "collection_entries__user",
            filter=Q(collection_entries__quantity__gt=0),
            distinct=True,
        ),
        decks=Count("deck_entries__deck", distinct=True),
    )


def help_wanted(*, game: GameRecord, card_set: CardSet | None = None,
                include_practice: bool = False) -> list[dict]:  # fmt: skip
    """Return, per set, the cards with unknown fields or not yet verified.

    Official sets only unless ``include_practice``; custom sets never.
    """
    kinds = [SetKind.OFFICIAL] + ([SetKind.PRACTICE] if include_practice else [])
    sets = CardSet.objects.filter(game=game, kind__in=kinds).select_related("game")
    if card_set is not None:
        sets = sets.filter(pk=card_set.pk)
    result = []
    for each in sets:
        cards = list(with_demand(each.cards.select_related("card_set__game")))
        rows, field_counts = [], {}
        for card in cards:
            missing = unknown_fields(card)
            for name in missing:
                field_counts[name] = field_counts.get(name, 0) + 1
            if missing or card.verification != Verification.VERIFIED:
                rows.append(
                    {
                        "card": card,
                        "unknown": [field_label(n) for n in missing],
                        "unknown_fields": missing,
                        "demand": card.wishlists + card.collections + card.decks,
                    }
                )
        # The cards most people want, own or play come first; then number order.
        rows.sort(key=lambda row: -row["demand"])
        result.append(
            {
                "set": each,
                "total": len(cards),
                # An official set nobody has recorded a card of: which cards it
                # holds is not known (not "every card recorded and verified").
                "unknown_set": not cards and each.is_official,
                "complete": sum(1 for c in cards if not unknown_fields(c)),
                "unverified": sum(
                    c.verification == Verification.UNVERIFIED for c in cards
                ),
                "disputed": sum(c.verification == Verification.DISPUTED for c in cards),
                "field_counts": sorted(
                    ((field_label(n), count) for n, count in field_counts.items()),
                    key=lambda pair: -pair[1],
                ),
                "rows": rows,
            }
        )
    return result


# --- whole-set imports --------------------------------------------------------------


@transaction.atomic
def card_data_import_prepare(*, user, text: str, label: str, game: str | None = None):
    """Check an uploaded data file and keep it for a preview; return the import."""
    _require_moderator(user)
    if len(text.encode("utf-8")) > MAX_IMPORT_BYTES:
        raise ValidationError(
            {"file": f"The file is over {MAX_IMPORT_BYTES // 1_048_576} MB."}
        )
    data = card_data_parse(text=text)
    card_data_diff(data=data, game=game)  # raises CardDataError with every problem
    # One waiting import per moderator keeps the stored text bounded.
    CardDataImport.objects.filter(user=user).delete()
    data_import = CardDataImport(user=user, label=(label or "upload")[:200], text=text)
    data_import.full_clean()
    data_import.save()
    return data_import


@transaction.atomic
def card_data_import_discard(*, data_import: CardDataImport, user) -> None:
    """Drop a waiting data file without applying it; no card changes."""
    _require_moderator(user)
    if data_import.user_id != user.pk:
        raise PermissionDenied("This import belongs to someone else.")
    data_import.delete()


def card_data_import_preview(*, data_import: CardDataImport):
    """Return the changes applying ``data_import`` would make now."""
    return card_data_diff(data=card_data_parse(text=data_import.text))


@transaction.atomic
def card_data_import_apply(*, data_import: CardDataImport, user) -> LoadResult:
    """Apply a previewed data file all or nothing, recording each card's history."""
    _require_moderator(user)
    locked = CardDataImport.objects.select_for_update().filter(pk=data_import.pk)
    if not locked.exists():
        raise ValidationError("This import was already applied or cancelled.")
    result = card_data_load(
        data=card_data_parse(text=data_import.text),
        source_label=f"Data file {data_import.label} "
        f"(imported by {user.get_username()})",
        user=user,
    )
    locked.delete()
    return result
