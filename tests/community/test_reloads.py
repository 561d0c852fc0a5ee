"""Restarts reload the data files: a reviewed correction survives every reload."""

import io
import json

import pytest
from django.core.management import call_command

from cards.community import services as community
from cards.models import Card, CardChange

pytestmark = pytest.mark.django_db

GATE = {
    "key": "1/48",
    "number": 1,
    "printed_number": "1/48",
    "name": "Test Gate",
    "card_type": "gate",
    "gate_class": "gold",
    "bonus_pyrus": 100,
    "bonus_aquos": 50,
    "source": "the file's own copy",
}


def _write(path, **changes):
    card = {**GATE, **changes}
    path.write_text(
        json.dumps(
            {
                "format": "cardsite-card-data",
                "version": 1,
                "game": "bakugan",
                "sets": [
                    {
                        "slug": "reload-series",
                        "name": "Reload series",
                        "kind": "official",
                        "source": "test",
                        "cards": [card],
                    }
                ],
            }
        )
    )
    return path


def _load(path) -> str:
    out = io.StringIO()
    call_command("load_cards", str(path), stdout=out)
    return out.getvalue()


def _card() -> Card:
    return Card.objects.get(card_set__slug="reload-series", key="1/48")


def _accept(user, moderator, **fields):
    submission = community.card_submission_create(
        user=user, game="bakugan", card=_card(), fields=fields, source="my own copy"
    )
    return community.card_submission_accept(
        submission=submission, moderator=moderator, verification="verified"
    )


def test_an_accepted_correction_stands_after_loading_the_file_twice(
    tmp_path, user, moderator
):
    path = _write(tmp_path / "bakugan.json")
    _load(path)
    _accept(user, moderator, bonus_aquos=70)

    first = _load(path)
    second = _load(path)

    card = _card()
    assert (card.bonus_aquos, card.verification) == (70, "verified")
    assert first == second == f"{path}: 0 created, 0 updated, 1 unchanged\n"
    assert CardChange.objects.filter(card=card).count() == 2  # made, corrected


def test_a_file_change_to_a_field_nobody_reviewed_still_applies(
    tmp_path, user, moderator
):
    path = _write(tmp_path / "bakugan.json")
    _load(path)
    _accept(user, moderator, bonus_aquos=70)

    out = _load(_write(path, bonus_pyrus=120))

    card = _card()
    assert (card.bonus_pyrus, card.bonus_aquos, card.verification) == (
        120,
        70,
        "verified",
    )
    assert out == f"{path}: 0 created, 1 updated, 0 unchanged\n"
    assert CardChange.objects.filter(card=card).first().changes == [
        {"field": "bonus_pyrus", "old": 100, "new": 120}
    ]


def test_a_file_that_disagrees_with_a_reviewed_value_is_reported_and_disputed(
    tmp_path, user, moderator
):
    path = _write(tmp_path / "bakugan.json")
    _load(path)
    _accept(user, moderator, bonus_aquos=70)

    out = _load(_write(path, bonus_aquos=60))
    again = _load(path)

    card = _card()
    assert (card.bonus_aquos, card.verification) == (70, "disputed")
    assert out == (
        f"{path}: 0 created, 1 updated, 0 unchanged, 1 disputed\n"
        f"{path}: disputed: reload-series/1/48 bonus_aquos: kept the reviewed value "
        "70; the file says 60\n"
    )
    dispute = CardChange.objects.filter(card=card).first()
    assert dispute.changes == [
        {"field": "verification", "old": "verified", "new": "disputed"}
    ]
    assert dispute.source == (
        f"{path.name} disagrees with reviewed values, not applied: bonus_aquos (kept 70, "
        "the file says 60)"
    )
    # Reported once: the file has not changed since.
    assert again == f"{path}: 0 created, 0 updated, 1 unchanged\n"


def test_a_correction_made_before_the_file_values_were_kept_stands(
    tmp_path, user, moderator
):
    path = _write(tmp_path / "bakugan.json")
    _load(path)
    _accept(user, moderator, bonus_aquos=70)
    # As a card loaded before this site kept what its file said.
    Card.objects.filter(pk=_card().pk).update(file_values={})

    out = _load(path)
    again = _load(path)

    card = _card()
    assert (card.bonus_aquos, card.verification) == (70, "verified")
    # The file still says what the card said before the review: no dispute.
    assert out == again == f"{path}: 0 created, 0 updated, 1 unchanged\n"
    assert card.file_values["bonus_aquos"] == 50


def test_an_old_correction_the_file_now_contradicts_is_disputed(
    tmp_path, user, moderator
):
    path = _write(tmp_path / "bakugan.json")
    _load(path)
    _accept(user, moderator, bonus_aquos=70)
    Card.objects.filter(pk=_card().pk).update(file_values={})

    out = _load(_write(path, bonus_aquos=60))

    card = _card()
    assert (card.bonus_aquos, card.verification) == (70, "disputed")
    assert out == (
        f"{path}: 0 created, 1 updated, 0 unchanged, 1 disputed\n"
        f"{path}: disputed: reload-series/1/48 bonus_aquos: kept the reviewed value "
        "70; the file says 60\n"
    )


def test_a_moderators_import_previews_the_dispute_and_keeps_the_correction(
    client, tmp_path, user, moderator
):
    path = _write(tmp_path / "bakugan.json")
    _load(path)
    _accept(user, moderator, bonus_aquos=70)
    client.force_login(moderator)
    data_import = community.card_data_import_prepare(
        user=moderator, text=_write(path, bonus_aquos=60).read_text(), label="b.json"
    )

    preview = client.get(data_import.get_absolute_url())
    community.card_data_import_apply(data_import=data_import, user=moderator)

    assert [str(d) for d in preview.context["disputes"]] == [
        "reload-series/1/48 bonus_aquos: kept the reviewed value 70; the file says 60"
    ]
    assert b"Kept: corrected since the file was last loaded" in preview.content
    assert (_card().bonus_aquos, _card().verification) == (70, "disputed")


def test_a_second_dispute_on_a_disputed_card_is_still_recorded(
    tmp_path, user, moderator
):
    path = _write(tmp_path / "bakugan.json")
    _load(path)
    _accept(user, moderator, bonus_aquos=70, bonus_pyrus=110)
    _load(_write(path, bonus_aquos=60))

    out = _load(_write(path, bonus_aquos=60, bonus_pyrus=130))

    card = _card()
    assert (card.bonus_aquos, card.bonus_pyrus, card.verification) == (
        70,
        110,
        "disputed",
    )
    assert out.startswith(f"{path}: 0 created, 0 updated, 1 unchanged, 1 disputed\n")
    latest = CardChange.objects.filter(card=card).first()
    assert (latest.changes, latest.source) == (
        [],
        f"{path.name} disagrees with reviewed values, not applied: bonus_pyrus (kept 110, "
        "the file says 130)",
    )
