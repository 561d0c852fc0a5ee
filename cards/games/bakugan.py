"""Bakugan Battle Brawlers fields: Gate cards, Ability cards and Bakugan figures."""

from .spec import (
    MAT_SIZE,
    TIMING_KEY,
    CardKind,
    Colour,
    Field,
    Game,
    Mat,
    MatPlace,
    Opening,
    Option,
    PrintSize,
    SearchKey,
    Zone,
    check_choices,
)

FIGURE = "bakugan"  # the card type of a Bakugan figure (and its deck zone)
ATTRIBUTES = ("pyrus", "aquos", "subterra", "haos", "darkus", "ventus")
BONUS_FIELDS = tuple(f"bonus_{a}" for a in ATTRIBUTES)
ABILITY_COLOURS = ("red", "blue", "green")
GATE_CLASSES = ("gold", "silver", "copper")
TIMINGS = ("before-roll", "after-roll", "before-battle", "in-battle", "after-battle")
NOT_PRINTABLE = BONUS_FIELDS + ("text",)
# What a figure prints as its G-Power: a multiple of 10 from 10 to 1,000.
G_POWER_MIN, G_POWER_MAX, G_POWER_STEP = 10, 1000, 10


def copy_g_power_problem(card_type, g_power) -> str | None:
    """Return why ``g_power`` cannot be a copy's printed G-Power (None when fine).

    The G-Power of a figure is printed on each copy and differs between copies
    of one variant, so a collection entry of a figure records its copy's.
    """
    if g_power is None:
        return None
    if card_type != FIGURE:
        return "Only a Bakugan figure prints a G-Power on each copy."
    if (
        isinstance(g_power, bool)
        or not isinstance(g_power, int)
        or not G_POWER_MIN <= g_power <= G_POWER_MAX
        or g_power % G_POWER_STEP
    ):
        return (
            f"A figure's G-Power is printed as a multiple of {G_POWER_STEP} from "
            f"{G_POWER_MIN} to {G_POWER_MAX:,}; {g_power} is not one."
        )
    return None


# The species of each mould number (fixtures/sources/bakugan/figure_variants.csv;
# a test checks this table against it). A figure"s number is its mould number.
SPECIES = {
    1: "Dragonoid",
    2: "Delta Dragonoid",
    3: "Infinity Dragonoid",
    4: "Preyas",
    5: "Preyas Diablo",
    6: "Preyas II Angelo + Diablo",
    7: "Tigrerra",
    8: "Blade Tigrerra",
    9: "Skyress",
    10: "Storm Skyress",
    11: "Gorem",
    12: "Hammer Gorem",
    13: "Hydranoid",
    14: "Dual Hydranoid",
    15: "Alpha Hydranoid",
    16: "Fourtress",
    17: "Sirenoid",
    18: "Tentaclear",
    19: "Harpus",
    20: "Cycloid",
    21: "Reaper",
    22: "Centipoid",
    23: "Falconeer",
    24: "Fear Ripper",
    25: "Griffon",
    26: "Juggernoid",
    27: "Laserman",
    28: "Robotallion",
    29: "Saurus",
    30: "Serpenoid",
    31: "Stinglash",
    32: "Gargonoid",
    33: "Hynoid",
    34: "Manion",
    35: "Mantris",
    36: "Siege",
    37: "Terrorclaw",
    38: "Tuskor",
    39: "Bee Striker",
    40: "El Condor",
    41: "Limulus",
    42: "Monarus",
    43: "Rattleoid",
    44: "Ravenoid",
    45: "Warius",
    46: "Wormquake",
    47: "Apollonir",
    48: "Frosch",
    49: "Lars Lion",
    50: "Oberus",
    51: "Clayf",
    52: "Exedra",
    53: "Wavern",
    54: "Naga",
}
UNRELEASED_SPECIES = ("unreleased", "Unreleased figures (no mould number)")


def species_of(card_type, number) -> tuple[str, str] | None:
    """Return (key, name) of a figure's species, found by its mould number.

    Figures the source lists with no mould number (unreleased) form one group.
    """
    if card_type != FIGURE:
        return None
    if number is None:
        return UNRELEASED_SPECIES
    name = SPECIES.get(number)
    return (str(number), name) if name else (str(number), f"Mould #{number}")


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
    if card.colour is not None and kind != "ability":
        errors.add("colour", "Only Ability cards have a colour.", "colour_not_ability")
    elif kind == "ability":
        check_choices(card, errors, PRINTED, "colour")
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
    check_choices(card, errors, PRINTED, "timing")


PRINTED = (
    Field("name", "Name"),
    Field("attribute", "Attribute", "choice", types=(FIGURE,), choices=ATTRIBUTES,
          page=2, filters=("attribute",),
          search=(SearchKey("attribute", aliases=("a", "attr"),
                            says=("whose attribute is {Value}",
                                  "whose attribute is not {Value}"),
                            reads="attribute {Value}"),)),
    # Printed on each copy and different between copies: recorded on a copy in the
    # collection, never read onto the card (a custom figure's owner sets its own).
    Field("g_power", "G-Power", "number", types=(FIGURE,), minimum=0, maximum=2000,
          page=3, filters=("g_power_min", "g_power_max"), transcribed=False,
          search=(SearchKey("gpower", aliases=("power",),
                            takes="the G-Power (also g>=300)"),),
          sort="g"),
    # The public card list calls an ability card's colour its class: class: reads both.
    Field("gate_class", "Gate class", "choice", types=("gate",), choices=GATE_CLASSES,
          page=4, filters=("gate_class",),
          search=(SearchKey("class", takes="a gate class ({})",
                            says=("that are {value} gates", "that are not {value} gates"),
                            reads="gate class {value}"),)),
    *(
        Field(f"bonus_{a}", f"{a.title()} bonus", "bonus", types=("gate",),
              minimum=-9999, maximum=9999, filters=(f"{a}_min",),
              search=(SearchKey(a, takes=f"the {a.title()} gate bonus"),), sort=a)
        for a in ATTRIBUTES
    ),
    Field("colour", "Colour", "colour", types=("ability",), choices=ABILITY_COLOURS,
          invalid="Ability cards are red, blue or green.", invalid_code="bad_colour",
          page=1,
          search=("colour",
                  SearchKey("class", takes="an ability colour ({})",
                            says=("that are {value} abilities",
                                  "that are not {value} abilities"))),),
    Field("text", "Text", types=("ability",), transcribed=False),
    Field("timing", "Timing", "choice", types=("ability",), choices=TIMINGS,
          invalid="Bakugan timing windows are: " + ", ".join(TIMINGS) + ".",
          invalid_code="bad_timing", page=5, search=(TIMING_KEY,)),
)  # fmt: skip


# No source gives the printed size of Gate and Ability cards: they print at
# the common 63 x 88 mm, and the print page says the size is not sourced.
CARD_SIZE = PrintSize(63, 88, sourced=False)
_W, _H = CARD_SIZE.width_mm, CARD_SIZE.height_mm
# The rules text: roll from at least two card lengths away from the gates.
_ROLL = 2 * _H

# One player's side: the used pile on the left, the unused pile on the right.
PLAYER_MAT = Mat(
    "player",
    "Bakugan player mat (one player)",
    *MAT_SIZE,
    (
        MatPlace("Used pile", 3.4, 3, 95, 184, "area",
                 note="Played ability cards, won gates, used Bakugan"),
        MatPlace("Gate and Ability cards", 103, 51, 63, 88,
                 note="Your remaining cards, face down (or in your hand)"),
        MatPlace("Unused pile", 171, 3, 94.6, 184, "area",
                 note="Your Bakugan waiting to be rolled"),
    ),
    note="One sheet per player, you at the bottom edge; the field lies between you.",
)  # fmt: skip

# Two players: the two gates touch at their short sides, each player's gate
# in front of the opponent, with a roll line two card lengths off each side.
FIELD_2 = Mat(
    "field-2",
    "Bakugan field, two players",
    _W + 40,
    2 * _H + 2 * _ROLL + 20,
    (
        MatPlace("Roll from here (player 2)", 0, 10, _W + 40, 0, "arrow"),
        MatPlace(
            "Gate card (player 1's)",
            20,
            10 + _ROLL,
            _W,
            _H,
            note="Placed by player 1, in front of player 2",
        ),
        MatPlace(
            "Gate card (player 2's)",
            20,
            10 + _ROLL + _H,
            _W,
            _H,
            note="Placed by player 2, in front of player 1",
        ),
        MatPlace(
            "Roll from here (player 1)",
            0,
            10 + _ROLL + 2 * _H + _ROLL,
            _W + 40,
            0,
            "arrow",
        ),
    ),
    players=2,
    per_player=False,
    note="At true size; roll lines are two card lengths from the gates.",
)
# Four players: a cross of gates touching only at their corners.
FIELD_4 = Mat(
    "field-4",
    "Bakugan field, four players",
    3 * _W + 10,
    3 * _H + 10,
    (
        MatPlace("Gate card (north)", 5 + _W, 5, _W, _H),
        MatPlace("Gate card (west)", 5, 5 + _H, _W, _H),
        MatPlace("Gate card (east)", 5 + 2 * _W, 5 + _H, _W, _H),
        MatPlace("Gate card (south)", 5 + _W, 5 + 2 * _H, _W, _H),
    ),
    players=4,
    per_player=False,
    note="Each player places one gate; the four touch at the corners (ruling B8).",
)

# --- the card face -----------------------------------------------------------


def draw_face(card, pen, top: int) -> None:
    """Draw the body of this game's card face with ``pen`` (``cards.images.Pen``)."""
    d = pen.draw
    if card.card_type == FIGURE:
        d.text(
            (26, top),
            f"Attribute: {pen.value(card, 'attribute')}",
            fill=pen.ink,
            font=pen.font(18),
        )
        d.text(
            (26, top + 30),
            f"G-Power: {pen.value(card, 'g_power')}",
            fill=pen.ink,
            font=pen.font(18),
        )
        return
    if card.gate_class:
        d.text(
            (26, top),
            f"{card.gate_class.title()} gate",
            fill=pen.ink,
            font=pen.font(18),
        )
    for i, attribute in enumerate(ATTRIBUTES):
        x, y = 26, top + 34 + i * 34
        value = getattr(card, f"bonus_{attribute}")
        shown = (
            f"{value:+d}"
            if value is not None
            else pen.value(card, f"bonus_{attribute}")
        )
        d.text((x, y), f"{attribute.title()}: {shown}", fill=pen.ink, font=pen.font(16))


GAME = Game(
    slug="bakugan",
    module="bakugan",
    name="Bakugan Battle Brawlers",
    short_name="Bakugan",
    publisher="Spin Master",
    year="2007-2012",
    order=4,
    validate=validate,
    kinds=(
        CardKind("gate", "Gate card"),
        CardKind("ability", "Ability card"),
        CardKind("bakugan", "Bakugan figure"),
    ),
    unknown_type_fields=("name", "card_type"),
    colours=tuple(Colour(c, c.title(), c[0].upper()) for c in ABILITY_COLOURS),
    not_printable=NOT_PRINTABLE,
    zones=(
        Zone("bakugan", "Bakugan"),
        Zone("gate", "Gate cards", ("gates",)),
        Zone("ability", "Ability cards", ("abilities",)),
    ),
    default_zones={"bakugan": "bakugan", "gate": "gate", "ability": "ability"},
    seat_counts=(2, 4),
    chance_steps=True,
    options=(
        Option("land_probability", "float", 0.6, minimum=0, maximum=1),
        # The engine's own: seats, table mode (players enter rolls), first seat.
        Option("players", "int", None, minimum=2, maximum=4),
        Option("table", "bool", False),
        Option("first", "seat", None),
    ),
    opening=Opening(
        "gates", "gate", heading="Your gates (a Bakugan player holds no hand)"
    ),
    bench_setups=(({}, 2), ({}, 4)),
    draw_face=draw_face,
    gate_classes=GATE_CLASSES,
    print_size=CARD_SIZE,
    not_cards=(FIGURE,),  # figures are toys: a proxy sheet leaves them out
    mats=(PLAYER_MAT, FIELD_2, FIELD_4),
    frame="#282828",
    copy_check=copy_g_power_problem,
    species_of=species_of,
    deck_from_collection=True,
    # What a card of each type prints: shown on its page, asked for when unknown.
    printed=PRINTED,
)  # fmt: skip
