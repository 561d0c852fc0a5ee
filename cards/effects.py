"""The effect vocabulary of card text, pure Python (no Django import).

Card text is data: a list of steps, each ``{"op": ..., "amount": n, "target":
..., "timing": ..., ...}``. The ops and timings come from the rules'
glossaries; each engine applies the subset its cards use and ignores nothing
silently: an unsupported step makes the card play as its basic self, which
the log says. The card validator and the engines both read this module, so a
card the site accepts is a card the engines can read.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

EFFECT_OPS = {
    # Collision glossary
    "draw": "Draw cards",
    "discard": "Discard cards",
    "gain_spin": "Gain spin",
    "lose_spin": "Lose spin",
    "remove": "Remove a Character in play",
    "test": "Test",
    # Metal Fusion
    "add_power": "Add battle power",
    "to_hand": "Put the card into the hand",
    "as_booster": "Use as a power booster",
    # Bakugan
    "add_g_power": "Add G-Power",
    "swap_g_power": "Exchange G-Power",
    "lower_wins": "The lower G-Power wins",
    "remove_bakugan": "Remove a Bakugan from the game",
    "win_gate": "Win the gate",
    "cancel_gate": "Cancel the gate card",
}

EFFECT_TIMINGS = {
    "play": "Play symbol: when the card is played",
    "win": "Win symbol: when its owner wins the battle with it on top",
    "passive": "While in play",
    "revealed": "When revealed",
    "discard_from_hand": "Discard this card from your hand",
    "in_lineup": "While in the line-up",
    "before_roll": "Before a roll",
    "after_roll": "After a roll",
    "before_battle": "Before a battle",
    "in_battle": "In battle",
    "after_battle": "After a battle",
    "gate_open": "When the gate card is opened",
}

EFFECT_TARGETS = ("self", "opponent", "each_opponent", "all", "attacker", "defender")
EFFECT_TURNS = (None, "your", "opponent")


class EffectError(ValueError):
    """A card's effect steps are not in the vocabulary; the message says why."""


@dataclass(frozen=True)
class Effect:
    """One step of encoded card text."""

    op: str
    timing: str
    amount: int = 1
    target: str = "self"
    turn: str | None = None  # YOUR TURN: / OPPONENT'S TURN: limit, or none
    attribute: str | None = None  # Bakugan: only for this attribute

    def to_json(self) -> dict:
        """Return the step as card data."""
        data = {
            "op": self.op,
            "timing": self.timing,
            "amount": self.amount,
            "target": self.target,
        }
        if self.turn:
            data["turn"] = self.turn
        if self.attribute:
            data["attribute"] = self.attribute
        return data


def parse_effects(steps: Iterable[dict] | None) -> tuple[Effect, ...]:
    """Return the effect steps of a card; raise EffectError on an unknown step."""
    result = []
    for raw in steps or ():
        if not isinstance(raw, dict):
            raise EffectError("An effect step must be an object.")
        op, timing = raw.get("op"), raw.get("timing")
        if op not in EFFECT_OPS:
            raise EffectError(f"Unknown effect step {op!r}.")
        if timing not in EFFECT_TIMINGS:
            raise EffectError(f"Unknown effect timing {timing!r}.")
        target = raw.get("target", "self")
        if target not in EFFECT_TARGETS:
            raise EffectError(f"Unknown effect target {target!r}.")
        turn = raw.get("turn")
        if turn not in EFFECT_TURNS:
            raise EffectError(f"Unknown turn limit {turn!r}.")
        amount = raw.get("amount", 1)
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise EffectError("An effect amount must be a whole number.")
        result.append(Effect(op, timing, amount, target, turn, raw.get("attribute")))
    return tuple(result)
