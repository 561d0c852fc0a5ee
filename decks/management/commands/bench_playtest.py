"""Time playtest actions through the API (load, apply, bots, store) and print percentiles."""

import json
import statistics
import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.test import Client

from cards.games import GAMES
from decks.samples import sample_deck


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def playtest_action_times(actions: int = 200, seed: int = 1) -> dict:
    """Return per-game action timings in milliseconds, measured with Django's test client."""
    User = get_user_model()
    user = User.objects.create_user(f"bench-{time.time_ns()}", password=None)
    client = Client()
    client.force_login(user)
    results = {}
    try:
        for slug in GAMES:
            deck = sample_deck(owner=user, game_slug=slug)
            times, state = [], None
            while len(times) < actions:
                if state is None or state["over"] or not state["legal_actions"]:
                    state = client.post(
                        "/api/playtests/",
                        {
                            "deck": deck.pk,
                            "opponent": "random",
                            "seed": seed + len(times),
                        },
                        content_type="application/json",
                    ).json()
                    continue
                body = {
                    "action": state["legal_actions"][0]["id"],
                    "version": state["version"],
                }
                started = time.perf_counter()
                response = client.post(
                    f"/api/playtests/{state['id']}/actions/",
                    body,
                    content_type="application/json",
                )
                times.append((time.perf_counter() - started) * 1000)
                state = response.json()
            results[slug] = {
                "actions": len(times),
                "median_ms": round(statistics.median(times), 2),
                "p95_ms": round(percentile(times, 0.95), 2),
                "max_ms": round(max(times), 2),
            }
    finally:
        user.delete()
    return results


class Command(BaseCommand):
    help = "Benchmark one playtest action (load, apply, bot replies, store) through the API."

    def add_arguments(self, parser):
        parser.add_argument("--actions", type=int, default=200)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **opts):
        results = playtest_action_times(opts["actions"])
        if opts["json"]:
            self.stdout.write(json.dumps(results))
            return
        self.stdout.write(
            f"{'game':<14}{'actions':>8}{'median ms':>11}{'p95 ms':>9}{'max ms':>9}"
        )
        for slug, r in results.items():
            self.stdout.write(
                f"{slug:<14}{r['actions']:>8}{r['median_ms']:>11}{r['p95_ms']:>9}{r['max_ms']:>9}"
            )
