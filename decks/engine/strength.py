"""Measured bot strength: seeded matches between two bots with given decks.

``match_rate`` plays ``games`` games of bot ``a`` against bot ``b``: with a
deck per seat, game ``i`` takes deck pairing ``i // 2`` (cycling through every ordered
pair of the decks given) and seats ``a`` first in even games, second in odd
ones, so each bot plays every pairing from both seats. With a shared pack (any
number of seats), ``a`` takes one seat, rotating, and ``b`` the others; its
figure is then its share of the games (``search.outcome_shares``: seats tied
for the win share it, a draw shares it among every seat).
Everything is seeded from ``seed``, so a run replays exactly.

``measured`` reads what the bench recorded of such matches (``strength.json``,
written by ``python -m tools.bench bots --write``): each set-up's win rates
with their 95% intervals, games, seed and command, the one table behind the
help page's figures and docs/bots.md.

Besides the bots a player can pick (``bots.BOT_NAMES``) a measurement may
name ``SEES_ALL``: the default search bot reading every hidden card
(``search.SearchBot(sees_all=True)``), the ceiling of what knowing the others'
hands and the deck orders would bring this search, or ``SEES_HANDS``: the
same bot reading the others' hands only (``SearchBot(sees_hands=True)``),
which parts the ceiling into what the hands give and what the deck orders do.
"""

from __future__ import annotations

import json
import math
import time
from functools import cache
from pathlib import Path

from .bots import LEVEL_NAMES, OFFERED, make_bot, play_out
from .core import CHANCE, Rng, resolve_chance, seed_state
from .search import SearchBot, outcome_shares

SEES_ALL = "search:sees-all"  # a measuring device only: it reads hidden cards
SEES_HANDS = "search:sees-hands"  # a measuring device only: it reads the hands
TABLE = Path(__file__).with_name("strength.json")


@cache
def measured() -> dict:
    """Return the recorded strength table: ``{"command": ..., "rows": [...]}``."""
    return json.loads(TABLE.read_text())


def levels_measured(game: str) -> dict:
    """Return ``game``'s rows between the levels players are offered, by set-up.

    ``{"setups": [{"setup": name, "rows": [...]}], "commands": [...]}`` in the
    table's order, each row with its bots' level names (``level``,
    ``against``), and the commands that measured them, each once; the
    measuring devices' rows are left to docs/bots.md.
    """
    setups: dict[str, list] = {}
    commands: list[str] = []
    for row in measured()["rows"]:
        if row["game"] == game and row["a"] in OFFERED and row["b"] in OFFERED:
            setups.setdefault(row["setup"], []).append(
                {
                    **row,
                    "level": LEVEL_NAMES[row["a"]],
                    "against": LEVEL_NAMES[row["b"]],
                }
            )
            if row["command"] not in commands:
                commands.append(row["command"])
    return {
        "setups": [{"setup": name, "rows": rows} for name, rows in setups.items()],
        "commands": commands,
    }


def _bot(name: str, seed: int):
    """Return the bot named ``name``: one of ``bots.BOT_NAMES``, ``SEES_ALL``, ``SEES_HANDS``."""
    if name == SEES_ALL:
        return SearchBot(seed, sees_all=True)
    if name == SEES_HANDS:
        return SearchBot(seed, sees_hands=True)
    return make_bot(name, seed)


def wilson_interval(points: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Return the 95% Wilson score interval of a rate of ``points`` in ``n`` games."""
    if n == 0:
        return (0.0, 1.0)
    p = points / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def match_rate(
    game,
    decks: list,
    options: dict,
    a: str,
    b: str,
    games: int,
    seed: int = 1,
    players: int = 2,
) -> dict:
    """Play ``a`` against ``b``; return a's wins, draws (games it shared), rate and interval.

    ``decks`` lists engine decks: with two seats, the decks to pair; with a
    shared pack, the packs to cycle through (one per game).
    """
    wins = draws = 0
    points = 0.0
    started = time.perf_counter()
    pairs = [(x, y) for x in decks for y in decks]
    for i in range(games):
        game_seed = seed + i
        if not game.GAME.shared_pack:
            mine, theirs = pairs[(i // 2) % len(pairs)]
            seat = i % 2
            seat_decks = [mine, theirs] if seat == 0 else [theirs, mine]
        else:
            seat_decks = [decks[(i // players) % len(decks)]]
            seat = i % players
        state = game.new_game(seat_decks, options, game_seed)
        bots = [_bot(a if s == seat else b, game_seed * 31 + s) for s in range(players)]
        state = play_out(game, state, bots, Rng(seed_state(game_seed, 7)))
        share = outcome_shares(game, state, players)[seat]
        wins += share == 1.0
        draws += 0.0 < share < 1.0
        points += share
    low, high = wilson_interval(points, games)
    return {
        "a": a,
        "b": b,
        "players": players,
        "games": games,
        "wins": wins,
        "draws": draws,
        "rate": round(points / games, 4),
        "interval": [round(low, 4), round(high, 4)],
        "seconds": round(time.perf_counter() - started, 1),
    }


def _play_watching(game, state, bots, chance: Rng, watch) -> None:
    """Play ``state`` to the end in place, calling ``watch`` at every real choice.

    At each move of a seat among two or more actions ``watch(state, seat,
    actions)`` returns the action to make, or None to let the seat's bot move;
    chance steps are drawn from ``chance``. The loop of the measurements that
    look at each choice (``choice_times``, ``hidden_reads``).
    """
    while not game.is_over(state):
        seat = game.to_act(state)
        if seat == CHANCE:
            action = resolve_chance(game, state, chance)
        else:
            actions = game.legal_actions(state)
            action = watch(state, seat, actions) if len(actions) > 1 else None
            if action is None:
                action = bots[seat].choose(game, state)
        state = game.apply(state, action, inplace=True)


def choice_times(
    game, setups: list, options: dict, bot: str, games: int, seed: int = 1
) -> list[float]:
    """Return the seconds each choice of ``bot`` took, over ``games`` games against greedy.

    Game ``i`` is dealt ``setups[i % len(setups)]`` (the seats' decks) and ``bot``
    sits in seat ``i % players``. Only choices among two or more actions are
    timed (a lone action is no choice).
    """
    times: list[float] = []
    for i in range(games):
        game_seed = seed + i
        state = game.new_game(setups[i % len(setups)], options, game_seed)
        players = game.player_count(state)
        seat = i % players
        bots = [
            make_bot(bot if s == seat else "greedy", game_seed * 31 + s)
            for s in range(players)
        ]

        def timed(state, acting, actions, bots=bots, seat=seat):
            if acting != seat:
                return None
            started = time.perf_counter()
            action = bots[seat].choose(game, state)
            times.append(time.perf_counter() - started)
            return action

        _play_watching(game, state, bots, Rng(seed_state(game_seed, 7)), timed)
    return times


def hidden_reads(game, decks: list, options: dict, games: int, seed: int = 1) -> dict:
    """Count how often the greedy bot's best moves change when what it cannot see is dealt anew.

    Over ``games`` greedy games (deck pairs as in ``match_rate``), at every
    choice among two or more actions the greedy scores are taken in the real
    state and in one determinization of the acting seat
    (``search.determinized``): a choice counts when both list the same actions
    and it ``changed`` when their sets of best actions differ. The greedy bot
    looks one action ahead in the real state; this says how much that reads of
    what its seat cannot see.
    """
    from .search import determinized, scores_after_reference

    def best(state, actions, player):
        values = scores_after_reference(game, state, actions, player)
        top = max(values)
        return {a.text for a, v in zip(actions, values, strict=True) if v == top}

    choices = changed = 0

    def compare(state, seat, actions):
        nonlocal choices, changed
        world = determinized(game, state, seat, rng)
        dealt = game.legal_actions(world)
        if [a.text for a in dealt] == [a.text for a in actions]:
            choices += 1
            changed += best(world, dealt, seat) != best(state, actions, seat)
        return None  # the seat's greedy bot moves

    pairs = [(x, y) for x in decks for y in decks]
    rng = Rng(seed_state(seed, 404))
    for i in range(games):
        game_seed = seed + i
        seat_decks = (
            [decks[i % len(decks)]]
            if game.GAME.shared_pack
            else list(pairs[i % len(pairs)])
        )
        state = game.new_game(seat_decks, options, game_seed)
        seats = game.player_count(state)
        bots = [make_bot("greedy", game_seed * 31 + s) for s in range(seats)]
        _play_watching(game, state, bots, Rng(seed_state(game_seed, 7)), compare)
    return {
        "games": games,
        "choices": choices,
        "changed": changed,
        "rate": round(changed / choices, 4) if choices else 0.0,
    }
