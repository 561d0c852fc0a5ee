"""Bot strength with the preset decks (win rates, 95% intervals), or search time.

    python -m tools.bench bots                       # 400 games a pairing, every game
    python -m tools.bench bots --game collision --games 100 --pairing search-greedy
    python -m tools.bench bots --timing 20           # seconds per choice instead
    python -m tools.bench bots --hidden 12           # how often greedy reads the unseen
    python -m tools.bench bots --pairing sees-all-greedy   # reading every hidden card
    python -m tools.bench bots --pairing sees-hands-greedy # ... the others' hands only
    python -m tools.bench bots --write --pairing search-greedy --games 400
                                   # ... and record the rows in strength.json

Two-seat games play every ordered pair of the game's presets from both seats; a
shared pack (Collide-O!) is played by two and by three seats, the first bot in
one of them, counting its share of the games. No database is read: the presets
are data. ``--write`` records each match measured in the strength table
(``decks/engine/strength.json``, replacing the row of the same set-up and
bots), which the help pages and docs/bots.md show.
"""

import json
import statistics

from cards.games import GAMES
from decks.engine import engine_for
from decks.engine.bots import BOT_NAMES
from decks.engine.strength import (
    SEES_ALL,
    SEES_HANDS,
    TABLE,
    choice_times,
    hidden_reads,
    match_rate,
)
from decks.presets import preset_decks
from tools.bench.timing import BenchError, Row, p95

# In the strength table's order: the levels a player meets, then the devices.
PAIRINGS = {
    "greedy-random": ("greedy", "random"),
    "search-greedy": ("search", "greedy"),
    "search-random": ("search", "random"),
    # The same, reading the others' hands only: which part of the ceiling is theirs.
    "sees-hands-greedy": (SEES_HANDS, "greedy"),
    # Not a bot a player meets: the default search bot reading every hidden
    # card, the ceiling of what reading the others' hands would bring it.
    "sees-all-greedy": (SEES_ALL, "greedy"),
    "sees-all-random": (SEES_ALL, "random"),
}
GOAL_PAIRINGS = ("search-greedy", "greedy-random")  # what issue 21 sets goals for
SHARED_SEATS = 3  # a shared pack is measured at three seats (issue 21)


def add_arguments(parser) -> None:
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
        choices=BOT_NAMES,
        help="The bot measured (--timing takes any bot; the pairings a search level).",
    )
    parser.add_argument(
        "--timing",
        type=int,
        default=0,
        help="Time the --search bot's choices over this many games against greedy.",
    )
    parser.add_argument(
        "--hidden",
        type=int,
        default=0,
        help="Over this many greedy games, count the choices whose best moves "
        "change when what the seat cannot see is dealt anew.",
    )
    parser.add_argument(
        "--write",
        action="store_true",
        help=f"Record the matches measured in {TABLE.name} (the help pages' table).",
    )


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


def setup_name(slug: str, options: dict, players: int) -> str:
    """Return how the help page names a set-up: "2 players, Advanced game (...)"."""
    labels = {o.name: o.label for o in GAMES[slug].options}
    on = [labels[k] for k, v in options.items() if k != "players" and v is True]
    return ", ".join([f"{players} players", *on])


def _label(slug: str, options: dict) -> str:
    shown = {k: v for k, v in options.items() if k != "players"}
    seats = f" {options['players']}p" if "players" in options else ""
    return slug + seats + ("" if not shown else " " + json.dumps(shown))


def rows(args):
    """Yield a row per set-up and pairing (or timing, or hidden reads)."""
    if args.games < 1:
        raise BenchError("--games must be at least 1.")
    found: list[dict] = []  # the matches, for --write
    for slug, options, players in setups(args.game):
        if args.players and players != args.players:
            continue
        game = engine_for(slug)
        decks = [p.deck() for p in preset_decks(slug)]
        if not decks:
            continue
        label = _label(slug, options)
        if args.hidden:
            yield _hidden_row(
                label, hidden_reads(game, decks, options, args.hidden, args.seed)
            )
        elif args.timing:
            seat_decks = (
                [[d] for d in decks]
                if GAMES[slug].shared_pack
                else [[x, y] for x in decks for y in decks]
            )
            times = choice_times(game, seat_decks, options, args.search, args.timing)
            yield _timing_row(label, args.search, times)
        else:
            for name in args.pairing or GOAL_PAIRINGS:
                a, b = PAIRINGS[name]
                a = args.search if a == "search" else a
                row = match_rate(
                    game, decks, options, a, b, args.games, args.seed, players
                )
                found.append(table_row(slug, options, players, name, row, args))
                yield _match_row(label, row)
    if args.write and found:
        write_table(found)


def table_row(
    slug: str, options: dict, players: int, pairing: str, match: dict, args
) -> dict:
    """Return a match as the strength table records it, with its command."""
    command = ["python -m tools.bench bots", f"--game {slug}"]
    if GAMES[slug].shared_pack:
        command.append(f"--players {players}")
    if args.search != "search":
        command.append(f"--search {args.search}")
    command.append(f"--pairing {pairing} --games {match['games']} --seed {args.seed}")
    return {
        "game": slug,
        "setup": setup_name(slug, options, players),
        "pairing": pairing,
        **{k: match[k] for k in ("a", "b", "games", "wins", "draws", "rate")},
        "interval": match["interval"],
        "seed": args.seed,
        "command": " ".join(command),
    }


def write_table(found: list[dict]) -> None:
    """Merge ``found`` into the strength table, replacing rows of the same match."""
    table = json.loads(TABLE.read_text()) if TABLE.exists() else {"rows": []}

    def key(row):
        return (row["game"], row["setup"], row["a"], row["b"])

    new = {key(row): row for row in found}
    rows = [new.pop(key(row), row) for row in table["rows"]] + list(new.values())
    order = [(slug, setup_name(slug, o, n)) for slug, o, n in setups()]
    pairings = list(PAIRINGS)
    rows.sort(
        key=lambda r: (
            order.index((r["game"], r["setup"])),
            pairings.index(r["pairing"]),
            r["a"],
        )
    )
    table = {
        "written by": "python -m tools.bench bots --write (each row names its command)",
        "unit": "the first bot's share of the games against the others, with its "
        "95% Wilson interval; seats tied for the win share it",
        "rows": rows,
    }
    with TABLE.open("w") as out:
        out.write("{\n")
        for k in ("written by", "unit"):
            out.write(f" {json.dumps(k)}: {json.dumps(table[k])},\n")
        out.write(' "rows": [\n')
        out.write(",\n".join(f"  {json.dumps(row)}" for row in rows))
        out.write("\n ]\n}\n")


def _hidden_row(label: str, found: dict) -> Row:
    return Row(
        f"{label}, greedy's best moves changed by a new deal",
        f"{found['changed']} of {found['choices']} ({found['rate']:.1%})",
        f"{found['games']} games",
        data={"setup": label, **found},
    )


def _timing_row(label: str, bot: str, times: list[float]) -> Row:
    median = statistics.median(times)
    return Row(
        f"{label}, {bot} seconds per choice",
        f"p50 {median:.3f} s, p95 {p95(times):.3f} s",
        f"max {max(times):.3f} s, {len(times)} choices",
        seconds=median,
        data={"setup": label, "bot": bot, "choices": len(times), "p95": p95(times)},
    )


def _match_row(label: str, row: dict) -> Row:
    low, high = row["interval"]
    return Row(
        f"{label}, {row['a']} vs {row['b']}",
        f"{row['rate']:.1%} [{low:.1%}, {high:.1%}]",
        f"{row['games']} games, {row['players']} seats, {row['draws']} draws,"
        f" {row['seconds']} s",
        data={"setup": label, **row},
    )
