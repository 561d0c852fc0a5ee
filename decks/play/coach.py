"""The coach at the table: hints during a practice game, and a game's review.

A hint (``playtest_hint``) is each legal move of the seat to act with the
coach's estimate of its win chance (``decks.engine.coach.move_chances``), from
what the seat may see only, best first. Its seed is the game's seed and the
move number, so asking twice gives the same list. It is thinking done inside
the request, charged to the bots' budget (``budgets.BOT_THINKING``) as a bot's
move is. A move chosen from the list is logged with the mark ``"hint"``
(``services.playtest_act``). Hints are offered in practice games (a human seat
against bots) and can be turned off for a game (``playtest_hints_set``).

A review (``review_start``) estimates every choice one seat made in a stored
game, on a task worker, as a report's slice runs: one ``run_review`` task, its
heartbeat and a watch task (``workload``), its cost (the seat's choices times
the measured seconds of one estimate, ``costs.json``) counted against the
owner's quota. It is stored per owner and ``review_key`` (the game as played,
the seat and the coach's version): asking again for the same game gives the
stored review. The figures (``review_figures``) name each move in words, mark
the costly ones and the turning point in a sentence.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from django.db import transaction
from django_tasks import task

from ..budgets import BOT_THINKING, Stopwatch, budget_charge
from ..engine import coach, engine_for
from ..engine.core import CHANCE
from .adapter import PlaytestError
from .models import GameReview, Playtest
from .services import (
    HUMAN_KINDS,
    _acting,
    _check_thinking,
    _check_version,
    _replay,
    hints_offered,
)
from .workload import (
    UNFINISHED,
    JobStopped,
    Progress,
    claim_part,
    estimate_cost,
    fair_priorities,
    lock_owner,
    refuse_over_quota,
    requeue_silent,
    watch_job,
    watch_later,
)

# --- hints ------------------------------------------------------------------


@dataclass(frozen=True)
class HintMove:
    id: str  # the action's text: what the board's forms post
    label: str  # the move in words (the engine's ``describe``)
    percent: int  # the estimated chance to win after it, in per cent


def playtest_hint(*, playtest: Playtest, user, version: int) -> list[HintMove]:
    """Return the coach's hint for the seat to act: every legal move, best first."""
    if not Playtest.objects.of(user).filter(pk=playtest.pk).exists():
        raise PlaytestError("not_found", "No such game.", status=404)
    _check_version(playtest, version)
    if not hints_offered(playtest):
        raise PlaytestError("no_hints", "Hints are not offered in this game.")
    game = engine_for(playtest.game)
    state = _replay(game, playtest)
    seat = _acting(game, playtest, state)
    if seat is None or seat == CHANCE:
        raise PlaytestError("not_your_turn", "A hint is for a move of yours.")
    _check_thinking(user)
    watch = Stopwatch()
    with watch:
        chances = coach.move_chances(
            game, state, coach.coach_seed(playtest.seed, len(playtest.log))
        )
    budget_charge(
        budget=BOT_THINKING,
        user=user,
        address=getattr(user, "address", None),
        amount=watch.seconds,
    )
    actions = {a.text: a for a in game.legal_actions(state)}
    return [
        HintMove(c.text, game.describe(state, actions[c.text]), round(100 * c.chance))
        for c in chances
    ]


def playtest_hints_set(*, playtest: Playtest, on: bool) -> Playtest:
    """Turn the coach's hints on or off for one game."""
    playtest.hints = bool(on)
    playtest.save(update_fields=["hints", "updated_at"])
    return playtest


def hinted_steps(playtest: Playtest) -> list[int]:
    """Return the log places of the moves chosen from a hint (marked ``"hint"``)."""
    return [i for i, step in enumerate(playtest.steps) if step[3:] == ["hint"]]


def hinted_moves(playtest: Playtest) -> list[tuple[int, str, int | None]]:
    """Return (turn, move in words, its first event's place) of each hinted move.

    The place is None when the move wrote no event line.
    """
    places = hinted_steps(playtest)
    if not places:
        return []
    game = engine_for(playtest.game)
    state = game.new_game(playtest.decks, playtest.options, playtest.seed)
    found = []
    for i, text in enumerate(playtest.log[: places[-1] + 1]):
        action = game.parse_action(text)
        if i in places:
            words, before = game.describe(state, action), len(state.events)
        state = game.apply(state, action, inplace=True)
        if i in places:
            line = before if len(state.events) > before else None
            found.append((playtest.steps[i][1], words, line))
    return found


def hint_marked(playtest: Playtest, events: list[str]) -> list[str]:
    """Return a board's event lines with "(hint)" after each hinted move's first line.

    Every game's view has one line per event of its state, in order, so a
    move's lines are where the replay found them.
    """
    lines = {line for _, _, line in hinted_moves(playtest) if line is not None}
    return [f"{text} (hint)" if i in lines else text for i, text in enumerate(events)]


# --- reviews ----------------------------------------------------------------


def review_key(playtest: Playtest, seat: int) -> str:
    """Return the name of a review: the game as played, the seat, the coach's version."""
    named = [
        playtest.game,
        playtest.engine_version,
        playtest.decks,
        playtest.options,
        playtest.seed,
        playtest.log,
        seat,
        coach.VERSION,
    ]
    return hashlib.sha256(json.dumps(named, sort_keys=True).encode()).hexdigest()


def review_seat(playtest: Playtest) -> int:
    """Return the seat a review follows: the first human seat (the deck's owner)."""
    return next(
        (i for i, s in enumerate(playtest.seats) if s["kind"] in HUMAN_KINDS), 0
    )


def _choices(game, playtest: Playtest, seat: int) -> int:
    """Return how many choices (two legal moves or more) ``seat`` made in the game."""
    return len(
        coach.choice_steps(
            game, playtest.decks, playtest.options, playtest.seed, playtest.log, seat
        )
    )


def review_start(*, owner, playtest: Playtest) -> GameReview:
    """Return ``owner``'s review of ``playtest``: the stored one, else a new one queued.

    A failed or cancelled review of the same game is started again.
    """
    seat = review_seat(playtest)
    key = review_key(playtest, seat)
    game = engine_for(playtest.game)
    moves = _choices(game, playtest, seat)
    if not moves:
        raise PlaytestError("no_choices", "There is no choice of yours to review yet.")
    cost = moves * estimate_cost(playtest.game)

    def fits(room: float) -> str:
        return "Nothing more fits until one of them finishes or you cancel it."

    with transaction.atomic():
        lock_owner(owner)
        stored = GameReview.objects.filter(owner=owner, key=key).first()
        if stored is not None and stored.status not in (
            GameReview.Status.FAILED,
            GameReview.Status.CANCELLED,
        ):
            return stored
        if stored is not None:
            stored.delete()
        refuse_over_quota(owner, cost, fits)
        priority = fair_priorities(owner, 1)[0]
        review = GameReview.objects.create(
            owner=owner,
            playtest=playtest,
            game=playtest.game,
            bot="coach",
            seed=playtest.seed,
            options=playtest.options,
            seat=seat,
            key=key,
            log=playtest.log,
            hinted=hinted_steps(playtest),
            moves=moves,
        )
        transaction.on_commit(lambda: enqueue_reviews([review], [priority]))
        transaction.on_commit(lambda: watch_later(watch_review, review.pk))
    return review


def enqueue_reviews(reviews, priorities) -> None:
    """Put one task per review on the queue, at its place in its owner's queue."""
    for review, priority in zip(reviews, priorities, strict=True):
        run_review.using(priority=priority).enqueue(review.pk, review.attempt)


def review_figures(game, review: GameReview, moves) -> dict:
    """Return a review's stored figures: each choice in words, the costly ones, the turning point."""
    pt = review.playtest
    state = game.new_game(pt.decks, pt.options, pt.seed)
    by_step = {m.step: m for m in moves}
    rows = []
    for step, text in enumerate(review.log):
        m = by_step.get(step)
        if m is not None:
            rows.append(
                {
                    "step": m.step,
                    "turn": m.turn,
                    "move": _bare(game.describe(state, game.parse_action(m.text))),
                    "best": _bare(game.describe(state, game.parse_action(m.best))),
                    "same": m.best == m.text,
                    "chance": round(m.chance, 4),
                    "best_chance": round(m.best_chance, 4),
                    "lost": m.lost,
                    "costly": m.costly,
                    "hint": m.step in review.hinted,
                }
            )
        state = game.apply(state, game.parse_action(text), inplace=True)
    turn = coach.turning_point(moves)
    point = next((r for r in rows if turn is not None and r["step"] == turn.step), None)
    return {
        "seat": review.seat,
        "version": coach.VERSION,
        "moves": rows,
        "costly": COSTLY,
        "turning_point": point,
        "sentence": turning_sentence(point),
    }


COSTLY = coach.COSTLY_POINTS


def turning_sentence(row: dict | None) -> str:
    """Return the turning point in one sentence (the moves in the words given)."""
    if row is None:
        return (
            f"No move cost more than {COSTLY} points of win chance: "
            "there was no turning point."
        )
    return (
        f"Turn {row['turn']}: playing \u201c{_bare(row['move'])}\u201d instead of "
        f"\u201c{_bare(row['best'])}\u201d cost about {row['lost']} points of "
        "win chance."
    )


def _bare(text: str) -> str:
    """Return a move's words without their closing full stop, to quote in a sentence."""
    return text.rstrip().removesuffix(".")


def review_run(review_id: int, attempt: int = 0) -> None:
    """Estimate a review's moves and store its figures (skipped when not current).

    A review done, cancelled or failed, or of an attempt since superseded (its
    worker was thought dead), is skipped; a running one writes its progress and
    heartbeat every ``DECK_JOB_PROGRESS_MS`` and stops when it finds itself so.
    """
    review = GameReview.objects.select_related("playtest").get(pk=review_id)
    if review.done or review.attempt != attempt or not review.unfinished:
        return
    if not claim_part(review):
        return
    GameReview.objects.filter(pk=review.pk, status=GameReview.Status.QUEUED).update(
        status=GameReview.Status.RUNNING
    )
    pt = review.playtest
    game = engine_for(review.game)
    progress = Progress(GameReview, review.pk, review)
    try:
        moves = coach.review(
            game,
            pt.decks,
            review.options,
            review.seed,
            review.log,
            review.seat,
            lambda done, total: progress.step(done),
        )
        result = review_figures(game, review, moves)
    except JobStopped:
        return
    except Exception as exc:  # the review's page must say what went wrong
        GameReview.objects.filter(pk=review.pk).update(
            status=GameReview.Status.FAILED, error=str(exc)[:2000]
        )
        raise
    GameReview.objects.filter(
        pk=review.pk, attempt=attempt, done=False, status__in=UNFINISHED
    ).update(
        status=GameReview.Status.DONE,
        done=True,
        result=result,
        done_games=review.moves,
    )


def review_requeue_stale(review: GameReview, taken: bool = False) -> int:
    """Queue a review again when its worker fell silent; return 1 if so, else 0."""
    parts = GameReview.objects.filter(pk=review.pk)
    return requeue_silent(review, parts, run_review, enqueue_reviews, taken)


def review_watch(review_id: int) -> None:
    """Queue a silent review again, and look again later while it lasts."""
    review = GameReview.objects.filter(pk=review_id).first()
    watch_job(review, watch_review, review_requeue_stale)


def review_graph(result: dict, width: int = 600, height: int = 260) -> dict:
    """Return the win-chance graph's SVG figures: the line, the costly points, the axes."""
    rows = result.get("moves", [])
    pad = 40
    span = max(1, len(rows) - 1)

    def x(i: int) -> float:
        return round(pad + (width - 2 * pad) * i / span, 1)

    def y(chance: float) -> float:
        return round(pad + (height - 2 * pad) * (1 - chance), 1)

    points = [(x(i), y(r["chance"])) for i, r in enumerate(rows)]
    return {
        "width": width,
        "height": height,
        "line": " ".join(f"{px},{py}" for px, py in points),
        "dots": [
            {"x": px, "y": py, "row": r}
            for (px, py), r in zip(points, rows, strict=True)
        ],
        "half": y(0.5),
        "labels": [(y(v) + 6, f"{round(100 * v)}%") for v in (1.0, 0.5, 0.0)],
        "top": y(1.0),
        "bottom": y(0.0),
        "left": pad,
        "right": width - pad,
    }


@task()
def run_review(review_id: int, attempt: int = 0) -> None:
    """Run one game review (any worker; see ``review_run``)."""
    review_run(review_id, attempt)


@task()
def watch_review(review_id: int) -> None:
    """Look for a review left by a dead worker (see ``review_watch``)."""
    review_watch(review_id)
