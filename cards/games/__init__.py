"""What the site knows about each game, found by slug. Pure Python: no Django.

One module per game (``collision``, ``metal_fusion``, ``collide_o``,
``bakugan``) holds its card fields, card types and what each prints, colours,
page fields and filters, deck zones, seat counts and options as one ``Game``
(see ``spec``), with ``validate(card, errors)`` for its own card checks and
``draw_face`` for its card face. Pages, search, deck rules, deck tools, the
playtest and the engines read it here.

This package is the one place that imports a game's module by name. A game's
behaviour is reached through its entry only: its card face (``draw_face``), its
rules module (``rules_path``: construction rules, deck tools, board helpers, the
table companion) and its engine (``engine_path``); no shared module imports a
game's module or branches on a game's name (``tests/site/test_one_place.py``). A game kept elsewhere is added
by naming its module in the environment variable ``CARDSITE_EXTRA_GAMES``.
"""

import os
from importlib import import_module

from . import bakugan, collide_o, collision, metal_fusion
from .spec import (
    COMMON_FIELDS,
    PALETTE,
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
    rgb,
)

BUILT_IN = (collision.GAME, metal_fusion.GAME, collide_o.GAME, bakugan.GAME)


def extra_games(paths: str) -> tuple[Game, ...]:
    """Return the ``GAME`` of each module named in a comma-separated list."""
    return tuple(
        import_module(path.strip()).GAME for path in paths.split(",") if path.strip()
    )


# A game defined outside this package (a test's made-up game) is registered by
# naming its module in CARDSITE_EXTRA_GAMES. It is read here, once, because the
# choices, search tables and filters elsewhere are built from GAMES at import.
GAMES: dict[str, Game] = {
    g.slug: g
    for g in sorted(
        BUILT_IN + extra_games(os.environ.get("CARDSITE_EXTRA_GAMES", "")),
        key=lambda g: g.order,
    )
}
SLUGS = tuple(GAMES)

# Columns used by some game only; a card of another game must leave them empty.
GAME_FIELDS = tuple(sorted({f for game in GAMES.values() for f in game.fields}))

__all__ = [
    "COMMON_FIELDS",
    "GAMES",
    "GAME_FIELDS",
    "PALETTE",
    "SLUGS",
    "CardKind",
    "Colour",
    "Field",
    "Game",
    "Mat",
    "MatPlace",
    "MatchMode",
    "Opening",
    "Option",
    "PrintSize",
    "SearchKey",
    "Zone",
    "get",
    "rgb",
    "type_fields",
]


def get(slug: str) -> Game:
    """Return the game with this slug; KeyError names it when there is none."""
    try:
        return GAMES[slug]
    except KeyError:
        raise KeyError(f"No game {slug!r}.") from None


def type_fields(game_slug: str, card_type: str | None) -> tuple[str, ...]:
    """Return the fields a card of this game and type prints (all kinds when unknown)."""
    return get(game_slug).type_fields(card_type)
