"""Print the server time of the transcribe page and its preview, per game.

In process (Django's test client on the configured database), so the figure is
the server's own time: routing, queries, the drawn face and the template. Run it
after ``make setup`` (``load_cards``) so each game has cards to transcribe.
"""

import statistics
import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.test import Client

from cards.choices import SetKind
from cards.community.services import unknown_fields
from cards.games import GAMES
from cards.models import Card


def _card(slug: str):
    cards = (
        Card.objects.filter(
            card_set__game__slug=slug,
            card_set__kind__in=(SetKind.OFFICIAL, SetKind.PRACTICE),
        )
        .select_related("card_set__game")
        .order_by("card_set__kind", "number")
    )
    for card in cards[:300]:
        if unknown_fields(card):
            return card
    return cards.first()


def _times(call, runs: int) -> tuple[list[float], list[float]]:
    """Return the wall and CPU milliseconds of ``runs`` calls."""
    call()  # warm
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        response = call()
        cpu.append((time.process_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, response.status_code
    return wall, cpu


def _p95(values: list[float]) -> float:
    return sorted(values)[max(0, int(len(values) * 0.95) - 1)]


class Command(BaseCommand):
    help = "Print the median and p95 server time of the transcribe page and preview."

    def add_arguments(self, parser):
        parser.add_argument("--runs", type=int, default=50)

    def handle(self, *args, runs, **options):
        runs = max(1, runs)
        user = get_user_model().objects.create_user(
            f"bench-transcribe-{time.time_ns()}", password=None
        )
        client = Client()
        client.force_login(user)
        try:
            for slug in GAMES:
                card = _card(slug)
                if card is None:
                    self.stdout.write(f"{slug:13} no card to transcribe")
                    continue
                url = f"/community/cards/{card.pk}/transcribe/"
                data = {"card_type": card.card_type or ""}
                page = _times(lambda url=url: client.get(url), runs)
                preview = _times(
                    lambda url=url, data=data: client.post(url + "preview/", data),
                    runs,
                )
                for label, (wall, cpu) in (("page", page), ("preview", preview)):
                    # CPU time leaves out the waits of a machine shared with others.
                    self.stdout.write(
                        f"{slug:13} transcribe {label:8} wall median "
                        f"{statistics.median(wall):6.1f} ms p95 {_p95(wall):6.1f} ms"
                        f"  cpu median {statistics.median(cpu):6.1f} ms p95 "
                        f"{_p95(cpu):6.1f} ms ({runs} runs)"
                    )
        finally:
            user.delete()
