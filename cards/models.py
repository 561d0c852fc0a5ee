"""Games, sets and cards of the four games.

One ``Card`` table holds every game's cards, each game's attributes as real,
filterable columns; the columns a game does not use stay null. What each game
allows lives in ``cards/games/<game>.py``. A null value means *unknown*; a value
the card does not print is listed in ``not_printed`` (ruling E4).
"""

import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models.functions import Lower, Trim
from django.urls import reverse

from . import games
from .choices import (
    CARD_TYPE_LABELS,
    Attribute,
    Colour,
    Distribution,
    GateClass,
    MoveKind,
    SetKind,
    Symbol,
    Timing,
    Verification,
)
from .provenance import (
    NOT_NUMBERED,
    as_printed,
    origin,
    provenance_sentence,
    unknown_card_label,
)
from .querysets import (
    CardListVersionQuerySet,
    CardQuerySet,
    CardSetQuerySet,
    OwnerCardListVersionQuerySet,
)
from .validation import validate_card


class GameManager(models.Manager):
    def get_by_natural_key(self, slug):
        return self.get(slug=slug)

    def ensure_all(self) -> None:
        """Create any game row the registry has and the table lacks (after a flush, say)."""
        for spec in games.GAMES.values():
            self.get_or_create(
                slug=spec.slug,
                defaults={
                    "name": spec.name,
                    "publisher": spec.publisher,
                    "year": spec.year,
                    "sort_order": spec.order,
                },
            )


def validate_game_slug(value: str) -> None:
    """Refuse a slug the game registry (``cards.games``) does not have."""
    if value not in games.GAMES:
        raise ValidationError(f"No game {value!r}.", code="unknown_game")


class GameRecord(models.Model):
    """A game's row in the database, which sets, decks and submissions refer to.

    "Game" means the registry entry (``cards.games.Game``), where everything the
    site knows of a game lives; this row only gives it a key the tables can hold.
    """

    # The registry says which games exist: a new game needs no migration.
    slug = models.SlugField(max_length=20, unique=True, validators=[validate_game_slug])
    name = models.CharField(max_length=80)
    publisher = models.CharField(max_length=80, blank=True)
    year = models.CharField(max_length=20, blank=True)
    sort_order = models.PositiveSmallIntegerField(default=0)

    objects = GameManager()

    class Meta:
        ordering = ["sort_order", "slug"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("cards:game", kwargs={"game": self.slug})

    def natural_key(self):
        return (self.slug,)

    @property
    def spec(self) -> games.Game:
        """Return what the site knows of this game (``cards.games``)."""
        return games.get(self.slug)


# The longest set notes in the data files are a quarter of this.
SET_TEXT_LIMIT = 2_000


class CardSetManager(models.Manager.from_queryset(CardSetQuerySet)):
    def get_by_natural_key(self, game_slug, slug):
        return self.get(game__slug=game_slug, slug=slug)


class CardSet(models.Model):
    game = models.ForeignKey(GameRecord, related_name="sets", on_delete=models.PROTECT)
    slug = models.SlugField(max_length=60)
    name = models.CharField(max_length=120)
    kind = models.CharField(
        max_length=10, choices=SetKind.choices, default=SetKind.OFFICIAL
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        related_name="custom_sets",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        help_text="Owner of a custom set; empty for official and practice sets.",
    )
    is_public = models.BooleanField(default=True)
    year = models.CharField(max_length=20, blank=True)
    icon = models.CharField(
        max_length=80,
        blank=True,
        help_text="The set icon printed on its cards, in words; empty when not known.",
    )
    source = models.TextField(blank=True, help_text="Where this set's data comes from.")
    notes = models.TextField(blank=True)
    sort_order = models.PositiveSmallIntegerField(default=0)
    # How many cards the set holds, kept by every card write (CardSetQuerySet.refresh_totals)
    # so the unfiltered card list counts sets, not cards.
    cards_total = models.PositiveIntegerField(default=0, editable=False)

    objects = CardSetManager()

    class Meta:
        ordering = ["game__sort_order", "kind", "sort_order", "slug"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "slug"],
                name="unique_set_slug_per_game",
                violation_error_message="A set with this slug already exists for this game.",
            )
        ]

    def __str__(self):
        return (
            f"{self.name} ({self.get_kind_display_short()})"
            if not self.is_official
            else self.name
        )

    def get_absolute_url(self):
        return reverse("cards:set", kwargs={"game": self.game.slug, "set": self.slug})

    def natural_key(self):
        return (self.game.slug, self.slug)

    natural_key.dependencies = ["cards.gamerecord"]

    @property
    def is_official(self) -> bool:
        return self.kind == SetKind.OFFICIAL

    @property
    def provenance(self) -> str:
        """Return where this set's data comes from, as a sentence."""
        words = origin(
            self.source, self.kind, unnamed="From the sources its cards name"
        )
        return words if words.endswith(".") else f"{words}."

    def get_kind_display_short(self) -> str:
        return {
            "official": "official",
            "practice": "practice set, not a printed product",
            "custom": "custom cards, not a printed product",
        }[self.kind]

    def clean(self):
        for name in ("source", "notes"):
            value = getattr(self, name)
            if len(value) > SET_TEXT_LIMIT:
                raise ValidationError(
                    {
                        name: f"Keep this to {SET_TEXT_LIMIT:,} characters (it has "
                        f"{len(value):,})."
                    },
                    code="too_long",
                )
        if self.kind == SetKind.CUSTOM and self.owner_id is None:
            raise ValidationError(
                {"owner": "A custom set needs an owner."}, code="custom_without_owner"
            )
        if self.kind != SetKind.CUSTOM and self.owner_id is not None:
            raise ValidationError(
                {"owner": "Only custom sets have an owner."}, code="owner_not_custom"
            )


class CardManager(models.Manager.from_queryset(CardQuerySet)):
    def get_by_natural_key(self, game_slug, set_slug, key):
        return self.get(
            card_set__game__slug=game_slug, card_set__slug=set_slug, key=key
        )


SIGNED = [MinValueValidator(-9999), MaxValueValidator(9999)]
PIPS = [MinValueValidator(0), MaxValueValidator(5)]


# The numeric columns the search language filters, each with its index.
SEARCHED_NUMBERS = (
    "number",
    "spin_strength",
    "stat_red",
    "stat_blue",
    "stat_green",
    "stat_yellow",
    "g_power",
    "bonus_pyrus",
    "bonus_aquos",
    "bonus_subterra",
    "bonus_haos",
    "bonus_darkus",
    "bonus_ventus",
)


def _int(validators=(), **kw):
    return models.SmallIntegerField(
        null=True, blank=True, validators=list(validators), **kw
    )


class Card(models.Model):
    """One printed (or practice, or custom) card, or a Bakugan figure."""

    card_set = models.ForeignKey(
        CardSet, related_name="cards", on_delete=models.CASCADE
    )
    key = models.CharField(
        max_length=60,
        help_text="Identifies the card within its set: the printed number where known.",
    )
    number = models.PositiveIntegerField(
        null=True, blank=True, help_text="Position in the set, for sorting and ranges."
    )
    printed_number = models.CharField(
        max_length=20, blank=True, help_text="The number as printed, e.g. 96 or 9/48c."
    )
    name = models.CharField(max_length=160, null=True, blank=True)
    # One of its game's card types, checked by ``validate_card`` against the
    # registry rather than by column choices, so a new game needs no migration.
    card_type = models.CharField(max_length=12, null=True, blank=True)
    colour = models.CharField(
        max_length=8, choices=Colour.choices, null=True, blank=True
    )
    rarity = models.CharField(max_length=12, null=True, blank=True)
    text = models.TextField(
        null=True, blank=True, help_text="Game text as printed, headers kept."
    )
    lore = models.TextField(null=True, blank=True)
    code = models.CharField(
        max_length=30,
        null=True,
        blank=True,
        help_text="BA code (Bakugan) or website code (Metal Fusion).",
    )

    # Provenance and distribution.
    source = models.TextField(help_text="Where this card's data comes from.")
    verification = models.CharField(
        max_length=10, choices=Verification.choices, default=Verification.UNVERIFIED
    )
    distribution = models.CharField(
        max_length=20, choices=Distribution.choices, default=Distribution.UNKNOWN
    )
    not_printed = models.JSONField(
        default=list,
        blank=True,
        help_text="Fields the card does not print (not the same as unknown).",
    )
    effects = models.JSONField(
        default=list,
        blank=True,
        help_text="Encoded card text in the engine's effect vocabulary.",
    )

    # Collision.
    title = models.CharField(max_length=100, null=True, blank=True)
    subtitle = models.CharField(max_length=100, null=True, blank=True)
    battle_edge = models.CharField(
        max_length=6,
        null=True,
        blank=True,
        help_text="Six notches, left to right: . bare, L live, S strike, E empty.",
    )
    spin_strength = _int([MinValueValidator(1), MaxValueValidator(99)])
    symbol = models.CharField(
        max_length=4, choices=Symbol.choices, null=True, blank=True
    )

    # Metal Fusion.
    stat_red = _int(PIPS)
    stat_blue = _int(PIPS)
    stat_green = _int(PIPS)
    stat_yellow = _int(PIPS)
    emblem = models.CharField(max_length=60, null=True, blank=True)
    move_name = models.CharField(max_length=100, null=True, blank=True)
    move_kind = models.CharField(
        max_length=8, choices=MoveKind.choices, null=True, blank=True
    )
    move_red = _int([MinValueValidator(-9), MaxValueValidator(9)])
    move_blue = _int([MinValueValidator(-9), MaxValueValidator(9)])
    move_green = _int([MinValueValidator(-9), MaxValueValidator(9)])
    move_yellow = _int([MinValueValidator(-9), MaxValueValidator(9)])
    launcher = models.CharField(
        max_length=8,
        choices=Colour.choices,
        null=True,
        blank=True,
        help_text="Launcher colour.",
    )
    boosters = models.CharField(
        max_length=4,
        null=True,
        blank=True,
        help_text="Booster colours as letters R B G Y (one, two, or all four).",
    )
    timing = models.CharField(
        max_length=20, choices=Timing.choices, null=True, blank=True
    )

    # Collide-O!: each section a set of colour letters B Y R G K.
    section_1 = models.CharField(max_length=5, null=True, blank=True)
    section_2 = models.CharField(max_length=5, null=True, blank=True)
    section_3 = models.CharField(max_length=5, null=True, blank=True)

    # Bakugan.
    attribute = models.CharField(
        max_length=10, choices=Attribute.choices, null=True, blank=True
    )
    g_power = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MaxValueValidator(2000)]
    )
    gate_class = models.CharField(
        max_length=6, choices=GateClass.choices, null=True, blank=True
    )
    bonus_pyrus = _int(SIGNED)
    bonus_aquos = _int(SIGNED)
    bonus_subterra = _int(SIGNED)
    bonus_haos = _int(SIGNED)
    bonus_darkus = _int(SIGNED)
    bonus_ventus = _int(SIGNED)

    file_values = models.JSONField(
        default=dict,
        editable=False,
        help_text="What the card's data file said, by field, when it was last "
        "loaded; a load changes only the fields the file changed since.",
    )

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = CardManager()

    class Meta:
        ordering = ["card_set", "number", "key"]
        constraints = [
            models.UniqueConstraint(
                fields=["card_set", "key"],
                name="unique_card_key_per_set",
                violation_error_message="This set already has a card with this number.",
            )
        ]
        indexes = [
            models.Index(fields=["card_set", "number"]),
            models.Index(fields=["name"]),
            models.Index(fields=["card_type"]),
            # Imports, bulk adds and decklists find cards by name or number with
            # case and spaces ignored (cards/lookup.py).
            models.Index(Lower(Trim("name")), name="card_name_folded"),
            models.Index(Lower(Trim("key")), name="card_key_folded"),
            models.Index(Lower(Trim("printed_number")), name="card_printed_folded"),
            # The numbers the search language compares (number:>5, g:<=300, ...).
            *(
                models.Index(fields=[field], name=f"card_{field}")
                for field in SEARCHED_NUMBERS
            ),
            # The newest write stamps the cached home page figures.
            models.Index(fields=["updated_at"], name="card_updated_at"),
        ]

    def __str__(self):
        return self.display_name

    def get_absolute_url(self):
        return reverse("cards:card", kwargs={"pk": self.pk})

    def natural_key(self):
        return (self.card_set.game.slug, self.card_set.slug, self.key)

    natural_key.dependencies = ["cards.cardset"]

    def get_card_type_display(self) -> str:
        """Return the card type's name as the games call it ("Gate card")."""
        return CARD_TYPE_LABELS.get(self.card_type, self.card_type)

    @property
    def game_slug(self) -> str:
        return self.card_set.game.slug

    @property
    def display_name(self) -> str:
        if self.name:
            return self.name
        return unknown_card_label(self.printed_number, self.key)

    @property
    def number_as_printed(self) -> str:
        """Return the number as printed ("#96", "1/48") or "not numbered"."""
        return as_printed(self.printed_number, self.key)

    @property
    def is_numbered(self) -> bool:
        """Return whether the card prints a number (or its key is one)."""
        return self.number_as_printed != NOT_NUMBERED

    @property
    def provenance(self) -> str:
        """Return where this card's data comes from and how far it is checked."""
        return provenance_sentence(self.source, self.card_set.kind, self.verification)

    @property
    def is_official(self) -> bool:
        return self.card_set.kind == SetKind.OFFICIAL

    @property
    def accepted_scan(self):
        """Return the scan a moderator accepted for this card (the newest), or None."""
        return (
            self.scans.filter(status=ReviewStatus.ACCEPTED)
            .order_by("-reviewed_at", "-pk")
            .first()
        )

    def is_unknown(self, field: str) -> bool:
        """Return True when ``field`` has no recorded value and is not 'not printed'."""
        return getattr(self, field) is None and field not in (self.not_printed or [])

    def clean(self):
        errors = validate_card(self)
        if errors:
            raise ValidationError(errors)


class CardListVersion(models.Model):
    """One row whose number grows on every write to a game, set or card.

    The card list API keys its cached answers and its ETag on it (see
    ``cards/api/cache.py``), so every worker sees a change at once. Every write
    keeps it (``cards/signals.py`` and the querysets' bulk writes).
    """

    value = models.PositiveBigIntegerField(default=0)

    objects = CardListVersionQuerySet.as_manager()

    def __str__(self):
        return f"card list version {self.value}"


class OwnerCardListVersion(models.Model):
    """One user's own card list version: it grows on writes only that user sees.

    A write to a private custom set or its cards moves its owner's number and
    not the shared ``CardListVersion``, so other users' kept answers stay.
    """

    owner = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="+",
    )
    value = models.PositiveBigIntegerField(default=0)

    objects = OwnerCardListVersionQuerySet.as_manager()

    def __str__(self):
        return f"card list version {self.value} of user {self.owner_id}"


# --- Community data: submissions, history, scans, whole-set imports ----------
#
# Their choices stay here rather than in choices.py: they describe the review
# workflow, not card data.


class ReviewStatus(models.TextChoices):
    PENDING = "pending", "Waiting for review"
    ACCEPTED = "accepted", "Accepted"
    REJECTED = "rejected", "Rejected"
    WITHDRAWN = "withdrawn", "Withdrawn by its author"


def _new_token() -> str:
    return secrets.token_urlsafe(24)


class CardSubmission(models.Model):
    """A user's proposed new card, or correction to fields of an existing card."""

    submitter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        related_name="card_submissions",
        on_delete=models.CASCADE,
    )
    game = models.ForeignKey(
        GameRecord, related_name="submissions", on_delete=models.PROTECT
    )
    card = models.ForeignKey(
        Card,
        related_name="submissions",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        help_text="The card corrected; for a new card, the card made on acceptance.",
    )
    card_set = models.ForeignKey(
        CardSet,
        related_name="submissions",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        help_text="The set a proposed new card goes in.",
    )
    is_new = models.BooleanField(default=False, help_text="Proposes a new card.")
    is_reading = models.BooleanField(
        default=False,
        help_text="A reading from the transcribe page: agreement may confirm it. "
        "A proposal changes the card only when a moderator accepts it.",
    )
    fields = models.JSONField(
        default=dict, blank=True, help_text="Proposed values by field name."
    )
    source = models.TextField(
        help_text="Where the values come from: my own copy, a scan, a rulebook page."
    )
    status = models.CharField(
        max_length=10, choices=ReviewStatus.choices, default=ReviewStatus.PENDING
    )
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        related_name="reviewed_submissions",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)
    reason = models.TextField(blank=True, help_text="The moderator's reason or note.")
    verification = models.CharField(
        max_length=10,
        choices=Verification.choices,
        blank=True,
        help_text="Verification status the moderator set on acceptance.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["status", "created_at"])]

    def __str__(self):
        what = "new card" if self.is_new else f"correction to {self.card}"
        return f"Submission #{self.pk}: {what}"

    def get_absolute_url(self):
        return reverse("community:submission", kwargs={"pk": self.pk})

    def clean(self):
        if not self.is_new and self.card_id is None:
            raise ValidationError(
                {"card": "A correction names the card it corrects."}, code="no_card"
            )
        if self.is_new and self.card_set_id is None:
            raise ValidationError(
                {"card_set": "A new card needs its set."}, code="no_set"
            )


class CardChange(models.Model):
    """One recorded change to a card: who, when, what (field: old -> new), from where."""

    card = models.ForeignKey(Card, related_name="changes", on_delete=models.CASCADE)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        related_name="card_changes",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
    )
    submission = models.ForeignKey(
        CardSubmission,
        related_name="changes",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
    )
    created = models.BooleanField(default=False, help_text="The change made the card.")
    changes = models.JSONField(
        default=list, help_text='A list of {"field", "old", "new"}.'
    )
    source = models.TextField(help_text="Where the change came from.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["card", "created_at"])]

    def __str__(self):
        return f"Change to {self.card_id} at {self.created_at:%Y-%m-%d %H:%M}"


class Scan(models.Model):
    """An uploaded picture of a card, re-encoded; public once a moderator accepts it."""

    uploader = models.ForeignKey(
        settings.AUTH_USER_MODEL, related_name="card_scans", on_delete=models.CASCADE
    )
    card = models.ForeignKey(
        Card, related_name="scans", on_delete=models.CASCADE, null=True, blank=True
    )
    submission = models.ForeignKey(
        CardSubmission,
        related_name="scans",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
    )
    image = models.FileField(max_length=200)
    thumbnail = models.FileField(max_length=200)
    image_format = models.CharField(max_length=8)
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    size_bytes = models.PositiveIntegerField()
    status = models.CharField(
        max_length=10, choices=ReviewStatus.choices, default=ReviewStatus.PENDING
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        return f"Scan #{self.pk} ({self.width}x{self.height} {self.image_format})"


class CardDataImport(models.Model):
    """An uploaded data file checked and waiting for a moderator to apply it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        related_name="card_data_imports",
        on_delete=models.CASCADE,
    )
    token = models.CharField(max_length=64, unique=True, default=_new_token)
    label = models.CharField(max_length=200)
    text = models.TextField(help_text="The uploaded file, kept until applied.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"Import of {self.label}"

    def get_absolute_url(self):
        return reverse("community:import-preview", kwargs={"token": self.token})


class CardWord(models.Model):
    """A place a word may start in a card's name, text or emblem (``cards.words``)."""

    card = models.ForeignKey(Card, related_name="words", on_delete=models.CASCADE)
    field = models.CharField(max_length=16)
    word = models.CharField(max_length=24)

    class Meta:
        indexes = [
            # varchar_pattern_ops: PostgreSQL's LIKE 'dra%' reads it whatever
            # the database's collation; other databases ignore the opclass.
            models.Index(
                fields=["word", "field"],
                name="cards_cardword_prefix",
                opclasses=["varchar_pattern_ops", "varchar_pattern_ops"],
            )
        ]

    def __str__(self):
        return f"{self.field}: {self.word}"


class FieldVerification(models.Model):
    """One card field confirmed by agreeing readings, or disputed by disagreeing ones.

    One row per card and field (a named unique constraint), so two readings
    confirming a field at the same moment leave one confirmation.
    """

    card = models.ForeignKey(
        Card, related_name="field_verifications", on_delete=models.CASCADE
    )
    field = models.CharField(max_length=40)
    level = models.CharField(
        max_length=10,
        choices=[
            (Verification.CONFIRMED, Verification.CONFIRMED.label),
            (Verification.DISPUTED, Verification.DISPUTED.label),
        ],
    )
    value = models.JSONField(
        null=True, blank=True, help_text="The agreed value (confirmed fields)."
    )
    readings = models.ManyToManyField(
        CardSubmission, related_name="field_verifications", blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["card", "field"]
        indexes = [models.Index(fields=["updated_at"], name="field_verif_updated_at")]
        constraints = [
            models.UniqueConstraint(
                fields=["card", "field"],
                name="unique_field_verification_per_card",
                violation_error_message="This card field already has a verification.",
            )
        ]

    def __str__(self):
        return f"{self.card_id}.{self.field}: {self.level}"


class Census(models.Model):
    """One collector's count of their Collide-O! pack: how many cards of each pattern.

    Collide-O! cards carry no name or number, so a pack is known by its
    composition; two agreeing censuses make it the official pack
    (``cards/community/collide_o_census.py``).
    """

    owner = models.OneToOneField(
        settings.AUTH_USER_MODEL, related_name="census", on_delete=models.CASCADE
    )
    card_set = models.OneToOneField(
        CardSet,
        related_name="census",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        help_text="The owner's own set of the patterns counted, which plays as their pack.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["pk"]
        verbose_name_plural = "censuses"

    def __str__(self):
        return f"Census by {self.owner}"


class CensusCount(models.Model):
    """How many cards of one section pattern a census counted."""

    census = models.ForeignKey(Census, related_name="counts", on_delete=models.CASCADE)
    section_1 = models.CharField(max_length=5)
    section_2 = models.CharField(max_length=5)
    section_3 = models.CharField(max_length=5)
    count = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])

    class Meta:
        ordering = ["census", "section_1", "section_2", "section_3"]
        constraints = [
            models.UniqueConstraint(
                fields=["census", "section_1", "section_2", "section_3"],
                name="unique_pattern_per_census",
                violation_error_message="This census already counts this pattern.",
            )
        ]

    def __str__(self):
        return f"{self.pattern}: {self.count}"

    @property
    def pattern(self) -> tuple[str, str, str]:
        return (self.section_1, self.section_2, self.section_3)

    def clean(self):
        errors = {}
        for name in ("section_1", "section_2", "section_3"):
            problem = games.collide_o.section_problem(getattr(self, name) or "")
            if problem:
                errors[name] = ValidationError(problem, code="bad_section")
        if errors:
            raise ValidationError(errors)
        if games.collide_o.canonical(self.pattern) != self.pattern:
            raise ValidationError(
                "A pattern is stored one way round (ruling O1).", code="not_canonical"
            )
