"""Sharing the task workers: measured costs, each user's quota, fair turns, heartbeats.

Cost: a report or deck doctor run costs its games times the bot's measured CPU
seconds per game (``COSTS``), a game review its moves times the coach's
measured seconds per estimate (``ESTIMATE_COSTS``); what one person has waiting or running, counted
by the games it has left, stays within ``QUOTA_SECONDS``, and a start that
would pass it is refused up front, saying how much is queued, the bound and
what would fit. Fairness: each task of a job gets a priority from its place in
its owner's own queue (``fair_priorities``), so a worker takes every user's
first task before anyone's second. Heartbeats: a running part (a report slice,
a doctor candidate) writes its progress and a heartbeat every
``DECK_JOB_PROGRESS_MS``; one silent for ``DECK_JOB_STALE_AFTER`` seconds is
queued again with its attempt raised (``requeue_silent``), and its partial
progress taken back, so the job ends as if its worker had never died. Each job
queues a watch task (``watch_later``) that looks for silent parts every
``DECK_JOB_STALE_AFTER`` seconds while the job lasts; the job's page looks too.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks.base import TASK_MAX_PRIORITY, TASK_MIN_PRIORITY
from django_tasks_db.backend import DatabaseBackend
from django_tasks_db.models import DBTaskResult

from .adapter import PlaytestError
from .models import (
    DeckDoctor,
    DeckDoctorCandidate,
    DeckReport,
    DeckReportChunk,
    GameReview,
)

# CPU seconds of one report game, per game and bot: measured, with the command
# that measured them and when, in costs.json (data, like the card files).
_TABLE = json.loads(Path(__file__).with_name("costs.json").read_text())
COSTS = _TABLE["seconds_per_game"]
# CPU seconds of one estimate of the coach (a game review estimates each move).
ESTIMATE_COSTS = _TABLE["seconds_per_estimate"]
# A bot or game not measured yet is counted as the dearest measured one.
UNMEASURED = max(cost for bots in COSTS.values() for cost in bots.values())
# The worker time one person's waiting and running jobs may need at once.
QUOTA_SECONDS = 20 * 60
UNFINISHED = (DeckReport.Status.QUEUED, DeckReport.Status.RUNNING)


def game_cost(game: str, bot: str) -> float:
    """Return the estimated CPU seconds of one game of ``game`` played by ``bot``."""
    return COSTS.get(game, {}).get(bot, UNMEASURED)


def estimate_cost(game: str) -> float:
    """Return the estimated CPU seconds of one coach estimate in ``game``."""
    return ESTIMATE_COSTS.get(game, max(ESTIMATE_COSTS.values()))


def queued_seconds(owner) -> float:
    """Return the worker time ``owner``'s unfinished reports, doctor runs and reviews need."""
    total = 0.0
    reports = DeckReport.objects.filter(owner=owner, status__in=UNFINISHED)
    for game, bot, games, done in reports.values_list(
        "game", "bot", "games", "done_games"
    ):
        total += max(0, games - done) * game_cost(game, bot)
    doctors = DeckDoctor.objects.filter(owner=owner, status__in=UNFINISHED)
    for game, bot, budget, done in doctors.values_list(
        "game", "bot", "budget", "done_games"
    ):
        total += max(0, budget - done) * game_cost(game, bot)
    reviews = GameReview.objects.filter(owner=owner, status__in=UNFINISHED)
    for game, moves, done in reviews.values_list("game", "moves", "done_games"):
        total += max(0, moves - done) * estimate_cost(game)
    return total


def duration(seconds: float) -> str:
    """Return a worker time in words: "40 s", "12 min", "2 h 5 min"."""
    if seconds < 60:
        return f"{math.ceil(seconds)} s"
    minutes = math.ceil(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60} min"


def lock_owner(owner) -> None:
    """Take ``owner``'s row lock: one user's starts then pass the checks in turn."""
    get_user_model().objects.select_for_update().filter(pk=owner.pk).first()


def refuse_over_quota(owner, seconds: float, fits: Callable[[float], str]) -> None:
    """Refuse (429) a job of ``seconds`` that would take ``owner`` over the quota.

    ``fits(room)`` says in words what would fit in the ``room`` seconds left.
    """
    queued = queued_seconds(owner)
    if queued + seconds <= QUOTA_SECONDS:
        return
    room = max(0.0, QUOTA_SECONDS - queued)
    raise PlaytestError(
        "over_quota",
        f"Your reports and deck doctor runs waiting or running need about "
        f"{duration(queued)} of worker time, and each person's bound is "
        f"{duration(QUOTA_SECONDS)}; this one would need about {duration(seconds)}. "
        f"{fits(room)}",
        status=429,
    )


def refuse_if_busy(model, owner, limit: int, code: str, message: str) -> None:
    """Refuse (429) when ``owner`` has ``limit`` runs of ``model`` waiting or running."""
    unfinished = model.objects.filter(owner=owner, status__in=UNFINISHED).count()
    if unfinished >= limit:
        raise PlaytestError(code, message, status=429)


def fair_priorities(owner, count: int) -> list[int]:
    """Return the task priorities of ``count`` new parts of ``owner``'s jobs.

    A part's priority is minus its place in its owner's queue (the parts of the
    owner's unfinished jobs not done yet, then these), so each user's first
    task runs before anyone's second; past the backend's lowest priority the
    order falls back to first come, first served.
    """
    place = (
        DeckReportChunk.objects.filter(
            report__owner=owner, report__status__in=UNFINISHED, done=False
        ).count()
        + DeckDoctorCandidate.objects.filter(
            doctor__owner=owner, doctor__status__in=UNFINISHED, done=False
        ).count()
        + GameReview.objects.filter(
            owner=owner, status__in=UNFINISHED, done=False
        ).count()
    )
    return [max(TASK_MIN_PRIORITY, -(place + i)) for i in range(count)]


# --- heartbeats -------------------------------------------------------------


class JobStopped(Exception):
    """The job was cancelled or failed, or this run of its part was superseded."""


def progress_every() -> float:
    """Return the seconds between a running part's progress writes."""
    return settings.DECK_JOB_PROGRESS_MS / 1000


def stale_before() -> datetime:
    """Return the time before which a part's last heartbeat means its worker is gone."""
    return timezone.now() - timedelta(seconds=settings.DECK_JOB_STALE_AFTER)


def claim_part(part) -> bool:
    """Mark the start of ``part``'s current attempt; False when it is not current."""
    return bool(
        type(part)
        .objects.filter(pk=part.pk, attempt=part.attempt, done=False)
        .update(heartbeat=timezone.now())
    )


def taken_in_silence(task, parts) -> set[int]:
    """Return the ids of ``parts`` whose task a worker took long ago, never to beat.

    A worker killed after taking a part's task and before its first heartbeat
    leaves the task running for good in the database backend's table: its
    start is the part's last sign of life.
    """
    if task is None or not parts or not isinstance(task.get_backend(), DatabaseBackend):
        return set()
    current = {(part.pk, part.attempt) for part in parts}
    taken = DBTaskResult.objects.filter(
        task_path=task.module_path,
        status=TaskResultStatus.RUNNING,
        started_at__lt=stale_before(),
    ).values_list("args_kwargs", flat=True)
    found = set()
    for call in taken:
        args = call["args"]
        key = (args[0], args[1] if len(args) > 1 else 0)
        if key in current:
            found.add(key[0])
    return found


def silent_parts(parts, task) -> list:
    """Return the parts, not done, whose worker has been silent too long."""
    before = stale_before()
    waiting = [part for part in parts if part.heartbeat is None]
    taken = taken_in_silence(task, waiting)
    return [
        part
        for part in parts
        if (part.heartbeat is not None and part.heartbeat < before) or part.pk in taken
    ]


def requeue_part(job_model, job_pk: int, part) -> int | None:
    """Queue a silent part again: return its new attempt (None: it has moved on).

    Under the job's row lock, as a part's own writes are, so its partial
    progress is taken back from the job exactly once.
    """
    part_model = type(part)
    with transaction.atomic():
        job_model.objects.select_for_update().filter(pk=job_pk).first()
        fresh = part_model.objects.filter(
            pk=part.pk, done=False, attempt=part.attempt
        ).first()
        if fresh is None or fresh.heartbeat != part.heartbeat:
            return None
        part = fresh
        part_model.objects.filter(pk=part.pk).update(
            attempt=F("attempt") + 1, heartbeat=None, progress=0
        )
        job_model.objects.filter(pk=job_pk).update(
            done_games=F("done_games") - part.progress
        )
    return part.attempt + 1


def requeue_silent(job, parts, task, enqueue, taken: bool = False) -> int:
    """Queue again the parts of ``job`` whose worker fell silent; return how many.

    ``parts`` is the job's parts (a queryset), ``task`` the task that runs one,
    ``enqueue(parts, priorities)`` queues them. ``taken``: also the parts whose
    task a worker took and died before their first heartbeat (a look at the
    task table, so the watch task's, not a page's).
    """
    parts = parts.filter(done=False)
    if not taken:
        parts = parts.filter(heartbeat__isnull=False)
    requeued = []
    for part in silent_parts(list(parts), task if taken else None):
        attempt = requeue_part(type(job), job.pk, part)
        if attempt is not None:
            part.attempt = attempt
            requeued.append(part)
    if requeued:
        # They were running: they go first in their owner's queue.
        enqueue(requeued, [0] * len(requeued))
    return len(requeued)


def watch_later(task, job_pk: int) -> None:
    """Queue ``task(job_pk)`` to look for silent parts once a heartbeat can be stale."""
    backend = task.get_backend()
    if not backend.supports_defer:  # the immediate backend runs a job to its end
        return
    at = timezone.now() + timedelta(seconds=settings.DECK_JOB_STALE_AFTER)
    task.using(priority=TASK_MAX_PRIORITY, run_after=at).enqueue(job_pk)


def watch_job(job, watch_task, requeue_stale) -> None:
    """Queue a job's silent parts again, and the next look, while the job lasts.

    The next look is queued first: a worker killed during this one leaves it.
    """
    if job is None or not job.unfinished:
        return
    watch_later(watch_task, job.pk)
    requeue_stale(job, taken=True)


class Progress:
    """Add a part's games to its job's ``done_games``, seldom: the writes are the cost.

    ``step(done)`` is told after each game and writes at most once every
    ``DECK_JOB_PROGRESS_MS``: the games onto the job (with F(), so parts on
    several workers all count) and onto the part with its heartbeat. It raises
    ``JobStopped`` when the job is no longer running or the part's attempt has
    moved on (a worker thought dead); ``rest()`` says how many games are not
    written yet, for the part's one last write.
    """

    def __init__(self, model, pk: int, part=None, every: float | None = None):
        self.model, self.pk, self.part = model, pk, part
        self.every = progress_every() if every is None else every
        self.written = 0
        self.last = time.monotonic()

    def step(self, done: int) -> None:
        now = time.monotonic()
        if now - self.last >= self.every and done > self.written:
            self.write(done - self.written)
            self.written, self.last = done, now

    def write(self, games: int) -> None:
        # The job's row first, as every writer of a job and its parts takes them.
        with transaction.atomic():
            moved = self.model.objects.filter(pk=self.pk, status__in=UNFINISHED).update(
                done_games=F("done_games") + games
            )
            if not moved:
                raise JobStopped
            if self.part is not None:
                beat = type(self.part).objects.filter(
                    pk=self.part.pk, attempt=self.part.attempt, done=False
                )
                if not beat.update(
                    progress=F("progress") + games, heartbeat=timezone.now()
                ):
                    raise JobStopped

    def rest(self, done: int) -> int:
        return done - self.written
