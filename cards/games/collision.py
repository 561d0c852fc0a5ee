"""Beyblade Collision card fields (rules text: card anatomy, deck building)."""

import re

from .spec import (
    MAT_COLUMNS,
    MAT_ROWS,
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
    SearchKey,
    Zone,
    check_choices,
    rgb,
)

COLOURS = ("red", "yellow", "green", "blue")
RARITIES = ("starter", "common", "uncommon", "rare", "xtra-rare", "promo")
SYMBOLS = ("play", "win")  # an Action's play or win symbol
PROMO_NUMBERS = range(131, 145)
# The printed rarity symbols, in the booklet's words: slim lens, single spike, ...
RARITY_SYMBOLS = {
    "starter": "◊",
    "common": "✦",
    "uncommon": "✧",
    "rare": "★",
    "xtra-rare": "✸",
    "promo": "●",
}
NOT_PRINTABLE = ("text", "lore")
EDGE_RE = re.compile(r"^[.LSE]{6}$")
# The key a person types for each piece of a battle edge, on every page that
# takes one: the first letter of the piece's name, which is what a player
# guesses without reading a legend (and a letter, where "." needs a phone's
# symbol keyboard). Edges are stored and shown as the engine's codes (.LSE).
NOTCH_KEYS = (("b", ".", "bare"), ("l", "L", "live"), ("s", "S", "strike"),
              ("e", "E", "empty"))  # fmt: skip


def compose_name(title, subtitle):
    """Return the display name, "Title, Subtitle" style."""
    if title and subtitle:
        return f"{title}, {subtitle}"
    return title


def validate(card, errors) -> None:
    if card.title and not card.name:
        card.name = compose_name(card.title, card.subtitle)
    elif card.title and card.name != compose_name(card.title, card.subtitle):
        errors.add(
            "name",
            'The name must read "Title, Subtitle" from the title and subtitle fields.',
            "name_mismatch",
        )
    if card.name and not card.title:
        errors.add(
            "title",
            "A named Collision card needs its title (the name part before the comma).",
            "missing_title",
        )
    if card.battle_edge is not None and not EDGE_RE.match(card.battle_edge):
        errors.add(
            "battle_edge",
            "A battle edge is exactly six notches, each . (bare), L (live), S (strike) or E (empty).",
            "bad_notch",
        )
    check_choices(card, errors, PRINTED, "colour", "rarity")
    kind = card.card_type
    if kind == "blade":
        if card.colour is not None:
            errors.add("colour", "Blades have no colour.", "blade_colour")
        if card.symbol is not None:
            errors.add(
                "symbol",
                "Only Actions carry a play or win symbol.",
                "symbol_not_action",
            )
    elif kind is not None:
        if card.spin_strength is not None:
            errors.add(
                "spin_strength", "Only Blades have a spin strength.", "spin_not_blade"
            )
    if card.subtitle and kind in ("action", "event"):
        errors.add(
            "subtitle",
            "Only Blades and Characters carry a subtitle.",
            "subtitle_not_allowed",
        )
    if (
        kind == "action"
        and card.symbol is None
        and card.text is not None
        and "symbol" not in (card.not_printed or [])
    ):
        errors.add(
            "symbol",
            "Every Action carries a play or win symbol.",
            "action_without_symbol",
        )
    if kind in ("character", "event") and card.symbol is not None:
        errors.add(
            "symbol", "Only Actions carry a play or win symbol.", "symbol_not_action"
        )


TEXTED = ("action", "character", "event")
PRINTED = (
    Field("name", "Name"),
    Field("rarity", "Rarity", "rarity", choices=RARITIES,
          invalid="Collision rarities are: " + ", ".join(RARITIES) + ".",
          invalid_code="bad_rarity"),
    Field("text", "Text", types=TEXTED, transcribed=False),
    Field("title", "Title", page=1),
    Field("subtitle", "Subtitle", types=("blade", "character"), page=2),
    Field("colour", "Colour", "colour", types=TEXTED, choices=COLOURS,
          invalid="Collision colours are red, yellow, green and blue.",
          invalid_code="bad_colour", page=3, search=("colour",)),
    Field("battle_edge", "Battle edge", "notches", page=4,
          filters=("edge_1", "edge_2", "edge_3", "edge_4", "edge_5", "edge_6",
                   "live_min", "live_max", "strike_min", "strike_max",
                   "empty_min", "empty_max"),
          search=("edge", "live", "strike", "empty")),
    Field("spin_strength", "Spin strength", "number", types=("blade",),
          minimum=1, maximum=99, page=5, filters=("spin_min", "spin_max"),
          search=("spin",), sort="spin", sort_label="spin strength"),
    Field("symbol", "Symbol", "choice", types=("action",), choices=SYMBOLS, page=6,
          filters=("symbol",),
          search=(SearchKey("symbol", takes="play or win",
                            says=("with the {value} symbol", "without the {value} symbol"),
                            reads="{value} symbol"),)),
)  # fmt: skip

# One player's mat: the six places a card can sit (rules text, "Setting up").
# The Blade rests on its spin pile at the table; the mat gives each its own box
# so both can be read (the Blade's place is beside the pile it stands over).
C, R = MAT_COLUMNS, MAT_ROWS
PLAYER_MAT = Mat(
    "player",
    "Collision play mat (one player)",
    *MAT_SIZE,
    (
        MatPlace("Characters in play", C[0], R[0], C[2] + 63 - C[0], 88, "area",
                 note="Characters that passed their test, face up"),
        MatPlace("Battle pile", C[3], R[0], 63, 88,
                 note="The cards you play in one battle, the last on top"),
        MatPlace("Blade", C[0], R[1], 63, 88, note="Face up all game; never shuffled in"),
        MatPlace("Spin pile", C[1], R[1], 63, 88,
                 note="Face down; as many cards as the Blade's spin strength"),
        MatPlace("Deck", C[2], R[1], 63, 88, note="Face down; draw back up to five"),
        MatPlace("Discard pile", C[3], R[1], 63, 88,
                 note="Hits, swept battle piles; shuffled in when the deck runs out"),
    ),
    note="One sheet per player. You sit at the bottom edge.",
)  # fmt: skip

# --- the card face -----------------------------------------------------------

_PIECE_FILL = {".": rgb("bare"), "L": rgb("green"), "S": rgb("red"), "E": rgb("paper")}
PIECE_NAMES = {code: name for _, code, name in NOTCH_KEYS}


def draw_face(card, pen, top: int) -> None:
    """Draw the body of this game's card face with ``pen`` (``cards.images.Pen``)."""
    d = pen.draw
    d.text((26, top), "Battle edge", fill=pen.grey, font=pen.font(14))
    edge = card.battle_edge
    for i in range(6):
        x0 = 26 + i * 52
        box = (x0, top + 22, x0 + 44, top + 66)
        if edge is None:
            d.rectangle(box, outline=pen.grey, width=2)
            d.text((x0 + 16, top + 32), "?", fill=pen.grey, font=pen.font(22))
            continue
        code = edge[i]
        d.rectangle(box, fill=_PIECE_FILL[code], outline=pen.ink, width=2)
        if code == "E":
            d.line((box[0], box[1], box[2], box[3]), fill=pen.ink, width=2)
        d.text((x0 + 2, top + 70), PIECE_NAMES[code], fill=pen.ink, font=pen.font(12))
    y = top + 100
    if card.card_type == "blade":
        d.text(
            (26, y),
            f"Spin strength: {pen.value(card, 'spin_strength')}",
            fill=pen.ink,
            font=pen.font(18),
        )
    else:
        d.text(
            (26, y), f"Colour: {card.colour or '?'}", fill=pen.ink, font=pen.font(18)
        )
        if card.card_type == "action":
            d.text(
                (26, y + 28),
                f"Symbol: {pen.value(card, 'symbol')}",
                fill=pen.ink,
                font=pen.font(18),
            )


GAME = Game(
    slug="collision",
    module="collision",
    name="Beyblade Collision",
    short_name="Collision",
    publisher="Decipher",
    year="2002",
    order=1,
    validate=validate,
    kinds=(
        CardKind("blade", "Blade"),
        CardKind("action", "Action"),
        CardKind("character", "Character"),
        CardKind("event", "Event"),
    ),
    unknown_type_fields=("name", "card_type", "rarity"),
    colours=tuple(Colour(c, c.title(), c[0].upper()) for c in COLOURS),
    not_printable=NOT_PRINTABLE,
    zones=(
        Zone("blade", "Blade", ("blades",)),
        Zone("deck", "Deck", ("main deck",)),
    ),
    default_zones={"blade": "blade"},
    seat_counts=(2, 3, 4),
    options=(
        Option("advanced", "bool", False, "Advanced game (card text on)"),
        # The engine's own: who goes first (a seat, the C3 cut, or the seed).
        Option("first", "seat", None, choices=(("cut", "the cut tiebreak"),)),
    ),
    # "A competitive match is best of three games ... Whoever lost the previous
    # game goes first in the next one" (rules text, Match play; ruling C13).
    # Two players: with three or four, "the loser" is not one player.
    match=MatchMode(
        "Best of three",
        seats=(2,),
        source="ruling C13",
        note="The first to win two games takes the match; the loser of a game "
        "goes first in the next (after a drawn game, who went second).",
        first_option="first",
        first_note="the loser of a game goes first in the next",
        draw_first_note="after a drawn game, the player who went second goes first",
    ),
    # Five cards from the deck; the Blade is never drawn (ruling C2).
    opening=Opening("hand", "deck", 5, ("blade",)),
    bench_setups=(({}, 2), ({"advanced": True}, 2)),
    rarity_symbols=RARITY_SYMBOLS,
    promo_numbers=PROMO_NUMBERS,
    rarity_letters={
        "s": "starter", "c": "common", "u": "uncommon", "r": "rare",
        "x": "xtra-rare", "xr": "xtra-rare", "p": "promo",
    },
    draw_face=draw_face,
    # "About 63 x 88 mm" (issue 23): the common trading card size.
    print_size=PrintSize(63, 88, sourced=True),
    mats=(PLAYER_MAT,),
    frame="#1f2a44",
    name_from=compose_name,
    notch_keys=NOTCH_KEYS,
    # What a card of each type prints: shown on its page, asked for when unknown.
    printed=PRINTED,
)  # fmt: skip
