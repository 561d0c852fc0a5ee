"""Writes to collections: entries, one-click changes, imports and share links.

Every function here is keyword-only and atomic; views, the API, the admin and
tests all go through them.
"""

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.db.models.functions import Least

from .choices import Condition, Finish, ImportMode, Language
from .models import (
    VARIANT_FIELDS,
    CollectionEntry,
    ImportPreview,
    ShareLink,
    grade_key,
)

DEFAULT_VARIANT = {
    "condition": Condition.NEAR_MINT,
    "finish": Finish.NORMAL,
    "language": Language.ENGLISH,
    "grading_company": "",
    "grade": None,
    "g_power": None,
}
EDITABLE_FIELDS = (
    *VARIANT_FIELDS,
    "quantity",
    "wanted_quantity",
    "trade_quantity",
    "notes",
)


def _is_empty(entry: CollectionEntry) -> bool:
    return entry.quantity == 0 and entry.wanted_quantity == 0 and not entry.notes


@transaction.atomic
def collection_entry_save(*, entry: CollectionEntry) -> CollectionEntry:
    """Check and save one new or changed collection entry."""
    entry.full_clean()
    entry.save()
    return entry


@transaction.atomic
def collection_entry_create(*, user, card, **fields) -> CollectionEntry:
    """Create one collection entry of ``user`` for ``card``."""
    unknown = set(fields) - set(EDITABLE_FIELDS)
    if unknown:
        raise TypeError(f"Unknown entry fields: {', '.join(sorted(unknown))}")
    entry = CollectionEntry(user=user, card=card, **{**DEFAULT_VARIANT, **fields})
    return collection_entry_save(entry=entry)


@transaction.atomic
def collection_entry_update(*, entry: CollectionEntry, **fields) -> CollectionEntry:
    """Change the given fields of one entry, and no other.

    The entry is read again under its row lock, so a change made since
    ``entry`` was read (a one-click +1, another edit) is kept, not overwritten
    with the old copy's values.
    """
    unknown = set(fields) - set(EDITABLE_FIELDS)
    if unknown:
        raise TypeError(f"Unknown entry fields: {', '.join(sorted(unknown))}")
    try:
        locked = CollectionEntry.objects.select_for_update(of=("self",)).get(
            pk=entry.pk, user_id=entry.user_id
        )
    except CollectionEntry.DoesNotExist:
        raise ValidationError(
            "This entry was deleted in the meantime.", code="entry_gone"
        ) from None
    for name, value in fields.items():
        setattr(locked, name, value)
    locked.full_clean()
    locked.save(update_fields=[*fields, "updated_at"])
    return locked


@transaction.atomic
def collection_entry_delete(*, entry: CollectionEntry) -> None:
    """Delete one entry."""
    entry.delete()


def _pick_entry(*, user, card, field: str, removing: bool, variant: dict | None):
    # The default ordering joins the card and its set; lock the entries alone.
    entries = CollectionEntry.objects.select_for_update(of=("self",)).filter(
        user=user, card=card
    )
    if variant is not None:
        return entries.filter(**_variant_lookup(variant)).first()
    default = entries.filter(**_variant_lookup(DEFAULT_VARIANT)).first()
    if not removing or (default is not None and getattr(default, field) > 0):
        return default
    # Removing with nothing in the default variant: take it from the variant
    # touched last, which is most likely the one the user just added.
    return entries.filter(**{f"{field}__gt": 0}).order_by("-updated_at", "-id").first()


def _variant_lookup(variant: dict) -> dict:
    lookup = {k: variant.get(k, DEFAULT_VARIANT[k]) for k in VARIANT_FIELDS}
    for name in ("grade", "g_power"):
        if lookup[name] is None:
            lookup[f"{name}__isnull"] = True
            del lookup[name]
    return lookup


@transaction.atomic
def collection_change_quantity(
    *,
    user,
    card,
    owned_delta: int = 0,
    wanted_delta: int = 0,
    variant: dict | None = None,
) -> CollectionEntry | None:
    """Add or remove owned or wanted copies of ``card``; return the entry changed.

    With no ``variant``, copies are added to the default variant (Near Mint,
    normal, English, ungraded) and removed from it, or from the variant
    changed last when the default holds none. The change is an atomic
    increment, so concurrent changes all apply.
    """
    if owned_delta and wanted_delta:
        raise ValueError("Change owned or wanted copies, not both at once.")
    field = "quantity" if owned_delta else "wanted_quantity"
    delta = owned_delta or wanted_delta
    if delta == 0:
        return None
    entry = _pick_entry(
        user=user, card=card, field=field, removing=delta < 0, variant=variant
    )
    if entry is None:
        if delta < 0:
            noun = "copies" if field == "quantity" else "wanted copies"
            raise ValidationError(
                {field: f"There are no {noun} of this card to remove."},
                code="nothing_to_remove",
            )
        fields = {**DEFAULT_VARIANT, **(variant or {}), field: delta}
        try:
            with transaction.atomic():
                return collection_entry_create(user=user, card=card, **fields)
        except (IntegrityError, ValidationError):
            # Another request created the row between our read and insert
            # (PostgreSQL; SQLite's IMMEDIATE transactions serialise writers):
            # full_clean() reports it as a uniqueness error, the insert as an
            # IntegrityError. Either way, add to the row that won.
            entry = _pick_entry(
                user=user, card=card, field=field, removing=False, variant=variant
            )
            if entry is None:
                raise
    if getattr(entry, field) + delta < 0:
        raise ValidationError(
            {field: f"Only {getattr(entry, field)} to remove."}, code="not_enough"
        )
    changes = {field: F(field) + delta}
    if field == "quantity" and delta < 0:
        # Copies offered for trade cannot outnumber the copies left.
        changes["trade_quantity"] = Least(F("trade_quantity"), F("quantity") + delta)
    updated = CollectionEntry.objects.filter(
        pk=entry.pk, **{f"{field}__gte": -delta} if delta < 0 else {}
    ).update(**changes)
    if not updated:
        raise ValidationError({field: "Nothing left to remove."}, code="not_enough")
    entry.refresh_from_db()
    if _is_empty(entry):
        entry.delete()
        return None
    return entry


@transaction.atomic
def collection_clear_wanted(*, user, card) -> int:
    """Take ``card`` off the wishlist in every variant; return how many entries changed."""
    entries = CollectionEntry.objects.filter(
        user=user, card=card, wanted_quantity__gt=0
    )
    changed = entries.update(wanted_quantity=0)
    CollectionEntry.objects.filter(
        user=user, card=card, quantity=0, wanted_quantity=0, notes=""
    ).delete()
    return changed


# -- Imports -----------------------------------------------------------------


def _row_key(row: dict) -> tuple:
    return (
        row["card_id"],
        row["condition"],
        row["finish"],
        row["language"],
        row["grading_company"],
        grade_key(row.get("grade")),
        row.get("g_power"),
    )


def _entry_key(entry: CollectionEntry) -> tuple:
    return (
        entry.card_id,
        entry.condition,
        entry.finish,
        entry.language,
        entry.grading_company,
        grade_key(entry.grade),
        entry.g_power,
    )


def _counts(obj) -> dict:
    if isinstance(obj, CollectionEntry):
        return {
            "quantity": obj.quantity,
            "wanted_quantity": obj.wanted_quantity,
            "trade_quantity": obj.trade_quantity,
            "notes": obj.notes,
        }
    return {
        k: obj[k] for k in ("quantity", "wanted_quantity", "trade_quantity", "notes")
    }


def import_plan(*, user, rows: list[dict], mode: str) -> list[dict]:
    """Return the changes applying ``rows`` would make to ``user``'s collection."""
    current = {_entry_key(e): e for e in CollectionEntry.objects.filter(user=user)}
    changes = []
    seen = set()
    for row in rows:
        key = _row_key(row)
        seen.add(key)
        entry = current.get(key)
        after = _counts(row)
        if entry is None:
            # A row with notes alone is kept, as an entry with notes is kept.
            if not (after["quantity"] or after["wanted_quantity"] or after["notes"]):
                continue
            changes.append(
                {"action": "create", "key": list(key), "before": None, "after": after}
            )
            continue
        before = _counts(entry)
        if mode == ImportMode.ADD:
            after = {
                "quantity": before["quantity"] + after["quantity"],
                "wanted_quantity": before["wanted_quantity"] + after["wanted_quantity"],
                "trade_quantity": before["trade_quantity"] + after["trade_quantity"],
                "notes": before["notes"] or after["notes"],
            }
        if after == before:
            continue
        action = "update"
        if (
            after["quantity"] == 0
            and after["wanted_quantity"] == 0
            and not after["notes"]
        ):
            action = "delete"
        changes.append(
            {"action": action, "key": list(key), "before": before, "after": after}
        )
    if mode == ImportMode.REPLACE:
        for key, entry in current.items():
            if key not in seen:
                changes.append(
                    {
                        "action": "delete",
                        "key": list(key),
                        "before": _counts(entry),
                        "after": None,
                    }
                )
    return changes


@transaction.atomic
def collection_import_prepare(
    *, user, rows: list[dict], mode: str, source: str = ""
) -> ImportPreview:
    """Store checked import rows and the changes they would make, for a preview."""
    if mode not in ImportMode.values:
        raise ValidationError({"mode": "Choose add or replace."}, code="bad_mode")
    # One pending import per user is enough; older previews are dropped.
    ImportPreview.objects.filter(user=user).delete()
    preview = ImportPreview(
        user=user,
        mode=mode,
        source=source[:200],
        rows=rows,
        changes=import_plan(user=user, rows=rows, mode=mode),
    )
    preview.full_clean()
    preview.save()
    return preview


class StalePreview(Exception):
    """The collection changed after the preview was made."""


class PreviewGone(Exception):
    """The preview was already applied or discarded (another tab, a double click)."""


def collection_import_apply(*, user, preview: ImportPreview) -> dict:
    """Apply a previewed import whole, or nothing; return counts by action.

    Raises StalePreview (with the preview updated to the new changes) when the
    collection changed after the preview was made, and PreviewGone when another
    request applied or discarded it first.
    """
    if preview.user_id != user.pk:
        raise ValidationError("This import belongs to someone else.", code="not_owner")
    with transaction.atomic():
        # The row lock makes a second apply of one preview wait, then find it gone.
        if not ImportPreview.objects.select_for_update().filter(pk=preview.pk).exists():
            raise PreviewGone
        # Lock the entries the plan reads: a one-click change landing between
        # the plan and its writes would otherwise be overwritten (PostgreSQL).
        list(
            CollectionEntry.objects.select_for_update()
            .filter(user=user)
            .order_by()
            .values_list("pk", flat=True)
        )
        changes = import_plan(user=user, rows=preview.rows, mode=preview.mode)
        if changes == preview.changes:
            return _apply_changes(user=user, preview=preview, changes=changes)
        preview.changes = changes
        preview.save(update_fields=["changes"])
    raise StalePreview


@transaction.atomic
def collection_import_discard(*, user, preview: ImportPreview) -> None:
    """Drop a previewed import without applying it; the collection is unchanged."""
    if preview.user_id != user.pk:
        raise ValidationError("This import belongs to someone else.", code="not_owner")
    preview.delete()


def _apply_changes(*, user, preview: ImportPreview, changes: list[dict]) -> dict:
    current = {_entry_key(e): e for e in CollectionEntry.objects.filter(user=user)}
    to_create, to_update, to_delete = [], [], []
    for change in changes:
        key = tuple(change["key"])
        if change["action"] == "delete":
            to_delete.append(current[key].pk)
            continue
        if change["action"] == "create":
            card_id, condition, finish, language, company, grade, g_power = key
            entry = CollectionEntry(
                user=user,
                card_id=card_id,
                condition=condition,
                finish=finish,
                language=language,
                grading_company=company,
                grade=Decimal(grade) if grade is not None else None,
                g_power=g_power,
                **change["after"],
            )
            to_create.append(entry)
        else:
            entry = current[key]
            for name, value in change["after"].items():
                setattr(entry, name, value)
            to_update.append(entry)
        # Rows were checked one by one when the file was read; uniqueness holds
        # by construction (one change per variant key), so skip its queries.
        entry.full_clean(
            exclude=["user", "card"], validate_unique=False, validate_constraints=False
        )
    CollectionEntry.objects.filter(pk__in=to_delete).delete()
    CollectionEntry.objects.bulk_create(to_create, batch_size=500)
    CollectionEntry.objects.bulk_update(
        to_update,
        ["quantity", "wanted_quantity", "trade_quantity", "notes"],
        batch_size=500,
    )
    preview.delete()
    return {
        "created": len(to_create),
        "updated": len(to_update),
        "deleted": len(to_delete),
    }


# -- Sharing -----------------------------------------------------------------


@transaction.atomic
def share_link_enable(*, user, kind: str) -> ShareLink:
    """Share one of ``user``'s lists read-only; return the (new or existing) link."""
    link = ShareLink.objects.filter(user=user, kind=kind).first()
    if link is not None:
        return link
    link = ShareLink(user=user, kind=kind)
    link.full_clean()
    link.save()
    return link


@transaction.atomic
def share_link_disable(*, user, kind: str) -> bool:
    """Stop sharing one list; its old link then answers 404."""
    deleted, _ = ShareLink.objects.filter(user=user, kind=kind).delete()
    return bool(deleted)
