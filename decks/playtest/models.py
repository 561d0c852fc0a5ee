"""Stored playtests and deck reports (imported by ``decks.models``).

A playtest is its engine version, options, decks (a snapshot, so later edits to
a deck never change a stored game), seed and action log; the cached state only
saves a replay on load. ``version`` rises with every change, undo included, so a
tab that acts on an old version is refused.
"""

from django.conf import settings
from django.db import models
from django.urls import reverse


class Playtest(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, related_name="playtests", on_delete=models.CASCADE
    )
    deck = models.ForeignKey(
        "decks.Deck",
        related_name="playtests",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
    )
    game = models.CharField(max_length=20)
    engine_version = models.CharField(max_length=20)
    seats = models.JSONField(
        help_text="One entry per seat: kind (human, hotseat, random, greedy), deck id, deck name."
    )
    options = models.JSONField(default=dict, blank=True, help_text="Engine options.")
    chance = models.CharField(
        max_length=6,
        default="seed",
        help_text="seed: chance steps drawn from the seed; choose: the player enters them.",
    )
    seed = models.BigIntegerField()
    decks = models.JSONField(
        help_text="Engine decks, one per seat (one shared pack for Collide-O!)."
    )
    log = models.JSONField(
        default=list, blank=True, help_text="Action texts, in order."
    )
    steps = models.JSONField(
        default=list, blank=True, help_text="Per log entry: [actor seat, turn number]."
    )
    undone = models.JSONField(
        default=list,
        blank=True,
        help_text="Tails removed by undo, kept so nothing is lost.",
    )
    state = models.JSONField(help_text="Cached engine state at the end of the log.")
    version = models.PositiveIntegerField(default=0)
    over = models.BooleanField(default=False)
    winner = models.SmallIntegerField(null=True, blank=True)
    parent = models.ForeignKey(
        "self",
        related_name="branches",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
    )
    share_token = models.CharField(max_length=40, null=True, blank=True, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self):
        return f"Playtest {self.pk} ({self.game})"

    def get_absolute_url(self):
        return reverse("play:detail", kwargs={"pk": self.pk})

    def may_branch(self, user) -> bool:
        """Return whether ``user`` may start a new game from a step of this one."""
        # A share link shows the replay to anyone; only the owner plays it on.
        return bool(user and user.is_authenticated and user.pk == self.owner_id)


class DeckReport(models.Model):
    """A batch of bot games of one deck against another (or a mirror), run by a task worker."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, related_name="deck_reports", on_delete=models.CASCADE
    )
    deck = models.ForeignKey(
        "decks.Deck", related_name="reports", on_delete=models.CASCADE
    )
    opponent_deck = models.ForeignKey(
        "decks.Deck", related_name="+", on_delete=models.SET_NULL, null=True, blank=True
    )
    game = models.CharField(max_length=20)
    bot = models.CharField(max_length=10, default="greedy")
    games = models.PositiveIntegerField()
    seed = models.BigIntegerField(default=1)
    options = models.JSONField(default=dict, blank=True)
    decks = models.JSONField(help_text="Engine decks snapshot: seat 0 is this deck.")
    field = models.JSONField(
        default=list,
        blank=True,
        help_text="The opposing field: one label per opponent deck (decks[1:]).",
    )
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    done_games = models.PositiveIntegerField(default=0)
    result = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"Report {self.pk}: {self.games} games"

    @property
    def against(self) -> str:
        """The opposing field in words."""
        if self.field:
            return ", ".join(self.field)
        if self.opponent_deck_id:
            return self.opponent_deck.name
        if self.options.get("players"):
            return f"{self.options['players']} players sharing the one pack"
        return "a mirror"

    @property
    def progress(self) -> int:
        return round(100 * self.done_games / self.games) if self.games else 100
