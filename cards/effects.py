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
    "no_effect": "No effect beyond the printed numbers",
    "attribute_bonus": "Add the card's printed bonus for the attribute",
    "gate_bonus_again": "Add the gate bonus again",
    "no_gate_bonus": "No gate bonus",
    "nullify_gate": "The gate's text does not count (its bonus does)",
    "no_abilities": "No Ability cards may be played in this battle",
    "double_ability_bonus": "Double the G-Power that Ability cards add",
    "zero_ability_bonus": "Ability cards add no G-Power",
    "return_abilities": "Used Ability cards go back to the hand",
    "discard_ability": "Put an unused Ability card into the used pile",
    "reroll": "Roll that Bakugan again",
    "extra_turn": "Take another turn",
    "take_gate": "Take a won gate from an opponent's used pile",
    "keep_gate": "The winner does not take the gate",
    "return_bakugan": "Used Bakugan go back to the unused pile",
    "clear_field": "Every standing Bakugan goes to its owner's used pile",
    "zero_printed": "Printed G-Power counts as zero",
    "move_bakugan": "Move the Bakugan that landed to another gate",
    "reroll_on_miss": "Roll that Bakugan again if it misses",
    "best_gate_bonus": "Take the gate's highest bonus, whatever the attribute",
    "cap_gate_bonus": "Gate bonuses above the amount count as the amount",
    "change_attribute": "Change a battling Bakugan's attribute",
    "clear_bonuses": "G-Power added so far in this battle no longer counts",
    "no_traps": "No Bakugan Traps may be played",
    "discard_traps": "Bakugan Traps go to the used pile",
    "return_traps": "Used Bakugan Traps go back to the unused pile",
    "copy_printed": "Printed G-Power becomes that of a Bakugan in a used pile",
    "bank_gate": "Put an unused Gate card into the used pile",
    "place_gate": "Put an unused Gate card into the field",
    "join_gate": "Stand an unused Bakugan where an opponent's landed",
    "swap_battler": "Replace a battling Bakugan with another",
    "arm": "The card's lasting effect starts only if this holds when it is played",
    "send_used": "Send a standing Bakugan to the used pile",
    "peek_gates": "Look at face-down Gate cards",
    "face_up_gates": "A player's Gate cards lie face up",
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
    "used_pile": "While the card lies in a used pile",
}

EFFECT_TARGETS = ("self", "opponent", "each_opponent", "all", "attacker", "defender")
EFFECT_TURNS = (None, "your", "opponent")

# Bakugan conditions (``"if"``): every one must hold for a target Bakugan.
# The value kind of each: a list of attributes, classes or names, a word from
# a fixed list, a whole number, or true.
_ATTRS = ("pyrus", "aquos", "subterra", "haos", "darkus", "ventus")
_SIDES = ("self", "opponent")
EFFECT_CONDITIONS = {
    "attribute": ("attrs", None),  # the target's attribute is one of these
    "opponent_attribute": ("attrs", None),  # the target's battle opponent's
    "battle_has": ("attrs", None),  # a battling Bakugan has one of these
    "battle_lacks": ("attrs", None),  # no battling Bakugan has any of these
    "in_piles": ("attrs", None),  # the owner has one in a used or unused pile
    "gate_class": ("words", ("gold", "silver", "copper")),
    "gate_owner": ("word", _SIDES),  # the battle's gate belongs to the owner or not
    "printed": ("word", ("lowest", "highest", "not_lowest")),  # strictly
    "printed_max": ("int", None),
    "printed_min": ("int", None),
    "behind_by": ("int", None),  # the opponent's printed G-Power is N or more higher
    "ahead_by": ("int", None),  # its printed G-Power is N or more higher
    "behind_under": ("int", None),  # the opponent's printed is higher, by less than N
    "used_species": ("names", None),  # its owner has one of these in the used pile
    "unused_species": ("names", None),  # ... in the unused pile
    "standing_species": ("names", None),  # ... standing on a gate
    "used_other_attribute": ("true", None),  # a used Bakugan of another attribute
    "used_same_attribute": ("true", None),  # a used Bakugan of its attribute
    "opponent_repeats": ("true", None),  # its opponent's owner: a used one alike
    "trap": ("word", ("battle", "self", "opponent")),  # a Bakugan Trap in the battle
    "first_roll": ("true", None),  # the rolled Bakugan stood without a re-roll
    "abilities_used_max": ("int", None),  # its owner has N or fewer used Ability cards
    "own_species": ("names", None),  # the card owner's battling Bakugan is one of these
    "own_standing": ("attrs", None),  # the card owner has one of these standing
    "opponent_gate_best": ("true", None),  # its opponent's attribute: the top bonus
    "tied": ("true", None),  # after a battle: the two G-Powers were equal
    "species": ("names", None),  # the target's name contains one of these
    "standing_elsewhere": ("word", _SIDES),  # a Bakugan of that side stands elsewhere
    "gates_won": ("word", ("fewest", "most", "behind", "not_most")),
    "only_gate": ("true", None),  # the battle's gate is the only one in the field
    "result": ("word", ("win", "lose")),  # after a battle: the owner won or lost
    "margin_over": ("int", None),  # after a battle: won or lost by more than N
    "margin_under": ("int", None),  # after a battle: won or lost by less than N
    "landed": ("bool", None),  # after a roll: the Bakugan landed on a gate, or missed
    "rolled": ("attrs", None),  # the owner's Bakugan rolled this turn is one of these
    "own_attribute": (
        "attrs",
        None,
    ),  # the card owner's battling Bakugan is one of these
    "not_species": ("names", None),  # the target's name contains none of these
    "attributes_min": ("int", None),  # its owner uses N or more different attributes
    "printed_gap": ("int", None),  # one battler's printed G-Power is N or more higher
    "opposite": ("true", None),  # it battles the opposite attribute
    "won_gate_named": ("names", None),  # its owner has won a gate of that name
    "duplicate_species": ("true", None),  # its owner uses two of one species
    "duplicate_attribute": ("true", None),  # its owner uses two of one attribute
    "abilities_over_gates": ("true", None),  # more used Ability cards than gates won
    "used_bakugan": ("word", ("most", "fewest")),  # its owner's used pile, strictly
    "abilities_left": ("word", ("most", "fewest")),  # unused Ability cards, strictly
}
# Pyrus-Aquos, Subterra-Ventus, Haos-Darkus.
OPPOSITES = {
    "pyrus": "aquos", "aquos": "pyrus", "subterra": "ventus", "ventus": "subterra",
    "haos": "darkus", "darkus": "haos",
}  # fmt: skip
# What ``per`` counts (for the target's owner), multiplying ``amount``.
EFFECT_COUNTS = {
    "opponent_used_abilities": "Ability card in the opponent's used pile",
    "own_used_abilities": "Ability card in its owner's used pile",
    "used_abilities": "Ability card in any used pile",
    "opponent_gates": "Gate card in the opponent's used pile",
    "own_gates": "Gate card in its owner's used pile",
    "gates": "Gate card in any used pile",
    "own_attributes": "different attribute among its owner's Bakugan",
    "other_gates": "other Gate card in the field",
    "own_species": "different species among its owner's Bakugan",
    "own_used_bakugan": "Bakugan in its owner's used pile",
    "opponent_used_bakugan": "Bakugan in the opponent's used pile",
    "opponent_unused_bakugan": "Bakugan in the opponent's unused pile",
    "standing_attributes": "different attribute among the Bakugan on the field",
    "game_attributes": "different attribute among all the Bakugan in the game",
    "ability_lead": "Ability card more in the opponent's used pile than in its owner's",
    "opponent_used_traps": "Bakugan Trap in the opponent's used pile",
    # Counted when the battle is decided, not when the step applies.
    "battle_abilities_own": "Ability card its owner plays in this battle",
    "battle_abilities_opponent": "Ability card the opponent plays in this battle",
    "cleared_bakugan": "Bakugan this gate sent from the field to a used pile",
    "opponent_used_abilities_end": (
        "Ability card in the opponent's used pile when the battle ends"
    ),
}
# The counts read when the battle is decided.
LATE_COUNTS = frozenset(
    ("battle_abilities_own", "battle_abilities_opponent", "opponent_used_abilities_end")
)
EFFECT_OF = (
    None,
    "self",
    "opponent",
    "opponent_used",  # the best attribute among the opponent's used Bakugan
    "own_piles",  # each different attribute among its owner's used and unused
    "unused", "used", "piles",  # swap_battler: the pile the new Bakugan comes from
)  # fmt: skip  # attribute_bonus: whose attribute reads the grid
# change_attribute: what the attribute becomes. Where the card lets its player
# choose, the engine chooses for them what serves them best in this battle.
EFFECT_TO = (
    "best", "own_best", "worst", "none", "swap", "opposite",
    "own_trap", "opposing_trap",  # an attribute on a Bakugan Trap: none in play
)  # fmt: skip


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
    when: tuple = ()  # Bakugan: (condition, value) pairs, all must hold
    per: str | None = None  # Bakugan: amount times this count
    colours: tuple = ()  # Bakugan: the Ability card colours an op concerns
    of: str | None = None  # Bakugan attribute_bonus: whose attribute reads the grid
    to: str | None = None  # Bakugan change_attribute: what it becomes

    def condition(self, name: str, default=None):
        """Return the value of condition ``name`` (``default`` when absent)."""
        for key, value in self.when:
            if key == name:
                return value
        return default

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
        if self.when:
            data["if"] = {
                k: list(v) if isinstance(v, tuple) else v for k, v in self.when
            }
        if self.per:
            data["per"] = self.per
        if self.colours:
            data["colours"] = list(self.colours)
        if self.of:
            data["of"] = self.of
        if self.to:
            data["to"] = self.to
        return data


def _listed(name, value, choices) -> tuple:
    if (
        not isinstance(value, list)
        or not value
        or not all(isinstance(v, str) and v for v in value)
        or (choices and not all(v in choices for v in value))
    ):
        raise EffectError(f"Condition {name!r} takes a list of known values.")
    return tuple(value)


def _word(name, value, allowed):
    if value not in allowed:
        raise EffectError(f"Condition {name!r} is one of: {', '.join(allowed)}.")
    return value


def _whole(name, value, allowed) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise EffectError(f"Condition {name!r} takes a whole number.")
    return value


def _bool(name, value, allowed) -> bool:
    if not isinstance(value, bool):
        raise EffectError(f"Condition {name!r} is true or false.")
    return value


def _true(name, value, allowed) -> bool:
    if value is not True:
        raise EffectError(f"Condition {name!r} can only be true.")
    return True


# Value kind of a condition (``EFFECT_CONDITIONS``) -> its reader, which returns
# the value as a step holds it or raises EffectError saying what it takes.
_CONDITION_READERS = {
    "attrs": lambda name, value, allowed: _listed(name, value, _ATTRS),
    "words": _listed,
    "names": _listed,
    "word": _word,
    "int": _whole,
    "bool": _bool,
    "true": _true,
}


def _condition(name, value) -> tuple:
    kind, allowed = EFFECT_CONDITIONS.get(name, (None, None))
    if kind is None:
        raise EffectError(f"Unknown effect condition {name!r}.")
    return name, _CONDITION_READERS[kind](name, value, allowed)


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
        when = raw.get("if") or {}
        if not isinstance(when, dict):
            raise EffectError("An effect condition must be an object.")
        conditions = tuple(_condition(k, v) for k, v in sorted(when.items()))
        per = raw.get("per")
        if per is not None and per not in EFFECT_COUNTS:
            raise EffectError(f"Unknown effect count {per!r}.")
        colours = raw.get("colours") or []
        if not isinstance(colours, list) or not all(
            c in ("red", "blue", "green") for c in colours
        ):
            raise EffectError("Effect colours are a list of red, blue, green.")
        of = raw.get("of")
        if of not in EFFECT_OF:
            raise EffectError(f"Unknown effect attribute owner {of!r}.")
        to = raw.get("to")
        if op == "swap_battler":
            if to not in ("best", "worst") or of not in ("unused", "used", "piles"):
                raise EffectError(
                    "A swap of Bakugan says who chooses (best: its owner, worst: "
                    "the card's player) and from which pile (unused, used, piles)."
                )
        elif (to is None) != (op != "change_attribute") or (
            to is not None and to not in EFFECT_TO
        ):
            raise EffectError(
                "A change of attribute says what it becomes: "
                + ", ".join(EFFECT_TO)
                + "; no other step does."
            )
        result.append(
            Effect(
                op,
                timing,
                amount,
                target,
                turn,
                raw.get("attribute"),
                conditions,
                per,
                tuple(colours),
                of,
                to,
            )
        )
    return tuple(result)


# --- Bakugan: the site's own sentence for an encoded effect -------------------

_WHEN_WORDS = {
    "before_roll": "Before a roll",
    "after_roll": "After the roll",
    "before_battle": "Before a battle",
    "in_battle": "In battle",
    "after_battle": "After the battle",
    "gate_open": "When this gate opens",
    "used_pile": "While this card lies in a used pile",
}
_SUBJECTS = {
    # (is_gate, target) -> who a Bakugan step acts on
    "self": "your Bakugan",
    "opponent": "the opposing Bakugan",
    "each_opponent": "the opposing Bakugan",
    "all": "each battling Bakugan",
    "attacker": "the Bakugan that arrived",
    "defender": "the Bakugan that stood on the gate",
}
_GATE_SUBJECTS = {**_SUBJECTS, "self": "its owner's Bakugan"}
_AFTER_GATE = {"self": "the winner", "opponent": "the loser"}
_PLAYERS = {
    "self": "you",
    "opponent": "your opponent",
    "each_opponent": "each opponent",
    "all": "each battling player",
    "attacker": "the attacking player",
    "defender": "the defending player",
}
_GATE_PLAYERS = {**_PLAYERS, "self": "its owner"}
_SEAT_OPS = {
    "no_abilities", "return_abilities", "discard_ability", "reroll", "extra_turn",
    "take_gate", "double_ability_bonus", "zero_ability_bonus",
}  # fmt: skip


def _or(words) -> str:
    words = [w.capitalize() if w in _ATTRS else w for w in words]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def _a(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def _printed(value) -> str:
    if value == "not_lowest":
        return "if it does not have the lower printed G-Power"
    return f"if it has the {'lower' if value == 'lowest' else 'higher'} printed G-Power"


def _gates_won(value) -> str:
    if value == "not_most":
        return "unless its owner has won the most gates"
    if value == "behind":
        return "if an opponent has won more gates than its owner"
    return f"if its owner has won the {value} gates"


def _won_gate_named(value) -> str:
    names = _or([f"\u201c{v}\u201d" for v in value])
    return f"if its owner has won {names}"


_TRAP_PLACES = {
    "battle": "in the battle",
    "self": "of its owner's in the battle",
    "opponent": "of the opponent's in the battle",
}

# Condition name -> its clause: a template of the value (``v``) and, for a list,
# its words joined with "or" (``words``, ``a_words`` with "a"/"an"), or a
# function of the value.
_CLAUSES = {
    "attribute": "if it is {words}",
    "opponent_attribute": "if it battles {a_words} Bakugan",
    "battle_has": "if {a_words} Bakugan is in the battle",
    "battle_lacks": "unless {a_words} Bakugan is in the battle",
    "in_piles": "if its owner has {a_words} Bakugan in a used or unused pile",
    "gate_class": "on {a_words} gate",
    "gate_owner": lambda v: (
        "on its owner's own gate" if v == "self" else "on an opponent's gate"
    ),
    "printed": _printed,
    "ahead_by": "if its printed G-Power is at least {v} higher than its opponent's",
    "behind_under": "if its opponent's printed G-Power is higher by less than {v}",
    "used_species": "if its owner has {a_words} in the used pile",
    "unused_species": "if its owner has {a_words} in the unused pile",
    "standing_species": "if its owner has {a_words} standing on another gate",
    "used_other_attribute": "if its owner has a used Bakugan of another attribute",
    "used_same_attribute": "if its owner has another used Bakugan of its attribute",
    "opponent_repeats": (
        "if its opponent's owner already has a used Bakugan "
        "of that opponent's attribute"
    ),
    "trap": lambda v: f"if there is a Bakugan Trap {_TRAP_PLACES[v]}",
    "first_roll": "if it stood without a re-roll",
    "abilities_used_max": lambda v: (
        f"if its owner has no more than {v} used "
        + ("Ability card" if v == 1 else "Ability cards")
    ),
    "own_species": "if your battling Bakugan is {a_words}",
    "own_standing": "if you have {a_words} Bakugan standing on a gate",
    "opponent_gate_best": "if its opponent's attribute has the gate's highest bonus",
    "tied": "if the battle was a tie",
    "printed_max": "if its printed G-Power is {v} or less",
    "printed_min": "if its printed G-Power is {v} or more",
    "behind_by": "if its opponent's printed G-Power is at least {v} higher",
    "species": "if it is {a_words}",
    "standing_elsewhere": lambda v: (
        f"if {'its owner has' if v == 'self' else 'the opponent has'}"
        " a Bakugan standing on another gate"
    ),
    "gates_won": _gates_won,
    "only_gate": "if this is the only gate in the field",
    "result": lambda v: "if it won" if v == "win" else "if it lost",
    "margin_over": "by more than {v} G-Power",
    "margin_under": "by less than {v} G-Power",
    "rolled": "if its owner rolled {a_words} Bakugan",
    "own_attribute": "if your battling Bakugan is {words}",
    "not_species": "unless it is {a_words}",
    "attributes_min": "if its owner uses at least {v} different attributes",
    "printed_gap": "if one battler's printed G-Power is at least {v} higher",
    "opposite": "if it battles its opposite attribute",
    "won_gate_named": _won_gate_named,
    "duplicate_species": "if its owner uses two Bakugan of one species",
    "duplicate_attribute": "if its owner uses two Bakugan of one attribute",
    "abilities_over_gates": "if its owner has more used Ability cards than gates won",
    "used_bakugan": "if its owner has the {v} Bakugan in the used pile",
    "abilities_left": "if its owner has the {v} unused Ability cards",
    "landed": lambda v: "if it landed on a gate" if v else "if it missed",
}


def _clause(name: str, value) -> str:
    clause = _CLAUSES.get(name)
    if clause is None:
        return ""
    if not isinstance(clause, str):
        return clause(value)
    if isinstance(value, tuple):
        words = _or(value)
        return clause.format(v=value, words=words, a_words=_a(words))
    return clause.format(v=value)


def _times(amount: int) -> str:
    return {1: "", 2: " twice"}.get(amount, f" {amount} times")


def _add_g_power(step: Effect, subject: str, player: str, colour: str) -> str:
    text = f"{subject} gets {step.amount:+d} G-Power"
    if step.per:
        text += f" for each{colour if 'abilities' in step.per else ''} "
        text += EFFECT_COUNTS[step.per]
    return text


def _attribute_bonus(step: Effect, subject: str, player: str, colour: str) -> str:
    if step.of == "own_piles":
        text = (
            f"{subject} gets this card's bonus for each different attribute "
            "among its owner's used and unused Bakugan"
        )
    elif step.of == "opponent_used":
        text = (
            f"{subject} gets this card's bonus for the attribute of a Bakugan "
            "in its opponent's used pile (the best one)"
        )
    else:
        whose = "its opponent's" if step.of == "opponent" else "its"
        text = f"{subject} gets this card's bonus for {whose} attribute"
    text += _times(step.amount)
    if step.per:
        text += f", once for each {EFFECT_COUNTS[step.per]}"
    return text


def _gate_bonus_again(step: Effect, subject: str, player: str, colour: str) -> str:
    amount = step.amount
    if amount == -2:
        return f"{subject} loses the gate bonus instead of gaining it"
    more = "again" if amount == 1 else f"{amount} more times"
    if step.per:
        more = f"once more for each {EFFECT_COUNTS[step.per]}"
    return f"{subject} gets the gate bonus {more}"


def _no_abilities(step: Effect, subject: str, player: str, colour: str) -> str:
    cards = f"{colour.strip() + ' ' if colour else ''}Ability cards".strip()
    if step.target == "all" and not step.when:
        return f"no {cards} may be played in this battle"
    return f"{player} may not play {cards} in this battle"


def _return_abilities(step: Effect, subject: str, player: str, colour: str) -> str:
    what = "all" if step.amount == 0 else str(step.amount)
    noun = "card" if step.amount == 1 else "cards"
    return f"{player} takes back {what} used{colour} Ability {noun} into the hand"


def _discard_ability(step: Effect, subject: str, player: str, colour: str) -> str:
    noun = "card" if step.amount == 1 else "cards"
    what = "all" if step.amount == 0 else str(step.amount)
    return f"{player} puts {what} unused Ability {noun} into the used pile"


def _return_bakugan(step: Effect, subject: str, player: str, colour: str) -> str:
    kinds = step.condition("attribute")
    what = f"{_or(kinds)} Bakugan" if kinds else "Bakugan"
    return f"{player} put every used {what} back into the unused pile"


def _reroll_on_miss(step: Effect, subject: str, player: str, colour: str) -> str:
    times = "once" if step.amount == 1 else f"up to {step.amount} times"
    return f"if the Bakugan you roll misses, you roll it again ({times})"


# change_attribute: what the Bakugan's attribute becomes (``to``).
_CHANGES = {
    "best": "{subject} takes the attribute that gets the highest gate bonus",
    "own_best": (
        "{subject} takes the attribute among its owner's Bakugan "
        "that gets the highest gate bonus"
    ),
    "worst": "{subject} takes the attribute that gets the lowest gate bonus",
    "none": "{subject} loses its attribute for the battle",
    "swap": "{subject} swaps attributes with the Bakugan it battles",
    "opposite": "{subject} takes its opposite attribute",
    "own_trap": "{subject} takes an attribute on its owner's Bakugan Trap",
    "opposing_trap": "{subject} takes an attribute on the opposing Bakugan Trap",
}


def _join_gate(step: Effect, subject: str, player: str, colour: str) -> str:
    kinds = step.condition("attribute")
    what = f"{_or(kinds)} Bakugan" if kinds else "Bakugan"
    return (
        f"you stand one of your unused {what} on the empty gate an opponent's "
        "Bakugan just landed on, and they battle"
    )


def _swap_battler(step: Effect, subject: str, player: str, colour: str) -> str:
    pile = {"unused": "unused", "used": "used", "piles": "used or unused"}[step.of]
    if step.to == "best":
        return f"{subject} is replaced by one from its owner's {pile} pile"
    return (
        f"{subject} may be swapped, at its opponent's choice, for one from "
        f"its owner's {pile} pile"
    )


def _on_target(opponent: str, own: str):
    """Return the words of an op that reads otherwise when it targets the opponent."""
    return lambda step, subject, player, colour: (
        opponent if step.target == "opponent" else own
    )


def _peek_gates(step: Effect, subject: str, player: str, colour: str) -> str:
    if step.amount == 0:
        return "you look at every face-down Gate card in the field"
    return "you look at one face-down Gate card of an opponent's in the field"


# Op -> the words of its action: a function of (step, subject, player, colour)
# where the step's details change them, else a template of those words.
_ACTION_WORDS = {
    "add_g_power": _add_g_power,
    "attribute_bonus": _attribute_bonus,
    "gate_bonus_again": _gate_bonus_again,
    "no_abilities": _no_abilities,
    "return_abilities": _return_abilities,
    "discard_ability": _discard_ability,
    "reroll": _on_target(
        "your opponent rolls that Bakugan again", "you roll that Bakugan again"
    ),
    "move_bakugan": _on_target(
        "the opponent's Bakugan that landed moves to another gate",
        "you move the Bakugan that landed to another gate of your choice",
    ),
    "return_bakugan": _return_bakugan,
    "reroll_on_miss": _reroll_on_miss,
    "change_attribute": lambda step, subject, player, colour: _CHANGES[step.to].format(
        subject=subject
    ),
    "join_gate": _join_gate,
    "swap_battler": _swap_battler,
    "send_used": _on_target(
        "one of your opponent's standing Bakugan (your choice) goes to its used pile",
        "each player sends one of their standing Bakugan to the used pile",
    ),
    "peek_gates": _peek_gates,
}
_ACTION_TEMPLATES = {
    "no_gate_bonus": "{subject} gets no gate bonus",
    "lower_wins": "the lower G-Power wins",
    "swap_g_power": "the two battling Bakugan swap printed G-Power",
    "cancel_gate": "the gate card is cancelled: no bonus and no text",
    "nullify_gate": "the gate's text does not count (its bonus does)",
    "double_ability_bonus": (
        "G-Power that{colour} Ability cards add to {subject} is doubled"
    ),
    "zero_ability_bonus": "Ability cards add no G-Power in this battle",
    "extra_turn": "you take another turn",
    "take_gate": "{player} {take} a won gate from an opponent's used pile",
    "keep_gate": "the winner does not take the gate: it stays in the field",
    "remove_bakugan": "{subject} is removed from the game",
    "win_gate": "{subject} wins the battle at once",
    "no_effect": "no effect beyond its printed bonuses",
    "clear_field": "every standing Bakugan goes to its owner's used pile",
    "zero_printed": "printed G-Power counts as zero in battles this turn",
    "best_gate_bonus": "{subject} gets the gate's highest bonus whatever its attribute",
    "cap_gate_bonus": "every gate bonus above {amount} counts as {amount}",
    "copy_printed": (
        "{subject}'s printed G-Power becomes the highest printed G-Power "
        "in its opponent's used pile"
    ),
    "bank_gate": "{player} {put} an unused Gate card into the used pile",
    "place_gate": "{player} {put} an unused Gate card into the field",
    "arm": "its lasting effect starts",
    "face_up_gates": "{player}'s Gate cards lie face up for the rest of the game",
    "clear_bonuses": "every G-Power bonus given so far in this battle is lost",
    "no_traps": "{player} may not play Bakugan Traps",
    "discard_traps": "{player} {put} every Bakugan Trap into the used pile",
    "return_traps": "{player} {put} every used Bakugan Trap back into the unused pile",
}


def _action(step: Effect, is_gate: bool) -> str:
    if is_gate and step.timing == "after_battle" and step.target in _AFTER_GATE:
        subject = player = _AFTER_GATE[step.target]
    else:
        subject = (_GATE_SUBJECTS if is_gate else _SUBJECTS)[step.target]
        player = (_GATE_PLAYERS if is_gate else _PLAYERS)[step.target]
    colour = " ".join(c.capitalize() for c in step.colours)
    colour = f" {_or([c.capitalize() for c in step.colours])}" if colour else ""
    words = _ACTION_WORDS.get(step.op)
    if words is not None:
        return words(step, subject, player, colour)
    template = _ACTION_TEMPLATES.get(step.op)
    if template is None:
        return EFFECT_OPS.get(step.op, step.op).lower()
    return template.format(
        subject=subject,
        player=player,
        colour=colour,
        amount=step.amount,
        put="put" if player == "you" else "puts",
        take="take" if player == "you" else "takes",
    )


_BAKUGAN_OPS = {
    "add_g_power", "attribute_bonus", "gate_bonus_again", "no_gate_bonus",
    "remove_bakugan", "win_gate", "best_gate_bonus", "change_attribute",
    "copy_printed", "swap_battler",
}  # fmt: skip


# Ops whose action words already name the attributes of their "attribute"
# condition ("every used Haos or Ventus Bakugan"): it is a filter, not an "if".
_ATTRIBUTE_IN_ACTION = {"join_gate", "return_bakugan"}
# Ops the engine decides on the card owner's battler, whatever the target.
_WHOLE_BATTLE_OPS = {
    "cancel_gate", "nullify_gate", "lower_wins", "swap_g_power", "zero_printed",
    "zero_ability_bonus", "cap_gate_bonus", "clear_bonuses",
}  # fmt: skip
# "its owner ..." -> the words for "you" (the verb agrees with "you").
_TO_YOU = (
    ("than its owner", "than you"),
    ("its owner has", "you have"),
    ("its owner uses", "you use"),
    ("its owner rolled", "you rolled"),
    ("its owner's", "your"),
)


def _for_player(clause: str, step: Effect, is_gate: bool) -> str:
    """Return a clause of a player's step with "it" and "its owner" named.

    The engine reads a condition for each target's Bakugan (the card owner's
    for a step on the whole battle, the rolled one around a roll), so "its
    owner" is that player.
    """
    clause = clause.replace("its opponent's owner", "the opposing player")
    clause = clause.replace("if its opponent's", "if the opposing Bakugan's")
    # Around a roll a step reads the rolled Bakugan, its player's own.
    mine = step.target == "self" or step.timing in ("before_roll", "after_roll")
    if mine or step.op in _WHOLE_BATTLE_OPS:
        if not is_gate:
            for old, new in _TO_YOU:
                clause = clause.replace(old, new)
            who = "your Bakugan"
        else:
            clause = clause.replace("its owner", "the gate owner")
            who = "the gate owner's Bakugan"
    else:
        clause = clause.replace("its owner", "that player")
        who = "that player's Bakugan"
    clause = clause.replace("if it ", f"if {who} ", 1)
    return clause.replace("if its ", f"if {who}'s ", 1)


def _joined(lead: list) -> str:
    """Return the clauses as one: "if a and b", an "if" kept after "on ..."."""
    text, chain = lead[0], lead[0].startswith("if ")
    for clause in lead[1:]:
        if clause.startswith("if ") and not chain:
            text, chain = f"{text} {clause}", True
        else:
            text += " and " + (clause[3:] if clause.startswith("if ") else clause)
    return text


def _on_yours_lost(step: Effect, is_gate: bool) -> bool:
    """Return whether a card's step on the opponent only asks how yours battled."""
    # Its "if" reads the opponent's battler: ``opponent_attribute`` is yours,
    # ``result`` the reverse of yours, so the sentence names your Bakugan.
    names = {name for name, _ in step.when}
    return (
        not is_gate
        and step.target == "opponent"
        and "result" in names
        and names <= {"result", "opponent_attribute"}
    )


def _conditions(step: Effect, is_gate: bool) -> str:
    clauses = [
        _clause(k, v)
        for k, v in step.when
        if not (k == "attribute" and step.op in _ATTRIBUTE_IN_ACTION)
    ]
    # "by more than N" belongs with "won"/"lost".
    lead = [c for c in clauses if not c.startswith("by ")]
    tail = [c for c in clauses if c.startswith("by ")]
    if lead and tail:
        lead[-1] += " " + " ".join(tail)
    if step.turn == "your":
        lead.insert(0, "in its owner's turn")
    elif step.turn == "opponent":
        lead.insert(0, "in an opponent's turn")
    if _on_yours_lost(step, is_gate):
        kinds = step.condition("opponent_attribute")
        won = step.condition("result") == "lose"
        what = f"{_a(_or(kinds))} Bakugan of yours" if kinds else "your Bakugan"
        lead = [f"if {what} {'won' if won else 'lost'} the battle"]
    elif step.op == "arm":
        lead = [
            c.replace("than its owner", "than you")
            .replace("if it is", "if your Bakugan is")
            .replace("if it lost", "if your Bakugan lost")
            .replace("if it won", "if your Bakugan won")
            for c in lead
        ]
    elif step.op == "reroll_on_miss":
        lead = [
            c.replace("its owner has", "you have").replace(
                "its owner rolled", "you rolled"
            )
            for c in lead
        ]
    elif step.op in ("no_traps", "discard_traps", "return_traps"):
        lead = [c.replace("its owner has", "that player has") for c in lead]
    elif step.op not in _BAKUGAN_OPS:
        lead = [_for_player(c, step, is_gate) for c in lead]
    if not lead:
        return ""
    return " " + _joined(lead)


def _step_text(step: Effect, is_gate: bool, previous: Effect | None) -> str:
    if (
        previous is not None
        and step.op == previous.op == "attribute_bonus"
        and (step.target, step.of, step.amount) == (previous.target, previous.of, 1)
        and step.when
    ):
        return "and once more" + _conditions(step, is_gate)
    return _action(step, is_gate) + _conditions(step, is_gate)


def effect_sentence(steps, *, is_gate: bool = False) -> str:
    """Return the site's own words for a card's encoded steps ("" for none).

    ``steps`` is the card's effect data (or parsed steps); the words come from
    the encoding alone, so the page, the board and the log say the same.
    """
    parsed = tuple(steps) if steps and isinstance(steps[0], Effect) else None
    if parsed is None:
        parsed = parse_effects(steps)
    if not parsed:
        return ""
    if all(s.op == "no_effect" for s in parsed):
        return "No effect beyond its printed bonuses."
    parts, last, previous = [], None, None
    for step in parsed:
        if step.op == "no_effect":
            continue
        text = _step_text(step, is_gate, previous)
        prefix = _WHEN_WORDS.get(step.timing, "")
        if prefix and step.timing != last:
            text = f"{prefix.lower() if parts else prefix}: {text}"
        last, previous = step.timing, step
        parts.append(text)
    sentence = "; ".join(parts).replace("; and once more", ", and once more")
    return sentence[:1].upper() + sentence[1:] + "."
