"""Fixtures for playtest tests: practice cards loaded per test, sample decks."""

from pathlib import Path

import pytest

from cards.data import card_data_load, card_data_parse
from decks.samples import sample_deck

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def load_practice(game_slug: str) -> None:
    data = card_data_parse(text=(FIXTURES / f"practice-{game_slug}.json").read_text())
    card_data_load(data=data, source_label="tests")


@pytest.fixture
def practice(db):
    """Return a loader: ``practice("collision")`` loads that game's practice set."""
    loaded = set()

    def load(game_slug: str):
        if game_slug not in loaded:
            load_practice(game_slug)
            loaded.add(game_slug)

    return load


@pytest.fixture
def deck_for(practice, user):
    """Return a factory of legal sample decks owned by ``user``."""

    def make(game_slug: str, variant: int = 0, owner=None, **kw):
        practice(game_slug)
        return sample_deck(owner=owner or user, game_slug=game_slug, variant=variant, **kw)

    return make
