"""Collide-O! card fields: three sections, each a set of colours (rules: matching)."""

import re

from .spec import CardKind, Colour, Game, Opening, Option, Zone

FIELDS = ("section_1", "section_2", "section_3")
SECTION_FIELDS = FIELDS
ORDER = "BYRGK"  # blue, yellow, red, green, black
WILD = ORDER
NOT_PRINTABLE = ()
SECTION_RE = re.compile(r"^[BYRGK]{1,5}$")


def normalise(section: str) -> str:
    """Return the colour letters of a section in the canonical order."""
    return "".join(c for c in ORDER if c in section)


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


GAME = Game(
    slug="collide-o",
    module="collide_o",
    name="Collide-O!",
    short_name="Collide-O!",
    publisher="Playroom Entertainment",
    year="2004",
    order=3,
    validate=validate,
    fields=FIELDS,
    kinds=(CardKind("sections", "Section card", SECTION_FIELDS),),
    unknown_type_fields=("card_type", *SECTION_FIELDS),
    colours=(
        Colour("blue", "Blue", "B"),
        Colour("yellow", "Yellow", "Y"),
        Colour("red", "Red", "R"),
        Colour("green", "Green", "G"),
        Colour("black", "Black", "K"),
    ),
    not_printable=NOT_PRINTABLE,
    page_fields=(
        ("Section 1", "section_1"),
        ("Section 2", "section_2"),
        ("Section 3", "section_3"),
    ),
    filters=("section", "section_1", "section_2", "section_3", "wild"),
    zones=(Zone("pack", "Pack"),),
    seat_counts=(2, 3, 4, 5),
    shared_pack=True,
    options=(
        Option("challenges", "bool", False, "Challenges (ruling O6)"),
        Option("misplay_rate", "float", 0.1, minimum=0, maximum=1),
        # The engine's own: how many seats share the pack.
        Option("players", "int", 2, minimum=2, maximum=5),
    ),
    deck_tools=("sections", "coverage"),
    colour_field=None,
    opening=Opening("hand", None, 5),
    bench_setups=(({}, 2), ({}, 5)),
    aliases=("collide-o!", "collideo"),
    face="sections",
    frame="#3c3c3c",
)  # fmt: skip
