"""Card history: the one way a card's change is recorded as a ``CardChange`` row.

Every write of a card (the admin, moderators accepting submissions, owners of
custom cards, data files) records who, when, from where, and field by field
old -> new through ``card_history_row``; single saves go through ``card_save``.
"""

from django.db import transaction

from .models import Card, CardChange

_NOT_DATA = {"id", "card_set", "file_values", "created_at", "updated_at"}
CARD_DATA_FIELDS = tuple(
    f.name for f in Card._meta.concrete_fields if f.name not in _NOT_DATA
)


def card_values(card: Card) -> dict:
    """Return every data field of ``card``."""
    return {name: getattr(card, name) for name in CARD_DATA_FIELDS}


def values_diff(old: dict | None, new: dict) -> list[dict]:
    """Return the changed fields as [{"field", "old", "new"}] (all set ones if new)."""
    if old is None:
        return [
            {"field": name, "old": None, "new": value}
            for name, value in new.items()
            if value not in (None, "", [])
        ]
    return [
        {"field": name, "old": old.get(name), "new": value}
        for name, value in new.items()
        if old.get(name) != value
    ]


def card_history_row(
    *,
    card: Card,
    user,
    source: str,
    old: dict | None,
    new: dict | None = None,
    submission=None,
    unchanged: bool = False,
) -> CardChange | None:
    """Return the unsaved history row of ``card`` since ``old``.

    None if nothing changed, unless ``unchanged`` asks for a row anyway (a
    dispute recorded in ``source``, say).
    """
    changes = values_diff(old, new if new is not None else card_values(card))
    if old is not None and not changes and not unchanged:
        return None
    return CardChange(
        card=card,
        user=user if user is not None and user.is_authenticated else None,
        submission=submission,
        created=old is None,
        changes=changes,
        source=source,
    )


def card_history_record(**fields) -> CardChange | None:
    """Save the history row of one card change (see ``card_history_row``)."""
    row = card_history_row(**fields)
    if row is not None:
        row.save()
    return row


@transaction.atomic
def card_save(
    *,
    card: Card,
    user,
    source: str,
    old: dict | None = None,
    submission=None,
    checked: bool = False,
) -> Card:
    """Check and save a new or changed card, and record its history row.

    ``old`` is the card's values before the change; when not given for a card
    already stored, they are read (locked) from the database. ``checked`` says
    the caller has just run ``full_clean`` on this very instance.
    """
    if old is None and card.pk is not None:
        stored = Card.objects.select_for_update().filter(pk=card.pk).first()
        old = card_values(stored) if stored is not None else None
    if not checked:
        card.full_clean()
    card.save()
    card_history_record(
        card=card, user=user, source=source, old=old, submission=submission
    )
    return card
