"""Collection entries, share links, pending imports and failed log-in attempts.

A collection entry is one user's copies of one card in one variant (condition,
finish, language, grading). The same row also carries how many more copies of
that variant the user wants (the wishlist) and how many of the owned copies are
for trade, so one table answers "owned", "missing", "wanted" and "for trade".
"""

import secrets
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from .choices import (
    AccountRequestKind,
    Condition,
    Finish,
    GradingCompany,
    ImportMode,
    Language,
    ShareKind,
)

MAX_COPIES = 999_999
GRADE_MIN = Decimal("1")
GRADE_MAX = Decimal("10")
GRADE_STEP = Decimal("0.5")

# Fields that tell two entries of the same user and card apart.
VARIANT_FIELDS = (
    "condition", "finish", "language", "grading_company", "grade", "g_power"
)  # fmt: skip


def grade_key(grade) -> str | None:
    """Return a grade as text with one decimal ("9.5", "10.0"), or None."""
    if grade in (None, ""):
        return None
    return str(Decimal(grade).quantize(Decimal("0.1")))


def new_token() -> str:
    """Return an unguessable URL-safe token."""
    return secrets.token_urlsafe(24)


class CollectionEntryQuerySet(models.QuerySet):
    def of(self, user):
        """Return the entries of ``user`` (none for an anonymous user)."""
        if user is None or not user.is_authenticated:
            return self.none()
        return self.filter(user=user)

    def with_related(self):
        return self.select_related("card", "card__card_set", "card__card_set__game")


class CollectionEntry(models.Model):
    """One user's copies of one card in one variant, with wanted and for-trade counts."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        related_name="collection_entries",
        on_delete=models.CASCADE,
    )
    card = models.ForeignKey(
        "cards.Card", related_name="collection_entries", on_delete=models.CASCADE
    )
    quantity = models.PositiveIntegerField(
        default=0, validators=[MaxValueValidator(MAX_COPIES)], help_text="Copies owned."
    )
    condition = models.CharField(
        max_length=16, choices=Condition.choices, default=Condition.NEAR_MINT
    )
    finish = models.CharField(
        max_length=8, choices=Finish.choices, default=Finish.NORMAL
    )
    language = models.CharField(
        max_length=8, choices=Language.choices, default=Language.ENGLISH
    )
    grading_company = models.CharField(
        max_length=8,
        choices=GradingCompany.choices,
        blank=True,
        default="",
        help_text="Empty for an ungraded card.",
    )
    grade = models.DecimalField(
        max_digits=3,
        decimal_places=1,
        null=True,
        blank=True,
        validators=[MinValueValidator(GRADE_MIN), MaxValueValidator(GRADE_MAX)],
        help_text="1 to 10 in half steps; empty for an ungraded card.",
    )
    wanted_quantity = models.PositiveIntegerField(
        default=0,
        validators=[MaxValueValidator(MAX_COPIES)],
        help_text="More copies of this variant wanted (wishlist).",
    )
    trade_quantity = models.PositiveIntegerField(
        default=0,
        validators=[MaxValueValidator(MAX_COPIES)],
        help_text="Owned copies offered for trade.",
    )
    g_power = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        verbose_name="G-Power",
        help_text="A Bakugan figure's G-Power as printed on this copy; empty when "
        "not recorded.",
    )
    notes = models.TextField(blank=True, max_length=2000)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = CollectionEntryQuerySet.as_manager()

    class Meta:
        ordering = ["card__card_set", "card__number", "card__key", "id"]
        verbose_name_plural = "collection entries"
        # NULL grades never compare equal in a unique index, so ungraded and
        # graded copies each get their own constraint.
        constraints = [
            models.UniqueConstraint(
                fields=["user", "card", "condition", "finish", "language"],
                condition=Q(grade__isnull=True, g_power__isnull=True),
                name="unique_ungraded_entry_per_variant",
                violation_error_message=(
                    "You already have an entry for this card in this condition, "
                    "finish and language; change its quantity instead."
                ),
            ),
            models.UniqueConstraint(
                fields=[
                    "user",
                    "card",
                    "condition",
                    "finish",
                    "language",
                    "grading_company",
                    "grade",
                ],
                condition=Q(grade__isnull=False, g_power__isnull=True),
                name="unique_graded_entry_per_variant",
                violation_error_message=(
                    "You already have an entry for this card with this grading; "
                    "change its quantity instead."
                ),
            ),
            # A figure's copies with a recorded G-Power: one entry per G-Power.
            models.UniqueConstraint(
                fields=["user", "card", "condition", "finish", "language", "g_power"],
                condition=Q(grade__isnull=True, g_power__isnull=False),
                name="unique_ungraded_entry_per_g_power",
                violation_error_message=(
                    "You already have an entry for this figure with this G-Power; "
                    "change its quantity instead."
                ),
            ),
            models.UniqueConstraint(
                fields=[
                    "user",
                    "card",
                    "condition",
                    "finish",
                    "language",
                    "grading_company",
                    "grade",
                    "g_power",
                ],
                condition=Q(grade__isnull=False, g_power__isnull=False),
                name="unique_graded_entry_per_g_power",
                violation_error_message=(
                    "You already have an entry for this figure with this grading "
                    "and G-Power; change its quantity instead."
                ),
            ),
            models.CheckConstraint(
                condition=Q(trade_quantity__lte=models.F("quantity")),
                name="trade_quantity_within_owned",
                violation_error_message="You cannot offer more copies than you own.",
            ),
        ]
        indexes = [models.Index(fields=["user", "card"])]

    def __str__(self):
        return f"{self.quantity} × {self.card} ({self.variant_label})"

    def get_absolute_url(self):
        return reverse("collection:entry_edit", kwargs={"pk": self.pk})

    @property
    def is_graded(self) -> bool:
        return self.grade is not None

    @property
    def variant_label(self) -> str:
        parts = [self.get_condition_display(), self.get_finish_display()]
        parts.append(self.get_language_display())
        if self.is_graded:
            parts.append(f"{self.get_grading_company_display()} {self.grade}")
        if self.g_power is not None:
            parts.append(f"{self.g_power} G")
        return ", ".join(parts)

    def clean(self):
        errors = {}
        if self.trade_quantity is not None and self.quantity is not None:
            if self.trade_quantity > self.quantity:
                errors["trade_quantity"] = ValidationError(
                    "You cannot offer more copies for trade than you own.",
                    code="trade_exceeds_owned",
                )
        if self.grade is not None and not self.grading_company:
            errors["grading_company"] = ValidationError(
                "A grade needs the grading company that gave it.",
                code="grade_without_company",
            )
        if self.grading_company and self.grade is None:
            errors["grade"] = ValidationError(
                "A graded card needs its grade.", code="company_without_grade"
            )
        if self.grade is not None and (
            not GRADE_MIN <= self.grade <= GRADE_MAX or self.grade % GRADE_STEP != 0
        ):
            errors["grade"] = ValidationError(
                "Grades go from 1 to 10 in half steps.", code="bad_grade"
            )
        if self.g_power is not None and self.card_id is not None:
            card = self.card
            check = card.card_set.game.spec.copy_check
            problem = (
                check(card.card_type, self.g_power)
                if check
                else "Only a Bakugan figure prints a G-Power on each copy."
            )
            if problem:
                errors["g_power"] = ValidationError(problem, code="bad_g_power")
        if errors:
            raise ValidationError(errors)


class ShareLink(models.Model):
    """A read-only link to one user's collection, wishlist or trade list."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, related_name="share_links", on_delete=models.CASCADE
    )
    kind = models.CharField(max_length=12, choices=ShareKind.choices)
    token = models.CharField(max_length=64, unique=True, default=new_token)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["user", "kind"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind"],
                name="unique_share_link_per_kind",
                violation_error_message="This list is already shared.",
            )
        ]

    def __str__(self):
        return f"{self.user} shares their {self.get_kind_display().lower()}"

    def get_absolute_url(self):
        return reverse("collection:shared", kwargs={"token": self.token})


class ImportPreview(models.Model):
    """A checked import waiting for its owner to apply it (or not)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        related_name="collection_imports",
        on_delete=models.CASCADE,
    )
    token = models.CharField(max_length=64, unique=True, default=new_token)
    mode = models.CharField(max_length=8, choices=ImportMode.choices)
    source = models.CharField(max_length=200, blank=True)
    rows = models.JSONField(
        default=list, blank=True, help_text="The file's entries, checked."
    )
    changes = models.JSONField(
        default=list, blank=True, help_text="What applying will change."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"Import {self.source or self.token[:8]} for {self.user}"

    def get_absolute_url(self):
        return reverse("collection:import_preview", kwargs={"token": self.token})


class LoginAttempt(models.Model):
    """A failed log-in, kept for the rate limit's window (the database is shared by workers)."""

    username = models.CharField(max_length=150, db_index=True)
    ip_address = models.GenericIPAddressField(null=True, blank=True, db_index=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"Failed log-in for {self.username!r} from {self.ip_address}"


class AccountRequest(models.Model):
    """A sign-up or password-reset request, kept for the per-address limit's window."""

    kind = models.CharField(max_length=20, choices=AccountRequestKind.choices)
    ip_address = models.GenericIPAddressField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(
                fields=["kind", "ip_address", "created_at"],
                name="account_request_window",
            )
        ]

    def __str__(self):
        return f"{self.get_kind_display()} from {self.ip_address}"
