"""The one benchmark report: every speed figure the README quotes, in one table."""

import io
import re
import time

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import connection
from django.db.models import Count
from django.test import Client
from django.test.utils import CaptureQueriesContext

from cards.games import GAMES
from cards.management.commands.bench_search import parse_figures
from cards.models import Card
from decks.management.commands.bench_engines import engine_figures
from decks.management.commands.bench_playtest import playtest_action_times
from decks.playtest.models import DeckReport
from decks.playtest.reports import simulate_report
from decks.playtest.simulation import engine_decks_from_specs


def largest_checklist() -> str:
    """Return the slug of the game with the most cards (the heaviest checklist)."""
    counts = {slug: 0 for slug in GAMES}
    for row in Card.objects.values("card_set__game__slug").annotate(n=Count("id")):
        counts[row["card_set__game__slug"]] = row["n"]
    return max(counts, key=counts.get)


def query_counts() -> list[tuple[str, int, int]]:
    """Return (page, queries at page size 1, at page size 50) for the checklist and the API."""
    user = get_user_model().objects.create_user(
        f"bench-q-{time.time_ns()}", password=None
    )
    client = Client()
    client.force_login(user)
    rows = []
    checklist = f"/games/{largest_checklist()}/?page_size={{n}}"
    try:
        for label, url in (
            ("checklist page (signed in)", checklist),
            ("card list API", "/api/cards/?page_size={n}"),
        ):
            counts = []
            for n in (1, 50):
                client.get(url.format(n=n))  # warm caches
                with CaptureQueriesContext(connection) as ctx:
                    assert client.get(url.format(n=n)).status_code == 200
                counts.append(len(ctx.captured_queries))
            rows.append((label, *counts))
    finally:
        user.delete()
    return rows


def report_seconds(slug: str, games: int = 1000) -> float:
    """Return the seconds a deck report of ``games`` random-bot games takes (in process)."""
    shared = GAMES[slug].shared_pack
    specs = ["sample"] if shared else ["sample:0", "sample:1"]
    report = DeckReport(
        game=slug,
        games=games,
        seed=1,
        bot="random",
        decks=engine_decks_from_specs(slug, specs, players=2),
        options={"players": 2} if shared else {},
    )
    started = time.perf_counter()
    simulate_report(report)
    return time.perf_counter() - started


def captured(command: str, **options) -> str:
    out = io.StringIO()
    call_command(command, stdout=out, **options)
    return out.getvalue()


class Command(BaseCommand):
    help = "Print the benchmark report: API vs trivial view, SQL per page, deck validation, engines, deck reports, playtest actions."

    def add_arguments(self, parser):
        parser.add_argument(
            "--quick", action="store_true", help="Fewer rounds and games (a smoke run)."
        )

    def handle(self, *args, quick=False, **options):
        rows = []
        api = captured("bench_api", seconds=1 if quick else 3, rounds=2 if quick else 5)
        for line in api.splitlines():
            m = re.match(
                r"\s+(card list.*?|bare Django.*?|site, trivial.*?)\s{2,}([\d.]+) req/s"
                r"\s+([\d.]+)x bare",
                line,
            )
            if m:
                rows.append(
                    (
                        "API " + m.group(1),
                        f"{m.group(2)} wall req/s",
                        f"{m.group(3)}x of bare Django",
                    )
                )
            m = re.match(
                r"\s+(card list.*?|bare Django.*?|site, trivial.*?)\s{2,}([\d.]+) ms"
                r"\s+([\d.]+)x bare",
                line,
            )
            if m:
                rows.append(
                    (
                        "API CPU " + m.group(1),
                        f"{m.group(2)} ms server CPU/answer",
                        f"{m.group(3)}x of bare Django",
                    )
                )
        scale = captured("bench_scale", **({"sizes": "1000,10000"} if quick else {}))
        for line in scale.splitlines():
            m = re.match(r"(\S.*?)\s{2,}(.*\d+ q)\s{2,}(.*x)$", line)
            if m:
                rows.append((f"scale: {m.group(1)}", m.group(2), m.group(3)))
        for label, one, fifty in query_counts():
            rows.append(
                (
                    f"SQL queries: {label}",
                    f"{one} at 1 row, {fifty} at 50",
                    "equal" if one == fifty else "NOT EQUAL",
                )
            )
        decks = captured("bench_decks", runs=300 if quick else 2000)
        for line in decks.splitlines():
            m = re.match(
                r"(\S+)\s+(\d+) cards\s+wall median ([\d.]+) ms p95 ([\d.]+) ms\s+cpu median ([\d.]+) ms p95 ([\d.]+) ms",
                line,
            )
            if m:
                rows.append(
                    (
                        f"validate a {m.group(2)}-card {m.group(1)} deck",
                        f"median {m.group(3)} ms, p95 {m.group(4)} ms",
                        f"CPU p95 {m.group(6)} ms",
                    )
                )
        for r in engine_figures(games=300 if quick else 2000):
            options_text = " advanced" if r["options"].get("advanced") else ""
            rows.append(
                (
                    f"engine {r['game']}{options_text}, {r['players']} players",
                    f"{r['games_per_second']} games/s",
                    f"random bots, mean length {r['mean_length']}",
                )
            )
        for slug in GAMES:
            seconds = report_seconds(slug, 100 if quick else 1000)
            rows.append(
                (
                    f"deck report, {100 if quick else 1000} games, {slug}",
                    f"{seconds:.1f} s",
                    "random bots, in the worker process",
                )
            )
        for slug, r in playtest_action_times(actions=50 if quick else 200).items():
            rows.append(
                (
                    f"playtest action, {slug}",
                    f"p95 {r['p95_ms']} ms",
                    f"median {r['median_ms']} ms over {r['actions']}",
                )
            )
        search = parse_figures(300 if quick else 2000)
        rows.append(
            (
                f"search parse, {search['terms']} terms in {search['depth']} nested groups",
                f"median {search['median_ms']} ms, p95 {search['p95_ms']} ms",
                f"CPU median {search['cpu_median_ms']} ms (goal < 5 ms)",
            )
        )
        width = max(len(r[0]) for r in rows)
        self.stdout.write(f"{'measure':<{width}}  {'figure':<28}  note")
        self.stdout.write("-" * (width + 50))
        for name, figure, note in rows:
            self.stdout.write(f"{name:<{width}}  {figure:<28}  {note}")
