"""Seeded bots that serve every game: random and greedy (one-ply lookahead)."""

from __future__ import annotations

from .core import CHANCE, Rng, resolve_chance, seed_state


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
        player = game.to_act(state)
        best, best_score = [], None
        for action in actions:
            score = game.score(game.apply(state, action), player)
            if best_score is None or score > best_score:
                best, best_score = [action], score
            elif score == best_score:
                best.append(action)
        return self.rng.choice(best)


BOTS = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(kind: str, seed: int):
    try:
        return BOTS[kind](seed)
    except KeyError:
        raise ValueError(
            f"Unknown bot {kind!r}; choose one of {', '.join(BOTS)}."
        ) from None


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
