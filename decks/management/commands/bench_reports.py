"""Time one deck report run by 1, then 2 (or more) task worker processes.

    manage.py bench_reports                      # 2,000 greedy Collision games
    manage.py bench_reports --workers 1 --workers 2 --workers 3 --games 1000

Each run stores a fresh report (a throwaway user and practice sample decks, all
deleted after), starts that many ``db_worker --batch`` processes on this
database and times them until the queue is empty. It prints the seconds per
worker count, the speed-up against one worker, and whether every run's result
was the same (it must be). Worker start-up is part of the time. Other tasks on
the queue would be run too: run it on a database of its own (``DATABASE_URL``).
"""

import json
import secrets
import subprocess
import sys
import time
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from cards.games import GAMES
from decks.playtest.models import DeckReport
from decks.playtest.reports import MAX_GAMES, deck_report_start
from decks.samples import sample_deck

ROOT = Path(__file__).resolve().parents[3]


def run_workers(count: int) -> float:
    """Run ``count`` worker processes until the queue is empty; return the seconds."""
    command = [
        sys.executable,
        "manage.py",
        "db_worker",
        "--batch",
        "--no-startup-delay",
        "--no-reload",
        "--queue-name",
        "*",
    ]
    started = time.perf_counter()
    workers = [
        subprocess.Popen(
            command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        for _ in range(count)
    ]
    for worker in workers:
        worker.wait()
    return time.perf_counter() - started


class Command(BaseCommand):
    help = "Time a deck report run by one and by more task worker processes."

    def add_arguments(self, parser):
        parser.add_argument("--game", default=next(iter(GAMES)), choices=sorted(GAMES))
        parser.add_argument("--games", type=int, default=2000)
        parser.add_argument("--bot", default="greedy")
        parser.add_argument("--workers", type=int, action="append")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **opts):
        counts = opts["workers"] or [1, 2]
        if not 1 <= opts["games"] <= MAX_GAMES or min(counts) < 1:
            raise CommandError(f"--games runs 1 to {MAX_GAMES}; --workers at least 1.")
        owner = get_user_model().objects.create_user(
            f"bench-reports-{secrets.token_hex(4)}"
        )
        try:
            deck = sample_deck(owner=owner, game_slug=opts["game"], variant=0)
            opponent = sample_deck(owner=owner, game_slug=opts["game"], variant=1)
            rows, results = [], []
            for count in counts:
                with transaction.atomic():
                    report = deck_report_start(
                        owner=owner,
                        deck=deck,
                        opponent_deck=None
                        if GAMES[opts["game"]].shared_pack
                        else opponent,
                        games=opts["games"],
                        bot=opts["bot"],
                        seed=1,
                    )
                seconds = run_workers(count)
                report = DeckReport.objects.get(pk=report.pk)
                if report.status != DeckReport.Status.DONE:
                    raise CommandError(
                        f"The report ended {report.status}: {report.error}"
                    )
                results.append(report.result)
                rows.append({"workers": count, "seconds": round(seconds, 2)})
        finally:
            owner.delete()
        for row in rows:
            row["speed_up"] = round(rows[0]["seconds"] / row["seconds"], 2)
        summary = {
            "game": opts["game"],
            "games": opts["games"],
            "bot": opts["bot"],
            "runs": rows,
            "same_result": all(r == results[0] for r in results),
        }
        if opts["json"]:
            self.stdout.write(json.dumps(summary))
            return
        for row in rows:
            self.stdout.write(
                f"{row['workers']} worker(s): {row['seconds']:8.2f} s"
                f"  speed-up {row['speed_up']:.2f}x"
            )
        self.stdout.write(f"same result every run: {summary['same_result']}")
