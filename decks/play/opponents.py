"""Opponent decks for a playtest or a deck report, named by one short value each.

- ``preset:<slug>``: a named preset deck of the game (``decks.presets``), played
  with the database's own cards;
- ``random``: a random legal deck of the game's practice set, drawn by the seed
  (the same seed draws the same deck);
- ``deck:<id>`` (or a bare id): a deck the player may see, a public deck of the
  game or one of their own;
- ``mirror``: the player's own deck.

``resolve_opponent`` turns a value into what ``adapter.engine_decks`` takes (a
``Deck`` or a ``(name, entries)`` pair) and a label for the board and the
report; ``opponent_groups`` lists the values a start form offers.

A ``Starter`` is a preset played as the player's own deck (the starter decks of
"Play now", which need no deck of one's own).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from types import SimpleNamespace

from cards.choices import SetKind
from cards.models import Card

from ..models import Deck
from ..presets import preset_decks
from ..rules import rules_module
from .adapter import PlaytestError

PRESET = "preset:"
DECK = "deck:"
RANDOM = "random"
MIRROR = "mirror"


@dataclass(frozen=True)
class Opponent:
    """A resolved opponent: what the adapter plays and how it is named."""

    value: str
    label: str
    deck: object  # a Deck, or a (name, entries) pair
    deck_id: int | None = None


def _cards_by_key(game_slug: str, keys) -> dict:
    wanted = {(s, k) for s, k in keys}
    cards = Card.objects.filter(
        card_set__game__slug=game_slug,
        card_set__slug__in={s for s, _ in wanted},
        key__in={k for _, k in wanted},
    ).select_related("card_set__game")
    return {
        (c.card_set.slug, c.key): c for c in cards if (c.card_set.slug, c.key) in wanted
    }


@dataclass(frozen=True)
class Starter:
    """A preset deck played as the player's own deck: a starter deck."""

    game: object  # the ``cards`` Game row
    preset: object  # a ``decks.presets.Preset``

    pk = None  # no database deck: the game keeps no link to one

    @property
    def name(self) -> str:
        return self.preset.name

    @property
    def game_id(self) -> int:
        return self.game.pk

    def played(self) -> tuple[str, list[dict]]:
        """Return the ``(name, entries)`` pair the adapter plays."""
        entries = preset_entries(self.game.slug, self.preset)
        if entries is None:
            raise PlaytestError(
                "bad_deck", f"The starter deck {self.name!r} is not loaded here."
            )
        return f"{self.name} (starter deck)", entries


def starter(game, slug: str) -> Starter:
    """Return the starter deck ``slug`` of ``game`` (a Game row), or refuse it."""
    for candidate in available_presets(game.slug):
        if candidate.slug == slug:
            return Starter(game, candidate)
    raise PlaytestError("bad_deck", f"No starter deck {slug!r} for this game.")


def played(deck):
    """Return what the adapter plays for the player's deck (a Deck or a Starter)."""
    return deck.played() if isinstance(deck, Starter) else deck


def preset_entries(game_slug: str, preset) -> list[dict] | None:
    """Return the preset's entries with database cards, or None when a card is
    not loaded (a set this site has not imported)."""
    keys = [(s, k) for s, k, _, _ in preset.keys()]
    found = _cards_by_key(game_slug, keys)
    if len(found) < len(set(keys)):
        return None
    return [
        {"card": found[(s, k)], "quantity": q, "zone": z}
        for s, k, q, z in preset.keys()
    ]


def available_presets(game_slug: str) -> list:
    """Return the game's presets whose every card this site holds."""
    presets = preset_decks(game_slug)
    if not presets:
        return []
    keys = {(s, k) for p in presets for s, k, _, _ in p.keys()}
    found = _cards_by_key(game_slug, keys)
    return [p for p in presets if all((s, k) in found for s, k, _, _ in p.keys())]


def random_entries(game_slug: str, seed: int) -> list[dict]:
    """Return a legal deck of the practice set's cards drawn by ``seed``."""
    cards = list(
        Card.objects.filter(
            card_set__game__slug=game_slug, card_set__kind=SetKind.PRACTICE
        )
        .select_related("card_set__game")
        .order_by("card_set__sort_order", "number", "key")
    )
    if not cards:
        raise PlaytestError(
            "no_practice_set",
            "A random deck is drawn from the practice set, which is not loaded.",
        )
    random.Random(seed).shuffle(cards)
    # The rules module's sample takes cards in the order given: shuffled, it
    # builds a legal deck of random cards.
    by_pk = {c.pk: c for c in cards}
    shown = [SimpleNamespace(**_fields(c)) for c in cards]
    entries = rules_module(game_slug).sample(shown, 0)
    return [{**e, "card": by_pk[e["card"]]} for e in entries]


def _fields(card) -> dict:
    data = {f.attname: getattr(card, f.attname) for f in card._meta.concrete_fields}
    data["pk"] = card.pk
    return data


def resolve_opponent(user, deck, value, seed: int) -> Opponent:
    """Return the opponent a value names, for ``deck``'s game; refuse a bad value."""
    game_slug = deck.game.slug
    if isinstance(value, Deck):
        value = f"{DECK}{value.pk}"
    value = str(value or "").strip()
    if value == MIRROR:
        return Opponent(MIRROR, f"{deck.name} (mirror)", played(deck), deck.pk)
    if value == RANDOM:
        name = f"Random deck (seed {seed})"
        return Opponent(RANDOM, name, (name, random_entries(game_slug, seed)))
    if value.startswith(PRESET):
        slug = value[len(PRESET) :]
        for preset in preset_decks(game_slug):
            if preset.slug == slug:
                entries = preset_entries(game_slug, preset)
                if entries is None:
                    break
                label = f"{preset.name} (preset, {preset.style})"
                return Opponent(value, label, (label, entries))
        raise PlaytestError("bad_opponent", f"No preset deck {slug!r} for this game.")
    pk = value[len(DECK) :] if value.startswith(DECK) else value
    try:
        other = (
            Deck.objects.visible_to(user)
            .select_related("game")
            .get(pk=int(pk), game=deck.game)
        )
    except (ValueError, Deck.DoesNotExist):
        raise PlaytestError(
            "bad_opponent", f"No deck {pk!r} of this game that you can see."
        ) from None
    return Opponent(f"{DECK}{other.pk}", other.name, other, other.pk)


def default_opponent(deck) -> str:
    """The first preset of the game, else the mirror."""
    presets = available_presets(deck.game.slug)
    return f"{PRESET}{presets[0].slug}" if presets else MIRROR


def opponent_groups(user, deck) -> list[dict]:
    """Return the start form's opponent choices, grouped: presets, random, decks."""
    slug = deck.game.slug
    groups = [
        {
            "label": "Preset decks",
            "options": [
                (f"{PRESET}{p.slug}", f"{p.name} ({p.style})")
                for p in available_presets(slug)
            ],
        },
        {
            "label": "Drawn by the seed",
            "options": [(RANDOM, "A random legal deck of the practice set")],
        },
    ]
    visible = (
        Deck.objects.visible_to(user)
        .filter(game=deck.game)
        .exclude(pk=deck.pk)
        .select_related("owner")
        .order_by("name")[:200]
    )
    own = [(f"{DECK}{d.pk}", d.name) for d in visible if d.owner_id == user.pk]
    public = [
        (f"{DECK}{d.pk}", f"{d.name} ({d.owner.get_username()})")
        for d in visible
        if d.owner_id != user.pk
    ]
    groups.append(
        {
            "label": "Your decks",
            "options": [(MIRROR, f"{deck.name} (this deck: a mirror)"), *own],
        }
    )
    if public:
        groups.append({"label": "Public decks", "options": public})
    return [g for g in groups if g["options"]]
