"""Deck construction rules, one module per game, over plain data.

A validator takes a list of entries, each a dict ``{"card", "quantity", "zone"}``
or an object with those attributes (a ``DeckEntry``), where a card is a dict or an
object with the card's fields. It returns a list of ``Problem``; the deck is legal
when no problem is an error (warnings say what could not be checked). The editor,
the API and the playtest all call ``validate_deck``: no rule is written twice.
Nothing here queries the database, so validation stays fast (``python -m tools.bench decks``).

Each game's module, found by the registry's ``rules_path``, offers ``ZONES``,
``NAME``, ``validate(lines, **options)``, ``sample(cards, variant)`` (a legal deck
of a set's cards) and ``timing_entries(size)`` (a large plain deck to time). What
the engine also enforces (Metal Fusion's deck size, Collide-O!'s pack minimum) is
read from the engine, never restated.

A rules module is also the deck layer's home for the rest of its game's
behaviour, each part optional: ``deck_tools(game, lines)`` (the deck page's own
figures, ``decks.tools``), ``BOARD_FILTERS`` / ``BOARD_SAYINGS`` /
``board_card`` (the playtest board's helpers, ``decks.templatetags.play``) and
``COMPANION`` (the table companion, ``decks.table.companion.score``).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from cards.games import get as get_game_spec
from cards.provenance import unknown_card_label

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Problem:
    """One way a deck breaks (or cannot be checked against) its game's rules."""

    code: str
    message: str
    cards: tuple[int, ...] = ()
    level: str = ERROR

    def as_dict(self) -> dict:
        return {
            "code": self.code,
            "message": self.message,
            "cards": list(self.cards),
            "level": self.level,
        }


def card_field(card: Any, name: str) -> Any:
    """Return a field of a card given as a dict or as an object."""
    if isinstance(card, dict):
        return card.get(name)
    return getattr(card, name, None)


class Line(NamedTuple):
    """One entry of a deck, normalised: the card, its id, how many, which zone,
    and the value its copies play with when each copy prints one (a figure's
    G-Power), or None."""

    card: Any
    card_id: int | None
    quantity: int
    zone: str
    g_power: int | None = None

    def get(self, name: str) -> Any:
        return card_field(self.card, name)

    @property
    def label(self) -> str:
        name = self.get("name")
        if name:
            return name
        return unknown_card_label(self.get("printed_number"), self.get("key"))


def to_lines(entries: Iterable[Any]) -> list[Line]:
    """Return the entries as ``Line`` tuples (dicts and objects alike)."""
    lines = []
    for entry in entries:
        if isinstance(entry, Line):
            lines.append(entry)
            continue
        if isinstance(entry, dict):
            card, quantity, zone = entry["card"], entry["quantity"], entry["zone"]
            g_power = entry.get("g_power")
        else:
            card, quantity, zone = entry.card, entry.quantity, entry.zone
            play = getattr(entry, "play_g_power", None)
            g_power = play() if play is not None else getattr(entry, "g_power", None)
        card_id = card_field(card, "id")
        if card_id is None and not isinstance(card, dict):
            card_id = getattr(card, "pk", None)
        lines.append(Line(card, card_id, int(quantity), str(zone), g_power))
    return lines


def ids(lines: Iterable[Line]) -> tuple[int, ...]:
    """Return the distinct card ids of these lines, in order."""
    return tuple(
        dict.fromkeys(line.card_id for line in lines if line.card_id is not None)
    )


def total(lines: Iterable[Line]) -> int:
    return sum(line.quantity for line in lines)


def count_phrase(n: int, one: str, many: str | None = None) -> str:
    """Return "no Blade", "1 Blade", "2 Blades" style wording."""
    if n == 0:
        return f"no {one}"
    return f"{n} {one if n == 1 else (many or one + 's')}"


def is_legal(problems: Iterable[Problem]) -> bool:
    """Return True when none of the problems is an error."""
    return not any(p.level == ERROR for p in problems)


def rotated(items: list, variant: int) -> list:
    """Return ``items`` turned left by ``variant`` places (how sample decks vary)."""
    if not items:
        return items
    turn = variant % len(items)
    return items[turn:] + items[:turn]


def rules_module(game_slug: str):
    """Return the rules module of a game (KeyError for an unknown game)."""
    return importlib.import_module(get_game_spec(game_slug).rules_path)


def validate_deck(game_slug: str, entries: Iterable[Any], **options) -> list[Problem]:
    """Return the problems of a deck of this game (empty when legal)."""
    module = rules_module(game_slug)
    lines = to_lines(entries)
    problems = []
    stray = [line for line in lines if line.zone not in module.ZONES]
    if stray:
        zones = ", ".join(module.ZONES)
        problems.append(
            Problem(
                "bad_zone",
                f"A {module.NAME} deck's cards sit in these zones only: {zones}. "
                f"{', '.join(sorted({line.zone for line in stray}))} is not one of them.",
                ids(stray),
            )
        )
        lines = [line for line in lines if line.zone in module.ZONES]
    problems.extend(module.validate(lines, **options))
    return problems
