"""Preset decks: named opponents per game, shipped as data (``fixtures/presets``).

Each game has several presets of different styles, built from its practice set
and, where the engine can play them, official cards (Bakugan's transcribed Gate
cards). A preset file lists its cards by (set slug, card key); this module reads
the project's own card data files to turn them into engine card dicts, with no
database: ``preset_decks(game_slug)`` returns ``Preset`` records whose ``deck()``
is a fresh engine deck (zone -> one card dict per copy), the shape
``decks.engine.simulate.run_games`` takes. Collide-O! presets are packs: one
pack is the whole table's deck.

In the site, a preset plays with the database's own cards (the playtest resolves
each (set, key) to its card, ``decks.play.services``); here card ids are
stable numbers of this module's own (the card's place in the game's card data
files), which is all an engine needs.

Every preset is legal (``decks.rules``) and playable (``card_problems``): the
tests check each one, and ``preset_decks`` refuses a file that breaks.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from cards.games import GAMES as CARD_GAMES
from cards.provenance import unknown_card_label

from .rules import ERROR, validate_deck

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
PRESETS = FIXTURES / "presets"

# The card columns every engine card dict carries, besides the game's own fields
# (the playtest adapter builds database cards into the same shape).
BASE_FIELDS = (
    "name",
    "card_type",
    "number",
    "printed_number",
    "rarity",
    "text",
    "effects",
    "not_printed",
)


@dataclass(frozen=True)
class Preset:
    """One preset deck: its slug, name, style, a sentence on it, and its entries.

    ``entries`` are ``{"card": card dict, "quantity", "zone"}`` (what
    ``decks.rules.validate_deck`` reads); each card dict also carries ``set`` and
    ``key``, the card's place in the card data.
    """

    game: str
    slug: str
    name: str
    style: str
    description: str
    entries: tuple = field(repr=False)
    official: bool = False

    def deck(self) -> dict:
        """Return a fresh engine deck: zone -> list of card dicts, one per copy."""
        zones: dict[str, list[dict]] = {}
        for entry in self.entries:
            zones.setdefault(entry["zone"], []).extend(
                copy.deepcopy(entry["card"]) for _ in range(entry["quantity"])
            )
        return zones

    @property
    def cards(self) -> dict:
        """The engine deck (``deck()``)."""
        return self.deck()

    @property
    def size(self) -> int:
        return sum(entry["quantity"] for entry in self.entries)

    def keys(self) -> list[tuple[str, str, int, str]]:
        """Return (set slug, card key, quantity, zone) per entry."""
        return [
            (e["card"]["set"], e["card"]["key"], e["quantity"], e["zone"])
            for e in self.entries
        ]


def card_label(record: dict) -> str:
    """The card's name, or "Unknown card #n" as the site shows a nameless card."""
    if record.get("name"):
        return record["name"]
    return unknown_card_label(record.get("printed_number"), record.get("key"))


@cache
def _card_index(game_slug: str) -> dict:
    """Return (set slug, key) -> engine card dict for every card of the game's files."""
    fields = CARD_GAMES[game_slug].fields
    index: dict[tuple[str, str], dict] = {}
    number = 0
    for path in sorted(FIXTURES.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("game") != game_slug:
            continue
        for card_set in data.get("sets", []):
            for record in card_set.get("cards", []):
                number += 1
                card = {
                    "id": number,
                    "set_kind": card_set.get("kind", "official"),
                    "label": card_label(record),
                    "set": card_set["slug"],
                    "key": str(record["key"]),
                }
                for name in BASE_FIELDS + tuple(fields):
                    card[name] = record.get(name)
                if card["effects"] is None:
                    card["effects"] = []
                if card["not_printed"] is None:
                    card["not_printed"] = []
                index[(card_set["slug"], str(record["key"]))] = card
    return index


@cache
def _load(game_slug: str) -> tuple[Preset, ...]:
    path = PRESETS / f"{game_slug}.json"
    if not path.exists():
        return ()
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("format") != "cardsite-presets" or data.get("game") != game_slug:
        raise ValueError(f"{path.name} is not a preset file of {game_slug}.")
    index = _card_index(game_slug)
    players = min(CARD_GAMES[game_slug].seat_counts)
    presets = []
    for raw in data["presets"]:
        entries = []
        for line in raw["cards"]:
            where = (line["set"], str(line["key"]))
            if where not in index:
                raise ValueError(
                    f"Preset {raw['name']!r} names card {where[1]} of set "
                    f"{where[0]}, which the card data does not hold."
                )
            entries.append(
                {
                    "card": index[where],
                    "quantity": int(line["quantity"]),
                    "zone": line["zone"],
                }
            )
        problems = [
            p
            for p in validate_deck(game_slug, entries, players=players)
            if p.level == ERROR
        ]
        if problems:
            raise ValueError(
                f"Preset {raw['name']!r} is not legal: "
                + " ".join(p.message for p in problems)
            )
        presets.append(
            Preset(
                game=game_slug,
                slug=raw["slug"],
                name=raw["name"],
                style=raw["style"],
                description=raw["description"],
                entries=tuple(entries),
                official=any(e["card"]["set_kind"] == "official" for e in entries),
            )
        )
    return tuple(presets)


def preset_decks(game_slug: str) -> list[Preset]:
    """Return the game's preset decks (an empty list for a game with none)."""
    if game_slug not in CARD_GAMES:
        raise KeyError(f"No game {game_slug!r}.")
    return list(_load(game_slug))


def preset(game_slug: str, slug: str) -> Preset:
    """Return one preset by its slug (KeyError when there is none)."""
    for candidate in preset_decks(game_slug):
        if candidate.slug == slug:
            return candidate
    raise KeyError(f"No preset {slug!r} for {game_slug}.")
