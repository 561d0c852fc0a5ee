"""Decks: a player's cards for one game, in that game's zones, with every version kept."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse

from .choices import MAX_QUANTITY, Zone, zones_for


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
        "cards.Game", related_name="decks", on_delete=models.PROTECT
    )
    name = models.CharField(max_length=120)
    notes = models.TextField(blank=True, max_length=10000)
    is_public = models.BooleanField(
        default=False, help_text="Public decks can be read by anyone."
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

    class Meta:
        ordering = ["zone", "card__number", "card__key"]
        constraints = [
            models.UniqueConstraint(
                fields=["deck", "card", "zone"],
                name="unique_deck_card_zone",
                violation_error_message="This card already has an entry in this zone of the deck.",
            )
        ]

    def __str__(self):
        return f"{self.quantity} × {self.card} ({self.get_zone_display()})"

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


class DeckVersion(models.Model):
    """A snapshot of a deck taken at each save: name, notes and entries."""

    deck = models.ForeignKey(Deck, related_name="versions", on_delete=models.CASCADE)
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=120)
    notes = models.TextField(blank=True)
    entries = models.JSONField(
        default=list,
        blank=True,
        help_text="[{card, zone, quantity, name}] at the time of the save.",
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

    Each item is ``{card, zone, name, before, after}`` keyed by card and zone, so a
    card moved from one zone to another shows as removed there and added here.
    """
    old = {(e["card"], e["zone"]): e for e in before}
    new = {(e["card"], e["zone"]): e for e in after}
    added, removed, changed = [], [], []
    for key in sorted(old.keys() | new.keys(), key=lambda k: (k[1], k[0])):
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
        (added if a is None else removed if b is None else changed).append(item)
    return {"added": added, "removed": removed, "changed": changed}


from .companion.models import TableGame  # noqa: E402,F401  (the table companion lives beside decks)
from .playtest.models import DeckReport, Playtest, PlaytestMatch  # noqa: E402,F401  (playtests live beside decks)
