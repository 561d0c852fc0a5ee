"""Metal Fusion valuation for the bots: the race to the winning hand (ruling M5)."""

from __future__ import annotations

from . import (
    State,
    _battle_power,
    _involved,
)


def score(state: State, player: int) -> float:
    """Return a heuristic value of the state for ``player`` (greedy bot)."""
    s = state
    if s.phase == "over":
        if s.winner == player:
            return 1000.0
        return -1000.0 if s.winner is not None else 0.0
    info = s.seats[player]
    mean_power = sum(info.base[c] + s.boosts[player][c] for c in range(4)) / 4
    return mean_power + _race(s, player)


# The greedy bot's (and the search bot's leaf) reading of the race to the
# winning hand (ruling M5): each seat's hand is worth more the nearer it is to
# the target (a card at four of five weighs more than one at one), the best
# rival's is taken off, and a battle being counted is read as it stands (the
# attacker ahead takes the card, ruling M4), so a card used in the counting
# window (ruling M7) is worth what it changes. (Weighing boosters above their
# mean power was tried: a bot that boosts early loses more, bench_bots.)
RACE_CARD = 3.0  # per card in hand
RACE_NEAR = 0.6  # per card squared: the last cards weigh more
RACE_ALMOST = 300.0  # a hand at the target once the battle is settled


def _race_value(cards: int, target: int) -> float:
    if cards >= target:
        return RACE_ALMOST
    return RACE_CARD * cards + RACE_NEAR * cards * cards


def _race(s: State, player: int) -> float:
    """Return the race term of ``score`` for ``player`` (see above)."""
    hands = [len(hand) for hand in s.hand]
    if s.phase == "window" and s.card >= 0:
        involved = _involved(s)
        powers = [_battle_power(s, seat, involved) for seat in involved]
        if s.keep or powers[0] > max(powers[1:]):
            hands[s.attacker] += 1
    target = s.target
    rivals = [_race_value(hands[q], target) for q in range(s.players) if q != player]
    return _race_value(hands[player], target) - max(rivals)
