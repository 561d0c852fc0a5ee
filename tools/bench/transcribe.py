"""Transcribe page and preview: server time per game, in process.

Django's test client on the configured database, so the figure is the server's
own time: routing, queries, the drawn face and the template. Run it after
``make setup`` (``load_cards``) so each game has cards to transcribe.
"""

import time

from django.contrib.auth import get_user_model
from django.test import Client

from cards.choices import SetKind
from cards.community.services import unknown_fields
from cards.games import GAMES
from cards.models import Card
from tools.bench.timing import Row, measure


def add_arguments(parser) -> None:
    parser.add_argument("--runs", type=int, default=50)


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


def _ok(response):
    assert response.status_code == 200, response.status_code
    return response


def rows(args):
    """Yield the page's and the preview's time for each game."""
    user = get_user_model().objects.create_user(f"bench-transcribe-{time.time_ns()}")
    client = Client()
    client.force_login(user)
    try:
        for slug in GAMES:
            card = _card(slug)
            if card is None:
                yield Row(f"transcribe, {slug}", "no card to transcribe")
                continue
            url = f"/community/cards/{card.pk}/transcribe/"
            data = {"card_type": card.card_type or ""}
            calls = {
                "page": lambda url=url: _ok(client.get(url)),
                "preview": lambda url=url, data=data: _ok(
                    client.post(url + "preview/", data)
                ),
            }
            for label, call in calls.items():
                t = measure(call, args.runs)
                yield Row(
                    f"transcribe {label}, {slug}",
                    t.text(),
                    f"{t.cpu_text()}, {t.runs} runs",
                    seconds=t.median,
                )
    finally:
        user.delete()
