"""Word search (``/api/cards/?q=dragoon``) with the word index and with the scan.

Run it on a scratch database: it adds a public custom set of generated cards
(one of them named "Dragoon"), grows it to each size, times both ways of
matching interleaved, prints the table, and deletes what it added::

    DATABASE_URL=sqlite:////tmp/bench.sqlite3 python manage.py migrate
    DATABASE_URL=sqlite:////tmp/bench.sqlite3 python -m tools.bench words

"scan" is the matching rule checked row by row (``word_scan_q``, the search
before the index); "index" narrows by ``CardWord`` first (``word_q``). Both
find the same cards; the benchmark checks it. "search SQL" runs the listing's
queries (first page of 50 and the count); "API" is the whole request.
"""

import contextlib
import random
import statistics

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from cards import games, search
from cards.choices import SetKind
from cards.models import Card, CardSet, CardWord, GameRecord
from cards.words import card_words_refresh
from tools.bench.timing import Row, measure

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


def _clear_plans():
    from cards.api import views

    for value in vars(views).values():
        plans = getattr(value, "plans", None)
        if hasattr(plans, "clear"):
            plans.clear()


def add_arguments(parser) -> None:
    parser.add_argument("--sizes", default="1000,100000")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--query", default="dragoon")
    parser.add_argument("--keep", action="store_true", help="keep the generated cards")


def grow(card_set, kind: str, made: int, size: int, rng) -> int:
    """Add generated cards until there are ``size`` in all; return how many were made."""
    total = Card.objects.count()
    new = []
    for n in range(made, made + max(0, size - total)):
        name = "Dragoon" if n == 0 else " ".join(rng.sample(WORDS, 2)).title()
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
    return made + len(new)


def rows(args):
    """Yield one row a size: the listing's SQL and the API, scan against index."""
    sizes = sorted(int(s) for s in args.sizes.split(","))
    game = next(g for g in games.GAMES.values() if g.gate_classes)
    owner, _ = get_user_model().objects.get_or_create(username=SLUG)
    card_set = CardSet.objects.create(
        game=GameRecord.objects.get(slug=game.slug),
        slug=SLUG,
        name="Benchmark words",
        kind=SetKind.CUSTOM,
        owner=owner,
        is_public=True,
    )
    kind = next(k.value for k in game.kinds if k.value != "gate")
    rng = random.Random(22)
    try:
        made = 0
        for size in sizes:
            made = grow(card_set, kind, made, size, rng)
            yield _row(Card.objects.count(), args.query, args.runs)
    finally:
        if not args.keep:
            Card.objects.filter(card_set=card_set).delete()
            card_set.delete()
            owner.delete()


def _row(cards: int, query: str, runs: int) -> Row:
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
            with scanning() if mode == "scan" else contextlib.nullcontext():
                for what, call in (("sql", listing), ("api", api)):
                    figures.setdefault((what, mode), []).append(
                        measure(call, 1, warm=0).median * 1000
                    )
    with CaptureQueriesContext(connection) as queries:
        api()

    def cell(key) -> str:
        values = figures[key]
        return f"{statistics.median(values):.1f}/{min(values):.1f}"

    return Row(
        f"word search q={query!r} on {connection.vendor}, {cards} cards",
        f"API {cell(('api', 'scan'))} scan, {cell(('api', 'index'))} index",
        f"SQL {cell(('sql', 'scan'))} scan, {cell(('sql', 'index'))} index (ms"
        f" median/best of {runs}); {CardWord.objects.count()} index rows,"
        f" {len(queries.captured_queries)} queries",
        seconds=statistics.median(figures[("api", "index")]) / 1000,
        data={"cards": cards, "queries": len(queries.captured_queries)},
    )
