"""Collide-O! card fields: three sections, each a set of colours (rules: matching)."""

import re

SLUG = "collide-o"
NAME = "Collide-O!"
FIELDS = ("section_1", "section_2", "section_3")
SECTION_FIELDS = FIELDS
TYPES = ("sections",)
ORDER = "BYRGK"  # blue, yellow, red, green, black
WILD = ORDER
NOT_PRINTABLE = ()
SECTION_RE = re.compile(r"^[BYRGK]{1,5}$")

# What a card of each type prints: shown on its page, asked for when unknown.
TYPE_FIELDS = {
    None: ("card_type", "section_1", "section_2", "section_3"),
    "sections": ("section_1", "section_2", "section_3"),
}


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
