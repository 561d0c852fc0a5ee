"""Print random two-player Bakugan games per second with the official cards'
real effects, on one core.

Each deck holds three practice figures (the official ones print their G-Power
per copy) with three official gates of known bonus grid and three official
ability cards, all with encoded effects, drawn anew for each deck pair from a
fixed seed; the figure is the mean over all the games.
"""

import random
import time

from django.core.management.base import BaseCommand

from cards.games import bakugan
from cards.models import Card
from decks.engine import get_game
from decks.engine.bots import make_bot, play_out
from decks.engine.core import Rng, seed_state
from decks.playtest.adapter import card_to_engine

BONUSES = tuple(f"bonus_{a}" for a in bakugan.ATTRIBUTES)


def _pools():
    cards = Card.objects.filter(card_set__game__slug=bakugan.GAME.slug).select_related(
        "card_set"
    )
    official = cards.filter(card_set__kind="official").exclude(effects=[])
    gates = [
        card_to_engine(c)
        for c in official.filter(card_type="gate")
        if all(getattr(c, f) is not None for f in BONUSES)
    ]
    abilities = [card_to_engine(c) for c in official.filter(card_type="ability")]
    figures = [
        card_to_engine(c)
        for c in cards.filter(card_type=bakugan.FIGURE).exclude(g_power=None)
    ]
    return figures, gates, abilities


def bench(games: int = 2000, pairs: int = 4, seed: int = 1) -> dict:
    """Return games/s over ``games`` random games spread over ``pairs`` deck pairs."""
    game = get_game(bakugan.GAME.slug)
    figures, gates, abilities = _pools()
    if len(figures) < 3 or len(gates) < 3 or len(abilities) < 3:
        raise ValueError("Load the card data first (manage.py load_cards).")
    rng = random.Random(seed)

    def deck():
        return {
            bakugan.FIGURE: rng.sample(figures, 3),
            "gate": rng.sample(gates, 3),
            "ability": rng.sample(abilities, 3),
        }

    matches = [[deck(), deck()] for _ in range(pairs)]
    for decks in matches:  # warm the deck reads
        game.new_game(decks, {}, 0)
    lengths = []
    started = time.perf_counter()
    for i in range(games):
        decks = matches[i % pairs]
        state = game.new_game(decks, {}, seed + i)
        bots = [make_bot("random", (seed + i) * 31 + s) for s in range(2)]
        state = play_out(game, state, bots, Rng(seed_state(seed + i, 7)))
        lengths.append(game.length(state))
    elapsed = time.perf_counter() - started
    return {
        "games": games,
        "games_per_second": round(games / elapsed, 1),
        "mean_length": round(sum(lengths) / len(lengths), 2),
        "gates": len(gates),
        "abilities": len(abilities),
    }


class Command(BaseCommand):
    help = (
        "Benchmark the Bakugan engine with the official cards' real effects: "
        "random two-player games per second on one core."
    )

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=2000)

    def handle(self, *args, games, **options):
        r = bench(games)
        self.stdout.write(
            f"bakugan, 2 players, official cards with effects ({r['gates']} gates, "
            f"{r['abilities']} abilities to draw from): {r['games_per_second']} "
            f"games/s, mean length {r['mean_length']} turns, {r['games']} games"
        )
