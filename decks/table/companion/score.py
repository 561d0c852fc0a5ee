"""The table companion's arithmetic: the score of a physical game, from its log.

Pure Python (no Django): a game is its set-up and a log of events, and the score
is a replay of the log, so undo is the log minus its last event. Each game's
own counting lives in its rules module as ``COMPANION`` (a ``Companion``),
reached through the registry (``Game.rules_path``); where the rules engine has
the rule (hits, battle power, gate bonuses, gates or cards to win, who wins a
tie), that counting calls the engine, never copies it. A game whose rules
module offers no ``COMPANION`` is not offered at the table.

This module holds what every game shares: the checks of typed numbers and
seats, the seat counts (the registry's ``seat_counts``) and the log's limits.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from cards.games import GAMES, Game

from ...rules import rules_module

MAX_LOG = 2000


class ScoreError(ValueError):
    """An event or set-up the companion cannot count; the message says why."""


def whole(value, what: str, low: int | None = None, high: int | None = None) -> int:
    """Return ``value`` as a whole number from ``low`` to ``high``, else ScoreError."""
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            value = int(str(value).strip())
        except (TypeError, ValueError):
            raise ScoreError(f"{what} is a whole number.") from None
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise ScoreError(f"{what} is {span}.")
    return value


def typed(value, default=None):
    """Return a typed form value as a whole number, or ``default`` when it is none."""
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        return default
    return number if abs(number) <= 10**9 else default


def seat(value, players: int, what: str = "The player") -> int:
    """Return ``value`` as a seat number of a game of ``players``, else ScoreError."""
    return whole(value, what, 0, players - 1)


def seat_name(setup: dict, place: int) -> str:
    """Return the name entered for seat ``place``, or "Player N" when none was."""
    names = setup.get("names") or []
    entered = names[place] if 0 <= place < len(names) else None
    return entered if isinstance(entered, str) and entered else f"Player {place + 1}"


def players(game: Game, value) -> int:
    """Return ``value`` as a seat count the game is played with (its registry's)."""
    count = whole(value, "Players")
    if count not in game.seat_counts:
        counts = " or ".join(str(n) for n in game.seat_counts)
        raise ScoreError(f"{game.short_name} is for {counts} players.")
    return count


class Seat(NamedTuple):
    """One seat of a game being started: its player's name, deck name and cards.

    ``cards`` is the chosen deck's cards by zone as engine card dicts, each
    carrying ``copies`` (None when no deck was chosen: the values are typed).
    """

    name: str
    deck: str | None
    cards: dict[str, list[dict]] | None


@dataclass(frozen=True)
class Companion:
    """How the table companion keeps one game's score (a rules module's ``COMPANION``).

    ``replay(setup, log)`` returns the score: ``rows`` (one per seat),
    ``winner`` (a seat or None) and ``history`` (one line per event).
    ``setup(form, seats)`` returns the game's own part of a set-up from the start
    form and the chosen decks; ``event(form, setup)`` the event a score form
    posted; ``page(setup)`` what the game's template
    (``Game.companion_template``) reads beside the score. All raise ScoreError.
    """

    replay: Callable[[dict, list], dict]
    setup: Callable[[Mapping, list[Seat]], dict]
    event: Callable[[Mapping, dict], dict]
    page: Callable[[dict], dict] = lambda setup: {}


def companion(game_slug: str) -> Companion | None:
    """Return how the companion keeps this game's score, or None when it does not."""
    return getattr(rules_module(game_slug), "COMPANION", None)


def games() -> list[Game]:
    """Return the games the companion keeps the score of, in the registry's order."""
    return [game for game in GAMES.values() if companion(game.slug) is not None]


def score(game_slug: str, setup: dict, log: list) -> dict:
    """Return the score of a game after ``log``; ScoreError when it cannot be counted."""
    if not isinstance(setup, dict) or not isinstance(log, list):
        raise ScoreError("A game is a set-up and a list of events.")
    if len(log) > MAX_LOG:
        raise ScoreError(f"A game keeps at most {MAX_LOG} events.")
    for event in log:
        if not isinstance(event, dict):
            raise ScoreError("An event is a set of named values.")
    keeper = companion(game_slug)
    if keeper is None:
        raise ScoreError("The table companion does not keep this game's score.")
    try:
        return keeper.replay(setup, log)
    except (KeyError, IndexError, TypeError, AttributeError):
        raise ScoreError("This event does not fit the game.") from None
