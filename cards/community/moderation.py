"""Moderation of accounts: every card change one account caused, and its roll-back.

An account changes shared cards in two ways: its readings confirm a field when
another account's agree (a ``FieldVerification`` row naming the readings, and
the card's history row written in the same transaction), and its proposals
change a card when a moderator accepts them (history rows naming the
submission). Both are read from those rows, not from how readings are settled,
so the rules for confirming can change without changing this module. Custom
cards are the account's own: they are listed, never rolled back.

A roll-back restores each changed field to its value before the account's
change, unless a later change by someone else touched the field (that field is
left and reported), removes the account's readings from every confirmation and
dispute (a confirmation or dispute that no longer has two other accounts behind
it goes), rejects the account's pending readings and proposals, marks its
accepted proposals as rolled back, and records one history row per card naming
the moderator.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from ..choices import SetKind, Verification
from ..history import card_history_record, card_save, card_values
from ..models import Card, CardChange, CardSubmission, FieldVerification, ReviewStatus
from .readings import _all_known_confirmed
from .services import _require_moderator, card_submission_reject, field_label

READING, PROPOSAL = "reading", "proposal"
# Agreement needs two accounts: with fewer left, a confirmation or dispute goes.
ACCOUNTS_TO_AGREE = 2


@dataclass(frozen=True)
class FieldChange:
    card: Card
    field: str
    old: object
    new: object
    how: str
    row: CardChange

    @property
    def label(self) -> str:
        return field_label(self.field)


@dataclass
class AccountChanges:
    account: object
    fields: list[FieldChange] = field(default_factory=list)
    confirmations: list[FieldVerification] = field(default_factory=list)
    pending: list[CardSubmission] = field(default_factory=list)
    accepted: list[CardSubmission] = field(default_factory=list)
    new_cards: list[Card] = field(default_factory=list)
    custom_cards: list[Card] = field(default_factory=list)
    # {confirmation or dispute pk: pk of the history row that wrote it}
    settled: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class KeptField:
    card: Card
    field: str
    current: object
    reason: str


@dataclass
class RollBack:
    restored: list[FieldChange] = field(default_factory=list)
    kept: list[KeptField] = field(default_factory=list)
    confirmations_removed: int = 0
    rejected: int = 0


def _settled_row(fv: FieldVerification) -> CardChange | None:
    """Return the history row that wrote a confirmation or dispute to its card."""
    # The settling write is the first change of the field (of the card's level,
    # for a dispute) after the row was made; a first change to anything else
    # means the settling wrote nothing there.
    name, value = (
        (fv.field, fv.value)
        if fv.level == Verification.CONFIRMED
        else ("verification", Verification.DISPUTED)
    )
    later = CardChange.objects.filter(
        card_id=fv.card_id, submission__isnull=True, created_at__gte=fv.created_at
    ).order_by("created_at", "pk")
    for row in later:
        touched = [c for c in row.changes if c["field"] == name]
        if touched:
            return row if touched[0]["new"] == value else None
    return None


def _others(fv: FieldVerification, account) -> set[int]:
    """Return the other accounts whose pending readings stand behind ``fv``."""
    return {
        r.submitter_id
        for r in fv.readings.all()
        if r.submitter_id != account.pk and r.status == ReviewStatus.PENDING
    }


def account_changes(account) -> AccountChanges:
    """Return every card change ``account`` caused that is not rolled back yet."""
    found = AccountChanges(account=account)
    found.confirmations = list(
        FieldVerification.objects.filter(readings__submitter=account)
        .distinct()
        .select_related("card__card_set__game")
        .prefetch_related("readings")
        .order_by("card_id", "field")
    )
    rows: dict[int, tuple[CardChange, str]] = {}
    for fv in found.confirmations:
        row = _settled_row(fv)
        if row is not None:
            rows.setdefault(row.pk, (row, READING))
            found.settled[fv.pk] = row.pk
    found.accepted = list(
        CardSubmission.objects.filter(
            submitter=account, status=ReviewStatus.ACCEPTED
        ).order_by("created_at", "pk")
    )
    for row in CardChange.objects.filter(submission__in=found.accepted).select_related(
        "card__card_set__game"
    ):
        if row.created:
            found.new_cards.append(row.card)
        else:
            rows.setdefault(row.pk, (row, PROPOSAL))
    for row, how in sorted(rows.values(), key=lambda pair: pair[0].pk):
        for change in row.changes:
            found.fields.append(
                FieldChange(
                    row.card, change["field"], change["old"], change["new"], how, row
                )  # fmt: skip
            )
    found.pending = list(
        CardSubmission.objects.filter(submitter=account, status=ReviewStatus.PENDING)
        .select_related("card__card_set__game")
        .order_by("created_at", "pk")
    )
    found.custom_cards = list(
        Card.objects.filter(card_set__kind=SetKind.CUSTOM, card_set__owner=account)
        .select_related("card_set__game")
        .order_by("card_set_id", "number", "key")
    )
    return found


def _changed_since(change: FieldChange, mine: set[int]) -> CardChange | None:
    """Return a later history row by someone else touching the change's field."""
    for row in CardChange.objects.filter(
        card_id=change.card.pk, pk__gt=change.row.pk
    ).order_by("pk"):
        if row.pk not in mine and any(c["field"] == change.field for c in row.changes):
            return row
    return None


def _who(row: CardChange) -> str:
    return row.user.get_username() if row.user is not None else row.source[:80]


@transaction.atomic
def account_roll_back(*, moderator, account) -> RollBack:
    """Undo every card change ``account`` caused, with history naming ``moderator``."""
    _require_moderator(moderator)
    source = (
        f"{moderator.get_username()} rolled back everything "
        f"{account.get_username()} caused"
    )
    # Readings settle with their card locked: locking the account's cards first
    # keeps a reading saved meanwhile from confirming with the account's own.
    touched = CardSubmission.objects.filter(submitter=account, card__isnull=False)
    list(
        Card.objects.select_for_update()
        .filter(pk__in=touched.values("card_id"))
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    found = account_changes(account)
    result = RollBack()
    # Confirmations and disputes that still have two other accounts behind them
    # stay; their fields are not the account's doing alone.
    standing: set[tuple[int, str]] = set()
    undone: set[int] = set()
    removed_on: set[int] = set()
    for fv in found.confirmations:
        fv.readings.remove(*fv.readings.filter(submitter=account))
        if len(_others(fv, account)) >= ACCOUNTS_TO_AGREE:
            standing.add((fv.card_id, fv.field))
            continue
        if fv.pk in found.settled:
            undone.add(found.settled[fv.pk])
        fv.delete()
        result.confirmations_removed += 1
        removed_on.add(fv.card_id)
    mine = {change.row.pk for change in found.fields}
    by_card: dict[int, list[FieldChange]] = {}
    for change in found.fields:
        by_card.setdefault(change.card.pk, []).append(change)
    for pk in sorted(set(by_card) | removed_on):
        _card_roll_back(
            card_pk=pk,
            changes=by_card.get(pk, []),
            standing=standing,
            undone=undone,
            mine=mine,
            moderator=moderator,
            source=source,
            result=result,
        )
    for card in found.new_cards:
        result.kept.append(
            KeptField(
                card,
                "card",
                None,
                "A card its accepted proposal made: delete it in the admin "
                "if it is false.",
            )  # fmt: skip
        )
    for submission in found.pending:
        card_submission_reject(
            submission=submission, moderator=moderator, reason=source + "."
        )
        result.rejected += 1
    CardSubmission.objects.filter(
        pk__in=[s.pk for s in found.accepted], status=ReviewStatus.ACCEPTED
    ).update(
        status=ReviewStatus.REJECTED,
        reviewer=moderator,
        reviewed_at=timezone.now(),
        reason=source + " (it had been accepted).",
    )
    return result


def _card_roll_back(
    *, card_pk, changes, standing, undone, mine, moderator, source, result
):
    card = Card.objects.select_for_update().get(pk=card_pk)
    old = card_values(card)
    restored = []
    # Newest first, so a field the account changed twice ends at its first old value.
    for change in sorted(changes, key=lambda c: c.row.pk, reverse=True):
        current = getattr(card, change.field)
        if change.how == READING and (
            change.row.pk not in undone or (card_pk, change.field) in standing
        ):
            result.kept.append(
                KeptField(
                    card,
                    change.field,
                    current,
                    "Other accounts' readings still confirm it.",
                )  # fmt: skip
            )
            continue
        later = _changed_since(change, mine)
        if later is not None:
            result.kept.append(
                KeptField(
                    card, change.field, current, f"Changed since by {_who(later)}."
                )  # fmt: skip
            )
            continue
        setattr(card, change.field, change.old)
        restored.append(change)
    if card.verification == Verification.CONFIRMED and not _all_known_confirmed(card):
        # Its level rested on confirmations that are gone now.
        card.verification = Verification.UNVERIFIED
    try:
        with transaction.atomic():
            card.full_clean()
            if card_values(card) != old:
                card_save(card=card, user=moderator, source=source, old=old,
                          checked=True)  # fmt: skip
            else:
                # Only confirmations went: the card's history still says so.
                card_history_record(
                    card=card, user=moderator, source=source, old=old, unchanged=True
                )
    except ValidationError as error:
        stored = Card.objects.get(pk=card_pk)
        reason = "Restoring it breaks the card as it is now: " + " ".join(
            error.messages
        )
        result.kept.extend(
            KeptField(stored, c.field, getattr(stored, c.field), reason)
            for c in restored
        )
        card_history_record(
            card=stored,
            user=moderator,
            source=f"{source}; kept: {reason}",
            old=card_values(stored),
            unchanged=True,
        )
        return
    result.restored.extend(restored)
