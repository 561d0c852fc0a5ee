"""Honest labels: practice and custom cards show their kind, never "Verified"; history
names data files by their path in the repository, never a server path."""

from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from cards.models import CardChange
from cards.templatetags.cards_tags import repo_path
from tests.factories import C, make_card


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("kind", "label"), [("practice", "Made by this site"), ("custom", "Custom")]
)
def test_a_card_not_printed_shows_its_kind_and_no_verified_badge(
    client, user, kind, label
):
    card = make_card(C, kind=kind, verification="verified", source="site")
    card.card_set.is_public = True
    card.card_set.save()
    html = client.get(card.get_absolute_url()).content.decode()
    assert f'<span class="badge badge-{kind}">{label}</span>' in html
    assert "badge-verified" not in html


@pytest.mark.django_db
def test_history_names_a_loaded_fixture_by_its_repository_path():
    path = Path(settings.BASE_DIR) / "fixtures" / "metal-fusion.json"
    call_command("load_cards", str(path), stdout=open("/dev/null", "w"))
    sources = set(CardChange.objects.values_list("source", flat=True))
    assert sources == {"fixtures/metal-fusion.json"}


def test_a_path_in_an_old_source_note_is_shown_without_the_server_part():
    root = Path(settings.BASE_DIR).resolve()
    # An old history note named a rules file beside the project (no file is read).
    outside = "/".join(["..", "shared", "rules", "collision-rules_1.txt"])
    note = f"{root}/fixtures/collision.json and {outside}"
    assert repo_path(note) == "fixtures/collision.json and collision-rules_1.txt"
    assert repo_path("/srv/elsewhere/data.json: 3 cards") == "data.json: 3 cards"
    assert repo_path("see https://example.com/a/b.html") == (
        "see https://example.com/a/b.html"
    )
