"""Print the bots' measured strength (win rates, 95% intervals) and the search bot's
time per choice, with the preset decks of every game.

    manage.py bench_bots                       # 400 games per pairing, every game
    manage.py bench_bots --game collision --games 100 --pairing search-greedy
    manage.py bench_bots --timing 20           # p50/p95 seconds per choice instead
    manage.py bench_bots --hidden 12           # how often greedy reads what it cannot see
    manage.py bench_bots --pairing sees-all-greedy   # the search bot reading every hidden card
    manage.py bench_bots --pairing sees-hands-greedy # ... reading the others' hands only

Two-seat games play every ordered pair of the game's presets from both seats; a
shared pack (Collide-O!) is played by two and by three seats, the first bot in one of them,
counting its share of the games. No database is read: the presets are data.
"""

import json
import math
import statistics

from django.core.management.base import BaseCommand, CommandError

from cards.games import GAMES
from decks.engine import get_game
from decks.engine.bots import BOT_NAMES
from decks.engine.strength import (
    SEES_ALL,
    SEES_HANDS,
    choice_times,
    hidden_reads,
    match_rate,
)
from decks.presets import preset_decks

PAIRINGS = {
    "search-greedy": ("search", "greedy"),
    "greedy-random": ("greedy", "random"),
    # Not a bot a player meets: the default search bot reading every hidden
    # card, the ceiling of what reading the others' hands would bring it.
    "sees-all-greedy": (SEES_ALL, "greedy"),
    "sees-all-random": (SEES_ALL, "random"),
    # The same, reading the others' hands only: which part of the ceiling is theirs.
    "sees-hands-greedy": (SEES_HANDS, "greedy"),
    "search-random": ("search", "random"),
}
GOAL_PAIRINGS = ("search-greedy", "greedy-random")  # what issue 21 sets goals for
SHARED_SEATS = 3  # a shared pack is measured at three seats (issue 21)


def setups(only: str | None = None):
    """Yield (slug, options, players) for each measured set-up of each game."""
    for slug, spec in GAMES.items():
        if only and slug != only:
            continue
        seen = []
        for options, _ in spec.bench_setups:
            if options in seen:
                continue
            seen.append(options)
            if spec.shared_pack:
                for seats in (2, SHARED_SEATS):
                    yield slug, {**options, "players": seats}, seats
            else:
                yield slug, dict(options), 2


def _label(slug: str, options: dict) -> str:
    shown = {k: v for k, v in options.items() if k != "players"}
    seats = f" {options['players']}p" if "players" in options else ""
    return slug + seats + ("" if not shown else " " + json.dumps(shown))


class Command(BaseCommand):
    help = (
        "Measure bot strength (win rates with 95% intervals) or search time per choice."
    )

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=400)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--game", choices=sorted(GAMES))
        parser.add_argument(
            "--players", type=int, help="Only the set-ups of this many seats."
        )
        parser.add_argument("--pairing", choices=sorted(PAIRINGS), action="append")
        parser.add_argument(
            "--search",
            default="search",
            choices=[b for b in BOT_NAMES if "search" in b],
        )
        parser.add_argument(
            "--timing",
            type=int,
            default=0,
            help="Time the search bot's choices over this many games against greedy.",
        )
        parser.add_argument(
            "--hidden",
            type=int,
            default=0,
            help="Over this many greedy games, count the choices whose best moves "
            "change when what the seat cannot see is dealt anew.",
        )
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **opts):
        if opts["games"] < 1:
            raise CommandError("--games must be at least 1.")
        rows = []
        for slug, options, players in setups(opts["game"]):
            if opts["players"] and players != opts["players"]:
                continue
            game = get_game(slug)
            decks = [p.deck() for p in preset_decks(slug)]
            if not decks:
                continue
            if opts["hidden"]:
                row = {
                    "setup": _label(slug, options),
                    **hidden_reads(game, decks, options, opts["hidden"], opts["seed"]),
                }
                rows.append(row)
                self._show(row, opts)
                continue
            if opts["timing"]:
                seat_decks = (
                    [[d] for d in decks]
                    if GAMES[slug].shared_pack
                    else [[x, y] for x in decks for y in decks]
                )
                times = sorted(
                    choice_times(
                        game, seat_decks, options, opts["search"], opts["timing"]
                    )
                )
                row = {
                    "setup": _label(slug, options),
                    "bot": opts["search"],
                    "choices": len(times),
                    "p50": round(statistics.median(times), 4),
                    "p95": round(times[math.ceil(0.95 * len(times)) - 1], 4),
                    "max": round(times[-1], 4),
                }
                rows.append(row)
                self._show(row, opts)
                continue
            for name in opts["pairing"] or GOAL_PAIRINGS:
                a, b = PAIRINGS[name]
                a = opts["search"] if a == "search" else a
                row = match_rate(
                    game, decks, options, a, b, opts["games"], opts["seed"], players
                )
                row["setup"] = _label(slug, options)
                rows.append(row)
                self._show(row, opts)

    def _show(self, row: dict, opts) -> None:
        if opts["json"]:
            self.stdout.write(json.dumps(row))
        elif "changed" in row:
            self.stdout.write(
                f"{row['setup']:<30} greedy's best moves changed by a new deal in"
                f" {row['changed']} of {row['choices']} choices ({row['rate']:.1%}),"
                f" {row['games']} games"
            )
        elif "p95" in row:
            self.stdout.write(
                f"{row['setup']:<30} {row['bot']:<14} {row['choices']:>6} choices"
                f"  p50 {row['p50']:.3f} s  p95 {row['p95']:.3f} s  max {row['max']:.3f} s"
            )
        else:
            low, high = row["interval"]
            self.stdout.write(
                f"{row['setup']:<30} {row['a']:>13} vs {row['b']:<7}"
                f" {row['rate']:6.1%} [{low:.1%}, {high:.1%}]"
                f"  {row['games']} games, {row['players']} seats,"
                f" {row['draws']} draws, {row['seconds']} s"
            )
        self.stdout.flush()
