"""Every path's SQL follows the work asked for, not the size of the tables.

Each path runs once on a small site, then again after the card table, other
users' collections and the public decks have grown; it must run exactly the
same number of queries both times (issue 22). Timings are for the benchmark
(``python -m tools.bench scale``), never for a test.
"""

import gc
import tracemalloc
from contextlib import contextmanager
from dataclasses import dataclass, field

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.db.backends.utils import CursorDebugWrapper
from django.db.models.signals import post_init
from django.test.utils import CaptureQueriesContext

from cards.api import cache
from cards.models import Card, CardSet, GameRecord
from cards.signals import card_refreshes_deferred
from cards.words import card_words_refresh
from collection.models import CollectionEntry
from decks.models import Deck, DeckEntry
from decks.services import deck_update
from decks.text_io import CLOSE_NAME_PROBE
from tests.factories import C, make_card, make_deck, make_entry, make_set

pytestmark = pytest.mark.django_db

CSV = "game,set,number,quantity\n" + "".join(
    f"collision,base,{n},{n % 3 + 1}\n" for n in range(1, 11)
)


@pytest.fixture
def site(user, django_user_model):
    """Return a small site: a Collision set, the user's entries and decks."""
    base = make_set(C, "official", slug="base", name="Base")
    blade = make_card(
        C,
        card_set=base,
        key="100",
        number=100,
        card_type="blade",
        title="Dragoon",
        subtitle="Storm",
        spin_strength=6,
    )
    actions = [
        make_card(
            C,
            card_set=base,
            key=str(n),
            number=n,
            printed_number=str(n),
            card_type="action",
            title=f"Move {n}",
            colour="red",
        )
        for n in range(1, 16)
    ]
    for card in actions[:8]:
        make_entry(user, card, quantity=2)
    entries = [{"card": blade.pk, "zone": "blade", "quantity": 1}]
    entries += [{"card": a.pk, "zone": "deck", "quantity": 4} for a in actions[:14]]
    deck = make_deck(user, name="Storm", entries=entries, is_public=True)
    other = django_user_model.objects.create_user("bob", password=None)
    return {
        "user": user,
        "other": other,
        "deck": deck,
        "blade": blade,
        "actions": actions,
        "entries": entries,
    }


def grow(site, n: int = 300) -> None:
    """Add many cards, entries of another user and decks (public and the user's)."""
    other = site["other"]
    homebrew = make_set(C, "custom", slug="homebrew", owner=other, is_public=True)
    cards = Card.objects.bulk_create(
        Card(
            card_set=homebrew,
            key=f"h{i}",
            number=i,
            name=f"Filler {i}",
            card_type="action",
            source="test",
        )
        for i in range(n)
    )
    card_words_refresh(cards)  # bulk_create sends no post_save (cards/words.py)
    CollectionEntry.objects.bulk_create(
        CollectionEntry(user=other, card=card, quantity=1) for card in cards[: n // 2]
    )
    for owner in (other, site["user"]):
        decks = Deck.objects.bulk_create(
            Deck(
                owner=owner,
                game=site["deck"].game,
                name=f"Deck {i}",
                is_public=owner == other,
            )
            for i in range(40)
        )
        DeckEntry.objects.bulk_create(
            DeckEntry(deck=deck, card=cards[i], zone="deck", quantity=3)
            for i, deck in enumerate(decks)
        )


def csv_import(client, site):
    upload = SimpleUploadedFile("c.csv", CSV.encode(), content_type="text/csv")
    return client.post("/collection/import/", {"file": upload, "mode": "add"})


def bulk_add(client, site):
    return client.post(
        "/collection/import/",
        {"kind": "bulk", "text": "3 Dragoon, Storm\n2 Move 4", "game": "", "set": ""},
    )


def import_preview(client, site):
    preview = csv_import(client, site)["Location"]
    return client.get(preview)


def deck_export(client, site):
    return client.get(f"/decks/{site['deck'].pk}/export.txt")


def deck_import(client, site):
    text = "Blade:\n1 Dragoon, Storm\nDeck:\n" + "".join(
        f"4 #{n}\n" for n in range(1, 15)
    )
    return client.post(f"/decks/{site['deck'].pk}/import/", {"text": text})


def card_search(client, site):
    cache.worker_caches_clear()
    return client.get("/api/cards/?q=dragoon", HTTP_ACCEPT="application/json")


def card_page(client, site):
    cache.worker_caches_clear()
    return client.get("/api/cards/?page_size=50", HTTP_ACCEPT="application/json")


def card_page_filtered(client, site):
    cache.worker_caches_clear()
    return client.get(
        "/api/cards/?page_size=50&q=is%3Aofficial+-colour%3Ared",
        HTTP_ACCEPT="application/json",
    )


def card_page_sorted(client, site):
    cache.worker_caches_clear()
    return client.get("/api/cards/?sort=-number", HTTP_ACCEPT="application/json")


ASKED = iter(range(1, 10**9))


def card_page_new_filter(client, site):
    # A value never asked before: nothing kept for the listing applies.
    return client.get(
        f"/api/cards/?page_size=50&number_min=-{next(ASKED)}",
        HTTP_ACCEPT="application/json",
    )


def home_page(client, site):
    return client.get("/")


def collection_page(client, site):
    return client.get("/collection/")


def deck_lists(client, site):
    return client.get("/decks/")


def deck_api_list(client, site):
    return client.get("/api/decks/?public=1", HTTP_ACCEPT="application/json")


PATHS = [
    csv_import,
    bulk_add,
    import_preview,
    deck_export,
    deck_import,
    card_search,
    card_page,
    card_page_filtered,
    card_page_sorted,
    card_page_new_filter,
    home_page,
    collection_page,
    deck_lists,
    deck_api_list,
]


def cost(client, site, path) -> tuple[int, int]:
    """Return (queries run, card objects built) by one request of ``path``."""
    path(client, site)  # warm what a running worker has warmed
    built = 0

    def count(**_):
        nonlocal built
        built += 1

    post_init.connect(count, sender=Card, weak=False)
    try:
        with CaptureQueriesContext(connection) as captured:
            response = path(client, site)
    finally:
        post_init.disconnect(count, sender=Card)
    assert response.status_code in (200, 302), response.content[:500]
    return len(captured), built


@pytest.mark.parametrize("path", PATHS, ids=[p.__name__ for p in PATHS])
def test_a_path_runs_as_many_queries_and_reads_as_many_cards_on_a_large_site(
    client, site, path
):
    client.force_login(site["user"])
    small = cost(client, site, path)
    grow(site)
    assert cost(client, site, path) == small


@pytest.mark.parametrize("who", ["visitor", "user"])
def test_the_unfiltered_card_list_counts_sets_not_cards(client, site, who):
    # Another user's private set: the listing then names the sets it shows.
    hidden = make_set(C, "custom", slug="secret", owner=site["other"], is_public=False)
    make_card(C, card_set=hidden, key="1", number=1, title="Hidden")
    if who == "user":
        client.force_login(site["user"])
    grow(site)
    cache.worker_caches_clear()
    with CaptureQueriesContext(connection) as captured:
        page = client.get("/api/cards/?page_size=50", HTTP_ACCEPT="application/json")
    assert (
        page.json()["count"]
        == Card.objects.visible_to(site[who] if who == "user" else None).count()
    )
    card_counts = [
        q["sql"]
        for q in captured
        if "COUNT(" in q["sql"] and '"cards_card"' in q["sql"]
    ]
    assert card_counts == []


@pytest.mark.parametrize("rows", [3, 10])
def test_the_import_preview_runs_the_same_queries_for_3_and_10_rows(client, site, rows):
    client.force_login(site["user"])
    text = "game,set,number,quantity\n" + "".join(
        f"collision,base,{n},1\n" for n in range(1, rows + 1)
    )
    upload = SimpleUploadedFile("c.csv", text.encode(), content_type="text/csv")
    preview = client.post("/collection/import/", {"file": upload, "mode": "replace"})
    client.get(preview["Location"])
    with CaptureQueriesContext(connection) as captured:
        page = client.get(preview["Location"])
    assert page.content.decode().count("Move ") >= rows
    assert len(captured) == PREVIEW_QUERIES


# Session, user, preview, its cards with their sets (and the page's own reads).
PREVIEW_QUERIES = 4


def test_a_page_of_results_reads_only_what_it_shows(client, site):
    client.force_login(site["user"])
    grow(site)
    # The listings answered from what the growth added, not only the small site.
    assert client.get("/api/cards/?q=filler&page_size=5").json()["count"] == 300
    page = client.get("/decks/").content.decode()
    assert "Page 1 of 2" in page  # my 41 decks, 30 a page


def test_a_ten_row_import_allocates_little_and_keeps_nothing(client, site):
    client.force_login(site["user"])
    grow(site, 3000)
    csv_import(client, site)  # warm what a running worker has warmed
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        assert csv_import(client, site).status_code == 302
        peak = tracemalloc.get_traced_memory()[1] - before
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    # Wide margins: loading the 3,000 other cards as objects took over 10 MiB.
    assert peak < 4 * 2**20
    assert kept < 2**20


@pytest.mark.parametrize("size", [5, 60])
def test_deck_save_runs_the_same_queries_for_5_and_60_entries(site, size):
    cards = site["actions"] + [
        make_card(
            C,
            card_set=site["blade"].card_set,
            key=f"x{n}",
            number=200 + n,
            card_type="action",
            title=f"Extra {n}",
            colour="blue",
        )
        for n in range(60)
    ]
    deck = site["deck"]
    entries = [{"card": c.pk, "zone": "deck", "quantity": 1} for c in cards[:size]]
    deck_update(deck=deck, entries=entries)  # warm
    with CaptureQueriesContext(connection) as captured:
        deck_update(deck=deck, entries=entries)
    # Lock, check cards, delete, insert, version number, snapshot, version check
    # and save: the same whatever the number of entries.
    assert len(captured) == DECK_SAVE_QUERIES


DECK_SAVE_QUERIES = 14


# -- Growth in sets (issue 36): many small custom sets across the four games ----


def grow_sets(owner, n: int, start: int = 0, cards: int = 3) -> list:
    """Add ``n`` small public custom sets of ``owner`` across the games."""
    games = list(GameRecord.objects.order_by("sort_order"))
    with card_refreshes_deferred():
        sets = CardSet.objects.bulk_create(
            CardSet(
                game=games[i % len(games)],
                slug=f"pal-{i}",
                name=f"Pal {i}",
                kind="custom",
                owner=owner,
                is_public=True,
            )
            for i in range(start, start + n)
        )
        cards = Card.objects.bulk_create(
            Card(
                card_set=card_set,
                key=str(k),
                number=k,
                printed_number=str(k),
                name=f"{card_set.name} card {k}",
                source="test rows",
            )
            for card_set in sets
            for k in range(1, cards + 1)
        )
    card_words_refresh(cards)
    return sets


@dataclass
class Reads:
    """What the database was asked and answered while a block ran."""

    queries: int = 0
    params: int = 0  # values sent: an id list grows this
    rows: int = 0  # rows fetched back
    sql: list = field(default_factory=list)


class CountingCursor(CursorDebugWrapper):
    """Django's debug cursor that also counts the rows fetched through it."""

    reads: Reads

    def execute(self, sql, params=None):
        self.reads.queries += 1
        self.reads.params += len(params or ())
        self.reads.sql.append(sql)
        return super().execute(sql, params)

    def fetchone(self):
        row = self.cursor.fetchone()
        self.reads.rows += row is not None
        return row

    def fetchmany(self, size=None):
        rows = self.cursor.fetchmany(size) if size else self.cursor.fetchmany()
        self.reads.rows += len(rows)
        return rows

    def fetchall(self):
        rows = self.cursor.fetchall()
        self.reads.rows += len(rows)
        return rows

    def __iter__(self):
        for row in self.cursor:
            self.reads.rows += 1
            yield row


@contextmanager
def reading():
    """Count the queries, values sent and rows fetched on the default database."""
    reads = Reads()

    def make(cursor):
        wrapped = CountingCursor(cursor, connection)
        wrapped.reads = reads
        return wrapped

    connection.make_cursor = connection.make_debug_cursor = make
    try:
        yield reads
    finally:
        del connection.make_cursor, connection.make_debug_cursor


def test_reading_counts_the_rows_fetched_and_the_values_sent(site):
    with reading() as reads:
        ids = list(Card.objects.filter(pk__in=[1, 2, 3]).values_list("pk", flat=True))
        names = list(Card.objects.values_list("title", flat=True)[:5])
    assert (reads.queries, reads.params, reads.rows) == (2, 3, len(ids) + 5)
    assert len(names) == 5


def reads_of(client, site, path) -> tuple[int, int, int, int]:
    """Return (queries, values sent, rows fetched, cards built) by one ``path``."""
    path(client, site)  # warm what a running worker has warmed
    built = 0

    def count(**_):
        nonlocal built
        built += 1

    post_init.connect(count, sender=Card, weak=False)
    try:
        with reading() as reads:
            response = path(client, site)
    finally:
        post_init.disconnect(count, sender=Card)
    assert response.status_code in (200, 302), response.content[:500]
    return reads.queries, reads.params, reads.rows, built


def card_page_20(client, site):
    cache.worker_caches_clear()
    return client.get("/api/cards/?page=20&page_size=3", HTTP_ACCEPT="application/json")


def game_page(client, site):
    return client.get("/games/collision/")


def search_page(client, site):
    return client.get("/search/")


SET_PATHS = [
    (path, who)
    for path in (
        csv_import,
        card_page,
        card_search,
        card_page_20,
        game_page,
        search_page,
    )
    for who in ("visitor", "user")
    if who == "user" or path is not csv_import
]


@pytest.mark.parametrize(
    "path, who", SET_PATHS, ids=[f"{p.__name__}-{w}" for p, w in SET_PATHS]
)
def test_a_path_reads_as_many_rows_with_100_and_400_custom_sets(
    client, site, path, who
):
    # 100 sets fill the game page's first page of sets (25 a game).
    if who == "user":
        client.force_login(site["user"])
    grow_sets(site["other"], 100)
    small = reads_of(client, site, path)
    grow_sets(site["other"], 300, start=100)
    assert reads_of(client, site, path) == small


def test_the_game_page_is_as_long_with_100_and_400_custom_sets(client, site):
    grow_sets(site["other"], 100)
    small = len(game_page(client, site).content)
    grow_sets(site["other"], 300, start=100)
    grown = game_page(client, site).content
    # The same 25 sets a page; only figures such as "Sets page 1 of 4" vary.
    assert abs(len(grown) - small) < 100
    assert grown.decode().count('<li><a href="/games/collision/sets/') == 25


def test_the_game_page_lists_official_sets_first_with_their_totals(client, site):
    grow_sets(site["other"], 200)
    first = game_page(client, site).content.decode()
    assert first.index("/games/collision/sets/base/") < first.index("pal-")
    assert "Base</a> · 16 cards" in first
    assert "Sets page 1 of 3" in first
    last = client.get("/games/collision/?sets_page=3").content.decode()
    assert "Sets page 3 of 3" in last
    # 51 sets of Collision: the base set and 50 custom ones (every fourth).
    assert last.count('<li><a href="/games/collision/sets/') == 1
    assert "Pal 0 card" not in last
    assert "Pal 96</a> · 3 cards" in last


def counted_unofficial_cards(reads: Reads) -> list[str]:
    """Return the queries that counted the cards of sets other than official ones."""
    return [
        sql
        for sql in reads.sql
        if sql.startswith('SELECT COUNT(*) AS "__count" FROM "cards_card"')
        and sql.endswith('AND NOT ("cards_cardset"."kind" = %s))')
    ]


@pytest.mark.parametrize("who", ["visitor", "user"])
def test_the_search_page_with_no_query_says_what_it_leaves_out_without_counting(
    client, site, who
):
    if who == "user":
        client.force_login(site["user"])
    grow_sets(site["other"], 100)
    private = make_set(C, "custom", slug="mine", owner=site["user"], is_public=False)
    make_card(C, card_set=private, key="1", number=1, title="Mine")
    with reading() as reads:
        page = search_page(client, site).content.decode()
    assert counted_unofficial_cards(reads) == []
    shown = 301 if who == "user" else 300
    assert f"Official cards only: {shown} matching practice or custom cards" in page
    with reading() as reads:
        game = game_page(client, site).content.decode()
    assert counted_unofficial_cards(reads) == []
    assert f"Official cards only: {shown - 225} matching practice" in game


def test_a_search_still_counts_the_cards_it_leaves_out(client, site):
    grow_sets(site["other"], 8)
    with reading() as reads:
        page = client.get("/search/?q=pal").content.decode()
    assert len(counted_unofficial_cards(reads)) == 1
    assert "Official cards only: 24 matching practice or custom cards" in page


def test_other_collectors_custom_cards_are_not_suggested_for_a_misspelt_name(
    client, site
):
    grow_sets(site["other"], 40, cards=30)
    text = "Blade:\n1 Dragoon, Storm\nDeck:\n4 Pal 20 crad 1\n"
    page = client.post(f"/decks/{site['deck'].pk}/import/", {"text": text})
    assert "Pal 20 card 1" not in page.content.decode()
    # Named exactly, such a card is found.
    text = "Blade:\n1 Dragoon, Storm\nDeck:\n4 Pal 20 card 1\n"
    page = client.post(f"/decks/{site['deck'].pk}/import/", {"text": text})
    assert "No card" not in page.content.decode()


def misspelt_deck_import(client, site):
    text = "Blade:\n1 Dragoon, Storm\nDeck:\n4 Move 1\n4 Pal 20 crad 1\n"
    response = client.post(f"/decks/{site['deck'].pk}/import/", {"text": text})
    assert "Did you mean: Pal 20 card 1" in response.content.decode()
    return response


def test_a_misspelt_deck_import_reads_as_many_rows_with_40_and_160_sets(client, site):
    client.force_login(site["user"])
    # The user's own sets (suggestions come from printed, practice and one's own
    # cards): 300 names of Collision start "Pal", more than a probe for
    # suggestions reads either side of "pal 20 crad 1".
    grow_sets(site["user"], 40, cards=30)
    assert 4 * 30 > CLOSE_NAME_PROBE
    small = reads_of(client, site, misspelt_deck_import)
    grow_sets(site["user"], 120, start=40, cards=30)
    assert reads_of(client, site, misspelt_deck_import) == small
