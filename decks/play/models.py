"""Stored playtests and deck reports (imported by ``decks.models``).

A playtest is its engine version, options, decks (a snapshot, so later edits to
a deck never change a stored game), seed and action log; the cached state only
saves a replay on load. ``version`` rises with every change, undo included, so a
tab that acts on an old version is refused.

A match (``PlaytestMatch``: Collision's best of three, Collide-O!'s play
again after a tie; ``cards.games`` ``Game.match``) is its games, each a
playtest with its place in the match: the score is read from the games'
winners, so nothing is counted twice; ``games`` rises by one per game started
and a second "next game" from a stale tab is refused against it.
"""

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

# A visitor's game (no account) is kept this long unless they sign up or log in.
VISITOR_GAME_LIFE = timedelta(days=1)


class PlaytestMatch(models.Model):
    """Games between the same seats with one score; each game is a ``Playtest``."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        related_name="playtest_matches",
        on_delete=models.CASCADE,
    )
    game = models.CharField(max_length=20)
    seed = models.BigIntegerField(
        help_text="The first game's seed; the others derive from it."
    )
    games = models.PositiveSmallIntegerField(
        default=1,
        help_text="Games started so far (the latest is game number ``games``).",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self):
        return f"Match {self.pk} ({self.game}, {self.games} game{'s' if self.games != 1 else ''})"


class PlaytestQuerySet(models.QuerySet):
    def of(self, player):
        """Return ``player``'s games: a user's own, or a visitor's of the last day."""
        if getattr(player, "is_authenticated", False):
            return self.filter(owner=player)
        key = getattr(player, "key", "")
        if not key:
            return self.none()
        return self.filter(
            owner=None,
            visitor_key=key,
            created_at__gt=timezone.now() - VISITOR_GAME_LIFE,
        )


class Playtest(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        related_name="playtests",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        help_text="None for a visitor's game (``visitor_key``).",
    )
    visitor_key = models.CharField(
        max_length=40,
        blank=True,
        default="",
        db_index=True,
        help_text="The key in a visitor's browser session that owns the game.",
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
    match = models.ForeignKey(
        PlaytestMatch,
        related_name="playtests",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
    )
    match_game = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Its place in the match, from 1."
    )
    hints = models.BooleanField(
        default=True, help_text="The coach's hints are offered (a practice game)."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = PlaytestQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "match_game"], name="one_game_per_match_place"
            ),
            models.CheckConstraint(
                condition=models.Q(owner__isnull=False) | ~models.Q(visitor_key=""),
                name="playtest_has_a_player",
                violation_error_message="A game belongs to a user or a visitor.",
            ),
        ]

    def __str__(self):
        return f"Playtest {self.pk} ({self.game})"

    def get_absolute_url(self):
        return reverse("play:detail", kwargs={"pk": self.pk})

    def may_branch(self, user) -> bool:
        """Return whether ``user`` may start a new game from a step of this one."""
        # A share link shows the replay to anyone; only the owner plays it on.
        return bool(
            user
            and user.is_authenticated
            and self.owner_id is not None
            and user.pk == self.owner_id
        )


class DeckJob(models.Model):
    """A deck's run of bot games on the task workers: a report or a deck doctor.

    What the two share: the game and its options, the bot, the seed, the
    opponent, and the run's state (``status``, ``done_games``, ``result``,
    ``error``). Each names its own owner and deck relations, its games and its
    statuses.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"
        CANCELLED = "cancelled", "Cancelled"

    opponent_deck = models.ForeignKey(
        "decks.Deck", related_name="+", on_delete=models.SET_NULL, null=True, blank=True
    )
    game = models.CharField(max_length=20)
    bot = models.CharField(max_length=20, default="greedy")  # engine.bots.BOT_NAMES
    seed = models.BigIntegerField(default=1)
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    done_games = models.PositiveIntegerField(default=0)
    result = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True
        ordering = ["-created_at"]

    @property
    def unfinished(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)

    @property
    def progress(self) -> int:
        """The share of its games played, in per cent."""
        total = self.planned_games
        return round(100 * self.done_games / total) if total else 100


class DeckReport(DeckJob):
    """A batch of bot games of one deck against another (or a mirror), run by a task worker."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, related_name="deck_reports", on_delete=models.CASCADE
    )
    deck = models.ForeignKey(
        "decks.Deck", related_name="reports", on_delete=models.CASCADE
    )
    games = models.PositiveIntegerField()
    decks = models.JSONField(help_text="Engine decks snapshot: seat 0 is this deck.")
    field = models.JSONField(
        default=list,
        blank=True,
        help_text="The opposing field: one label per opponent deck (decks[1:]).",
    )

    class Meta(DeckJob.Meta):
        pass

    def __str__(self):
        return f"Report {self.pk}: {self.games} games"

    @property
    def planned_games(self) -> int:
        return self.games

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


class JobPart(models.Model):
    """A task's share of a job (a report slice, a doctor candidate) and its heartbeat.

    ``attempt`` rises each time the part is queued again after its worker fell
    silent; only the run of the current attempt may write. ``progress`` is the
    games that run has added to its job's ``done_games`` so far, taken back when
    the part is queued again, so a game is never counted twice.
    """

    attempt = models.PositiveIntegerField(default=0)
    heartbeat = models.DateTimeField(
        null=True, blank=True, help_text="The running attempt's last sign of life."
    )
    progress = models.PositiveIntegerField(default=0)

    class Meta:
        abstract = True


class DeckReportChunk(JobPart):
    """A slice of a report's games, run by whichever task worker takes it first.

    ``tally`` holds the slice's raw counts once ``done``; the last slice to finish
    merges every tally in ``index`` order into the report's result.
    """

    report = models.ForeignKey(
        DeckReport, related_name="chunks", on_delete=models.CASCADE
    )
    index = models.PositiveIntegerField()
    first = models.PositiveIntegerField(
        help_text="Its first game's place in the report."
    )
    games = models.PositiveIntegerField()
    done = models.BooleanField(default=False)
    tally = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["report", "index"]
        constraints = [
            models.UniqueConstraint(
                fields=["report", "index"], name="one_chunk_per_place"
            )
        ]

    def __str__(self):
        return f"Report {self.report_id} chunk {self.index}"


class DeckDoctor(DeckJob):
    """ "Improve this deck": single-card swaps of a deck, each played by the workers.

    Candidate 0 is the deck as it was; every other candidate swaps one copy of
    one card for one copy of another in the same zone. All candidates play the
    same seeds against the same opponent, so their win rates compare fairly.
    They play in rounds (``decks.play.doctor``): the first plays them all,
    each further round only those still too close to the top five to tell.
    """

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, related_name="deck_doctors", on_delete=models.CASCADE
    )
    deck = models.ForeignKey(
        "decks.Deck", related_name="doctors", on_delete=models.CASCADE
    )
    source = models.CharField(max_length=12, default="game")  # "collection" or "game"
    games = models.PositiveIntegerField(help_text="Games per candidate in each round.")
    round = models.PositiveIntegerField(default=1, help_text="The round being played.")
    budget = models.PositiveIntegerField(
        default=0, help_text="The most games the run plays, over all its rounds."
    )
    rounds = models.JSONField(
        default=list,
        blank=True,
        help_text="Each round: its number, the candidates it played, their games.",
    )
    opponent = models.JSONField(
        default=dict,
        blank=True,
        help_text="The opponent's engine deck ({} for a pack).",
    )
    total_games = models.PositiveIntegerField(default=0)

    class Meta(DeckJob.Meta):
        pass

    def __str__(self):
        return f"Deck doctor {self.pk} of deck {self.deck_id}"

    @property
    def planned_games(self) -> int:
        return self.total_games

    @property
    def racing(self) -> int:
        """The swaps the current round plays (all of them in the first)."""
        return len(self.rounds[-1]["candidates"]) if self.rounds else 0


class DeckDoctorCandidate(JobPart):
    """One deck the doctor tries: a card out and a card in (none for the deck as it is)."""

    doctor = models.ForeignKey(
        DeckDoctor, related_name="candidates", on_delete=models.CASCADE
    )
    index = models.PositiveIntegerField()
    zone = models.CharField(max_length=20, blank=True)
    card_out = models.ForeignKey(
        "cards.Card", related_name="+", on_delete=models.CASCADE, null=True
    )
    card_in = models.ForeignKey(
        "cards.Card", related_name="+", on_delete=models.CASCADE, null=True
    )
    deck = models.JSONField(help_text="The candidate's engine deck.")
    done = models.BooleanField(default=False, help_text="It has played its target.")
    target = models.PositiveIntegerField(
        default=0, help_text="The games it has played by the end of this round."
    )
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["doctor", "index"]
        constraints = [
            models.UniqueConstraint(
                fields=["doctor", "index"], name="one_candidate_per_place"
            )
        ]

    def __str__(self):
        return f"Candidate {self.index} of deck doctor {self.doctor_id}"


class GameReview(DeckJob, JobPart):
    """The coach's review of one seat's moves in a stored game, run by a task worker.

    One task estimates every choice the seat made (``decks.engine.coach``);
    ``done_games`` counts the moves estimated of ``moves``. ``key`` names the
    game as reviewed (its decks, options, seed and log, the seat and the
    coach's version): a second request for the same key reads the stored one.
    """

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, related_name="game_reviews", on_delete=models.CASCADE
    )
    playtest = models.ForeignKey(
        Playtest, related_name="reviews", on_delete=models.CASCADE
    )
    seat = models.PositiveSmallIntegerField(default=0)
    key = models.CharField(max_length=64)
    log = models.JSONField(help_text="The game's action texts as reviewed.")
    hinted = models.JSONField(
        default=list, blank=True, help_text="The log places of moves taken from a hint."
    )
    moves = models.PositiveIntegerField(help_text="The seat's choices to estimate.")
    done = models.BooleanField(default=False)

    class Meta(DeckJob.Meta):
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "key"],
                name="one_review_per_owner_and_game",
                violation_error_message="This game has been reviewed for you already.",
            )
        ]

    def __str__(self):
        return f"Review {self.pk} of playtest {self.playtest_id}"

    def get_absolute_url(self):
        return reverse("play:review", kwargs={"pk": self.pk})

    @property
    def planned_games(self) -> int:
        return self.moves
