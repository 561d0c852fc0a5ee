"""Seeded bots that serve every game: random, greedy (one-ply lookahead) and search.

A bot is named by its kind, and the search bot by its level too: ``search`` (the
default level), ``search:fast``, ``search:strong`` (``search.LEVELS``). Players
meet them by level names ("Beginner", "Casual", "Strong": ``LEVEL_NAMES``).
"""

from __future__ import annotations

from functools import partial
from operator import add

from .core import CHANCE, Rng, resolve_chance, seed_state
from .search import DEFAULT_LEVEL, LEVELS, SearchBot, greedy_choice


class RandomBot:
    """Pick uniformly among the legal actions."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed_state(seed, 101))

    def choose(self, game, state):
        return self.rng.choice(game.legal_actions(state))

    def mover(self, game):
        """Return ``choose`` for ``game`` as one call of a state: ``play_out``'s.

        The same draw from the same generator, without looking up the bot,
        its generator and the game's ``legal_actions`` at every move.
        """
        choice, legal_actions = self.rng.choice, game.legal_actions
        return lambda state: choice(legal_actions(state))

    def skip(self, moves: int) -> None:
        """Account for ``moves`` moves that had one legal action, as ``choose`` would.

        ``choose`` draws once per move, and a draw among one action changes
        nothing but the generator's state (``Rng.choice``, ``Rng.skip``).
        """
        self.rng.skip(moves)


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

    def skip(self, moves: int) -> None:
        """Account for ``moves`` moves that had one legal action.

        ``choose`` draws nothing for them, so nothing changes.
        """


BOTS = {"random": RandomBot, "greedy": GreedyBot}
# Every bot name, weakest first: what the playtest and the deck reports offer.
BOT_NAMES = (
    "random",
    "greedy",
    *("search" if level == DEFAULT_LEVEL else f"search:{level}" for level in LEVELS),
)
# Each level named for the player it plays like, weakest first: the one
# declaration behind the start page's lists, the help page's strength table and
# the figures measured for it (``strength.measured``). Only the first three are
# offered to players: more playouts did not make the search stronger
# (docs/bots.md), so its quick and patient levels are left to the bench, the
# API and ``simulate``.
LEVEL_NAMES = {
    "random": "Beginner",
    "greedy": "Casual",
    "search": "Strong",
    "search:fast": "Strong (quick)",
    "search:strong": "Strong (patient)",
}
# What a seat is called on the board, in the log and in a report: the level's
# name, so a player meets the name they picked ("Casual bot", "Strong bot (quick)").
BOT_LABELS = {
    name: f"{level} bot" if "(" not in level else level.replace(" (", " bot (")
    for name, level in LEVEL_NAMES.items()
}
OFFERED = ("random", "greedy", "search")
# What a start form lists: the level, and which bot plays it.
_KINDS = {"random": "random bot", "greedy": "greedy bot", "search": "search bot"}
OFFERED_LABELS = {name: f"{LEVEL_NAMES[name]} ({_KINDS[name]})" for name in OFFERED}


def make_bot(kind: str, seed: int):
    """Return the bot named ``kind`` (one of ``BOT_NAMES``), seeded with ``seed``."""
    if kind in BOTS:
        return BOTS[kind](seed)
    name, _, level = kind.partition(":")
    if name == "search" and kind in BOT_NAMES:
        return SearchBot(seed, level or DEFAULT_LEVEL)
    raise ValueError(f"Unknown bot {kind!r}; choose one of {', '.join(BOT_NAMES)}.")


def play_out(game, state, bots, chance_rng: Rng, max_actions: int = 1_000_000):
    """Play ``state`` to the end in place, each seat moved by its bot; return the state.

    Exactly ``play_out_reference``, faster where the game offers
    ``play_forced(state) -> [moves per seat]``: it plays in place, in one
    call, the moves that are the only legal one (a Metal Fusion game is
    mostly reveals), and each bot is told how many of them were its own
    (``skip``), so its generator ends where ``choose`` would have left it.
    Bots without ``skip`` (the search bot) are played the plain way.

    Each bot draws from a generator of its own, so what it owes is told it
    just before it next chooses, and at the end (``owed``): one call a choice
    rather than one a seat after every run of forced moves, which are short
    in a Bakugan game (two window passes).
    """
    forced = getattr(game, "play_forced", None)
    if forced is None or not all(hasattr(bot, "skip") for bot in bots):
        return play_out_reference(game, state, bots, chance_rng, max_actions)
    # Looked up once: the loop runs once a move with a choice.
    is_over, to_act, apply = game.is_over, game.to_act, game.apply
    skips = [bot.skip for bot in bots]
    movers = [_mover(bot, game) for bot in bots]
    owed = [0] * len(bots)  # forced moves each bot has not been told of yet
    count = 0
    while True:
        made = forced(state)
        owed = list(map(add, owed, made))
        count += sum(made)
        if is_over(state):
            break
        seat = to_act(state)
        if seat == CHANCE:
            action = resolve_chance(game, state, chance_rng)
        else:
            if owed[seat]:
                skips[seat](owed[seat])
                owed[seat] = 0
            action = movers[seat](state)
        state = apply(state, action, inplace=True)
        count += 1
        if count > max_actions:
            raise RuntimeError(
                "play_out exceeded its action bound; the turn cap should end every game"
            )
    for skip, moves in zip(skips, owed, strict=True):
        if moves:
            skip(moves)
    return state


def _mover(bot, game):
    """Return a call of a state that makes ``bot.choose(game, state)``'s move.

    A bot may offer a quicker one of its own (``mover``, the random bot's).
    """
    mover = getattr(bot, "mover", None)
    if mover is not None:
        return mover(game)
    return partial(bot.choose, game)


def play_forced_reference(game, state) -> list[int]:
    """Apply in place the moves that are the only legal one, while there are any.

    Return how many each seat made. It stops at the end of the game, at a
    chance step and at a move with a choice: the plain definition of a game's
    ``play_forced`` hook (see ``play_out``).
    """
    made = [0] * game.player_count(state)
    while not game.is_over(state):
        seat = game.to_act(state)
        if seat == CHANCE:
            break
        actions = game.legal_actions(state)
        if len(actions) != 1:
            break
        state = game.apply(state, actions[0], inplace=True)
        made[seat] += 1
    return made


def play_out_reference(
    game, state, bots, chance_rng: Rng, max_actions: int = 1_000_000
):
    """Play ``state`` to the end in place, one bot move at a time: ``play_out`` plainly."""
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
