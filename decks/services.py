"""Writes on decks: create, update, entries, clone, import; each save keeps a version.

Every function is keyword-only and atomic, and calls ``full_clean`` before saving,
so a bad entry (unknown card, card of another game, bad zone, bad quantity) writes
nothing. Views, the API, the admin and the tests all call these.
"""

from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from cards.choices import SetKind
from cards.models import Card, GameRecord
from cards.safejson import MAX_INT
from collection.models import CollectionEntry
from collection.selectors import counts_for_cards
from collection.services import collection_change_quantity

from .choices import MAX_ENTRIES, MAX_QUANTITY, default_zone, zones_for
from .models import Deck, DeckEntry, DeckVersion, slot_problem
from .text_io import LineError, parse_decklist


def _snapshot(deck: Deck) -> list[dict]:
    entries = deck.entries.select_related("card").order_by("zone", "card_id")
    return [
        {
            "card": e.card_id,
            "zone": e.zone,
            "quantity": e.quantity,
            "name": e.card.display_name,
            # A slot's G-Power and named copy are kept only where a slot has them.
            **({"g_power": e.g_power} if e.g_power is not None else {}),
            **({"copy": e.copy_id} if e.copy_id is not None else {}),
        }
        for e in entries
    ]


# One-card edits (the editor's +1/-1 clicks) within this long of a version's
# start are that version, not a version each; whole saves always make a new one.
MERGE_WINDOW = timedelta(minutes=5)


def deck_version_record(*, deck: Deck, merge: bool = False) -> DeckVersion:
    """Store the deck as it is now as its next numbered version.

    With ``merge``, an edit within ``MERGE_WINDOW`` of the latest version's start
    rewrites that version instead (never the first: the deck as it was made).
    """
    if merge:
        latest = deck.versions.order_by("-number").first()
        if (
            latest is not None
            and latest.number > 1
            and latest.created_at >= timezone.now() - MERGE_WINDOW
        ):
            latest.name, latest.notes = deck.name, deck.notes
            latest.entries = _snapshot(deck)
            latest.full_clean()
            latest.save(update_fields=["name", "notes", "entries"])
            return latest
    last = deck.versions.aggregate(n=Max("number"))["n"] or 0
    version = DeckVersion(
        deck=deck,
        number=last + 1,
        name=deck.name,
        notes=deck.notes,
        entries=_snapshot(deck),
    )
    version.full_clean()
    version.save()
    return version


def _quantity(value: Any, where: str) -> tuple[int | None, str | None]:
    if isinstance(value, bool):
        return None, f"{where}: the quantity must be a whole number."
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None, f"{where}: the quantity must be a whole number."
    if isinstance(value, float) and value != number:
        return None, f"{where}: the quantity must be a whole number."
    if number < 1:
        return None, f"{where}: the quantity must be at least 1."
    if number > MAX_QUANTITY:
        return None, f"{where}: at most {MAX_QUANTITY} copies per entry."
    return number, None


def _slot_value(value: Any, where: str) -> tuple[int | None, str | None]:
    if value is None or value == "":
        return None, None
    if isinstance(value, bool) or not isinstance(value, int):
        return None, f"{where}: the G-Power must be a whole number."
    return value, None


def _copy_id(value: Any) -> int | None:
    """Return a copy's id given as an entry or a whole number (None otherwise)."""
    if isinstance(value, CollectionEntry):
        return value.pk
    if isinstance(value, int) and not isinstance(value, bool) and 0 < value <= MAX_INT:
        return value
    return None


def _entry_row(entry: DeckEntry, *, keep_copy: bool = True) -> dict:
    """Return a saved entry as plain input that saves back the same slot.

    A slot naming a copy that still gives a G-Power names it again (and plays
    its value as it is now); otherwise the slot keeps the value saved with it.
    """
    row = {"card": entry.card_id, "zone": entry.zone, "quantity": entry.quantity}
    copy = entry.named_copy() if keep_copy else None
    if copy is not None:
        row["copy"] = copy.pk
    else:
        row["g_power"] = entry.play_g_power()
    return row


def deck_entries_check(*, deck: Deck, entries: Iterable[dict]) -> list[DeckEntry]:
    """Return unsaved entries for ``deck`` from plain input, or raise every problem.

    An entry may give a ``g_power`` (typed) or a ``copy`` (the id of one of the
    owner's collection entries), for a game whose copies each print a value;
    entries of one card and zone are merged by that value.
    """
    entries = list(entries)
    zones = zones_for(deck.game.slug)
    errors: list[str] = []
    if len(entries) > MAX_ENTRIES:
        raise ValidationError(
            {"entries": f"A deck lists at most {MAX_ENTRIES} entries."},
            code="too_many_entries",
        )
    found, copies = _entry_cards(deck, entries), _entry_copies(deck, entries)
    merged: dict[tuple[int, str, int | None], DeckEntry] = {}
    for index, item in enumerate(entries, start=1):
        where = f"Entry {index}"
        read = _entry_read(deck, zones, item, where, found, copies)
        if isinstance(read, str):
            errors.append(read)
            continue
        card, zone, quantity, g_power, copy = read
        key = (card.pk, zone, g_power)
        if key in merged:
            merged[key].quantity += quantity
            merged[key].copy = merged[key].copy or copy
            if merged[key].quantity > MAX_QUANTITY:
                errors.append(f"{where}: at most {MAX_QUANTITY} copies per entry.")
        else:
            merged[key] = DeckEntry(
                deck=deck,
                card=card,
                zone=zone,
                quantity=quantity,
                g_power=g_power,
                copy=copy,
            )
            merged[key].where = where
    for entry in merged.values():
        problem = slot_problem(entry)
        if problem:
            errors.append(f"{entry.where}: {problem[2]}")
    if errors:
        raise ValidationError({"entries": errors}, code="bad_entries")
    return list(merged.values())


def _entry_cards(deck: Deck, entries: list) -> dict[int, Card]:
    """Return the cards the entries name that the deck's owner may see, by id."""
    wanted_ids = set()
    for item in entries:
        card = item.get("card") if isinstance(item, dict) else None
        if isinstance(card, Card):
            wanted_ids.add(card.pk)
        elif isinstance(card, int) and not isinstance(card, bool):
            wanted_ids.add(card)
    cards = Card.objects.visible_to(deck.owner).select_related("card_set__game")
    return {c.pk: c for c in cards.filter(pk__in=wanted_ids)}


def _entry_copies(deck: Deck, entries: list) -> dict[int, CollectionEntry]:
    """Return the owner's collection entries the entries name as copies, by id."""
    copy_ids = {
        _copy_id(item.get("copy")) for item in entries if isinstance(item, dict)
    } - {None}
    # Only the owner's copies are found: another collector's copy is no copy.
    return {
        c.pk: c
        for c in CollectionEntry.objects.filter(user=deck.owner, pk__in=copy_ids)
    }


def _entry_read(deck: Deck, zones, item, where: str, found: dict, copies: dict):
    """Return one entry's card, zone, quantity, G-Power and copy, or its problem (a str)."""
    game = deck.game
    if not isinstance(item, dict):
        return f"{where}: expected card, quantity and zone."
    raw = item.get("card")
    card_id = raw.pk if isinstance(raw, Card) else raw
    card = found.get(card_id) if isinstance(card_id, int) else None
    if card is None:
        return f"{where}: there is no card with id {card_id!r}."
    if card.card_set.game_id != game.pk:
        return (
            f"{where}: {card.display_name} is a {card.card_set.game.name} card, "
            f"not a {game.name} card."
        )
    zone = item.get("zone") or default_zone(game.slug, card.card_type)
    if zone not in zones:
        return (
            f"{where}: {zone!r} is not a zone of a {game.name} deck "
            f"({', '.join(zones)})."
        )
    quantity, error = _quantity(item.get("quantity", 1), where)
    if error:
        return error
    g_power, error = _slot_value(item.get("g_power"), where)
    if error:
        return error
    copy = None
    if item.get("copy") is not None:
        copy = copies.get(_copy_id(item.get("copy")))
        if copy is None:
            return (
                f"{where}: there is no copy with id {item.get('copy')!r} in "
                "your collection."
            )
        if g_power is not None and g_power != copy.g_power:
            return f"{where}: name one of your copies or type a G-Power, not both."
        g_power = copy.g_power
    return card, zone, quantity, g_power, copy


def _lock(deck: Deck) -> Deck:
    """Return the deck read again under its row lock.

    Every write to a deck starts here, so writes to one deck queue one behind
    the other: none works from a copy read before another's change, and
    version numbers never collide.
    """
    try:
        return (
            Deck.objects.select_for_update(of=("self",))
            .select_related("game", "owner")
            .get(pk=deck.pk)
        )
    except Deck.DoesNotExist:
        raise ValidationError(
            "This deck was deleted in the meantime.", code="deck_gone"
        ) from None


def _save_entries(*, deck: Deck, entries: list[DeckEntry]) -> None:
    deck.entries.all().delete()
    for entry in entries:
        # The entries were merged per card and zone above, so the unique
        # constraint holds; the deck is locked and the cards were read in
        # deck_entries_check, so their keys need no query each either.
        entry.full_clean(exclude=["deck", "card"], validate_constraints=False)
    DeckEntry.objects.bulk_create(entries)


@transaction.atomic
def deck_save(*, deck: Deck, entries: Iterable[dict] | None = None) -> Deck:
    """Save a new or changed deck, its entries when given, and its next version."""
    if deck.pk is not None:
        _lock(deck)
    deck.full_clean()
    deck.save()
    if entries is not None:
        _save_entries(deck=deck, entries=deck_entries_check(deck=deck, entries=entries))
    deck_version_record(deck=deck)
    return deck


@transaction.atomic
def deck_create(
    *,
    owner,
    game: GameRecord | str,
    name: str,
    notes: str = "",
    is_public: bool = False,
    entries: Iterable[dict] = (),
) -> Deck:
    """Create a deck (legal or not) with its entries and its first version."""
    if isinstance(game, str):
        game = GameRecord.objects.filter(slug=game).first()
        if game is None:
            raise ValidationError({"game": "There is no such game."}, code="bad_game")
    deck = Deck(owner=owner, game=game, name=name, notes=notes, is_public=is_public)
    return deck_save(deck=deck, entries=entries)


@transaction.atomic
def deck_update(
    *,
    deck: Deck,
    name: str | None = None,
    notes: str | None = None,
    is_public: bool | None = None,
    entries: Iterable[dict] | None = None,
    merge: bool = False,
) -> Deck:
    """Change a deck's name, notes, visibility and (when given) all its entries.

    Only the fields given are written, to the deck as it is now; with ``merge``,
    a change soon after the latest version rewrites it (``deck_version_record``).
    """
    locked = _lock(deck)
    given = {"name": name, "notes": notes, "is_public": is_public}
    changed = {field: value for field, value in given.items() if value is not None}
    for field, value in changed.items():
        setattr(locked, field, value)
    locked.full_clean()
    locked.save(update_fields=[*changed, "updated_at"])
    if entries is not None:
        checked = deck_entries_check(deck=locked, entries=entries)
        _save_entries(deck=locked, entries=checked)
    deck_version_record(deck=locked, merge=merge)
    return locked


@transaction.atomic
def deck_apply_changes(
    *,
    deck: Deck,
    fields: dict,
    changed: dict[int, dict] | None = None,
    added: Iterable[dict] = (),
    deleted: Iterable[int] = (),
) -> Deck:
    """Apply an editor's changes to the deck as it is now: one new version.

    ``fields`` are the deck's changed columns; ``changed`` maps an entry id to its
    changed columns (card, zone, quantity); ``added`` are new entries and
    ``deleted`` entry ids. Entries nobody touched keep what they hold now, so a
    copy added elsewhere while the editor's page was open is not lost.
    """
    locked = _lock(deck)
    for field, value in fields.items():
        setattr(locked, field, value)
    if fields:
        locked.full_clean()
        locked.save(update_fields=[*fields, "updated_at"])
    changed, deleted = changed or {}, set(deleted)
    entries = []
    for entry in locked.entries.select_related("copy"):
        if entry.pk in deleted:
            continue
        row = _entry_row(entry)
        row.update(changed.get(entry.pk, {}))
        entries.append(row)
    entries += list(added)
    checked = deck_entries_check(deck=locked, entries=entries)
    _save_entries(deck=locked, entries=checked)
    deck_version_record(deck=locked)
    return locked


@transaction.atomic
def deck_slot_set(
    *, entry: DeckEntry, copy: int | None = None, g_power: int | None = None
) -> Deck:
    """Give one copy of a deck entry the owner's copy ``copy`` or a typed G-Power.

    With neither, the copy goes back to playing the strongest recorded copy the
    owner has. The rest of the entry stays as it was; one new version.
    """
    locked = _lock(entry.deck)
    current = locked.entries.filter(pk=entry.pk).first()
    if current is None:
        raise ValidationError(
            "This card left the deck in the meantime.", code="entry_gone"
        )
    if copy is not None and g_power is not None:
        raise ValidationError(
            {"g_power": "Name one of your copies or type a G-Power, not both."},
            code="copy_and_g_power",
        )
    entries = []
    for other in locked.entries.select_related("copy"):
        row = _entry_row(other)
        if other.pk == current.pk:
            row["quantity"] -= 1
            if row["quantity"] == 0:
                continue
        entries.append(row)
    slot = {"card": current.card_id, "zone": current.zone, "quantity": 1}
    slot.update(copy=copy) if copy is not None else slot.update(g_power=g_power)
    try:
        checked = deck_entries_check(deck=locked, entries=[*entries, slot])
    except ValidationError as error:
        # The slot is the last entry: say what is wrong with it, not its index.
        prefix = f"Entry {len(entries) + 1}: "
        raise ValidationError(
            {
                "g_power": [
                    m.removeprefix(prefix) for m in error.message_dict["entries"]
                ]
            },
            code="bad_slot",
        ) from None
    _save_entries(deck=locked, entries=checked)
    locked.save(update_fields=["updated_at"])
    deck_version_record(deck=locked, merge=True)
    return locked


@transaction.atomic
def deck_set_entries(*, deck: Deck, entries: Iterable[dict]) -> Deck:
    """Replace every entry of the deck."""
    return deck_update(deck=deck, entries=entries)


def _slot_entries(deck: Deck, card: Card, zone: str, g_power: int | None):
    entries = deck.entries.filter(card=card, zone=zone)
    if g_power is None:
        return entries.filter(g_power__isnull=True)
    return entries.filter(g_power=g_power)


@transaction.atomic
def deck_add_card(
    *,
    deck: Deck,
    card: Card,
    zone: str | None = None,
    quantity: int = 1,
    g_power: int | None = None,
) -> DeckEntry:
    """Add copies of a card to a zone of the deck (its usual zone when none).

    With ``g_power``, the copies go to the figure's slot of that G-Power.
    """
    zone = zone or default_zone(deck.game.slug, card.card_type)
    quantity, error = _quantity(quantity, "Adding")
    if error:
        raise ValidationError({"quantity": error}, code="bad_quantity")
    deck = _lock(deck)
    entry = _slot_entries(deck, card, zone, g_power).first()
    if entry is None:
        entry = DeckEntry(
            deck=deck, card=card, zone=zone, quantity=quantity, g_power=g_power
        )
    else:
        entry.quantity += quantity
    return deck_entry_save(entry=entry)


def deck_card_check(*, deck: Deck, card: Card) -> None:
    """Refuse a card the deck's owner cannot see (another user's custom card)."""
    if not Card.objects.visible_to(deck.owner).filter(pk=card.pk).exists():
        raise ValidationError({"card": "There is no such card."}, code="bad_card")


@transaction.atomic
def deck_entry_save(*, entry: DeckEntry) -> DeckEntry:
    """Save one new or changed entry of a deck, and the deck's next version."""
    deck = _lock(entry.deck)
    # full_clean checks the quantity and the card's game and zone (DeckEntry.clean).
    entry.full_clean()
    deck_card_check(deck=deck, card=entry.card)
    entry.save()
    deck.save(update_fields=["updated_at"])
    deck_version_record(deck=deck, merge=True)
    return entry


@transaction.atomic
def deck_entry_change(*, entry: DeckEntry, **fields) -> DeckEntry:
    """Change the given fields (card, zone, quantity) of the entry as it is now."""
    _lock(entry.deck)
    current = DeckEntry.objects.get(pk=entry.pk)
    for name, value in fields.items():
        if name not in ("card", "zone", "quantity"):
            raise TypeError(f"Unknown entry field: {name}")
        setattr(current, name, value)
    return deck_entry_save(entry=current)


@transaction.atomic
def deck_entry_delete(*, entry: DeckEntry) -> None:
    """Delete one entry of a deck, and keep the deck's next version."""
    deck = _lock(entry.deck)
    entry.delete()
    deck.save(update_fields=["updated_at"])
    deck_version_record(deck=deck, merge=True)


@transaction.atomic
def deck_remove_card(
    *,
    deck: Deck,
    card: Card,
    zone: str,
    quantity: int = 1,
    g_power: int | None = None,
) -> None:
    """Take copies of a card out of a zone; the entry goes when none are left.

    With ``g_power``, the copies come out of the figure's slot of that G-Power.
    """
    quantity, error = _quantity(quantity, "Removing")
    if error:
        raise ValidationError({"quantity": error}, code="bad_quantity")
    deck = _lock(deck)
    entry = _slot_entries(deck, card, zone, g_power).first()
    if entry is None:
        raise ValidationError(
            {"card": f"{card.display_name} is not in this zone of the deck."},
            code="not_in_deck",
        )
    if entry.quantity <= quantity:
        deck_entry_delete(entry=entry)
    else:
        entry.quantity -= quantity
        deck_entry_save(entry=entry)


@transaction.atomic
def deck_clone(*, deck: Deck, owner, name: str | None = None) -> Deck:
    """Copy a deck, entries included, as a new private deck of ``owner``.

    A deck holding a card that ``owner`` may not see (someone's private custom
    card) is refused whole: a copy without it would not be the same deck.
    """
    if deck.entries.exclude(card__in=Card.objects.visible_to(owner)).exists():
        raise ValidationError(
            "This deck holds a private custom card you cannot see, so it cannot "
            "be copied.",
            code="private_card",
        )
    # A named copy is the owner's collection entry: another collector's copy of
    # the deck keeps each slot's G-Power as a typed one.
    entries = [
        _entry_row(e, keep_copy=owner.pk == deck.owner_id)
        for e in deck.entries.select_related("deck", "copy")
    ]
    name = name or f"Copy of {deck.name}"[:120]
    return deck_create(
        owner=owner,
        game=deck.game,
        name=name,
        notes=deck.notes,
        is_public=False,
        entries=entries,
    )


class DecklistError(ValidationError):
    """A decklist with lines that cannot be read; ``lines`` holds each problem."""

    def __init__(self, lines: list[LineError]):
        super().__init__(
            {"text": [error.message for error in lines]}, code="bad_decklist"
        )
        self.lines = lines


@transaction.atomic
def deck_import_text(*, deck: Deck, text: str) -> Deck:
    """Replace the deck's entries with a decklist; any bad line writes nothing."""
    parsed = parse_decklist(text, game_slug=deck.game.slug, user=deck.owner)
    if parsed.errors:
        raise DecklistError(parsed.errors)
    return deck_set_entries(deck=deck, entries=parsed.entries)


@transaction.atomic
def deck_delete(*, deck: Deck) -> None:
    """Delete a deck with its entries and versions."""
    deck.delete()


@transaction.atomic
def deck_add_missing_to_wishlist(*, deck: Deck, user) -> int:
    """Raise the user's wanted count of each card they lack for the deck.

    A card's wanted count goes up to the copies missing (needed minus owned), not
    by them, so pressing the button twice never asks for the cards twice. The
    collection's own service makes each change. Return the copies added.
    """
    needed: dict[int, int] = {}
    cards: dict[int, Card] = {}
    # Printed cards only: practice and custom cards are not for sale anywhere.
    for entry in deck.entries.select_related("card").filter(
        card__card_set__kind=SetKind.OFFICIAL
    ):
        needed[entry.card_id] = needed.get(entry.card_id, 0) + entry.quantity
        cards[entry.card_id] = entry.card
    counts = counts_for_cards(user=user, card_ids=list(needed))
    added = 0
    for card_id, count in needed.items():
        owned, wanted = counts.get(card_id, (0, 0))
        delta = count - owned - wanted
        if delta > 0:
            collection_change_quantity(
                user=user, card=cards[card_id], wanted_delta=delta
            )
            added += delta
    return added
