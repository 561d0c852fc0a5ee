"""Fixtures of the community tests: a small official Bakugan set and a moderator."""

import pytest
from django.contrib.auth.models import Group

from tests.factories import B, C, make_card, make_set


@pytest.fixture
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def bakugan_set(db):
    return make_set(B, slug="test-series", name="Test series", source="test")


@pytest.fixture
def gate(bakugan_set):
    return make_card(
        card_set=bakugan_set,
        key="1/48",
        number=1,
        printed_number="1/48",
        name="Test Gate",
        card_type="gate",
        gate_class="gold",
        bonus_pyrus=100,
        bonus_aquos=None,
        source="the test's own copy",
        verification="unverified",
    )


@pytest.fixture
def moderator(django_user_model):
    user = django_user_model.objects.create_user(
        "mod", "mod@example.com", "correct-horse-battery-3"
    )
    user.groups.add(Group.objects.get(name="moderators"))
    return user


def trust(user):
    """Make ``user`` an account whose readings count: old, with an accepted proposal."""
    from datetime import timedelta

    from django.utils import timezone

    from cards.community.trust import TRUSTED_AFTER
    from cards.models import CardSubmission, GameRecord, ReviewStatus

    user.date_joined = timezone.now() - TRUSTED_AFTER - timedelta(days=1)
    user.save(update_fields=["date_joined"])
    CardSubmission.objects.create(
        submitter=user,
        game=GameRecord.objects.get(slug="bakugan"),
        is_new=True,
        source="an accepted proposal, made for the test",
        status=ReviewStatus.ACCEPTED,
    )
    return user


def make_dragoon(card_set):
    """Return Dragoon, a Collision Blade read from the rules text, in ``card_set``."""
    return make_card(
        C,
        card_set=card_set,
        key="dragoon",
        name="Dragoon",
        title="Dragoon",
        card_type="blade",
        spin_strength=6,
        battle_edge=None,
        source="the rules text",
    )
