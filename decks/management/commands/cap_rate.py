"""Print how often bot games end at the turn cap, per game, mode and bot pairing.

A benchmark figure, not a test: ``manage.py cap_rate`` plays ``--games`` games
(200 by default) for every game, mode and pairing of bots, the decks drawn in
turn from the game's preset decks and practice samples (``decks.presets``; no
database), and prints one line each: games, how many ended at the cap, the
share. The goal (issue 20) is under 2% everywhere. ``--game`` picks one game.
"""

from __future__ import annotations

import time
from types import SimpleNamespace

from django.core.management.base import BaseCommand

from cards.games import GAMES
from decks.engine import engine_for
from decks.engine.bots import make_bot, play_out
from decks.engine.core import Rng, seed_state
from decks.presets import _card_index, preset_decks
from decks.rules import rules_module

PAIRINGS = (("random", "random"), ("greedy", "greedy"), ("greedy", "random"))


def modes(game_slug: str) -> list[tuple[str, int, dict]]:
    """Return (mode name, players, engine options) for the game's modes."""
    spec = GAMES[game_slug]
    names = {o.name for o in spec.options}
    found = []
    for players in spec.seat_counts:
        options = {"players": players} if "players" in names else {}
        if "advanced" in names:
            found.append((f"{players} players, basic", players, dict(options)))
            found.append(
                (f"{players} players, advanced", players, {**options, "advanced": True})
            )
        else:
            found.append((f"{players} players", players, dict(options)))
        if "challenges" in names and players == 3:
            found.append(
                (
                    f"{players} players, challenges",
                    players,
                    {**options, "challenges": True},
                )
            )
    return found


def practice_decks(game_slug: str, count: int = 2) -> list[tuple[str, dict]]:
    """Return the practice samples (variants 0..count-1) as (name, engine deck)."""
    cards = [c for c in _card_index(game_slug).values() if c["set_kind"] == "practice"]
    shown = [SimpleNamespace(pk=c["id"], **c) for c in cards]
    by_id = {c["id"]: c for c in cards}
    decks = []
    for variant in range(count):
        zones: dict[str, list] = {}
        for entry in rules_module(game_slug).sample(shown, variant):
            zones.setdefault(entry["zone"], []).extend(
                dict(by_id[entry["card"]]) for _ in range(entry["quantity"])
            )
        decks.append((f"practice sample {variant + 1}", zones))
    return decks


def deck_pool(game_slug: str) -> list[tuple[str, dict]]:
    return [(p.name, p.deck()) for p in preset_decks(game_slug)] + practice_decks(
        game_slug
    )


def measure(
    game_slug: str, players: int, options: dict, bots, games: int, seed: int
) -> dict:
    """Play ``games`` games and return counts: games, at the cap, draws, seconds."""
    game = engine_for(game_slug)
    pool = deck_pool(game_slug)
    shared = GAMES[game_slug].shared_pack
    at_cap = draws = 0
    started = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        if shared:
            decks = [pool[i % len(pool)][1]]
        else:
            # Seat s plays deck (i + s * (1 + i // len)) of the pool: every
            # pairing, mirrors included, comes up in turn.
            step = 1 + (i // len(pool)) % max(1, len(pool) - 1)
            decks = [pool[(i + s * step) % len(pool)][1] for s in range(players)]
        state = game.new_game(decks, options, game_seed)
        seats = game.player_count(state)
        seat_bots = [
            make_bot(bots[min(s, len(bots) - 1)], game_seed * 31 + s)
            for s in range(seats)
        ]
        state = play_out(game, state, seat_bots, Rng(seed_state(game_seed, 7)))
        if game.winner(state) is None:
            draws += 1
            if "cap" in game.view(state, 0).reason.lower():
                at_cap += 1
    return {
        "games": games,
        "at_cap": at_cap,
        "draws": draws,
        "seconds": round(time.perf_counter() - started, 2),
    }


class Command(BaseCommand):
    help = "Print the share of bot games ending at the turn cap, per game, mode and pairing."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=200)
        parser.add_argument("--game", choices=sorted(GAMES), default=None)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--pairing",
            choices=["-".join(p) for p in PAIRINGS],
            default=None,
            help="one pairing only (seat 1's bot, then the others')",
        )

    def handle(self, *args, **opts):
        slugs = [opts["game"]] if opts["game"] else sorted(GAMES)
        pairings = [p for p in PAIRINGS if opts["pairing"] in (None, "-".join(p))]
        worst = 0.0
        self.stdout.write(
            f"{'game':<13} {'mode':<28} {'bots':<14} {'games':>5} {'at cap':>6} "
            f"{'share':>6} {'draws':>5} {'secs':>6}"
        )
        for slug in slugs:
            for mode, players, options in modes(slug):
                for bots in pairings:
                    row = measure(
                        slug, players, options, bots, opts["games"], opts["seed"]
                    )
                    share = row["at_cap"] / row["games"]
                    worst = max(worst, share)
                    self.stdout.write(
                        f"{slug:<13} {mode:<28} {'-'.join(bots):<14} "
                        f"{row['games']:>5} {row['at_cap']:>6} {share:>6.1%} "
                        f"{row['draws']:>5} {row['seconds']:>6}"
                    )
        self.stdout.write(f"worst share at the cap: {worst:.1%} (goal: under 2%)")
