"""Cards for the collection tests: a small official Collision set, a practice set, Bakugan."""

from types import SimpleNamespace

import pytest

from cards.models import GameRecord
from tests.factories import B, C, make_card, make_set


@pytest.fixture
def cards(db):
    """Return a namespace of sets and cards used across the collection tests."""
    base = make_set(C, slug="base", name="Base Set")
    practice = make_set(C, "practice", slug="practice", name="Practice")
    gates = make_set(B, slug="1-48", name="Series 1")
    ns = SimpleNamespace(
        collision=GameRecord.objects.get(slug=C),
        bakugan=GameRecord.objects.get(slug=B),
        base=base,
        practice=practice,
        gates=gates,
    )

    def card(card_set, key, number, **fields):
        fields.setdefault("source", "collection tests")
        return make_card(
            card_set=card_set, key=key, number=number, printed_number=key, **fields
        )

    ns.dragoon = card(base, "1", 1, title="Dragoon", rarity="starter")
    ns.dranzer = card(base, "2", 2, title="Dranzer", rarity="starter")
    ns.tyson = card(
        base, "96", 96, title="Tyson", subtitle="Eager Champion", rarity="rare"
    )
    ns.kai = card(base, "97", 97, title="Kai", subtitle="Cool Leader", rarity="rare")
    ns.unknown = card(base, "98", 98)
    ns.practice_dragoon = card(practice, "P1", None, title="Practice Blade")
    # A second card named Dragoon in another game makes the bare name ambiguous.
    ns.gate_dragoon = card(gates, "7", 7, name="Dragoon")
    ns.gate_other = card(gates, "8", 8, name="Equal Ground")
    return ns


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Hash passwords cheaply: the log-in tests make many attempts."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
