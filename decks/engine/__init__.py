"""Rules engines for the four games, pure Python with no Django import.

``engine_for(slug)`` returns a game's engine module (the registry entry is the
"game"; its engine is the module that plays it); every module offers the interface
described in ``core``. Decks reach an engine as one dict per seat mapping each
zone to a list of card dicts (one dict per copy), the card dict carrying the
card's columns (``cards.models.Card`` field names) and its ``id``:

    collision:    {"blade": [card], "deck": [cards...]}
    metal-fusion: {"lineup": [character, beyblade, customizer], "deck": [15 cards]}
    bakugan:      {"bakugan": [3], "gate": [3], "ability": [3]}
    collide-o:    one shared pack, {"pack": [cards...]}, dealt among
                  ``options["players"]`` seats.
"""

import importlib

from cards.games import GAMES

# Each game's engine is the module its registry entry names (``Game.engine_path``).
MODULES = {slug: game.engine_path for slug, game in GAMES.items()}


def engine_for(slug: str):
    """Return the engine module of a game by its slug."""
    try:
        path = MODULES[slug]
    except KeyError:
        raise KeyError(f"No engine for game {slug!r}.") from None
    return importlib.import_module(path)
