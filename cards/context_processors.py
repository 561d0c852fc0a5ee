"""Template context every page has: the games (for the menu) and the colour palette."""

from .games import GAMES, PALETTE

_CONTEXT = {"site_games": tuple(GAMES.values()), "palette": PALETTE}


def games(request) -> dict:
    return _CONTEXT
