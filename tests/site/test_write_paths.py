"""One write path per model: history rows made in one place, discards as services."""

import re
from pathlib import Path

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from cards.community import services as community
from cards.models import Card, CardDataImport
from collection import services as collection
from collection.models import CollectionEntry, ImportPreview
from tests.conftest import load_practice

ROOT = Path(__file__).resolve().parents[2]
MAKES_A_HISTORY_ROW = re.compile(
    r"(?<!class )CardChange(Row)?\("
    r"|CardChange(Row)?\.objects\.(create|bulk_create|get_or_create)"
    r"|\.changes\.create\("
)


def test_card_history_rows_are_made_only_by_cards_history():
    makers = sorted(
        str(path.relative_to(ROOT))
        for app in ("cards", "collection", "decks", "cardsite")
        for path in (ROOT / app).rglob("*.py")
        if "migrations" not in path.parts
        and MAKES_A_HISTORY_ROW.search(path.read_text())
    )
    # cards/data.py saves in bulk the rows that cards/history.py builds.
    assert makers == ["cards/data.py", "cards/history.py"]
    data = (ROOT / "cards/data.py").read_text()
    assert "CardChangeRow(" not in data
    assert "card_history_row(" in data


@pytest.mark.django_db
def test_discarding_an_import_preview_changes_nothing_else(user):
    collection.collection_entry_create(user=user, card=_any_card(), quantity=1)
    preview = ImportPreview.objects.create(user=user, mode="replace", rows=[])

    collection.collection_import_discard(user=user, preview=preview)

    assert not ImportPreview.objects.exists()
    assert CollectionEntry.objects.filter(user=user).count() == 1


@pytest.mark.django_db
def test_an_import_preview_is_discarded_only_by_its_owner(user, other_user):
    preview = ImportPreview.objects.create(user=user, mode="add", rows=[])

    with pytest.raises(ValidationError) as info:
        collection.collection_import_discard(user=other_user, preview=preview)

    assert info.value.messages == ["This import belongs to someone else."]
    assert ImportPreview.objects.filter(pk=preview.pk).exists()


@pytest.mark.django_db
def test_a_data_file_is_discarded_by_the_moderator_who_sent_it(django_user_model, user):
    moderator = django_user_model.objects.create_user("mod", password="x" * 12)
    moderator.groups.add(community.moderators_group())
    other = django_user_model.objects.create_user("mod2", password="x" * 12)
    other.groups.add(community.moderators_group())
    data_import = CardDataImport.objects.create(user=moderator, label="f", text="{}")

    with pytest.raises(PermissionDenied):
        community.card_data_import_discard(data_import=data_import, user=other)
    with pytest.raises(PermissionDenied):
        community.card_data_import_discard(data_import=data_import, user=user)
    assert CardDataImport.objects.filter(pk=data_import.pk).exists()

    community.card_data_import_discard(data_import=data_import, user=moderator)

    assert not CardDataImport.objects.exists()


def _any_card():
    load_practice("collision")
    return Card.objects.filter(card_set__game__slug="collision").first()
