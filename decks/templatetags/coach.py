"""Template helpers for the coach's parts of a board: hints and the review link."""

from django import template

from ..play.coach import hinted_moves
from ..play.names import seat_names, speak
from ..play.services import hints_offered, practice_game

register = template.Library()
register.filter("offers_hints", hints_offered)
register.filter("practice_game", practice_game)


@register.simple_tag
def moves_from_hints(pt) -> list[tuple[int, str]]:
    """Return (turn, move in the seats' names) of each move taken from a hint."""
    names = seat_names(pt)
    return [(turn, speak(label, names)) for turn, label in hinted_moves(pt)]
