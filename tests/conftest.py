"""Shared fixtures for the whole suite."""

import gc
import os
import sqlite3
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.db import connection, connections, transaction
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from cards.community.services import moderators_group
from cards.data import card_data_load, card_data_parse
from cards.models import CardListVersion, GameRecord
from cards.querysets import VERSION_ROW
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
        GameRecord.objects.ensure_all()
        moderators_group()


def make_alice(user_model):
    return user_model.objects.create_user(
        "alice", "alice@example.com", "correct-horse-battery-1"
    )


@pytest.fixture
def user(django_user_model):
    return make_alice(django_user_model)


@pytest.fixture
def other_user(django_user_model):
    return django_user_model.objects.create_user(
        "mallory", "mallory@example.com", "correct-horse-battery-2"
    )


# Test users hash passwords with MD5: PBKDF2 costs most of a second per user here.
os.environ["CARDSITE_TEST_FAST_HASHER"] = "1"
django_settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
PRACTICE_GAMES = ("collision", "metal-fusion", "collide-o", "bakugan")


def load_practice(game_slug: str) -> None:
    data = card_data_parse(text=(FIXTURES / f"practice-{game_slug}.json").read_text())
    card_data_load(data=data, source_label="tests")


def _transactional(request) -> bool:
    marker = request.node.get_closest_marker("django_db")
    return (
        "transactional_db" in request.fixturenames
        or "live_server" in request.fixturenames
        or bool(marker and marker.kwargs.get("transaction"))
    )


def _uses_db(request) -> bool:
    return (
        "db" in request.fixturenames
        or _transactional(request)
        or request.node.get_closest_marker("django_db") is not None
    )


# Loading a practice set costs a quarter of a second, and 450 tests ask for one:
# a copy of the empty test database gets all four once per run (per worker), and
# a test asking for ``practice`` runs in a rolled-back transaction on the copy.
# Every other test, and every transactional one (its flush would empty the
# copy), runs on the empty database as before. docs/testing.md has the rules.
class Databases:
    """The empty test database and its copy holding the practice sets."""

    def __init__(self):
        self.empty = connection.settings_dict["NAME"]
        root, ext = os.path.splitext(self.empty)
        self.practice = f"{root}_practice{ext}"
        self.current = self.empty

    def use(self, name: str) -> None:
        """Point the connection, and the threads and processes it starts, at ``name``."""
        if name == self.current:
            return
        if connection.in_atomic_block:
            raise RuntimeError(
                "a module's kept rows hold the connection: every test of the "
                "module must ask for the same database (the practice fixture)"
            )
        connections.close_all()
        connection.settings_dict["NAME"] = name
        django_settings.DATABASES["default"]["NAME"] = name
        self.current = name

    def build_practice_copy(self) -> None:
        """Copy the empty database and load the four practice sets into the copy."""
        connections.close_all()
        if connection.vendor == "sqlite":
            # The backup API, not a file copy: it reads what the WAL still holds.
            source = sqlite3.connect(self.empty)
            target = sqlite3.connect(self.practice)
            with target:
                source.backup(target)
            source.close()
            target.close()
        else:
            connection.creation._clone_test_db("practice", verbosity=0)
        self.use(self.practice)
        with transaction.atomic():
            for game in PRACTICE_GAMES:
                load_practice(game)
            # A fresh card list version: answers kept under the empty database's
            # numbers must never be served for this one's rows.
            CardListVersion.objects.filter(pk=VERSION_ROW).delete()
        self.use(self.empty)

    def drop_practice_copy(self) -> None:
        """Remove the copy."""
        self.use(self.empty)
        connections.close_all()
        connection.creation._destroy_test_db(self.practice, verbosity=0)


@pytest.fixture(scope="session")
def test_databases(django_db_setup, django_db_blocker):
    """Return the test databases, the practice copy built once for the run."""
    with django_db_blocker.unblock():
        databases = Databases()
        databases.build_practice_copy()
    yield databases
    with django_db_blocker.unblock():
        databases.drop_practice_copy()


def _wants_practice_copy(request) -> bool:
    names = request.fixturenames
    return "module_rows" in names or (
        "practice" in names and not _transactional(request)
    )


@pytest.fixture
def _choose_database(request):
    """Point the connection at the database this test needs, before it is opened."""
    if _wants_practice_copy(request):
        databases = request.getfixturevalue("test_databases")
        databases.use(databases.practice)
    elif _uses_db(request):
        databases = request.getfixturevalue("test_databases")
        databases.use(databases.empty)


def pytest_collection_finish(session):
    # A full collection walks every live object, and a test process holds many
    # (every module, Django's caches, module-scoped rows): at the default
    # thresholds they were a sixth of a database module's CPU. What collection
    # imported stays for the run, so it is frozen out of them, and they run
    # less often; each still frees every cycle, only later.
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


def pytest_collection_modifyitems(items):
    # First of every test's fixtures, ahead of pytest-django's autouse ones: the
    # switch must happen before the test's transaction is opened.
    for item in items:
        names = getattr(item, "fixturenames", None)
        if names is not None and "_choose_database" not in names:
            names.insert(0, "_choose_database")


def _kept_rows(databases, django_db_blocker, name):
    # One transaction, opened before the module's first test that asks for it and
    # rolled back after its last; each test's own transaction nests in it as a
    # savepoint.
    with django_db_blocker.unblock():
        databases.use(name)
        outer = transaction.atomic()
        outer.__enter__()
    yield django_db_blocker.unblock
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        outer.__exit__(None, None, None)


@pytest.fixture(scope="module")
def module_rows(test_databases, django_db_blocker):
    """Yield a database opener whose rows last for the module's tests (setUpTestData)."""
    yield from _kept_rows(test_databases, django_db_blocker, test_databases.practice)


@pytest.fixture(scope="module")
def module_rows_without_practice(test_databases, django_db_blocker):
    """Yield the same opener on the empty database, for modules not using practice."""
    yield from _kept_rows(test_databases, django_db_blocker, test_databases.empty)


@pytest.fixture
def practice(request, db):
    """Return a loader: ``practice("collision")`` makes that practice set present."""
    # On the copy the four sets are there already and a call checks the name; a
    # transactional test loads the set.
    loaded = set(PRACTICE_GAMES) if _wants_practice_copy(request) else set()

    def load(game_slug: str):
        if game_slug not in PRACTICE_GAMES:
            raise ValueError(f"no practice set for {game_slug!r}")
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
