"""SQL queries per page: the checklist and the card list API at 1 and 50 rows."""

import time

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Count
from django.test import Client
from django.test.utils import CaptureQueriesContext

from cards.games import GAMES
from cards.models import Card
from tools.bench.timing import Row


def add_arguments(parser) -> None:
    pass


def largest_checklist() -> str:
    """Return the slug of the game with the most cards (the heaviest checklist)."""
    counts = {slug: 0 for slug in GAMES}
    for row in Card.objects.values("card_set__game__slug").annotate(n=Count("id")):
        counts[row["card_set__game__slug"]] = row["n"]
    return max(counts, key=counts.get)


def query_counts() -> list[tuple[str, int, int]]:
    """Return (page, queries at page size 1, at page size 50) for two listings."""
    user = get_user_model().objects.create_user(f"bench-q-{time.time_ns()}")
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


def rows(args):
    """Yield each page's query counts."""
    for label, one, fifty in query_counts():
        yield Row(
            f"SQL queries: {label}",
            f"{one} at 1 row, {fifty} at 50",
            "equal" if one == fifty else "NOT EQUAL",
            data={"one": one, "fifty": fifty},
        )
