"""Seeded bots that serve every game: random, greedy (one-ply lookahead) and search.

A bot is named by its kind, and the search bot by its level too: ``search`` (the
default level), ``search:fast``, ``search:strong`` (``search.LEVELS``).
"""

from __future__ import annotations

from .core import CHANCE, Rng, resolve_chance, seed_state
from .search import DEFAULT_LEVEL, LEVELS, SearchBot, greedy_choice


class RandomBot:
    """Pick uniformly among the legal actions."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed_state(seed, 101))

    def choose(self, game, state):
        return self.rng.choice(game.legal_actions(state))


class GreedyBot:
    """Pick the action whose resulting state scores best for the acting player."""

    name = "greedy"

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed_state(seed, 202))

    def choose(self, game, state):
        actions = game.legal_actions(state)
        if len(actions) == 1:
            return actions[0]
        return greedy_choice(game, state, actions, self.rng)


BOTS = {"random": RandomBot, "greedy": GreedyBot}
# Every bot name, weakest first: what the playtest and the deck reports offer.
BOT_NAMES = (
    "random",
    "greedy",
    *("search" if level == DEFAULT_LEVEL else f"search:{level}" for level in LEVELS),
)
BOT_LABELS = {
    "random": "Random bot",
    "greedy": "Greedy bot",
    **{
        name: f"Search bot ({name.partition(':')[2] or DEFAULT_LEVEL})"
        for name in BOT_NAMES
        if name.startswith("search")
    },
}


def make_bot(kind: str, seed: int):
    """Return the bot named ``kind`` (one of ``BOT_NAMES``), seeded with ``seed``."""
    if kind in BOTS:
        return BOTS[kind](seed)
    name, _, level = kind.partition(":")
    if name == "search" and kind in BOT_NAMES:
        return SearchBot(seed, level or DEFAULT_LEVEL)
    raise ValueError(f"Unknown bot {kind!r}; choose one of {', '.join(BOT_NAMES)}.")


def play_out(game, state, bots, chance_rng: Rng, max_actions: int = 1_000_000):
    """Play ``state`` to the end in place, each seat moved by its bot; return the state."""
    count = 0
    while not game.is_over(state):
        seat = game.to_act(state)
        if seat == CHANCE:
            action = resolve_chance(game, state, chance_rng)
        else:
            action = bots[seat].choose(game, state)
        state = game.apply(state, action, inplace=True)
        count += 1
        if count > max_actions:
            raise RuntimeError(
                "play_out exceeded its action bound; the turn cap should end every game"
            )
    return state
