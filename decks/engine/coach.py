"""The coach: each legal move's chance to win, and a finished game's review.

``move_chances`` runs the search bot (``search.SearchBot``) from a state for
the seat to act and reads its root: the share of one win the playouts through
each move brought back, which is the move's estimated chance to win. It is the
honest search only: every playout starts from a determinization, the cards the
seat cannot see dealt anew with the coach's own generator, so the estimate
never depends on the others' hands, the deck orders or the game's generator
(never ``sees_all``). The caller gives the seed; a hint derives it from the
game's seed and the move number, both public, so a position gives the same
hint however its hidden cards lie.

``review`` replays a finished game's log and, before each move of one seat,
estimates every legal move there: the move made and the best one, and the
points of win chance between them. A move that lost more than
``COSTLY_POINTS`` is costly; the turning point is the costliest one. Both are
deterministic for a seed. ``PLAYOUTS`` bounds the work of one estimate
(docs/bots.md gives its times in each game).

The estimates are the search bot's: a leaf not at the game's end is valued by
the score's softmax (``search.leaf_values``), so a chance is the bot's reading
of the position, not a frequency measured over played-out games.
"""

from __future__ import annotations

from dataclasses import dataclass

from .core import seed_state
from .search import SearchBot, Settings

PLAYOUTS = 400  # per estimate: under 0.25 s in every game (docs/bots.md)
COSTLY_POINTS = 10  # a move losing more points of win chance than this is costly
VERSION = "1"  # raise when the estimates change, so stored reviews are redone


@dataclass(frozen=True)
class MoveChance:
    text: str  # the action's text, as the log writes it
    chance: float  # the estimated share of one win after it, 0 to 1
    playouts: int  # the playouts that went through it


def coach_seed(game_seed: int, move: int) -> int:
    """Return the estimator's seed for the position after ``move`` logged actions."""
    return seed_state(game_seed, 90_000 + move) & 0x7FFFFFFF


def move_chances(game, state, seed: int, playouts: int = PLAYOUTS) -> list[MoveChance]:
    """Return each legal move of the seat to act with its win chance, best first.

    Ties keep the more visited move first, then the engine's order of moves.
    """
    actions = game.legal_actions(state)
    children = SearchBot(seed, settings=Settings(playouts)).tree(game, state)
    found = []
    for place, action in enumerate(actions):
        child = children.get(action.text)
        visits = child.visits if child is not None else 0
        chance = child.total / visits if visits else 0.0
        found.append((-chance, -visits, place, MoveChance(action.text, chance, visits)))
    found.sort(key=lambda row: row[:3])
    return [row[3] for row in found]


@dataclass(frozen=True)
class ReviewedMove:
    step: int  # the move's place in the log, from 0
    turn: int  # the game's turn number before it (``game.length``)
    text: str  # the move made
    chance: float  # its estimated win chance
    best: str  # the move the coach rated best
    best_chance: float

    @property
    def lost(self) -> int:
        """The points of win chance the move gave up against the best one."""
        return round(100 * (self.best_chance - self.chance))

    @property
    def costly(self) -> bool:
        return self.lost > COSTLY_POINTS


def choice_steps(game, decks, options, game_seed: int, log, seat: int) -> list[int]:
    """Return the log places where ``seat`` chose (two legal moves or more)."""
    state = game.new_game(decks, options, game_seed)
    steps = []
    for step, text in enumerate(log):
        if game.to_act(state) == seat and len(game.legal_actions(state)) > 1:
            steps.append(step)
        state = game.apply(state, game.parse_action(text), inplace=True)
    return steps


def review(
    game,
    decks,
    options,
    game_seed: int,
    log,
    seat: int,
    progress=None,
    playouts: int = PLAYOUTS,
) -> list[ReviewedMove]:
    """Return the estimate of each choice ``seat`` made in the logged game.

    A move with no alternative is no choice and is left out. ``progress(done,
    total)`` is told after each estimate.
    """
    choices = choice_steps(game, decks, options, game_seed, log, seat)
    # A second replay, estimating as it goes, so ``progress`` knows the total.
    state = game.new_game(decks, options, game_seed)
    reviewed = []
    for step, text in enumerate(log):
        if step in choices:
            chances = move_chances(game, state, coach_seed(game_seed, step), playouts)
            made = next(c for c in chances if c.text == text)
            best = chances[0]
            reviewed.append(
                ReviewedMove(
                    step, game.length(state), text, made.chance, best.text, best.chance
                )
            )
            if progress is not None:
                progress(len(reviewed), len(choices))
        state = game.apply(state, game.parse_action(text), inplace=True)
    return reviewed


def turning_point(moves: list[ReviewedMove]) -> ReviewedMove | None:
    """Return the costly move that lost the most (the earliest of equals), or None."""
    costly = [m for m in moves if m.costly]
    return max(costly, key=lambda m: (m.lost, -m.step)) if costly else None
