"""Tally Ho, a made-up game: the registry entry a fifth game needs, and no more.

It prints only field kinds the site already has (a colour, a rarity, a
number) in existing Card columns, and names its own rules and engine modules,
so registering it (``CARDSITE_EXTRA_GAMES=tests.fifth_game.game``) needs no
edit outside this package.
"""

from cards.games.spec import CardKind, Colour, Field, Game, Opening, Zone, check_choices

COLOURS = ("red", "blue")
RARITIES = ("common", "rare")

PRINTED = (
    Field("name", "Name"),
    Field("rarity", "Rarity", "rarity", choices=RARITIES,
          invalid="Tally Ho rarities are common and rare.",
          invalid_code="bad_rarity"),
    Field("colour", "Colour", "colour", choices=COLOURS,
          invalid="Tally Ho cards are red or blue.", invalid_code="bad_colour",
          page=1, search=("colour",)),
    Field("g_power", "Tally", "number", minimum=1, maximum=9, page=2,
          filters=("g_power_min", "g_power_max"), search=("gpower",), sort="g"),
)  # fmt: skip


def validate(card, errors) -> None:
    """Refuse a colour or rarity the game does not print."""
    check_choices(card, errors, PRINTED, "colour", "rarity")


def draw_face(card, pen, top: int) -> None:
    """Draw the card's tally, large, in the middle of its face."""
    pen.draw.text((150, top + 80), str(pen.value(card, "g_power")), fill=pen.ink,
                  font=pen.font(96))  # fmt: skip


GAME = Game(
    slug="tally-ho",
    module="tally_ho",
    name="Tally Ho",
    short_name="Tally Ho",
    publisher="The test suite",
    year="2026",
    order=5,
    validate=validate,
    kinds=(CardKind("tally", "Tally card"),),
    unknown_type_fields=("card_type", "colour", "g_power"),
    colours=(Colour("red", "Red", "R"), Colour("blue", "Blue", "B")),
    zones=(Zone("deck", "Deck"),),
    opening=Opening("hand", "deck", 3),
    aliases=("tallyho",),
    draw_face=draw_face,
    printed=PRINTED,
    engine="tests.fifth_game.engine",
    rules="tests.fifth_game.rules",
)
