"""Deck reports: many bot games of a deck, run by the task worker, never in a request.

``deck_report_start`` stores the report with its games cut into slices of
about ``CHUNK_SECONDS`` of the bot's play, at most ``CHUNK_GAMES`` games
(``DeckReportChunk``), and enqueues one ``run_report_chunk`` task per slice,
each with its fair priority (``workload``), on the default task backend (the
database backend: ``manage.py db_worker`` runs them, ``make run`` starts one
worker, and any number more, on this machine or others sharing the database,
take slices in parallel). Each
slice adds its games to the report's progress when it ends (and, with its
heartbeat, every ``DECK_JOB_PROGRESS_MS`` on the way); the last to finish merges
the slices' tallies in game order, so the result for a seed is the same however
many workers ran it and in whatever order (``simulate_report`` plays them all
in one go, for comparison). The page polls the progress. What a report may cost
is bounded per user (``workload.QUOTA_SECONDS``); ``deck_report_cancel`` stops
one. A slice whose worker died is queued again by ``watch_report`` (queued with
the report, run again every ``DECK_JOB_STALE_AFTER`` seconds while it lasts) or
by the report's page, and plays its games again from their seeds.

What a slice costs beside its games is kept small, so N workers finish a
report in about its CPU time / N (``python -m tools.bench reports`` measures it): one
read when it starts (the report's decks; the engine keeps its read of them
between slices in a worker), one write transaction when it ends, the tallies
read once, by the last slice only; a worker takes its next slice as soon as one
ends (db_worker sleeps its ``--interval`` only when the queue is empty).
"""

from __future__ import annotations

import math
import statistics

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django_tasks import task

from cards.games import GAMES

from ..engine import engine_for
from ..engine.bots import BOT_NAMES, make_bot, play_out
from ..engine.core import Rng, pinned, seed_state
from ..engine.strength import wilson_interval
from .adapter import PlaytestError, engine_decks
from .models import DeckReport, DeckReportChunk
from .opponents import resolve_opponent
from .workload import (
    UNFINISHED,
    JobStopped,
    Progress,
    claim_part,
    fair_priorities,
    game_cost,
    lock_owner,
    refuse_over_quota,
    requeue_silent,
    watch_job,
    watch_later,
)

MAX_GAMES = 5000
MAX_OPPONENTS = 8
# Games per slice of a report: each slice is one task, taken by any free worker.
CHUNK_GAMES = 100
# A slice of a slow bot holds fewer games: about this many CPU seconds, so a
# worker comes back to the queue (and to other users' tasks) this often.
CHUNK_SECONDS = 5.0


def deck_report_start(
    *,
    owner,
    deck,
    opponent_deck=None,
    opponents=(),
    games: int = 100,
    bot: str = "greedy",
    seed: int = 1,
) -> DeckReport:
    """Store a report request and enqueue it for the worker.

    The decks are checked as a playtest checks them: an illegal deck is refused.
    ``opponents`` names the opposing field (values of ``opponents.py``: presets,
    "random", deck ids, "mirror"); the games go round them in turn and the
    result gives the win rate against each. None named: ``opponent_deck``, else
    the mirror.
    """
    if bot not in BOT_NAMES:
        raise PlaytestError("bad_bot", f"The bots are one of: {', '.join(BOT_NAMES)}.")
    if not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise PlaytestError("bad_games", f"A report runs 1 to {MAX_GAMES} games.")
    if not isinstance(seed, int) or not 0 <= seed < 2**53:
        raise PlaytestError("bad_seed", "The seed is a whole number from 0 to 2^53.")
    slug = deck.game.slug
    opponent = opponent_deck or deck
    if opponent.game_id != deck.game_id:
        raise PlaytestError("bad_deck", "The opponent's deck is for another game.")
    players = 2
    shared = GAMES[slug].shared_pack
    field = []
    if shared:
        seat_decks = [deck]
    elif opponents:
        if len(opponents) > MAX_OPPONENTS:
            raise PlaytestError(
                "bad_opponent", f"A report takes at most {MAX_OPPONENTS} opponents."
            )
        resolved = [
            resolve_opponent(owner, deck, value, seed + i)
            for i, value in enumerate(opponents)
        ]
        seat_decks = [deck, *(o.deck for o in resolved)]
        field = [o.label for o in resolved]
    else:
        seat_decks = [deck, opponent]
    decks = engine_decks(slug, seat_decks, players=players, reader=owner)
    options = {"players": players} if shared else {}
    cost = game_cost(slug, bot)

    def fits(room: float) -> str:
        most = math.floor(room / cost)
        if most < 1:
            return "Nothing more fits until one of them finishes or you cancel it."
        return f"With this bot, a report of at most {most} games fits now."

    with transaction.atomic():
        # The owner's row lock queues one user's starts: two at once cannot
        # both pass the quota.
        lock_owner(owner)
        refuse_over_quota(owner, games * cost, fits)
        priorities = fair_priorities(
            owner, len(chunk_ranges(games, chunk_size(slug, bot)))
        )
        report = DeckReport.objects.create(
            owner=owner,
            deck=deck,
            opponent_deck=opponent_deck,
            game=slug,
            bot=bot,
            games=games,
            seed=seed,
            options=options,
            decks=decks,
            field=field,
        )
        chunks = report_chunks_create(report)
        transaction.on_commit(lambda: enqueue_chunks(chunks, priorities))
        transaction.on_commit(lambda: watch_later(watch_report, report.pk))
    return report


# --- chunks: a report's games in slices any number of workers take -------------


def chunk_ranges(games: int, size: int = CHUNK_GAMES) -> list[tuple[int, int]]:
    """Return (first game, games) of each slice of a report of ``games`` games."""
    return [(first, min(size, games - first)) for first in range(0, games, size)]


def chunk_size(game: str, bot: str) -> int:
    """Return the games of a slice: about ``CHUNK_SECONDS`` of play, 1 to 100."""
    return max(1, min(CHUNK_GAMES, math.floor(CHUNK_SECONDS / game_cost(game, bot))))


def report_chunks_create(report: DeckReport) -> list[DeckReportChunk]:
    """Store the slices of a new report's games (its own transaction's part)."""
    size = chunk_size(report.game, report.bot)
    return DeckReportChunk.objects.bulk_create(
        DeckReportChunk(report=report, index=i, first=first, games=games)
        for i, (first, games) in enumerate(chunk_ranges(report.games, size))
    )


def enqueue_chunks(chunks, priorities) -> None:
    """Put one task per slice on the queue, each at its place in its owner's queue."""
    for chunk, priority in zip(chunks, priorities, strict=True):
        run_report_chunk.using(priority=priority).enqueue(chunk.pk, chunk.attempt)


def play_games(report: DeckReport, first: int, games: int, progress=None) -> dict:
    """Play games ``first`` to ``first + games - 1`` of a report; return their tally.

    A game's seed is the report's seed plus its place, so a slice plays the same
    games whoever plays it. The tally holds raw counts that ``merge_tallies``
    adds up exactly; ``progress(n)`` is told after each of the slice's games.
    """
    game = engine_for(report.game)
    # Several opponents: game i is against opponent i % k (decks[1 + i % k]).
    field = report.field or []
    tally = [[0, 0, 0] for _ in field]  # wins, losses, draws per opponent
    wins = losses = draws = 0
    lengths = []
    card_games: dict[str, list[int]] = {}
    # The decks are read once per slice (and once per opponent), not per game.
    if len(field) > 1:
        pairings = [
            pinned([report.decks[0], report.decks[1 + k]]) for k in range(len(field))
        ]
    else:
        pairings = [pinned(report.decks)]
    for i in range(first, first + games):
        game_seed = report.seed + i
        decks = pairings[i % len(pairings)]
        state = game.new_game(decks, report.options, game_seed)
        seats = game.player_count(state)
        bots = [make_bot(report.bot, game_seed * 31 + s) for s in range(seats)]
        state = play_out(game, state, bots, Rng(seed_state(game_seed, 7)))
        winner = game.winner(state)
        points = 2 if winner == 0 else (1 if winner is None else 0)  # half-points
        wins += winner == 0
        draws += winner is None
        losses += winner not in (0, None)
        if field:
            tally[i % len(field)][
                0 if winner == 0 else (2 if winner is None else 1)
            ] += 1
        lengths.append(game.length(state))
        for card_id in _cards_played(game, state):
            counts = card_games.setdefault(card_id, [0, 0])
            counts[0] += 1
            counts[1] += points
        if progress is not None:
            progress(i - first + 1)
    return {
        "wins": wins,
        "losses": losses,
        "draws": draws,
        "lengths": lengths,
        "cards": card_games,
        "field": tally,
    }


def merge_tallies(tallies) -> dict:
    """Return the tally of consecutive slices, given in the order of their games."""
    merged = {"wins": 0, "losses": 0, "draws": 0, "lengths": [], "cards": {}}
    merged["field"] = []
    for tally in tallies:
        for key in ("wins", "losses", "draws"):
            merged[key] += tally[key]
        # Wins, losses and draws against each opponent of the field.
        for k, counts in enumerate(tally.get("field", [])):
            if k == len(merged["field"]):
                merged["field"].append([0, 0, 0])
            for j in range(3):
                merged["field"][k][j] += counts[j]
        merged["lengths"].extend(tally["lengths"])
        for card_id, (games, points) in tally["cards"].items():
            counts = merged["cards"].setdefault(card_id, [0, 0])
            counts[0] += games
            counts[1] += points
    return merged


def report_figures(report: DeckReport, tally: dict) -> dict:
    """Return a report's figures from the tally of all its games."""
    names = {
        str(c["id"]): c.get("name") or c.get("label") or f"card {c['id']}"
        for cards in report.decks[0].values()
        for c in cards
    }
    wins, losses, draws = tally["wins"], tally["losses"], tally["draws"]
    lengths = tally["lengths"]
    n = report.games
    low, high = wilson_interval(wins + draws / 2, n)
    buckets: dict[int, int] = {}
    shortest = min(lengths, default=0)  # once: the merge runs under the report's lock
    width = max(1, (max(lengths) - shortest) // 10 + 1) if lengths else 1
    for length in lengths:
        start = (length - shortest) // width * width + shortest
        buckets[start] = buckets.get(start, 0) + 1
    per_card = sorted(
        (
            {
                "id": cid,
                "name": names.get(cid, cid),
                "games": g,
                "win_rate": round(points / 2 / g, 3),
            }
            for cid, (g, points) in tally["cards"].items()
            if cid in names
        ),
        key=lambda row: (-row["games"], row["name"]),
    )
    return {
        "games": n,
        "wins": wins,
        "losses": losses,
        "draws": draws,
        "win_rate": round((wins + draws / 2) / n, 4),
        "interval": [round(low, 4), round(high, 4)],
        "mean_length": round(statistics.fmean(lengths), 2),
        "median_length": statistics.median(lengths),
        "length_histogram": [[k, buckets[k], width] for k in sorted(buckets)],
        "per_card": per_card,
        "per_opponent": [
            _opponent_row(name, *counts)
            for name, counts in zip(report.field or [], tally["field"], strict=True)
        ],
    }


def _opponent_row(name: str, wins: int, losses: int, draws: int) -> dict:
    n = wins + losses + draws
    low, high = wilson_interval(wins + draws / 2, n)
    return {
        "name": name,
        "games": n,
        "wins": wins,
        "losses": losses,
        "draws": draws,
        "win_rate": round((wins + draws / 2) / n, 4) if n else 0.0,
        "interval": [round(low, 4), round(high, 4)],
    }


def simulate_report(report: DeckReport, progress=None) -> dict:
    """Play all the report's games in one go and return its figures (seat 0 is the
    reported deck): what the chunks, however many workers ran them, add up to."""
    return report_figures(report, play_games(report, 0, report.games, progress))


def _cards_played(game, state) -> set[str]:
    """Return the ids of seat 0's cards that the view shows as having left the hand."""
    return set(game.view(state, 0).played)


def chunk_run(chunk_id: int, attempt: int = 0) -> None:
    """Play one slice of a report and store its tally; the last slice merges them.

    A slice already done (its task run twice), of an attempt since superseded
    (its worker was thought dead), or of a report failed or cancelled is
    skipped, and a running one stops between games when it finds itself so.
    A slice writes to the database once when it ends (its tally, its games onto
    the report's progress, in one transaction), and meanwhile only every
    ``DECK_JOB_PROGRESS_MS`` (its heartbeat), so workers do not queue for
    SQLite's one writer. The end waits for the report's row lock: the slices'
    ends happen one at a time, and exactly one of them finds no slice left and
    merges the tallies.
    """
    chunk = DeckReportChunk.objects.select_related("report").get(pk=chunk_id)
    report = chunk.report
    if chunk.done or chunk.attempt != attempt or not report.unfinished:
        return
    if not claim_part(chunk):
        return
    if report.status == DeckReport.Status.QUEUED:
        DeckReport.objects.filter(pk=report.pk, status=DeckReport.Status.QUEUED).update(
            status=DeckReport.Status.RUNNING
        )
    progress = Progress(DeckReport, report.pk, chunk)
    try:
        tally = play_games(report, chunk.first, chunk.games, progress.step)
    except JobStopped:
        return
    except Exception as exc:  # the report page must say what went wrong
        DeckReport.objects.filter(pk=report.pk).update(
            status=DeckReport.Status.FAILED, error=str(exc)[:2000]
        )
        raise
    with transaction.atomic():
        DeckReport.objects.select_for_update().filter(pk=report.pk).first()
        stored = DeckReportChunk.objects.filter(
            pk=chunk.pk, done=False, attempt=attempt
        ).update(done=True, tally=tally, progress=chunk.games, heartbeat=timezone.now())
        if not stored:
            return
        if report.chunks.filter(done=False).exists():
            DeckReport.objects.filter(pk=report.pk).update(
                done_games=F("done_games") + progress.rest(chunk.games)
            )
            return
        # The last slice: only now are the tallies read, once, in game order.
        tallies = report.chunks.order_by("index").values_list("tally", flat=True)
        result = report_figures(report, merge_tallies(tallies))
        DeckReport.objects.filter(pk=report.pk, status__in=UNFINISHED).update(
            status=DeckReport.Status.DONE, result=result, done_games=report.games
        )


def report_requeue_stale(report: DeckReport, taken: bool = False) -> int:
    """Queue again the slices of ``report`` whose worker fell silent; return how many."""
    return requeue_silent(
        report, report.chunks.all(), run_report_chunk, enqueue_chunks, taken
    )


def report_watch(report_id: int) -> None:
    """Queue again a report's silent slices, and look again later while it lasts."""
    report = DeckReport.objects.filter(pk=report_id).first()
    watch_job(report, watch_report, report_requeue_stale)


def deck_report_cancel(*, report: DeckReport) -> DeckReport:
    """Stop a report: its queued slices are skipped, running ones stop between games.

    A cancelled report no longer counts against its owner's quota.
    """
    DeckReport.objects.filter(pk=report.pk, status__in=UNFINISHED).update(
        status=DeckReport.Status.CANCELLED
    )
    report.refresh_from_db()
    return report


@task()
def run_report_chunk(chunk_id: int, attempt: int = 0) -> None:
    """Run one slice of a stored deck report (any worker; see ``chunk_run``)."""
    chunk_run(chunk_id, attempt)


@task()
def watch_report(report_id: int) -> None:
    """Look for slices of a report left by a dead worker (see ``report_watch``)."""
    report_watch(report_id)


@task()
def run_deck_report(report_id: int) -> None:
    """Run every slice of a stored report in turn (a report queued before slices)."""
    report = DeckReport.objects.get(pk=report_id)
    chunks = list(report.chunks.order_by("index")) or report_chunks_create(report)
    for chunk in chunks:
        chunk_run(chunk.pk, chunk.attempt)
