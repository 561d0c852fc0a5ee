"""Bakugan effect encodings: the coverage command agrees with the encodings,
and a card page shows the sentence generated from its encoding, or "Not
encoded"."""

import json
from collections import Counter
from pathlib import Path

import pytest
from django.core.management import call_command

from cards.data import card_data_load, card_data_parse
from cards.effects import EffectError, effect_sentence, parse_effects
from cards.models import Card

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "fixtures" / "bakugan.json"
ENCODINGS = ROOT / "fixtures" / "sources" / "bakugan" / "effects.json"

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def loaded(module_rows_without_practice):
    """Load the official Bakugan cards once for the module."""
    with module_rows_without_practice():
        card_data_load(data=card_data_parse(text=FIXTURE.read_text(encoding="utf-8")))


def encodings() -> dict:
    return json.loads(ENCODINGS.read_text(encoding="utf-8"))["cards"]


def test_every_encoding_is_in_the_vocabulary_and_names_a_real_card():
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    keys = {f"{s['slug']} {c['key']}" for s in data["sets"] for c in s["cards"]}
    for key, entry in encodings().items():
        assert key in keys, key
        assert parse_effects(entry["steps"]), key
        assert effect_sentence(entry["steps"]), key


def test_the_coverage_command_reports_the_encodings_by_series(loaded, capsys):
    call_command("effect_coverage")
    lines = capsys.readouterr().out.splitlines()
    per_set = Counter(key.split(" ")[0] for key in encodings())
    totals = Counter(
        Card.objects.filter(card_set__game__slug="bakugan").values_list(
            "card_set__slug", flat=True
        )
    )
    expected = [
        f"{slug:<10} {per_set[slug]:>3} of {totals[slug]:>3} encoded  "
        f"{100 * per_set[slug] / totals[slug]:>3.0f}%"
        for slug in (
            "1-48", "1-15a", "1-48b", "1-48c", "1-48d", "1-48e", "1-18f", "1-18h",
            "1-48i", "1-18L", "1-48n", "1-48q-1", "1-48q-2", "1-48ah",
        )
    ]  # fmt: skip
    assert lines[:-1] == expected
    encoded = sum(per_set.values())
    assert (
        lines[-1]
        == f"{'all':<10} {encoded:>3} of 549 encoded  {100 * encoded / 549:>3.0f}%"
    )
    assert Card.objects.exclude(effects=[]).count() == encoded


def test_a_card_page_shows_the_generated_sentence(loaded, client):
    card = Card.objects.get(card_set__slug="1-48q-1", key="33/48q")  # Copper Boost
    page = client.get(card.get_absolute_url()).content.decode()
    assert (
        "In battle: your Bakugan gets this card&#x27;s bonus for its attribute, "
        "and once more on a copper gate." in page
    )
    assert "Not encoded" not in page


def test_a_card_not_encoded_says_so_and_how_it_plays(loaded, client):
    julie = Card.objects.get(card_set__slug="1-48", key="26/48")
    page = client.get(julie.get_absolute_url()).content.decode()
    assert "<strong>Not encoded</strong>" in page
    assert "only goes to the used pile" in page
    heavy = Card.objects.get(card_set__slug="1-48i", key="35/48i")  # Thundercrack
    page = client.get(heavy.get_absolute_url()).content.decode()
    assert "plays as its printed bonus alone" in page


@pytest.mark.parametrize(
    ("step", "message"),
    [
        (
            {"op": "swap_battler", "timing": "in_battle", "of": "used"},
            "A swap of Bakugan says who chooses",
        ),
        (
            {"op": "change_attribute", "timing": "in_battle", "to": "purple"},
            "A change of attribute says what it becomes",
        ),
        (
            {"op": "add_g_power", "timing": "in_battle", "to": "best"},
            "A change of attribute says what it becomes",
        ),
        (
            {"op": "add_g_power", "timing": "in_battle", "if": {"trap": "both"}},
            "Condition 'trap' is one of: battle, self, opponent.",
        ),
    ],
)
def test_a_step_outside_the_vocabulary_is_refused_with_its_reason(step, message):
    with pytest.raises(EffectError) as caught:
        parse_effects([step])
    assert str(caught.value).startswith(message)
