"""Shared fixtures for the whole suite."""

import os
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from cards.community.services import moderators_group
from cards.data import card_data_load, card_data_parse
from cards.models import Game
from decks.samples import sample_deck
from tests.utils import full_strength

# Fuzzers follow the profile: a quick pass for `make test`, the full 1,000 examples
# under CI (`.ci/run` sets HYPOTHESIS_PROFILE=ci; CI=true chooses it as well).
# Examples share a test's database fixtures, and a slow one is not a failure.
_FUZZ = {
    "deadline": None,
    "suppress_health_check": [
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
    ],
}
hypothesis_settings.register_profile("ci", max_examples=1000, **_FUZZ)
hypothesis_settings.register_profile("dev", max_examples=50, **_FUZZ)
hypothesis_settings.load_profile("ci" if full_strength() else "dev")


@pytest.fixture(autouse=True)
def _games_exist(request):
    """Recreate migration data (games, moderators group) that a transactional flush removes."""
    marker = request.node.get_closest_marker("django_db")
    if "transactional_db" in request.fixturenames or (
        marker and marker.kwargs.get("transaction")
    ):
        request.getfixturevalue("transactional_db")
        Game.objects.ensure_all()
        moderators_group()


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user(
        "alice", "alice@example.com", "correct-horse-battery-1"
    )


@pytest.fixture
def other_user(django_user_model):
    return django_user_model.objects.create_user(
        "mallory", "mallory@example.com", "correct-horse-battery-2"
    )


# Test users hash passwords with MD5: PBKDF2 costs most of a second per user here.
os.environ["CARDSITE_TEST_FAST_HASHER"] = "1"
django_settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


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
        return sample_deck(
            owner=owner or user, game_slug=game_slug, variant=variant, **kw
        )

    return make
