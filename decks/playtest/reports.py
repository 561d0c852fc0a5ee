"""Deck reports: many bot games of a deck, run by the task worker, never in a request.

``deck_report_start`` stores the report and enqueues ``run_deck_report`` on the
default task backend (the database backend: ``manage.py db_worker`` runs it, and
``make run`` starts one). The worker writes progress as it goes; the page polls it.
"""

from __future__ import annotations

import math
import statistics
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django_tasks import task

from cards.games import GAMES

from ..engine import get_game
from ..engine.bots import make_bot, play_out
from ..engine.core import Rng, seed_state
from .adapter import PlaytestError, engine_decks
from .models import DeckReport
from .opponents import resolve_opponent

MAX_GAMES = 5000
MAX_OPPONENTS = 8
# Reports one user may have waiting for or running on the worker at once.
MAX_UNFINISHED = 3
# A report unfinished this long after it started lost its worker (killed, say);
# it stops counting, so a crash never bars its owner from reports for good.
UNFINISHED_FOR_AT_MOST = timedelta(hours=1)


def wilson_interval(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Return the 95% Wilson score interval of a win rate (draws count half)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


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
    if bot not in ("random", "greedy"):
        raise PlaytestError("bad_bot", "The bots are random or greedy.")
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
    with transaction.atomic():
        # The owner's row lock queues one user's starts, so two at once cannot
        # both pass the count below.
        get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
        unfinished = DeckReport.objects.filter(
            owner=owner,
            status__in=[DeckReport.Status.QUEUED, DeckReport.Status.RUNNING],
            created_at__gte=timezone.now() - UNFINISHED_FOR_AT_MOST,
        ).count()
        if unfinished >= MAX_UNFINISHED:
            raise PlaytestError(
                "too_many_reports",
                f"At most {MAX_UNFINISHED} of your reports wait or run at once; "
                "start another when one of them has finished.",
                status=429,
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
        transaction.on_commit(lambda: run_deck_report.enqueue(report.pk))
    return report


def simulate_report(report: DeckReport, progress=None) -> dict:
    """Play the report's games and return its figures (seat 0 is the reported deck)."""
    game = get_game(report.game)
    # Several opponents: game i is against opponent i % k (decks[1 + i % k]).
    field = report.field or []
    tally = [[0, 0, 0] for _ in field]  # wins, losses, draws per opponent
    wins = losses = draws = 0
    lengths = []
    card_games: dict[str, list[int]] = {}
    names = {
        str(c["id"]): c.get("name") or f"card {c['id']}"
        for cards in report.decks[0].values()
        for c in cards
    }
    for i in range(report.games):
        game_seed = report.seed + i
        decks = report.decks
        if len(field) > 1:
            decks = [report.decks[0], report.decks[1 + i % len(field)]]
        state = game.new_game(decks, report.options, game_seed)
        seats = game.player_count(state)
        bots = [make_bot(report.bot, game_seed * 31 + s) for s in range(seats)]
        state = play_out(game, state, bots, Rng(seed_state(game_seed, 7)))
        winner = game.winner(state)
        result = 1.0 if winner == 0 else (0.5 if winner is None else 0.0)
        wins += winner == 0
        draws += winner is None
        losses += winner not in (0, None)
        if field:
            tally[i % len(field)][
                0 if winner == 0 else (2 if winner is None else 1)
            ] += 1
        lengths.append(game.length(state))
        played = _cards_played(game, state)
        for card_id in played:
            card_games.setdefault(card_id, [0, 0])
            card_games[card_id][0] += 1
            card_games[card_id][1] += result * 2  # half-points as integers
        if progress is not None:
            progress(i + 1)
    n = report.games
    low, high = wilson_interval(wins + draws / 2, n)
    buckets: dict[int, int] = {}
    width = max(1, (max(lengths) - min(lengths)) // 10 + 1) if lengths else 1
    for length in lengths:
        start = (length - min(lengths)) // width * width + min(lengths)
        buckets[start] = buckets.get(start, 0) + 1
    per_card = sorted(
        (
            {
                "id": cid,
                "name": names.get(cid, cid),
                "games": g,
                "win_rate": round(points / 2 / g, 3),
            }
            for cid, (g, points) in card_games.items()
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
            _opponent_row(name, *t) for name, t in zip(field, tally, strict=True)
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


def _cards_played(game, state) -> set[str]:
    """Return the ids of seat 0's cards that the view shows as having left the hand."""
    return set(game.view(state, 0).played)


@task()
def run_deck_report(report_id: int) -> None:
    """Run a stored deck report, writing progress as it goes."""
    report = DeckReport.objects.get(pk=report_id)
    DeckReport.objects.filter(pk=report_id).update(status=DeckReport.Status.RUNNING)
    step = max(1, report.games // 50)

    def progress(done: int) -> None:
        if done % step == 0 or done == report.games:
            DeckReport.objects.filter(pk=report_id).update(done_games=done)

    try:
        result = simulate_report(report, progress)
    except Exception as exc:  # the report page must say what went wrong
        DeckReport.objects.filter(pk=report_id).update(
            status=DeckReport.Status.FAILED, error=str(exc)[:2000]
        )
        raise
    DeckReport.objects.filter(pk=report_id).update(
        status=DeckReport.Status.DONE, result=result, done_games=report.games
    )
