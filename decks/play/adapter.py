"""The one adapter between database decks and the engines.

It turns cards into the plain card dicts the engines read (the card's id and its
game's columns, ``effects`` included) and decks into per-seat zone dicts.
``engine_decks`` is the one way a deck reaches an engine game: the playtest, deck
reports and batch simulation all call it, so each refuses the same decks (an
illegal deck, ``decks.rules``; a card the engine cannot play, ``blocking_cards``).
``read_deck`` is how each of them (and the playtest's start page) reads a deck:
the reader's readings, each figure slot's copy (``decks.copies``).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from cards.community.readings import entries_as_read
from cards.games import GAMES as CARD_GAMES
from cards.selectors import hidden_card_ids

from ..copies import deck_lines
from ..engine import engine_for
from ..presets import BASE_FIELDS
from ..rules import ERROR, is_legal, to_lines, validate_deck


class PlaytestError(Exception):
    """A playtest request the site refuses, with an HTTP status and a plain message."""

    def __init__(
        self,
        code: str,
        message: str,
        status: int = 400,
        details=None,
        retry_after: int | None = None,
    ):
        super().__init__(message)
        self.code, self.message, self.status, self.details = (
            code,
            message,
            status,
            details,
        )
        self.retry_after = retry_after  # whole seconds, with a 429


def card_to_engine(card) -> dict:
    """Return the engine's card dict for ``card``."""
    fields = CARD_GAMES[card.card_set.game.slug].fields
    data = {"id": card.pk, "set_kind": card.card_set.kind, "label": card.display_name}
    for name in BASE_FIELDS + tuple(fields):
        data[name] = getattr(card, name)
    if getattr(card, "your_reading", None) is not None:
        # The player's own reading of the card, not reviewed yet: the board says so.
        data["your_reading"] = True
    return data


def entries_to_engine(entries) -> dict:
    """Return zone -> list of card dicts (one per copy) of a deck's entries.

    An entry is a ``DeckEntry`` or a ``{"card", "zone", "quantity"}`` dict whose
    card is a ``Card``.
    """
    zones: dict[str, list[dict]] = {}
    for line in to_lines(entries):
        cached = card_to_engine(line.card)
        if line.g_power is not None and cached.get("g_power") is None:
            # The slot's own copy or typed value (decks.rules.bakugan).
            cached["g_power"] = line.g_power
            cached["label"] = _with_g_power(cached)
        zones.setdefault(line.zone, []).extend(
            dict(cached) for _ in range(line.quantity)
        )
    return zones


def _with_g_power(card: dict) -> str:
    return f"{card.get('label') or card.get('name')} ({card['g_power']} G)"


def deck_entries(deck) -> list:
    """Return a database deck's entries with their cards, sets, games and copies."""
    return list(deck.entries.select_related("card__card_set__game", "copy", "deck"))


def blocking_cards(game_slug: str, engine_deck: dict) -> list[dict]:
    """Return ``{"id", "name", "problems"}`` for every card the engine cannot play."""
    game = engine_for(game_slug)
    seen, blocked = set(), []
    for cards in engine_deck.values():
        for card in cards:
            if card["id"] in seen:
                continue
            seen.add(card["id"])
            problems = game.card_problems(card)
            if problems:
                blocked.append(
                    {
                        "id": card["id"],
                        "name": card.get("label")
                        or card.get("name")
                        or f"card {card['id']}",
                        "problems": problems,
                    }
                )
    return blocked


def blocked_cards(game_slug: str, engine_decks: Sequence[dict]) -> list[dict]:
    """Return the cards of these engine decks that block play, each once."""
    blocked: list[dict] = []
    for engine_deck in engine_decks:
        known = {b["id"] for b in blocked}
        blocked += [
            b for b in blocking_cards(game_slug, engine_deck) if b["id"] not in known
        ]
    return blocked


def read_deck(deck, reader=None) -> tuple[str, list]:
    """Return a deck's name and lines as ``reader`` plays it.

    ``deck`` is a database deck or a ``(name, entries)`` pair. The reader's own
    readings of cards apply; each slot of a database deck plays its owner's
    copies (``decks.copies``).
    """
    name, entries = deck if isinstance(deck, tuple) else (deck.name, deck_entries(deck))
    if reader is not None:
        entries_as_read(reader, entries)
    owner = None if isinstance(deck, tuple) else deck.owner
    return name, deck_lines(owner=owner, entries=entries)


def engine_decks(
    game_slug: str,
    decks: Sequence,
    *,
    players: int,
    seats: Sequence[int] | None = None,
    reader=None,
) -> list[dict]:
    """Return the seats' engine decks, refusing an illegal deck or unplayable cards.

    ``decks`` holds database decks or ``(name, entries)`` pairs, every one checked
    (for ``players`` players: a shared pack's size depends on it); ``seats`` gives
    each seat's index into ``decks`` (one seat per deck when None). A deck sitting
    at two seats is copied, so no two seats share card dicts. With a ``reader``, a
    deck holding a card the reader may not see (someone's private custom card) is
    refused: the game would show it. The reader's own readings of cards
    (``cards.community.readings``) apply to their game.
    """
    named = [read_deck(deck, reader) for deck in decks]
    if reader is not None:
        card_ids = {
            entry.card_id
            for deck in decks
            if not isinstance(deck, tuple)
            for entry in deck.entries.all()
        }
        if hidden_card_ids(reader, card_ids):
            raise PlaytestError(
                "private_card",
                "This deck holds a private custom card you cannot see, so it "
                "cannot be played.",
                status=403,
            )
    for name, entries in named:
        problems = validate_deck(game_slug, entries, players=players)
        if not is_legal(problems):
            raise PlaytestError(
                "illegal_deck",
                f"The deck {name!r} is not legal: "
                + " ".join(p.message for p in problems if p.level == ERROR),
            )
    built = [entries_to_engine(entries) for _, entries in named]
    blocked = blocked_cards(game_slug, built)
    if blocked:
        names = "; ".join(f"{b['name']}: {', '.join(b['problems'])}" for b in blocked)
        raise PlaytestError(
            "blocked",
            f"These cards lack the play data a playtest needs: {names}.",
            details=blocked,
        )
    seats = range(len(built)) if seats is None else seats
    result, used = [], set()
    for index in seats:
        result.append(copy.deepcopy(built[index]) if index in used else built[index])
        used.add(index)
    return result
