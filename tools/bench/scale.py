"""Growth as collectors grow the site: each path at 10k and 100k cards against the real files.

The first point is the real card files alone (2,017 cards) with a benchmark
user: 100 collection entries, a 60-card deck and 30 more public decks (so both
deck lists show a full page). The site then grows the way collectors grow it:
small public custom sets of 100 cards (about 80 at 10k cards, 980 at 100k),
spread over the four games and owned by other users, each custom card a copy of
a real card of its game under an invented name,
and a hundredth as many users as cards, each with 100 collection entries and a
public 10-card deck. The benchmark user stays the same at every size.

At each point every path runs in interleaved rounds (one path after another,
starting one later each round); a path's figure is its median CPU
milliseconds (in process, and on PostgreSQL also its server process's: see
``figure_ms``), with the SQL queries and the bytes of one run. The table gives
each path's ratio at every size to the real files and marks those over
``GOAL`` at the largest. The points are measured one after another, and a
shared machine's speed drifts between them: a fixed pure-Python workload
(``timing.reference``) is timed after every path, and each ratio is divided by
the reference's own ratio between the same two points. Paths whose answer holds every match (every Bakugan gate
card, a filter matching every card) are a second table with the matches
counted: their time must grow no faster than their matches (``GOAL`` times the
matches' ratio). A subprocess measures the memory of a 10-row and a 100-row CSV
import at each point (tracemalloc peak; the 10-row one's goal is under 1 MiB).

It runs on SQLite, and also on PostgreSQL when ``DATABASE_URL`` names one (the
SQLite run is then a subprocess). The scratch database is Django's test
database of the configured one, created and dropped here. Growth is written
in bulk inside ``card_refreshes_deferred`` (the cards by one INSERT ... SELECT
from the card each copies); each point's build seconds are printed.
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings

from tools.bench.timing import BenchError, Row, reference

GOAL = 1.3  # the largest size's figure over the real files', at most
MEMORY_GOAL = 2**20  # a 10-row import's peak traced memory, under
SET_SIZE = 100
ENTRIES_PER_USER = 100
DEFAULT_SIZES = "10000"
FULL_SIZES = "10000,100000"
# Invented words: a custom card's name matches no real card's.
FIRST = "Zorvex Quillan Brevik Tassum Orlyx Vendral Kestor Mirelle Ubrax Solvane"
SECOND = "Warden Spire Tempest Hollow Ember Rampart Glaive Cinder Bastion Veil"

MEMORY_PROBE = r"""
import gc, json, os, sys, tracemalloc
import django
django.setup()
from django.contrib.auth import get_user_model
from django.test import Client
from django.core.files.uploadedfile import SimpleUploadedFile
client = Client()
client.force_login(get_user_model().objects.get(username="bench"))

def run(text):
    upload = SimpleUploadedFile("c.csv", text.encode(), content_type="text/csv")
    assert client.post("/collection/import/", {"file": upload, "mode": "add"}).status_code == 302

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

def peak(text):
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    run(text)
    found = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    return found

client.get("/collection/")  # an idle worker has served a page
ten, hundred = os.environ["BENCH_CSV"], os.environ["BENCH_CSV_100"]
run(ten)
run(hundred)
gc.collect()
idle = rss()
tracemalloc.start()
base = tracemalloc.get_traced_memory()[0]
for _ in range(3):
    run(ten)
gc.collect()
kept = tracemalloc.get_traced_memory()[0] - base
tracemalloc.stop()
gc.collect()
growth = rss() - idle
print(json.dumps({"peak": peak(ten), "peak_100": peak(hundred), "kept": kept,
                  "rss_growth": growth}))
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
    parser.add_argument(
        "--sizes",
        default=DEFAULT_SIZES,
        help=f"Card counts to grow to after the real files ({DEFAULT_SIZES}).",
    )
    parser.add_argument(
        "--full", action="store_true", help=f"Grow to {FULL_SIZES} cards."
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--only-this-database",
        action="store_true",
        help="Measure the configured database only (no SQLite subprocess).",
    )


def rows(args):
    """Yield the SQLite tables (a subprocess when on PostgreSQL), then this database's."""
    try:
        sizes = sorted(
            {int(s) for s in (FULL_SIZES if args.full else args.sizes).split(",")}
        )
    except ValueError:
        raise BenchError("--sizes takes whole numbers, comma-separated.") from None
    if args.rounds < 1 or not sizes or sizes[0] < 2100:
        raise BenchError(
            "--rounds must be positive and sizes at least 2100 (the real files "
            "hold 2,017 cards)."
        )
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
            known = ("name", "figure", "note", "seconds", "ratio", "reference_seconds")
            data = {k: v for k, v in row.items() if k not in known}
            yield Row(row["name"], row["figure"], row["note"], row["seconds"], data)


def run_on_scratch_database(sizes, rounds):
    """Yield the rows of every point, measured in a scratch copy of the database."""
    creation = connection.creation
    old_name = connection.settings_dict["NAME"]
    scratch = None
    if connection.vendor == "sqlite":
        scratch = tempfile.NamedTemporaryFile(
            prefix="bench-scale-", suffix=".sqlite3", delete=False
        ).name
        connection.settings_dict.setdefault("TEST", {})["NAME"] = scratch
    else:
        # Its own name: a test run's database, or another run's, is not dropped.
        scratch_name = f"bench_scale_{os.getpid()}"
        connection.settings_dict.setdefault("TEST", {})["NAME"] = scratch_name
    started = time.monotonic()
    creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        with override_settings(DEBUG=False):
            points, server_cpu = measure_points(sizes, rounds)
    finally:
        creation.destroy_test_db(old_name, verbosity=0)
        if scratch:
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(scratch + suffix):
                    os.unlink(scratch + suffix)
    yield from table(points, server_cpu, time.monotonic() - started)


def measure_points(sizes, rounds) -> tuple[list, bool]:
    """Return each point's figures (real files first), and whether they hold the server's CPU."""
    started = time.monotonic()
    call_command("load_cards", verbosity=0, stdout=open(os.devnull, "w"))
    world = World()
    build = time.monotonic() - started
    points = []
    server_cpu = True
    for size in (None, *sizes):
        if size is not None:
            started = time.monotonic()
            world.grow_to(size)
            build = time.monotonic() - started
        if connection.vendor == "postgresql":
            # What autovacuum does on a running server after such growth:
            # without it the planner reads 100k cards as the first 2k.
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        figures, server_cpu = measure(world, rounds)
        figures["build"] = build
        points.append(figures)
    return points, server_cpu


def measure(world, rounds) -> tuple[dict, bool]:
    """Return each path's (ms, queries, bytes, matches), the memory figures and the counts."""
    paths = world.paths()
    times = {name: [] for name in paths}
    queries, sizes = {}, {}
    for name, run in paths.items():  # warm, and count one run's queries and bytes
        run()
        with CaptureQueriesContext(connection) as captured:
            answer = run()
        queries[name] = len(captured)
        sizes[name] = len(getattr(answer, "content", b""))
    server = server_cpu_reader()
    readable = server is not None
    server = server or (lambda: 0.0)
    speed = []  # the reference workload, timed between the paths
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
            start, cpu = time.perf_counter(), time.process_time()
            reference()
            speed.append((time.perf_counter() - start, time.process_time() - cpu))
    figures = {
        "paths": {
            name: {
                "ms": figure_ms(times[name], cpu=readable),
                "queries": queries[name],
                "bytes": sizes[name],
                "matches": world.matches(paths[name]),
            }
            for name in paths
        },
        "memory": world.memory_probe(),
        "counts": world.counts(),
        "reference": figure_ms(speed, cpu=readable),
    }
    return figures, readable


def cells(values, fmt) -> str:
    return " | ".join(fmt(v) for v in values)


def drift_ratios(runs, drift) -> list[float]:
    """Return each later run's time over the first run's, over its point's drift."""
    return [r["ms"] / runs[0]["ms"] / d for r, d in zip(runs[1:], drift, strict=True)]


def table(points, server_cpu: bool, seconds: float):
    """Yield the counts, a row per path, the rows by matches, memory and a verdict."""
    vendor = connection.vendor
    label = f"scale ({vendor})"
    how = (
        "fastest wall ms over the rounds (the server's CPU time is not readable)"
        if not server_cpu
        else "median CPU ms in process over the rounds"
        if vendor == "sqlite"
        else "median CPU ms of this process and its PostgreSQL server process"
    )
    counts = [p["counts"] for p in points]
    sizes = [c["cards"] for c in counts]
    last = f"{sizes[-1]:,}"
    yield Row(
        f"{label}: cards (real files | grown)",
        cells(sizes, "{:,}".format),
        f"{how}; each ratio is to the real files; built and measured in "
        f"{seconds:.0f} s",
        data={"counts": counts},
    )
    for key in ("sets", "users", "entries"):
        yield Row(f"{label}: {key}", cells((c[key] for c in counts), "{:,}".format))
    yield Row(
        f"{label}: seconds to build each point",
        cells((p["build"] for p in points), "{:.1f} s".format),
        "written in bulk inside card_refreshes_deferred (the first: load_cards too)",
    )
    yield Row(
        f"{label}: reference workload",
        cells((p["reference"] for p in points), "{:.2f}".format) + " ms",
        "timed between the paths at each point; every ratio is over its drift",
        data={"ms": [p["reference"] for p in points]},
    )
    drift = [p["reference"] / points[0]["reference"] for p in points[1:]]
    over = []
    by_matches = []
    for name, first in points[0]["paths"].items():
        runs = [p["paths"][name] for p in points]
        if first["matches"] is not None:
            by_matches.append((name, runs))
            continue
        ratios = drift_ratios(runs, drift)
        if ratios[-1] > GOAL:
            over.append(name)
        yield Row(
            f"{label}: {name}",
            cells((r["ms"] for r in runs), "{:.1f}".format) + " ms",
            f"{cells(ratios, '{:.2f}x'.format)}; "
            f"{cells((r['queries'] for r in runs), str)} q; "
            f"{cells((r['bytes'] for r in runs), lambda b: f'{b / 1000:.1f}')} kB"
            + (f"; OVER {GOAL}x at {last}" if ratios[-1] > GOAL else ""),
            seconds=runs[-1]["ms"] / 1000,
            data={
                "path": name,
                "runs": runs,
                "ratios": ratios,
                "over": ratios[-1] > GOAL,
            },
        )
    faster = []
    yield from _rows_by_matches(label, by_matches, drift, faster)
    yield from _memory_rows(label, points, over)
    yield Row(
        f"{label}: over {GOAL}x at {last} cards",
        f"{len(over) + len(faster)} of {len(points[0]['paths']) + 1}",
        "; ".join(over + faster) or "none",
        data={"over": over, "faster_than_matches": faster},
    )


def _rows_by_matches(label, by_matches, drift, faster):
    """Yield a row per path whose answer grows with its matches; note the faster ones."""
    for name, runs in by_matches:
        first = runs[0]
        ratios = drift_ratios(runs, drift)
        grown = [max(1.0, r["matches"] / first["matches"]) for r in runs[1:]]
        ok = all(t <= GOAL * m for t, m in zip(ratios, grown, strict=True))
        if not ok:
            faster.append(name)
        yield Row(
            f"{label} by matches: {name}",
            cells((r["ms"] for r in runs), "{:.1f}".format) + " ms",
            f"{cells(ratios, '{:.2f}x'.format)}; matches "
            f"{cells((r['matches'] for r in runs), '{:,}'.format)} "
            f"({cells(grown, '{:.2f}x'.format)}); "
            f"{cells((r['queries'] for r in runs), str)} q; "
            + (
                "grows no faster than its matches"
                if ok
                else "GROWS FASTER than its matches"
            ),
            seconds=runs[-1]["ms"] / 1000,
            data={
                "path": name,
                "runs": runs,
                "ratios": ratios,
                "matches_ratios": grown,
                "over": not ok,
            },
        )


def _memory_rows(label, points, over):
    """Yield the import's memory rows; note a missed goal in ``over``."""
    for key, what, goal in (
        ("peak", "10-row import, peak traced memory", MEMORY_GOAL),
        ("peak_100", "100-row import, peak traced memory", None),
        ("kept", "10-row import, traced memory kept after 3", None),
        ("rss_growth", "10-row import, worker RSS growth after 3", None),
    ):
        values = [p["memory"][key] for p in points]
        note = ""
        if goal is not None:
            met = all(v < goal for v in values)
            note = f"goal under {goal / 2**20:.0f} MiB: {'met' if met else 'NOT MET'}"
            if not met:
                over.append(what)
        yield Row(
            f"{label}: {what}",
            cells((v / 2**20 for v in values), "{:.2f}".format) + " MiB",
            note,
            data={"bytes": values},
        )


class World:
    """The scratch site: grows like collectors grow it and knows how to run each path."""

    def __init__(self):
        from cards.models import Card, CardSet, GameRecord
        from collection.models import CollectionEntry
        from decks.models import Deck
        from decks.services import deck_create

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
        every = list(
            Card.objects.filter(card_set__kind="official")
            .select_related("card_set__game")
            .order_by("card_set__game__sort_order", "card_set__slug", "number", "key")
        )
        # Every game's cards in turn, so the uploads span the four games.
        by_game = {}
        for card in every:
            by_game.setdefault(card.card_set.game.slug, []).append(card)
        self.templates = by_game
        mixed = [
            c
            for n in range(len(every))
            for c in [g[n] for g in by_game.values() if n < len(g)]
        ][:112]
        self.csv = csv_text(mixed[2:12])
        self.csv_100 = csv_text(mixed[12:112])
        official = by_game[self.game.slug]
        CollectionEntry.objects.bulk_create(
            CollectionEntry(user=self.user, card=c, quantity=1)
            for c in mixed[:ENTRIES_PER_USER]
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
        Deck.objects.bulk_create(
            Deck(
                owner=self.user, game=self.game, name=f"Bench deck {i}", is_public=True
            )
            for i in range(30)
        )
        # A name only one real card holds, and no custom card: its matches stay put.
        names = [c.name for c in every if c.name]
        self.rare = next(
            n
            for n in sorted(set(names))
            if names.count(n) == 1 and " " in n and "dragoon" not in n.lower()
        )
        self.users = 0
        self.custom_sets = 0
        self.custom_cards = 0
        self.CardSet, self.Card = CardSet, Card

    def counts(self) -> dict:
        from collection.models import CollectionEntry

        return {
            "cards": self.Card.objects.count(),
            "sets": self.CardSet.objects.count(),
            "users": get_user_model().objects.count(),
            "entries": CollectionEntry.objects.count(),
        }

    def grow_to(self, size: int) -> None:
        """Add custom sets, users, entries and decks until the site holds ``size`` cards."""
        from cards.models import GameRecord
        from cards.signals import card_refreshes_deferred, deferred
        from collection.models import CollectionEntry
        from decks.models import Deck, DeckEntry

        Card, CardSet = self.Card, self.CardSet
        User = get_user_model()
        games = list(self.templates)
        game_ids = dict(GameRecord.objects.values_list("slug", "pk"))
        first, second = FIRST.split(), SECOND.split()
        with card_refreshes_deferred():
            want_users = max(1, size // 100)
            User.objects.bulk_create(
                User(username=f"bench-{i}", password="!")
                for i in range(self.users, want_users)
            )
            self.users = want_users
            users = list(
                User.objects.filter(username__startswith="bench-")
                .order_by("pk")
                .values_list("pk", flat=True)
            )
            missing = size - Card.objects.count()
            new_sets = []
            while missing > 0:
                n = self.custom_sets
                new_sets.append(
                    CardSet(
                        game_id=game_ids[games[n % len(games)]],
                        slug=f"homebrew-{n}",
                        name=f"Homebrew {n}",
                        kind="custom",
                        owner_id=users[n % len(users)],
                        is_public=True,
                        source="benchmark, not a real set",
                    )
                )
                self.custom_sets += 1
                missing -= SET_SIZE
            CardSet.objects.bulk_create(new_sets, batch_size=500)
            new_sets = CardSet.objects.filter(
                slug__in=[s.slug for s in new_sets]
            ).select_related("game")
            missing = size - Card.objects.count()
            cards = []
            for card_set in new_sets:
                batch = min(missing, SET_SIZE)
                templates = self.templates[card_set.game.slug]
                for i in range(1, batch + 1):
                    n = self.custom_cards
                    self.custom_cards += 1
                    name = f"{first[n % 10]} {second[n // 10 % 10]} {n // 100}"
                    template = templates[n % len(templates)].pk
                    cards.append((card_set.pk, str(i), str(i), i, name, template))
                missing -= batch
            copy_cards(cards)
            # Written in SQL, which sends no post_save: note what the receivers
            # would have.
            noted = deferred("default")
            noted.bump = True
            noted.set_ids |= {s.pk for s in new_sets}
            noted.word_card_ids |= set(
                Card.objects.filter(card_set__in=new_sets).values_list("pk", flat=True)
            )
        card_ids = list(Card.objects.order_by("pk").values_list("pk", flat=True))
        has = set(
            CollectionEntry.objects.exclude(user=self.user)
            .values_list("user_id", flat=True)
            .distinct()
        )
        entries = []
        decks = []
        for u, owner in enumerate(users):
            if owner in has:
                continue
            start = (u * 9973) % len(card_ids)
            picked = [
                card_ids[(start + k) % len(card_ids)] for k in range(ENTRIES_PER_USER)
            ]
            entries += [
                CollectionEntry(user_id=owner, card_id=pk, quantity=1) for pk in picked
            ]
            decks.append(
                (
                    Deck(owner_id=owner, game=self.game, name="Deck", is_public=True),
                    picked[:10],
                )
            )
        CollectionEntry.objects.bulk_create(entries, batch_size=1000)
        Deck.objects.bulk_create([d for d, _ in decks], batch_size=500)
        DeckEntry.objects.bulk_create(
            (
                DeckEntry(deck=deck, card_id=pk, zone="deck", quantity=3)
                for deck, picked in decks
                for pk in picked
            ),
            batch_size=1000,
        )

    def matches(self, path) -> int | None:
        """Return how many cards the path's answer holds, for paths that hold every match."""
        query = getattr(path, "matches", None)
        if query is None:
            return None
        return self.client.get("/api/cards/", {"page_size": 1, **query}).json()["count"]

    def paths(self) -> dict:
        from cards.api import cache
        from decks.services import deck_update

        client, page = self.client, self.page_client
        deck = self.deck

        def ok(response, status=200):
            if response.status_code != status:
                raise BenchError(f"{response.status_code}: {response.content[:300]!r}")
            return response

        def upload(text):
            def run():
                csv = SimpleUploadedFile(
                    "c.csv", text.encode(), content_type="text/csv"
                )
                return ok(
                    page.post("/collection/import/", {"file": csv, "mode": "add"}), 302
                )

            return run

        csv_import = upload(self.csv)

        def preview():
            return ok(page.get(csv_import()["Location"]))

        def export():
            return ok(page.get(f"/decks/{deck.pk}/export.txt"))

        text = export().content.decode()
        # One name misspelt: the import answers the form with the line's error.
        misspelt = text.replace("Dragoon", "Dragooon", 1)
        assert misspelt != text

        def cold(url, matches=None):
            def run():
                cache.worker_caches_clear()
                return ok(client.get(url))

            run.matches = matches
            return run

        def kept():
            return ok(client.get("/api/cards/?page_size=50"))

        kept.prepare = kept  # the answer is kept by the request before the timed one
        asked = iter(range(1, 10**9))

        def new_filter():
            # A value never asked before: nothing kept for the listing applies.
            return ok(client.get(f"/api/cards/?page_size=50&number_min=-{next(asked)}"))

        new_filter.matches = {"number_min": -1}
        rare = self.rare

        return {
            "CSV import of 10 rows": csv_import,
            "CSV import of 100 rows": upload(self.csv_100),
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
            "deck text import, one name misspelt": lambda: ok(
                page.post(f"/decks/{deck.pk}/import/", {"text": misspelt})
            ),
            "deck save (60 entries)": lambda: deck_update(
                deck=deck, entries=self.deck_entries
            ),
            "/api/cards/, cold": cold("/api/cards/"),
            "/api/cards/?page_size=50, cold": cold("/api/cards/?page_size=50"),
            "/api/cards/?page=20, cold": cold("/api/cards/?page=20"),
            "/api/cards/?q=<rare name>, cold": cold(
                "/api/cards/?" + urlencode({"q": f'"{rare}"'})
            ),
            "/api/cards/?page_size=50, kept": kept,
            f"game checklist /games/{self.game.slug}/": lambda: ok(
                page.get(f"/games/{self.game.slug}/")
            ),
            "search page, no query": lambda: ok(page.get("/search/")),
            "search page ?q=dragoon": lambda: ok(page.get("/search/?q=dragoon")),
            "/api/cards/?q=dragoon, cold": cold("/api/cards/?q=dragoon"),
            "home page": lambda: ok(page.get("/")),
            "/collection/ (100 entries)": lambda: ok(page.get("/collection/")),
            "deck lists (public and mine)": lambda: ok(page.get("/decks/")),
            "/api/cards/?q=t:gate, cold": cold(
                "/api/cards/?q=t:gate", matches={"q": "t:gate"}
            ),
            "/api/cards/ new filter each request": new_filter,
        }

    def memory_probe(self) -> dict:
        env = {
            **os.environ,
            "BENCH_CSV": self.csv,
            "BENCH_CSV_100": self.csv_100,
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


def csv_text(cards) -> str:
    """Return a collection CSV adding two of each card."""
    return "game,set,number,quantity\n" + "".join(
        f"{c.card_set.game.slug},{c.card_set.slug},{c.key},2\n" for c in cards
    )


# What a custom card does not take from the real card it copies.
COPIED_NOT = {
    "id",
    "card_set",
    "key",
    "printed_number",
    "number",
    "name",
    "code",
    "source",
}


def copy_cards(rows) -> None:
    """Insert custom cards, each (set, key, printed number, number, name) like a real card.

    One INSERT ... SELECT run for every row: building 98,000 model instances of
    45 fields and preparing each value took most of a 100k build.
    """
    from cards.models import Card

    quote = connection.ops.quote_name
    copied = ", ".join(
        quote(f.column) for f in Card._meta.concrete_fields if f.name not in COPIED_NOT
    )
    table = quote(Card._meta.db_table)
    sql = (
        f"INSERT INTO {table} (card_set_id, {quote('key')}, printed_number, "
        f"number, name, source, {copied}) SELECT %s, %s, %s, %s, %s, "
        f"'benchmark, not a real card', {copied} FROM {table} WHERE id = %s"
    )
    with connection.cursor() as cursor:
        for start in range(0, len(rows), 5000):
            cursor.executemany(sql, rows[start : start + 5000])
