"""The search bot: information-set Monte Carlo tree search over any engine.

One implementation for every game, through the interface of ``core`` only
(``legal_actions``, ``apply``, ``to_act``, ``score``, ``chance_outcomes``) plus
each game's ``determinize(state, player, rng)``.

How it chooses (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012):

- Each playout starts from a *determinization*: a copy of the game as the bot
  may believe it, the cards it cannot see (the others' hands, every deck order,
  face-down cards) dealt anew with the bot's own generator among the places it
  cannot see, and the game's generator reseeded. ``core.redeal`` sorts those
  cards before it shuffles them, so the bot's choice depends on which cards are
  hidden, never on where they are: it never reads a hand or a deck order. The
  deck lists are taken as known (as at an open-deck-list event). A game whose
  only hidden part is its generator (Bakugan: the log names each gate placed,
  and a seat's unused abilities are its deck's less those shown) has no
  ``determinize``; a copy with the generator reseeded serves.
- Dealing a world costs ten copies of one, so ``worlds`` of them (32) are
  dealt per choice and the playouts cycle through them, each on a copy whose
  game generator is reseeded (so chance still differs between them).
- One tree is shared by all determinizations; a node's children are keyed by
  the action's text, and only those legal in the playout's world are weighed
  (UCB1 over visits). A chance step (where a rolled Bakugan lands) is a chance
  node: its outcome is drawn with the engine's stated odds.
- The other seats are read as playing the greedy bot's rule (``opponents``,
  default ``"greedy"``): at their choices inside the tree a playout makes the
  greedy move of its own world, without using up its expansion, so only the
  bot's own choices are searched, to the depth the playouts reach. It is a
  reading of how the others play, not knowledge of their cards: the greedy
  move is worked out in the dealt world. (``"search"`` weighs their moves by
  UCB1 like the bot's own, the first way written; measured weaker, below.)
- A forced move (one legal action) is no choice: a playout goes on through
  it and expands the next real choice.
- Progressive bias: at each node the first playout to reach it marks the
  greedy bot's choice in its world (``greedy_choice``); that child is expanded
  first and its UCB1 value gets ``bias / (visits + 1)`` more, so the search
  starts from greedy play and leaves it where the playouts say so.
- Below the tree a playout moves for at most ``depth`` actions (``rollout``:
  at random or greedily), as the game's ``SEARCH_BELOW`` says (Collision:
  four greedy moves), else none: the tree's leaf is valued at once; a game
  not over by then is valued by the engine's ``score`` (the greedy bot's
  heuristic), turned into shares of one win by a softmax over
  the seats; a finished game by ``outcome_shares`` (seats tied for the win
  share it).
- The move is the root's most visited action.

Measured (``python -m tools.bench bots``, docs/bots.md): on the loaded
machine, 40 games a set-up, the biased depth-0 search was the only variant tried that stayed level
with the greedy bot in every game (random playouts of 24 actions, greedy
playouts of 4 to 40 actions and unbiased depth 0 lost Bakugan 33-43%).
Reading the others as greedy then raised it in every game over 400 games
(Collision 59.5% to 62.5%, advanced 49.8% to 52.2%, Bakugan 47.5% to
55.8%, three-seat Collide-O! 37.8% to 38.3%, Metal Fusion 51.7% to 52.2%).

A measuring device, never a player: ``SearchBot(sees_all=True)`` plays every
playout from a copy of the real game (the others' hands, every deck order and
the game's generator as they are) instead of a determinization. It answers
how far knowing everything would take this search (``python -m tools.bench
bots --pairing sees-all-greedy``, docs/bots.md); it is in no bot list a player picks
from (``bots.BOT_NAMES``), only in ``strength.SEES_ALL``. Its half,
``SearchBot(sees_hands=True)``, reads the others' hands and nothing else: its
worlds are dealt as the honest bot's are, but with those hands left as they
are (each game's ``determinize(..., hands_shown=True)``), so it tells how much
of the ceiling is the hands and how much the deck orders, which no reading of
the others' play could give (``--pairing sees-hands-greedy``;
``strength.SEES_HANDS``).

Strength is set by playouts per move, not time, so a game replays exactly: the
bot's generator is seeded from the seed it is made with, which the callers
derive from the game's seed. Levels: ``search:fast``, ``search`` (the default,
``normal``) and ``search:strong``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .core import CHANCE, Rng, copy_state, resolve_chance, seed_state

LEVELS = {"fast": 48, "normal": 160, "strong": 640}  # playouts per move
DEFAULT_LEVEL = "normal"


@dataclass(frozen=True)
class Settings:
    playouts: int
    # Actions below the tree before the score decides, and how they are chosen
    # ("random" or "greedy"); None: the game's ``SEARCH_BELOW``, else 0 random.
    depth: int | None = None
    explore: float = 0.7  # UCB1's exploration constant
    scale: float = 10.0  # score points for a factor e in the softmax
    rollout: str | None = None
    forced: bool = True  # a forced move does not use up a playout's expansion
    bias: float = 2.0  # progressive bias towards the greedy choice at each node
    worlds: int = (
        32  # determinizations dealt per choice; the playouts cycle through them
    )
    # At another seat's choice in the tree: "greedy" makes the greedy bot's move
    # in the playout's world, "search" weighs it by UCB1 like the bot's own.
    opponents: str = "greedy"


def greedy_choice(game, state, actions, rng: Rng):
    """Return the action whose resulting state scores best for the acting player.

    Ties are broken by ``rng``. The greedy bot's whole rule, shared by the
    search bot's greedy playouts. The scores come from the game's
    ``scores_after`` where it has one, else ``scores_after_reference``.
    """
    player = game.to_act(state)
    scores_after = getattr(game, "scores_after", None)
    if scores_after is not None:
        values = scores_after(state, actions, player)
    else:
        values = scores_after_reference(game, state, actions, player)
    best, best_score = [], None
    for action, value in zip(actions, values, strict=True):
        if best_score is None or value > best_score:
            best, best_score = [action], value
        elif value == best_score:
            best.append(action)
    return best[rng.below(len(best))]


def scores_after_reference(game, state, actions, player: int) -> list[float]:
    """Return ``player``'s score after each action: the plain definition.

    A game may offer a faster ``scores_after(state, actions, player)`` (one copy
    undone between actions, say); a test holds it equal to this one.
    """
    apply, score = game.apply, game.score
    return [score(apply(state, action), player) for action in actions]


def settings_for(level: str) -> Settings:
    """Return the search settings of a level name; ValueError for an unknown one."""
    try:
        return Settings(LEVELS[level])
    except KeyError:
        raise ValueError(
            f"Unknown search level {level!r}; choose one of {', '.join(LEVELS)}."
        ) from None


class _Node:
    __slots__ = ("children", "visits", "total", "seat", "prior")

    def __init__(self, seat: int):
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.total = 0.0  # sum of the rewards of ``seat``, who moved into it
        self.seat = seat
        self.prior: str | None = None  # the greedy choice here, when biased


def determinized(game, state, player: int, rng: Rng, hands_shown: bool = False):
    """Return a copy of ``state`` as ``player`` may believe it (see the module text).

    ``hands_shown`` leaves the other seats' hands as they are (the
    ``sees_hands`` measuring device, never a player).
    """
    determinize = getattr(game, "determinize", None)
    if determinize is not None:
        if hands_shown:
            return determinize(state, player, rng, hands_shown=True)
        return determinize(state, player, rng)
    s = copy_state(state)
    s.rng = Rng(rng.next64()) if isinstance(s.rng, Rng) else rng.next64()
    return s


def outcome_shares(game, state, seats: int) -> list[float]:
    """Return each seat's share of one win in a finished game.

    The winner takes it all; seats tied for the win (Collide-O!'s ``winners``)
    share it; a draw with no winner shares it among every seat.
    """
    winners = getattr(game, "winners", None)
    tied = winners(state) if winners is not None else []
    if len(tied) > 1:
        return [1.0 / len(tied) if p in tied else 0.0 for p in range(seats)]
    winner = game.winner(state)
    if winner is None:
        return [1.0 / seats] * seats
    return [1.0 if p == winner else 0.0 for p in range(seats)]


def _play_below(game, s, depth: int, greedy: bool, rng: Rng) -> None:
    """Play ``s`` on in place for up to ``depth`` moves, greedy or random."""
    legal_actions, apply, to_act, is_over = (
        game.legal_actions,
        game.apply,
        game.to_act,
        game.is_over,
    )
    for _ in range(depth):
        if is_over(s):
            break
        if to_act(s) == CHANCE:
            action = resolve_chance(game, s, rng)
        else:
            legal = legal_actions(s)
            if len(legal) == 1:
                action = legal[0]
            elif greedy:
                action = greedy_choice(game, s, legal, rng)
            else:
                action = legal[rng.below(len(legal))]
        apply(s, action, inplace=True)


def leaf_values(game, state, seats: int, scale: float) -> list[float]:
    """Return each seat's share of one win: its outcome share, else the softmax of scores."""
    if game.is_over(state):
        return outcome_shares(game, state, seats)
    scores = [game.score(state, p) / scale for p in range(seats)]
    top = max(scores)
    weights = [math.exp(max(-50.0, v - top)) for v in scores]
    total = sum(weights)
    return [w / total for w in weights]


class SearchBot:
    """Choose by information-set Monte Carlo tree search (see the module text)."""

    def __init__(
        self,
        seed: int = 0,
        level: str = DEFAULT_LEVEL,
        settings: Settings | None = None,
        *,
        sees_all: bool = False,
        sees_hands: bool = False,
    ):
        self.settings = settings or settings_for(level)
        self.level = level
        self.name = "search" if level == DEFAULT_LEVEL else f"search:{level}"
        # Measuring devices only (see the module text): never a player.
        self.sees_all = sees_all
        self.sees_hands = sees_hands
        if sees_all:
            self.name += " (sees all)"
        elif sees_hands:
            self.name += " (sees hands)"
        self.rng = Rng(seed_state(seed, 303))

    def choose(self, game, state):
        actions = game.legal_actions(state)
        if len(actions) == 1:
            return actions[0]
        visits = self.visit_counts(game, state)
        best, most = actions[0], -1
        for action in actions:
            count = visits.get(action.text, 0)
            if count > most:
                best, most = action, count
        return best

    def visit_counts(self, game, state) -> dict[str, int]:
        """Run the playouts from ``state`` and return the root's visits per action text."""
        return {text: child.visits for text, child in self.tree(game, state).items()}

    def tree(self, game, state) -> dict[str, _Node]:
        """Run the playouts from ``state`` and return the root's children by action text."""
        settings = self.settings
        rng = self.rng
        me = game.to_act(state)
        seats = game.player_count(state)
        root = _Node(me)
        explore, scale = settings.explore, settings.scale
        rollout, depth = getattr(game, "SEARCH_BELOW", ("random", 0))
        if settings.rollout is not None:
            rollout = settings.rollout
        if settings.depth is not None:
            depth = settings.depth
        greedy = rollout == "greedy"
        modelled = settings.opponents == "greedy"
        bias = settings.bias
        legal_actions, apply, to_act = game.legal_actions, game.apply, game.to_act
        is_over = game.is_over
        worlds = []
        for i in range(settings.playouts):
            if i < settings.worlds:
                world = (
                    copy_state(state)
                    if self.sees_all
                    else determinized(game, state, me, rng, self.sees_hands)
                )
                worlds.append(world)
                s = copy_state(world)
            else:
                s = copy_state(worlds[i % settings.worlds])
                s.rng = Rng(rng.next64()) if isinstance(s.rng, Rng) else rng.next64()
            node = root
            path = [root]
            # Selection and expansion: down the tree until a new node is made.
            while not is_over(s):
                seat = to_act(s)
                if seat == CHANCE:
                    action = resolve_chance(game, s, rng)
                    child = node.children.get(action.text)
                    if child is None:
                        child = node.children[action.text] = _Node(CHANCE)
                    apply(s, action, inplace=True)
                    node = child
                    path.append(node)
                    continue
                legal = legal_actions(s)
                children = node.children
                if modelled and seat != me and len(legal) > 1:
                    # Another seat moves by the model: no expansion used up.
                    action = greedy_choice(game, s, legal, rng)
                    child = children.get(action.text)
                    if child is None:
                        child = children[action.text] = _Node(seat)
                    apply(s, action, inplace=True)
                    node = child
                    path.append(node)
                    continue
                if bias and node.prior is None and len(legal) > 1:
                    node.prior = greedy_choice(game, s, legal, rng).text
                untried = [a for a in legal if a.text not in children]
                if untried:
                    action = untried[rng.below(len(untried))]
                    if node.prior is not None and node.prior not in children:
                        action = next(
                            (a for a in untried if a.text == node.prior), action
                        )
                    node = children[action.text] = _Node(seat)
                    apply(s, action, inplace=True)
                    path.append(node)
                    if len(legal) > 1 or not settings.forced:
                        break
                    continue  # a forced move is no choice: expand on below it
                log_n = math.log(node.visits + 1)
                best, best_value = None, -1.0
                for a in legal:
                    child = children[a.text]
                    value = child.total / child.visits + explore * math.sqrt(
                        log_n / child.visits
                    )
                    if a.text == node.prior:
                        value += bias / (child.visits + 1)
                    if value > best_value:
                        best, best_value = a, value
                node = children[best.text]
                apply(s, best, inplace=True)
                path.append(node)
            # Playout: moves below the tree, then the score decides.
            _play_below(game, s, depth, greedy, rng)
            values = leaf_values(game, s, seats, scale)
            for n in path:
                n.visits += 1
                if n.seat >= 0:
                    n.total += values[n.seat]
        return root.children
