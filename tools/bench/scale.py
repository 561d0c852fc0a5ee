"""Growth with the site: each path's cost at 1k, 10k and 100k cards, in a scratch database.

The data grows in steps: the real card files, then public custom sets to reach
each size, with users, collection entries and public decks growing alongside
(a hundredth and a tenth of the cards: 10 users and 100 entries at 1k cards,
1,000 users and 10,000 entries at 100k). A benchmark user owns 50 entries, a
60-card deck, 30 more public decks (so both deck lists show a full page at
every size) and one deck per other user. At each size every path runs in
interleaved rounds (one path after another, starting one later each round) and
the table gives each path's median CPU milliseconds (in process, and on
PostgreSQL also its server process's: see ``figure_ms``), the SQL queries of one run
and the ratio of the largest size to the smallest. A subprocess measures the
memory of a 10-row CSV import at each size (tracemalloc peak, what stays after
the request, and the growth of the process's resident size).

It runs on SQLite, and also on PostgreSQL when ``DATABASE_URL`` names one (the
SQLite run is then a subprocess). The scratch database is Django's test
database of the configured one, created and dropped here.
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings

from tools.bench.timing import BenchError, Row

MEMORY_PROBE = r"""
import gc, json, os, resource, sys, tracemalloc
import django
django.setup()
from django.contrib.auth import get_user_model
from django.test import Client
from django.core.files.uploadedfile import SimpleUploadedFile
csv_text = os.environ["BENCH_CSV"]
client = Client()
client.force_login(get_user_model().objects.get(username="bench"))

def run():
    upload = SimpleUploadedFile("c.csv", csv_text.encode(), content_type="text/csv")
    assert client.post("/collection/import/", {"file": upload, "mode": "add"}).status_code == 302

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

client.get("/collection/")  # an idle worker has served a page
gc.collect()
idle = rss()
tracemalloc.start()
base = tracemalloc.get_traced_memory()[0]
run()
peak = tracemalloc.get_traced_memory()[1] - base
for _ in range(2):
    run()
gc.collect()
kept = tracemalloc.get_traced_memory()[0] - base
tracemalloc.stop()
gc.collect()
print(json.dumps({"peak": peak, "kept": kept, "rss_growth": rss() - idle}))
"""


def server_cpu_reader():
    """Return a reader of the database server process's CPU seconds, or None.

    SQLite runs in this process. A PostgreSQL server on this machine runs each
    connection in its own process, whose CPU time Linux gives to the
    nanosecond in /proc/<pid>/schedstat; a server elsewhere cannot be read.
    """
    if connection.vendor != "postgresql":
        return lambda: 0.0
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    path = f"/proc/{pid}/schedstat"

    def read() -> float:
        with open(path) as f:
            return int(f.read().split()[0]) / 1e9

    try:
        read()
    except (OSError, ValueError, IndexError):
        return None
    return read


def figure_ms(runs, *, cpu: bool) -> float:
    """Return a path's figure from its (wall, CPU) seconds per round.

    The CPU time (this process's, and the database server process's on
    PostgreSQL) barely moves with other work on the machine, so the figure is
    its median; when the server's cannot be read, the fastest wall time over
    the rounds, the one least slowed by other work.
    """
    if cpu:
        return statistics.median(c for _, c in runs) * 1000
    return min(wall for wall, _ in runs) * 1000


def add_arguments(parser) -> None:
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--only-this-database",
        action="store_true",
        help="Measure the configured database only (no SQLite subprocess).",
    )


def rows(args):
    """Yield the SQLite table (a subprocess when on PostgreSQL), then this database's."""
    try:
        sizes = sorted({int(s) for s in args.sizes.split(",")})
    except ValueError:
        raise BenchError("--sizes takes whole numbers, comma-separated.") from None
    if args.rounds < 1 or not sizes or sizes[0] < 700:
        raise BenchError("--rounds must be positive and sizes at least 700.")
    if connection.vendor != "sqlite" and not args.only_this_database:
        yield from sqlite_rows(sizes, args.rounds)
    yield from run_on_scratch_database(sizes, args.rounds)


def sqlite_rows(sizes, rounds):
    """Yield the rows of the same benchmark run on SQLite in a subprocess."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    command = [sys.executable, "-m", "tools.bench", "--json", "scale"]
    command += ["--sizes", ",".join(map(str, sizes)), "--rounds", str(rounds)]
    sqlite = subprocess.run(
        command, cwd=settings.BASE_DIR, env=env, capture_output=True, text=True
    )
    if sqlite.returncode:
        raise BenchError(sqlite.stderr[-2000:])
    for line in sqlite.stdout.splitlines():
        row = json.loads(line)
        if "name" in row:
            yield Row(row["name"], row["figure"], row["note"], row["seconds"])


def run_on_scratch_database(sizes, rounds):
    """Yield the rows of every size, measured in a scratch copy of the database."""
    creation = connection.creation
    old_name = connection.settings_dict["NAME"]
    scratch = None
    if connection.vendor == "sqlite":
        scratch = tempfile.NamedTemporaryFile(
            prefix="bench-scale-", suffix=".sqlite3", delete=False
        ).name
        connection.settings_dict.setdefault("TEST", {})["NAME"] = scratch
    started = time.monotonic()
    creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        with override_settings(DEBUG=False):
            results, server_cpu = measure_sizes(sizes, rounds)
    finally:
        creation.destroy_test_db(old_name, verbosity=0)
        if scratch:
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(scratch + suffix):
                    os.unlink(scratch + suffix)
    yield from table(results, sizes, server_cpu, time.monotonic() - started)


def measure_sizes(sizes, rounds) -> tuple[dict, bool]:
    """Return each size's figures, and whether they include the server's CPU."""
    call_command("load_cards", verbosity=0, stdout=open(os.devnull, "w"))
    world = World()
    results = {}
    server_cpu = True
    for size in sizes:
        world.grow_to(size)
        if connection.vendor == "postgresql":
            # What autovacuum does on a running server after such growth:
            # without it the planner reads 100k cards as the first 2k.
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        results[size], server_cpu = measure(world, rounds)
    return results, server_cpu


def measure(world, rounds) -> tuple[dict, bool]:
    """Return each path's (ms, queries), the memory figures and the card count."""
    paths = world.paths()
    times = {name: [] for name in paths}
    queries = {}
    for name, run in paths.items():  # warm, and count one run's queries
        run()
        with CaptureQueriesContext(connection) as captured:
            run()
        queries[name] = len(captured)
    server = server_cpu_reader()
    readable = server is not None
    server = server or (lambda: 0.0)
    for round_ in range(rounds):
        names = list(paths)
        shift = round_ % len(names)
        for name in names[shift:] + names[:shift]:
            getattr(paths[name], "prepare", lambda: None)()
            start = time.perf_counter()
            cpu = time.process_time() + server()
            paths[name]()
            times[name].append(
                (time.perf_counter() - start, time.process_time() + server() - cpu)
            )
    figures = {
        name: (figure_ms(times[name], cpu=readable), queries[name]) for name in paths
    }
    figures["memory"] = world.memory_probe()
    figures["cards"] = world.Card.objects.count()
    return figures, readable


def table(results, sizes, server_cpu: bool, seconds: float):
    """Yield the cards row, a row per path and the memory rows."""
    first, last = sizes[0], sizes[-1]
    vendor = connection.vendor
    how = (
        "fastest wall ms over the rounds (the server's CPU time is not readable)"
        if not server_cpu
        else "median CPU ms in process over the rounds"
        if vendor == "sqlite"
        else "median CPU ms of this process and its PostgreSQL server process"
    )
    yield Row(
        f"scale ({vendor}): cards in the database",
        " | ".join(f"{results[s]['cards']:,}" for s in sizes),
        f"{how}; SQL queries of one run; built and measured in {seconds:.0f} s",
    )
    for name in results[first]:
        if name in ("memory", "cards"):
            continue
        cells = " | ".join(
            f"{results[s][name][0]:.1f} ms {results[s][name][1]} q" for s in sizes
        )
        ratio = results[last][name][0] / results[first][name][0]
        yield Row(
            f"scale ({vendor}): {name}",
            cells,
            f"{ratio:.2f}x at {last:,} cards of {first:,}",
            seconds=results[last][name][0] / 1000,
        )
    for key, label in (
        ("peak", "10-row import, peak traced memory"),
        ("kept", "10-row import, traced memory kept after 3"),
        ("rss_growth", "10-row import, worker RSS growth after 3"),
    ):
        cells = " | ".join(
            f"{results[s]['memory'][key] / 2**20:.2f} MiB" for s in sizes
        )
        yield Row(f"scale ({vendor}): {label}", cells)


class World:
    """The scratch site: grows to a number of cards and knows how to run each path."""

    def __init__(self):
        from cards.models import Card, CardSet, GameRecord

        User = get_user_model()
        self.user = User.objects.create_user("bench", password=None)
        self.client = Client(HTTP_ACCEPT="application/json")
        self.client.force_login(self.user)
        self.page_client = Client()
        self.page_client.force_login(self.user)
        self.game = GameRecord.objects.get(
            slug=Card.objects.filter(name="Dragoon").values_list(
                "card_set__game__slug", flat=True
            )[0]
        )
        official = list(
            Card.objects.filter(card_set__game=self.game, card_set__kind="official")
            .select_related("card_set")
            .order_by("number", "key")
        )
        self.official = official
        self.csv = "game,set,number,quantity\n" + "".join(
            f"{self.game.slug},{c.card_set.slug},{c.key},2\n" for c in official[2:12]
        )
        from collection.models import CollectionEntry
        from decks.services import deck_create

        CollectionEntry.objects.bulk_create(
            CollectionEntry(user=self.user, card=c, quantity=1) for c in official[:50]
        )
        dragoon = next(c for c in official if c.name == "Dragoon")
        self.deck_entries = [{"card": dragoon.pk, "zone": "blade", "quantity": 1}] + [
            {"card": c.pk, "zone": "deck", "quantity": 1}
            for c in [c for c in official if c.key.isdigit()][:59]
        ]
        self.deck = deck_create(
            owner=self.user,
            game=self.game,
            name="Bench deck",
            entries=self.deck_entries,
            is_public=True,
        )
        # 30 more public decks: both deck lists show a full page of 30 at every
        # size, so what grows between sizes is the tables, not the page.
        from decks.models import Deck

        Deck.objects.bulk_create(
            Deck(
                owner=self.user, game=self.game, name=f"Bench deck {i}", is_public=True
            )
            for i in range(30)
        )
        self.deck_text = None
        self.users = []
        self.entries = 50
        self.custom_sets = 0
        self.CardSet, self.Card = CardSet, Card

    def grow_to(self, size: int) -> None:
        from cards.words import card_words_refresh
        from collection.models import CollectionEntry
        from decks.models import Deck, DeckEntry

        Card, CardSet = self.Card, self.CardSet
        User = get_user_model()
        want_users = max(1, size // 100)
        new_users = User.objects.bulk_create(
            User(username=f"bench-{i}", password="!")
            for i in range(len(self.users), want_users)
        )
        self.users = list(
            User.objects.filter(username__startswith="bench-").order_by("pk")
        )
        missing = size - Card.objects.count()
        while missing > 0:
            owner = self.users[self.custom_sets % len(self.users)]
            card_set = CardSet.objects.create(
                game=self.game,
                slug=f"homebrew-{self.custom_sets}",
                name=f"Homebrew {self.custom_sets}",
                kind="custom",
                owner=owner,
                is_public=True,
            )
            self.custom_sets += 1
            batch = min(missing, 1000)
            Card.objects.bulk_create(
                (
                    Card(
                        card_set=card_set,
                        key=str(i),
                        number=i,
                        name=f"Homebrew card {i}",
                        source="benchmark, not a real card",
                    )
                    for i in range(1, batch + 1)
                ),
                batch_size=500,
            )
            # bulk_create sends no post_save: index the new cards' words.
            card_words_refresh(
                Card.objects.filter(card_set=card_set).values_list("pk", flat=True)
            )
            missing -= batch
        cards = list(Card.objects.order_by("pk").values_list("pk", flat=True)[:size])
        want_entries = size // 10
        rows = []
        for n in range(self.entries, want_entries):
            rows.append(
                CollectionEntry(
                    user=self.users[n % len(self.users)],
                    card_id=cards[n % len(cards)],
                    quantity=1,
                )
            )
        CollectionEntry.objects.bulk_create(rows, batch_size=1000)
        self.entries = max(self.entries, want_entries)
        for owner in new_users:
            for public in (True, False):
                deck = Deck.objects.create(
                    owner=owner if public else self.user,
                    game=self.game,
                    name=f"Deck of {owner.username}",
                    is_public=public,
                )
                DeckEntry.objects.bulk_create(
                    DeckEntry(deck=deck, card_id=cards[i], zone="deck", quantity=3)
                    for i in range(10)
                )

    def paths(self) -> dict:
        from cards.api import cache
        from decks.services import deck_update

        client, page = self.client, self.page_client
        deck = self.deck

        def ok(response, status=200):
            if response.status_code != status:
                raise BenchError(f"{response.status_code}: {response.content[:300]!r}")
            return response

        def csv_import():
            upload = SimpleUploadedFile(
                "c.csv", self.csv.encode(), content_type="text/csv"
            )
            return ok(
                page.post("/collection/import/", {"file": upload, "mode": "add"}), 302
            )

        def preview():
            return ok(page.get(csv_import()["Location"]))

        def export():
            return ok(page.get(f"/decks/{deck.pk}/export.txt"))

        text = export().content.decode()

        def cold(url):
            def run():
                cache.worker_caches_clear()
                return ok(client.get(url))

            return run

        def kept():
            return ok(client.get("/api/cards/?page_size=50"))

        kept.prepare = kept  # the answer is kept by the request before the timed one
        asked = iter(range(1, 10**9))

        def new_filter():
            # A value never asked before: nothing kept for the listing applies.
            return ok(client.get(f"/api/cards/?page_size=50&number_min=-{next(asked)}"))

        return {
            "CSV import of 10 rows": csv_import,
            'bulk add "3 Dragoon"': lambda: ok(
                page.post(
                    "/collection/import/",
                    {"kind": "bulk", "text": "3 Dragoon", "game": "", "set": ""},
                ),
                302,
            ),
            "import preview (10 rows)": preview,
            "deck text export": export,
            "deck text import (60 entries)": lambda: ok(
                page.post(f"/decks/{deck.pk}/import/", {"text": text}), 302
            ),
            "deck save (60 entries)": lambda: deck_update(
                deck=deck, entries=self.deck_entries
            ),
            "/api/cards/?q=dragoon, cold": cold("/api/cards/?q=dragoon"),
            "/api/cards/?page_size=50, cold": cold("/api/cards/?page_size=50"),
            "/api/cards/?page_size=50, kept": kept,
            "/api/cards/ new filter each request": new_filter,
            "home page": lambda: ok(page.get("/")),
            "/collection/ (50 entries)": lambda: ok(page.get("/collection/")),
            "deck lists (public and mine)": lambda: ok(page.get("/decks/")),
        }

    def memory_probe(self) -> dict:
        env = {
            **os.environ,
            "BENCH_CSV": self.csv,
            "DJANGO_SETTINGS_MODULE": "cardsite.settings",
        }
        db = connection.settings_dict
        if connection.vendor == "sqlite":
            env["DATABASE_URL"] = f"sqlite:///{db['NAME']}"
        else:
            env["DATABASE_URL"] = (
                f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
            )
        connection.close()  # the probe reads the database this process wrote
        probe = subprocess.run(
            [sys.executable, "-c", MEMORY_PROBE],
            cwd=settings.BASE_DIR,
            env=env,
            capture_output=True,
            text=True,
        )
        if probe.returncode:
            raise BenchError(probe.stderr[-2000:])
        return json.loads(probe.stdout.strip().splitlines()[-1])
