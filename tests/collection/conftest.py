"""Cards for the collection tests: a small official Collision set, a practice set, Bakugan."""

from types import SimpleNamespace

import pytest

from cards.models import Card, CardSet, Game


def make_card(card_set, key, name=None, *, rarity=None, number=None, **extra):
    title = name.split(",")[0] if name and card_set.game.slug == "collision" else None
    return Card.objects.create(
        card_set=card_set,
        key=key,
        number=number if number is not None else int(key) if key.isdigit() else None,
        printed_number=key,
        name=name,
        title=title,
        subtitle=name.split(", ", 1)[1] if title and ", " in name else None,
        rarity=rarity,
        source="collection tests",
        **extra,
    )


@pytest.fixture
def cards(db):
    """Return a namespace of sets and cards used across the collection tests."""
    collision, _ = Game.objects.get_or_create(
        slug="collision", defaults={"name": "Beyblade Collision", "sort_order": 1}
    )
    bakugan, _ = Game.objects.get_or_create(
        slug="bakugan", defaults={"name": "Bakugan Battle Brawlers", "sort_order": 4}
    )
    base = CardSet.objects.create(game=collision, slug="base", name="Base Set")
    practice = CardSet.objects.create(
        game=collision, slug="practice", name="Practice", kind="practice"
    )
    gates = CardSet.objects.create(game=bakugan, slug="1-48", name="Series 1")
    ns = SimpleNamespace(
        collision=collision, bakugan=bakugan, base=base, practice=practice, gates=gates
    )
    ns.dragoon = make_card(base, "1", "Dragoon", rarity="starter")
    ns.dranzer = make_card(base, "2", "Dranzer", rarity="starter")
    ns.tyson = make_card(base, "96", "Tyson, Eager Champion", rarity="rare")
    ns.kai = make_card(base, "97", "Kai, Cool Leader", rarity="rare")
    ns.unknown = make_card(base, "98", None, rarity=None)
    ns.practice_dragoon = make_card(practice, "P1", "Practice Blade")
    # A second card named Dragoon in another game makes the bare name ambiguous.
    ns.gate_dragoon = make_card(gates, "7", "Dragoon")
    ns.gate_other = make_card(gates, "8", "Equal Ground")
    return ns


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Hash passwords cheaply: the log-in tests make many attempts."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
