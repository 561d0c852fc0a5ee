"""Template helpers for the coach's part of a board: is a hint offered, is it practice."""

from django import template

from ..play.services import hints_offered, practice_game

register = template.Library()
register.filter("offers_hints", hints_offered)
register.filter("practice_game", practice_game)
