"""Bakugan Battle Brawlers fields: Gate cards, Ability cards and Bakugan figures."""

SLUG = "bakugan"
NAME = "Bakugan"
ATTRIBUTES = ("pyrus", "aquos", "subterra", "haos", "darkus", "ventus")
BONUS_FIELDS = tuple(f"bonus_{a}" for a in ATTRIBUTES)
FIELDS = BONUS_FIELDS + ("colour", "attribute", "g_power", "gate_class", "timing")
TYPES = ("gate", "ability", "bakugan")
ABILITY_COLOURS = ("red", "blue", "green")
GATE_CLASSES = ("gold", "silver", "copper")
TIMINGS = ("before-roll", "after-roll", "before-battle", "in-battle", "after-battle")
NOT_PRINTABLE = BONUS_FIELDS + ("text",)

# What a card of each type prints: shown on its page, asked for when unknown.
TYPE_FIELDS = {
    None: ("name", "card_type"),
    "gate": ("name", "gate_class", *BONUS_FIELDS),
    "ability": ("name", "colour", "text", "timing"),
    "bakugan": ("name", "attribute", "g_power"),
}


def validate(card, errors) -> None:
    kind = card.card_type
    if kind == "gate" and not card.gate_class:
        errors.add(
            "gate_class",
            "A Gate card needs its class: gold, silver or copper.",
            "gate_without_class",
        )
    if card.gate_class and kind != "gate":
        errors.add("gate_class", "Only Gate cards have a class.", "class_not_gate")
    if card.colour is not None:
        if kind != "ability":
            errors.add(
                "colour", "Only Ability cards have a colour.", "colour_not_ability"
            )
        elif card.colour not in ABILITY_COLOURS:
            errors.add("colour", "Ability cards are red, blue or green.", "bad_colour")
    if kind == "bakugan":
        for field in BONUS_FIELDS:
            if getattr(card, field) is not None:
                errors.add(
                    field, "Bakugan figures print no bonus grid.", "bonus_on_figure"
                )
    elif card.attribute is not None or card.g_power is not None:
        field = "attribute" if card.attribute is not None else "g_power"
        errors.add(
            field, "Only Bakugan figures have an attribute and G-Power.", "not_a_figure"
        )
    if card.timing is not None and card.timing not in TIMINGS:
        errors.add(
            "timing",
            "Bakugan timing windows are: " + ", ".join(TIMINGS) + ".",
            "bad_timing",
        )
