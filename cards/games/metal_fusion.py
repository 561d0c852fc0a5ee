"""Beyblade Metal Fusion card fields (rules text: reading a card, power-ups).

Stat rows are stored by colour (ruling M8): the sources do not say which printed
stat name sits on which colour row. The practice set uses the names in the order
the rules list them against red, blue, green, yellow.
"""

import re

from .spec import (
    MAT_COLUMNS,
    MAT_ROWS,
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
    Zone,
    check_choices,
    rgb,
)

COLOURS = ("red", "blue", "green", "yellow")
STAT_FIELDS = ("stat_red", "stat_blue", "stat_green", "stat_yellow")
MOVE_FIELDS = ("move_red", "move_blue", "move_green", "move_yellow")
STAT_NAMES = {
    "character": ("strength", "knowledge", "skill", "spirit"),
    "beyblade": ("attack", "balance", "stamina", "defence"),
    "customizer": ("attack", "balance", "stamina", "defence"),
}
TIMINGS = ("when-revealed", "discard-from-hand", "in-lineup")
NOT_PRINTABLE = MOVE_FIELDS + ("text", "emblem", "boosters")
BOOSTER_RE = re.compile(r"^(R|B|G|Y|RB|RG|RY|BG|BY|GY|RBGY)$")
RARITY_RE = re.compile(r"^[A-Z]{1,3}$")


def validate(card, errors) -> None:
    kind = card.card_type
    if card.emblem and kind not in (None, "character", "beyblade"):
        errors.add(
            "emblem",
            "Only Characters and Beyblades carry an emblem.",
            "emblem_not_allowed",
        )
    has_move = (
        card.move_name
        or card.move_kind
        or any(getattr(card, f) is not None for f in MOVE_FIELDS)
    )
    if has_move and kind not in (None, "beyblade"):
        errors.add(
            "move_name",
            "Only Beyblade cards name a launch or landing move.",
            "move_not_beyblade",
        )
    if kind == "effect" and any(getattr(card, f) is not None for f in STAT_FIELDS):
        errors.add("stat_red", "Effect cards print no stat rows.", "stats_on_effect")
    check_choices(card, errors, PRINTED, "launcher")
    if card.boosters is not None and not BOOSTER_RE.match(card.boosters):
        errors.add(
            "boosters",
            "Boosters are one colour, two colours, or all four (letters R, B, G, Y in that order).",
            "bad_booster",
        )
    check_choices(card, errors, PRINTED, "timing")
    if card.rarity is not None and not RARITY_RE.match(card.rarity):
        errors.add(
            "rarity",
            "A Metal Fusion rarity is the printed letter, e.g. C or R.",
            "bad_rarity",
        )


STAT_TYPES = ("character", "beyblade", "customizer")
PRINTED = (
    Field("name", "Name"),
    Field("rarity", "Rarity"),
    Field("text", "Text", types=("effect",), transcribed=False),
    *(
        Field(f"stat_{c}", f"{c.title()} stat", "pips", types=STAT_TYPES,
              minimum=0, maximum=5, page=7 + i,
              filters=(f"{c}_min", f"{c}_max"), search=(c,), sort=c,
              sort_label=f"{c} stat")
        for i, c in enumerate(COLOURS)
    ),
    Field("emblem", "Emblem", types=("character", "beyblade"), page=1,
          filters=("emblem",), search=("emblem",)),
    Field("move_name", "Move", types=("beyblade",), page=2),
    Field("move_kind", "Move kind", "choice", types=("beyblade",), page=3),
    *(
        Field(f"move_{c}", f"{c.title()} move value", "number", types=("beyblade",),
              minimum=-9, maximum=9)
        for c in COLOURS
    ),
    Field("timing", "Timing", "choice", types=("effect",), choices=TIMINGS,
          invalid="Metal Fusion effect timings are: " + ", ".join(TIMINGS) + ".",
          invalid_code="bad_timing", page=6, search=(TIMING_KEY,)),
    Field("launcher", "Launcher colour", "colour", choices=COLOURS,
          invalid="Launcher colours are red, blue, green and yellow.",
          invalid_code="bad_colour", page=4, filters=("launcher",),
          search=("launcher",)),
    Field("boosters", "Boosters", "colours", page=5, filters=("booster",),
          search=("booster",), search_kind="letters"),
)  # fmt: skip

# One player's line-up mat (rules text, steps 1, 3 and 5): the three line-up
# cards with their boosters slid under them, the deck, the discard pile, and
# the four launcher colours to mark the turn's colour with a coin.
C, R = MAT_COLUMNS, MAT_ROWS
LINEUP_MAT = Mat(
    "lineup",
    "Metal Fusion line-up mat (one player)",
    *MAT_SIZE,
    (
        MatPlace("Character", C[0], R[0], 63, 88,
                 note="Line-up: stat of the turn's colour"),
        MatPlace("Beyblade", C[1], R[0], 63, 88,
                 note="Line-up: stat and move value of the turn's colour"),
        MatPlace("Customizer", C[2], R[0], 63, 88,
                 note="Line-up: stat of the turn's colour"),
        *(
            MatPlace("Boosters", C[i], 95, 63, 40, "area",
                     note=f"Face down under the {slot}")
            for i, slot in enumerate(("Character", "Beyblade", "Customizer"))
        ),
        MatPlace("Deck", C[3], R[0], 63, 88, note="Fifteen cards, face down"),
        MatPlace("Discard pile", C[3], R[1], 63, 88),
        *(
            MatPlace(colour.title(), 10 + i * 48, 143, 30, 30, "colour", colour,
                     note="launcher")
            for i, colour in enumerate(COLOURS)
        ),
    ),
    note="Put a coin on the turn's launcher colour. Power: the three stats in "
    "that colour, +1 for matching emblems, the move value, +1 per booster of "
    "that colour (ruling M3).",
)  # fmt: skip

# --- the card face -----------------------------------------------------------


def draw_face(card, pen, top: int) -> None:
    """Draw the body of this game's card face with ``pen`` (``cards.images.Pen``)."""
    d = pen.draw
    for row, colour in enumerate(COLOURS):
        y = top + row * 38
        d.rectangle((26, y, 56, y + 28), fill=rgb(colour))
        value = getattr(card, f"stat_{colour}")
        if value is None:
            d.text((70, y + 2), "?", fill=pen.grey, font=pen.font(20))
        else:
            for pip in range(5):
                box = (70 + pip * 30, y + 4, 90 + pip * 30, y + 24)
                if pip < value:
                    d.ellipse(box, fill=rgb(colour))
                else:
                    d.ellipse(box, outline=pen.grey, width=2)
        move = getattr(card, f"move_{colour}")
        if card.card_type == "beyblade":
            label = (
                f"{move:+d}" if move is not None else pen.value(card, f"move_{colour}")
            )
            d.text((240, y + 2), label, fill=pen.ink, font=pen.font(20))
    y = top + 160
    emblem = pen.value(card, "emblem")
    d.text((26, y), f"Emblem: {emblem}", fill=pen.ink, font=pen.font(15))
    if card.move_name:
        d.text(
            (26, y + 22),
            f"Move: {card.move_name} ({card.move_kind or '?'})",
            fill=pen.ink,
            font=pen.font(15),
        )
    boosters = card.boosters
    d.text(
        (26, y + 44),
        f"Launcher: {card.launcher or '?'}   Boosters: "
        f"{boosters or pen.value(card, 'boosters')}",
        fill=pen.ink,
        font=pen.font(15),
    )


GAME = Game(
    slug="metal-fusion",
    module="metal_fusion",
    name="Beyblade Metal Fusion",
    short_name="Metal Fusion",
    mirror_note=(
        "Two identical line-ups never finish a game: every battle ties, and a tie "
        "goes to the defender, so such a game runs to the 200-battle cap and is a "
        "draw. Choose another deck to get a result."
    ),
    publisher="DeAgostini",
    year="c. 2010",
    order=2,
    validate=validate,
    kinds=(
        CardKind("character", "Character"),
        CardKind("beyblade", "Beyblade"),
        CardKind("customizer", "Customizer"),
        CardKind("effect", "Effect"),
    ),
    unknown_type_fields=("name", "card_type", "rarity"),
    colours=tuple(Colour(c, c.title(), c[0].upper()) for c in COLOURS),
    not_printable=NOT_PRINTABLE,
    zones=(
        Zone("lineup", "Line-up", ("line up",)),
        Zone("deck", "Deck", ("main deck",)),
    ),
    zone_choices={
        "character": ("lineup", "deck"),
        "beyblade": ("lineup", "deck"),
        "customizer": ("lineup", "deck"),
    },
    seat_counts=(2, 3, 4),
    options=(
        Option("variant", "choice", "left", "Three or more players", choices=(
            ("left", "attack the player on your left"),
            ("all", "attack everyone at once"),
        )),
        # The engine's own: a seat count, which must match the decks.
        Option("players", "int", None, minimum=2, maximum=4),
    ),
    colour_field="launcher",
    colour_caption="Launcher colours",
    opening=Opening("top", "deck", 1, heading="Sample top card"),
    aliases=("metalfusion", "mf"),
    draw_face=draw_face,
    # "About 63 x 88 mm" (issue 23): the common trading card size.
    print_size=PrintSize(63, 88, sourced=True),
    mats=(LINEUP_MAT,),
    frame="#5a1e1e",
    # What a card of each type prints: shown on its page, asked for when unknown.
    printed=PRINTED,
    card_number="number",
)  # fmt: skip
