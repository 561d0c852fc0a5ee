"""Factories for deck tests: cards of each game and decks built from them."""

import itertools

import pytest

from cards.models import Card, CardSet, Game

_keys = itertools.count(1)


@pytest.fixture
def card_factory(db):
    """Return a function making a card of a game (an official test set per game)."""
    sets = {}

    def make(game: str, kind: str = "official", **fields) -> Card:
        if (game, kind) not in sets:
            sets[(game, kind)] = CardSet.objects.create(
                game=Game.objects.get(slug=game),
                slug=f"test-{kind}",
                name=f"Test {kind}",
                kind=kind,
            )
        key = fields.pop("key", None) or f"k{next(_keys)}"
        if game == "collision" and "title" in fields and "name" not in fields:
            sub = fields.get("subtitle")
            fields["name"] = f"{fields['title']}, {sub}" if sub else fields["title"]
        return Card.objects.create(
            card_set=sets[(game, kind)], key=key, source="test", **fields
        )

    return make


@pytest.fixture
def collision_cards(card_factory):
    """Return a Blade and fifteen titled Actions, four colours in turn."""
    colours = ("red", "yellow", "green", "blue")
    blade = card_factory(
        "collision", card_type="blade", title="Dragoon", subtitle="Storm"
    )
    actions = [
        card_factory(
            "collision",
            card_type="action",
            title=f"Move {i}",
            colour=colours[i % 4],
            number=i + 1,
            printed_number=str(i + 1),
            key=str(i + 1),
        )
        for i in range(15)
    ]
    return blade, actions


@pytest.fixture
def legal_collision_entries(collision_cards):
    """Return entries of a legal 60-card Collision deck (Blade + 59)."""
    blade, actions = collision_cards
    entries = [{"card": blade.pk, "zone": "blade", "quantity": 1}]
    entries += [{"card": a.pk, "zone": "deck", "quantity": 4} for a in actions[:14]]
    entries += [{"card": actions[14].pk, "zone": "deck", "quantity": 3}]
    return entries
