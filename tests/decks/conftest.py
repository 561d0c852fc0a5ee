"""Fixtures of the deck tests: cards of each game and decks built from them."""

from pathlib import Path

import pytest

from cards.data import card_data_load, card_data_parse
from cards.models import Card
from tests.factories import fresh_key, make_card, make_deck, make_set

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture(scope="module")
def official(module_rows_without_practice):
    """Load the official Bakugan cards and figures once for the module."""
    with module_rows_without_practice():
        for name in ("bakugan.json", "bakugan-figures.json"):
            text = (FIXTURES / name).read_text(encoding="utf-8")
            card_data_load(data=card_data_parse(text=text))


@pytest.fixture
def card_factory(db):
    """Return a function making a card of a game (a test set per game and kind)."""

    def make(game: str, kind: str = "official", **fields) -> Card:
        card_set = make_set(game, kind, slug=f"test-{kind}", name=f"Test {kind}")
        fields.setdefault("source", "test")
        key = fields.pop("key", None) or fresh_key("k")
        return make_card(card_set=card_set, key=key, **fields)

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


@pytest.fixture
def private_deck(user, legal_collision_entries):
    return make_deck(user, name="Secret storm", entries=legal_collision_entries)


@pytest.fixture
def public_deck(user, collision_cards):
    blade, _ = collision_cards
    return make_deck(
        user,
        name="Open storm",
        is_public=True,
        entries=[{"card": blade.pk, "zone": "blade", "quantity": 1}],
    )
