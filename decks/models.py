"""Decks: a player's cards for one game, in that game's zones, with every version kept."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from .choices import MAX_QUANTITY, BudgetKind, Zone, zones_for


class DeckQuerySet(models.QuerySet):
    def visible_to(self, user):
        """Return the decks this user may read: public ones and their own."""
        q = Q(is_public=True)
        if user is not None and user.is_authenticated:
            q |= Q(owner=user)
        return self.filter(q)

    def owned_by(self, user):
        """Return this user's own decks (none for an anonymous user)."""
        if user is None or not user.is_authenticated:
            return self.none()
        return self.filter(owner=user)


class Deck(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, related_name="decks", on_delete=models.CASCADE
    )
    game = models.ForeignKey(
        "cards.GameRecord", related_name="decks", on_delete=models.PROTECT
    )
    name = models.CharField(max_length=120)
    notes = models.TextField(blank=True, max_length=10000)
    is_public = models.BooleanField(
        default=False, help_text="Public decks can be read by anyone."
    )
    census = models.OneToOneField(
        "cards.Census",
        related_name="deck",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        help_text="The Collide-O! census this pack is kept equal to.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = DeckQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [
            models.Index(fields=["is_public", "game"]),
            # The deck lists take a page of the newest, public or one owner's.
            models.Index(
                fields=["is_public", "-updated_at", "-id"], name="deck_public_recent"
            ),
            models.Index(
                fields=["owner", "-updated_at", "-id"], name="deck_owner_recent"
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("decks:detail", kwargs={"pk": self.pk})

    @property
    def zones(self) -> tuple[str, ...]:
        return zones_for(self.game.slug)

    def clean(self):
        if self.name is not None and not self.name.strip():
            raise ValidationError({"name": "A deck needs a name."}, code="blank_name")


class DeckEntry(models.Model):
    deck = models.ForeignKey(Deck, related_name="entries", on_delete=models.CASCADE)
    card = models.ForeignKey(
        "cards.Card", related_name="deck_entries", on_delete=models.PROTECT
    )
    zone = models.CharField(max_length=10, choices=Zone.choices)
    quantity = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(MAX_QUANTITY)]
    )
    # A copy whose value is printed on each copy (a Bakugan figure's G-Power):
    # the value this slot plays with, typed by the player or taken from ``copy``.
    g_power = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        verbose_name="G-Power",
        help_text="The G-Power these copies play with; empty: the strongest "
        "recorded copy the owner has.",
    )
    copy = models.ForeignKey(
        "collection.CollectionEntry",
        related_name="deck_slots",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        help_text="The owner's copy this slot names (its G-Power is played).",
    )

    class Meta:
        ordering = ["zone", "card__number", "card__key", "g_power"]
        constraints = [
            models.UniqueConstraint(
                fields=["deck", "card", "zone"],
                condition=Q(g_power__isnull=True),
                name="unique_deck_card_zone",
                violation_error_message="This card already has an entry in this zone of the deck.",
            ),
            # Slots of one figure differ by the G-Power they play with.
            models.UniqueConstraint(
                fields=["deck", "card", "zone", "g_power"],
                condition=Q(g_power__isnull=False),
                name="unique_deck_card_zone_g_power",
                violation_error_message="This figure already has a slot with this "
                "G-Power in the deck.",
            ),
        ]

    def __str__(self):
        power = f", {self.g_power} G" if self.g_power is not None else ""
        return f"{self.quantity} × {self.card} ({self.get_zone_display()}{power})"

    def named_copy(self):
        """Return the owner's copy this slot names, while it still gives a G-Power.

        A copy gone, emptied of its value or no longer the owner's names nothing:
        the slot then plays the value saved with it.
        """
        copy = self.copy if self.copy_id is not None else None
        if (
            copy is not None
            and copy.g_power is not None
            and copy.card_id == self.card_id
            and copy.user_id == self.deck.owner_id
        ):
            return copy
        return None

    def play_g_power(self) -> int | None:
        """Return the G-Power this slot plays with: its named copy's as it is now
        (a corrected copy plays its corrected value), else its own."""
        copy = self.named_copy()
        return copy.g_power if copy is not None else self.g_power

    def clean(self):
        if self.deck_id is None or self.card_id is None:
            return
        game = self.deck.game
        if self.card.card_set.game_id != game.pk:
            raise ValidationError(
                {"card": f"{self.card} is not a {game.name} card."}, code="wrong_game"
            )
        if self.zone not in zones_for(game.slug):
            allowed = ", ".join(zones_for(game.slug))
            raise ValidationError(
                {"zone": f"A {game.name} deck's zones are: {allowed}."},
                code="bad_zone",
            )
        problem = slot_problem(self)
        if problem:
            field, code, message = problem
            raise ValidationError({field: ValidationError(message, code=code)})


def slot_problem(entry: "DeckEntry") -> tuple[str, str, str] | None:
    """Return (field, code, message) when a slot's G-Power or copy is refused.

    A typed G-Power obeys the rule a collection copy obeys (the game's
    ``copy_check``, one function for both); a named copy must be the deck
    owner's, of the same card, with its G-Power recorded, and own as many
    copies as the slot holds.
    """
    check = entry.card.card_set.game.spec.copy_check
    if entry.g_power is not None:
        problem = (
            check(entry.card.card_type, entry.g_power)
            if check
            else "Only a Bakugan figure prints a G-Power on each copy."
        )
        if problem:
            return "g_power", "bad_g_power", problem
    if entry.copy_id is None:
        return None
    copy = entry.copy
    if copy.user_id != entry.deck.owner_id or copy.card_id != entry.card_id:
        return (
            "copy",
            "not_your_copy",
            f"That copy is not one of your copies of {entry.card.display_name}.",
        )
    if copy.g_power is None:
        return (
            "copy",
            "copy_without_g_power",
            "That copy has no G-Power recorded: record it in your collection, or "
            "type the G-Power.",
        )
    if entry.quantity > copy.quantity:
        return (
            "copy",
            "not_enough_copies",
            f"You own {copy.quantity} of that copy ({copy.g_power} G), not "
            f"{entry.quantity}.",
        )
    return None


class DeckVersion(models.Model):
    """A snapshot of a deck taken at each save: name, notes and entries."""

    deck = models.ForeignKey(Deck, related_name="versions", on_delete=models.CASCADE)
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=120)
    notes = models.TextField(blank=True)
    entries = models.JSONField(
        default=list,
        blank=True,
        help_text="[{card, zone, quantity, name, g_power}] at the time of the save.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["deck", "-number"]
        constraints = [
            models.UniqueConstraint(
                fields=["deck", "number"],
                name="unique_deck_version_number",
                violation_error_message="This deck already has a version with this number.",
            )
        ]

    def __str__(self):
        return f"{self.deck} v{self.number}"

    def diff_to(self, other: "DeckVersion") -> dict:
        """Return what changed from this version to ``other``."""
        return diff_snapshots(self.entries, other.entries)


def diff_snapshots(before: list[dict], after: list[dict]) -> dict:
    """Return the entries added, removed and changed between two snapshots.

    Each item is ``{card, zone, name, before, after}`` (and ``g_power`` for a
    slot that has one) keyed by card,
    zone and the slot's G-Power, so a card moved from one zone to another shows
    as removed there and added here, and a figure given another G-Power as that
    slot removed and the other added.
    """
    old = {(e["card"], e["zone"], e.get("g_power")): e for e in before}
    new = {(e["card"], e["zone"], e.get("g_power")): e for e in after}
    added, removed, changed = [], [], []

    def order(key):
        return (key[1], key[0], key[2] is not None, key[2] or 0)

    for key in sorted(old.keys() | new.keys(), key=order):
        a, b = old.get(key), new.get(key)
        qa, qb = (a or {}).get("quantity", 0), (b or {}).get("quantity", 0)
        if qa == qb:
            continue
        item = {
            "card": key[0],
            "zone": key[1],
            "name": (b or a).get("name", ""),
            "before": qa,
            "after": qb,
        }
        if key[2] is not None:
            item["g_power"] = key[2]
        (added if a is None else removed if b is None else changed).append(item)
    return {"added": added, "removed": removed, "changed": changed}


class BudgetCharge(models.Model):
    """Work one user or address caused, kept for its budget's window (``decks.budgets``).

    In the database so every server process sees the same sum.
    """

    kind = models.CharField(max_length=20, choices=BudgetKind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        related_name="budget_charges",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
    )
    ip_address = models.GenericIPAddressField(null=True, blank=True)
    amount = models.FloatField(help_text="Seconds of bot thinking, or 1 a sheet.")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(
                fields=["kind", "user", "created_at"], name="budget_charge_user"
            ),
            models.Index(
                fields=["kind", "ip_address", "created_at"],
                name="budget_charge_address",
            ),
        ]

    def __str__(self):
        who = self.user_id and f"user {self.user_id}" or self.ip_address
        return f"{self.amount:g} {self.get_kind_display().lower()} for {who}"


from .play.models import DeckReport, GameReview, Playtest, PlaytestMatch  # noqa: E402,F401  (playtests live beside decks)
from .table.companion.models import TableGame  # noqa: E402,F401  (the table companion lives beside decks)
