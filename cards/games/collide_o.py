"""Collide-O! card fields: three sections, each a set of colours (rules: matching)."""

import re

from .spec import (
    MAT_SIZE,
    CardKind,
    Colour,
    Field,
    Game,
    Mat,
    MatchMode,
    MatPlace,
    Opening,
    Option,
    PrintSize,
    Zone,
    rgb,
)

SECTION_FIELDS = ("section_1", "section_2", "section_3")
ORDER = "BYRGK"  # blue, yellow, red, green, black
WILD = ORDER
NOT_PRINTABLE = ()
SECTION_RE = re.compile(r"^[BYRGK]{1,5}$")
# "The game is one pack of 90 cards" (the design notes; the official set's notes).
PACK_SIZE = 90


def normalise(section: str) -> str:
    """Return the colour letters of a section in the canonical order."""
    return "".join(c for c in ORDER if c in section)


def section_problem(section: str) -> str | None:
    """Return why ``section`` is not a Collide-O! section, or None when it is."""
    if not SECTION_RE.match(section) or len(set(section)) != len(section):
        return "A section is colour letters B Y R G K, each at most once."
    if len(section) not in (1, 2, 5):
        return (
            "A section is solid (one colour), a two-colour stripe, or all five colours."
        )
    return None


def _rank(section: str) -> tuple:
    return (len(section), [ORDER.index(c) for c in section])


def canonical(sections) -> tuple[str, str, str]:
    """Return a card's three sections as one way round: a card may be turned end to end.

    Two counts of the same card, one read each way round, so name one pattern
    (ruling O1: a card may be turned end to end).
    """
    first, middle, last = (normalise(s) for s in sections)
    if _rank(last) < _rank(first):
        first, last = last, first
    return (first, middle, last)


def validate(card, errors) -> None:
    for field in SECTION_FIELDS:
        value = getattr(card, field)
        if value is None:
            continue
        if not SECTION_RE.match(value) or len(set(value)) != len(value):
            errors.add(
                field,
                "A section is one colour, a two-colour stripe or the five-colour wild stripe (letters B Y R G K).",
                "bad_section",
            )
        elif len(value) not in (1, 2, 5):
            errors.add(
                field,
                "A section is solid (one colour), a two-colour stripe, or all five colours.",
                "bad_section",
            )
        else:
            setattr(card, field, normalise(value))


# The filters over every section ("section", "wild") are declared with the first
# and the last, which keeps the form's order; so is the key "wild" (a wild
# section is any of them), while "section" reads the sections declaring it.
PRINTED = tuple(
    Field(name, f"Section {i}", "section", page=i,
          filters=(("section",) if i == 1 else ()) + (name,)
          + (("wild",) if i == 3 else ()),
          search=("colour", "section", f"section{i}") + (("wild",) if i == 3 else ()))
    for i, name in enumerate(SECTION_FIELDS, 1)
)  # fmt: skip


# No source gives the printed size: the common 63 x 88 mm, said so on the print
# page. A card is three sections across its width (rules text, "Matching").
CARD_SIZE = PrintSize(63, 88, sourced=False)
_W, _H = CARD_SIZE.width_mm, CARD_SIZE.height_mm
_STEP = _W / 3  # a played card covers two of the end card's three sections
_CENTRE = (MAT_SIZE[0] - _W) / 2


# The table line guide: the centre card, and where the cards played on each
# end lie, one section further out each time (ruling O1).
def _nth(n: int) -> str:
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}[n] }"


LINE_GUIDE = Mat(
    "line",
    "Collide-O! table line guide",
    *MAT_SIZE,
    (
        *(
            MatPlace(f"{_nth(n)} on the left", _CENTRE - n * _STEP, 26 + n * 6,
                     _W, _H, "ghost")
            for n in (3, 2, 1)
        ),
        *(
            MatPlace(f"{_nth(n)} on the right", _CENTRE + n * _STEP, 26 + n * 6,
                     _W, _H, "ghost")
            for n in (3, 2, 1)
        ),
        MatPlace("Centre card", _CENTRE, 26, _W, _H, "sections",
                 note="Turned face up to start; both its ends are live"),
        MatPlace("The line grows this way", 4, 16, 70, 0, "arrow"),
        MatPlace("The line grows this way", 195, 16, 70, 0, "arrow"),
        MatPlace("Set-aside cards", 4, 138, 90, 48, "area",
                 note="Left over from the deal; a stuck centre card is swapped"),
        MatPlace("Your stack", 175, 138, 90, 48, "area",
                 note="Face down; hold at most five cards"),
    ),
    note="Each card you play covers two sections of the end card: the end's "
    "middle and its outer section. Only the two end cards are live.",
    per_player=False,
)  # fmt: skip

# --- the card face -----------------------------------------------------------


def draw_face(card, pen, top: int) -> None:
    """Draw the body of this game's card face with ``pen`` (``cards.images.Pen``)."""
    d = pen.draw
    names = {c.letter: c.value for c in GAME.colours}
    for i, field in enumerate(SECTION_FIELDS):
        x0 = 26 + i * 104
        box = (x0, top, x0 + 96, top + 250)
        letters = getattr(card, field)
        if not letters:
            d.rectangle(box, outline=pen.grey, width=2)
            d.text((x0 + 40, top + 110), "?", fill=pen.grey, font=pen.font(28))
            continue
        letters = "".join(c for c in ORDER if c in letters)
        stripe = (box[2] - box[0]) / len(letters)
        for j, letter in enumerate(letters):
            colour = rgb(names[letter])
            d.rectangle(
                (x0 + j * stripe, top, x0 + (j + 1) * stripe, top + 250), fill=colour
            )
        d.rectangle(box, outline=pen.ink, width=2)


GAME = Game(
    slug="collide-o",
    module="collide_o",
    name="Collide-O!",
    short_name="Collide-O!",
    publisher="Playroom Entertainment",
    year="2004",
    order=3,
    validate=validate,
    kinds=(CardKind("sections", "Section card"),),
    unknown_type_fields=("card_type", *SECTION_FIELDS),
    colours=(
        Colour("blue", "Blue", "B"),
        Colour("yellow", "Yellow", "Y"),
        Colour("red", "Red", "R"),
        Colour("green", "Green", "G"),
        Colour("black", "Black", "K"),
    ),
    not_printable=NOT_PRINTABLE,
    zones=(Zone("pack", "Pack"),),
    seat_counts=(2, 3, 4, 5),
    shared_pack=True,
    options=(
        Option("challenges", "bool", False, "Challenges (ruling O6)"),
        Option("misplay_rate", "float", 0.1, minimum=0, maximum=1),
        # The engine's own: how many seats share the pack.
        Option("players", "int", 2, minimum=2, maximum=5),
    ),
    # "The game is a tie. The players will have to play another round to
    # determine who is truly the best!" (rules text, Winning): a tied game is
    # played again, by the whole table, until a game has a winner.
    match=MatchMode(
        "Play again after a tie",
        seats=(2, 3, 4, 5),
        source="the rules text on ties",
        note="A tied game is followed by another, the whole table playing again "
        "with a fresh shuffle, until one game has a winner.",
        draw_word="tied",
    ),
    colour_field=None,
    opening=Opening("hand", None, 5),
    bench_setups=(({}, 2), ({}, 5)),
    aliases=("collide-o!", "collideo"),
    draw_face=draw_face,
    print_size=CARD_SIZE,
    mats=(LINE_GUIDE,),
    frame="#3c3c3c",
    printed=PRINTED,
)  # fmt: skip
