"""Playtest action time through the API: load, apply, bot replies, store."""

import time

from django.contrib.auth import get_user_model
from django.test import Client

from cards.games import GAMES
from decks.samples import sample_deck
from tools.bench.timing import Clock, Row, Timing, ms


def add_arguments(parser) -> None:
    parser.add_argument("--actions", type=int, default=200)


def playtest_action_times(actions: int = 200, seed: int = 1) -> dict[str, Timing]:
    """Return each game's action timings, measured with Django's test client."""
    user = get_user_model().objects.create_user(f"bench-{time.time_ns()}")
    client = Client()
    client.force_login(user)
    results = {}
    try:
        for slug in GAMES:
            deck = sample_deck(owner=user, game_slug=slug)
            clock, state = Clock(), None
            while len(clock.wall) < actions:
                if state is None or state["over"] or not state["legal_actions"]:
                    state = client.post(
                        "/api/playtests/",
                        {
                            "deck": deck.pk,
                            "opponent": "random",
                            "seed": seed + len(clock.wall),
                        },
                        content_type="application/json",
                    ).json()
                    continue
                body = {
                    "action": state["legal_actions"][0]["id"],
                    "version": state["version"],
                }
                with clock:
                    response = client.post(
                        f"/api/playtests/{state['id']}/actions/",
                        body,
                        content_type="application/json",
                    )
                state = response.json()
            results[slug] = clock.timing()
    finally:
        user.delete()
    return results


def rows(args):
    """Yield each game's action time."""
    for slug, t in playtest_action_times(args.actions).items():
        yield Row(
            f"playtest action, {slug}",
            t.text(),
            f"max {ms(max(t.wall))} over {t.runs}",
            seconds=t.median,
            data={"game": slug, "median": t.median, "p95": t.p95},
        )
