"""Time a word search (``/api/cards/?q=dragoon``) with the word index and with the scan.

Run it on a scratch database: it adds a public custom set of generated cards
(one of them named "Dragoon"), grows it to each size, times both ways of
matching interleaved, prints the table, and deletes what it added::

    DATABASE_URL=sqlite:////tmp/bench.sqlite3 python manage.py migrate
    DATABASE_URL=sqlite:////tmp/bench.sqlite3 python manage.py bench_words

"scan" is the matching rule checked row by row (``word_scan_q``, the search
before the index); "index" narrows by ``CardWord`` first (``word_q``). Both
find the same cards; the command checks it. "search SQL" runs the listing's
queries (first page of 50 and the count); "API" is the whole request.
"""

import contextlib
import random
import statistics
import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from cards import games, search
from cards.choices import SetKind
from cards.models import Card, CardSet, Game
from cards.words import card_words_refresh

WORDS = (
    "storm pegasus leone sagittario bull wolf unicorn fire gate pit ability "
    "strike defend counter spin launch burst attack stamina balance edge notch "
    "red blue green yellow gold silver copper dragon dranzer drago dragonfly"
).split()
SLUG = "bench-words"


@contextlib.contextmanager
def scanning():
    """Match words row by row, as the search did before the index."""
    original = search.word_q
    search.word_q = search.word_scan_q
    try:
        yield
    finally:
        search.word_q = original


def _median_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _clear_plans():
    from cards.api import views

    for value in vars(views).values():
        plans = getattr(value, "plans", None)
        if hasattr(plans, "clear"):
            plans.clear()


class Command(BaseCommand):
    help = "Print the time of a word search at growing card counts, index vs scan."

    def add_arguments(self, parser):
        parser.add_argument("--sizes", default="1000,100000")
        parser.add_argument("--runs", type=int, default=7)
        parser.add_argument("--query", default="dragoon")
        parser.add_argument(
            "--keep", action="store_true", help="keep the generated cards"
        )

    def handle(self, *args, sizes, runs, query, keep, **options):
        sizes = sorted(int(s) for s in sizes.split(","))
        game = next(g for g in games.GAMES.values() if g.gate_classes)
        owner, _ = get_user_model().objects.get_or_create(username=SLUG)
        card_set = CardSet.objects.create(
            game=Game.objects.get(slug=game.slug),
            slug=SLUG,
            name="Benchmark words",
            kind=SetKind.CUSTOM,
            owner=owner,
            is_public=True,
        )
        kind = next(k.value for k in game.kinds if k.value != "gate")
        rng = random.Random(22)
        self.stdout.write(
            f"word search q={query!r} on {connection.vendor}; ms in process, median/best "
            f"of {runs} interleaved runs (the machine may be loaded)"
        )
        self.stdout.write(
            f"{'cards':>8} {'index rows':>10} | {'SQL scan':>11} {'SQL index':>11} | "
            f"{'API scan':>11} {'API index':>11} | queries"
        )
        try:
            made = 0
            for size in sizes:
                total = Card.objects.count()
                new = []
                for n in range(made, made + max(0, size - total)):
                    name = (
                        "Dragoon" if n == 0 else " ".join(rng.sample(WORDS, 2)).title()
                    )
                    new.append(
                        Card(
                            card_set=card_set,
                            key=str(n + 1),
                            number=n + 1,
                            name=name,
                            text=" ".join(rng.choices(WORDS, k=8)).capitalize() + ".",
                            card_type=kind,
                            source="generated for the benchmark",
                        )
                    )
                with transaction.atomic():
                    created = Card.objects.bulk_create(new, batch_size=2000)
                    card_words_refresh([c.pk for c in created])
                made += len(new)
                self.stdout.write(self._row(Card.objects.count(), query, runs))
        finally:
            if not keep:
                Card.objects.filter(card_set=card_set).delete()
                card_set.delete()
                owner.delete()

    def _row(self, cards, query, runs) -> str:
        from cards.models import CardWord

        def listing():
            qs = Card.objects.visible_to(None).filter(search.parse_query(query).q)
            return list(
                qs.order_by("name", "pk").values_list("pk", flat=True)[:50]
            ), qs.count()

        client = Client()

        def api():
            _clear_plans()
            response = client.get("/api/cards/", {"q": query})
            assert response.status_code == 200, response.status_code
            return response.json()["count"]

        with scanning():
            expected = listing()
        assert listing() == expected, "the index and the scan found different cards"
        figures = {}
        for _ in range(runs):  # interleaved: scan, index, scan, index...
            for mode in ("scan", "index"):
                ctx = scanning() if mode == "scan" else contextlib.nullcontext()
                with ctx:
                    figures.setdefault(("sql", mode), []).append(_median_ms(listing, 1))
                    figures.setdefault(("api", mode), []).append(_median_ms(api, 1))
        with CaptureQueriesContext(connection) as queries:
            api()

        def cell(key) -> str:
            values = figures[key]
            return f"{statistics.median(values):.1f}/{min(values):.1f}".rjust(11)

        return (
            f"{cards:>8} {CardWord.objects.count():>10} | "
            f"{cell(('sql', 'scan'))} {cell(('sql', 'index'))} | "
            f"{cell(('api', 'scan'))} {cell(('api', 'index'))} | "
            f"{len(queries.captured_queries)}"
        )
