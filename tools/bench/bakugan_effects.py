"""Bakugan with the official cards' real effects: random two-player games per second.

Each deck holds three practice figures (the official ones print their G-Power
per copy) with three official gates of known bonus grid and three official
ability cards, all with encoded effects, drawn anew for each deck pair from a
fixed seed; the figure is the mean over all the games. Run it after
``load_cards``.
"""

import random
import time

from cards.games import bakugan
from cards.models import Card
from decks.engine import engine_for
from decks.engine.bots import make_bot, play_out
from decks.engine.core import Rng, seed_state
from decks.play.adapter import card_to_engine
from tools.bench.timing import BenchError, Row

BONUSES = tuple(f"bonus_{a}" for a in bakugan.ATTRIBUTES)


def add_arguments(parser) -> None:
    parser.add_argument("--games", type=int, default=2000)


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
    game = engine_for(bakugan.GAME.slug)
    figures, gates, abilities = _pools()
    if len(figures) < 3 or len(gates) < 3 or len(abilities) < 3:
        raise BenchError("Load the card data first (manage.py load_cards).")
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
        "seconds": elapsed,
        "games_per_second": round(games / elapsed, 1),
        "mean_length": round(sum(lengths) / len(lengths), 2),
        "gates": len(gates),
        "abilities": len(abilities),
    }


def rows(args):
    """Yield the one figure."""
    r = bench(args.games)
    yield Row(
        "engine bakugan, 2 players, official cards' effects",
        f"{r['games_per_second']} games/s",
        f"{r['gates']} gates and {r['abilities']} abilities to draw from, "
        f"mean length {r['mean_length']} turns, {r['games']} games",
        seconds=r["seconds"] / r["games"],
        data=r,
    )
