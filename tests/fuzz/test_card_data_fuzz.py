"""Fuzzing card data files: never an unexpected error, never a partial write."""

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cards.data import (
    CardDataError,
    card_data_dumps,
    card_data_export,
    card_data_load,
    card_data_parse,
)
from cards.models import Card, CardSet

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
BASE = json.loads((FIXTURES / "practice-collide-o.json").read_text())
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
fields = st.sampled_from(
    [
        "key",
        "number",
        "printed_number",
        "name",
        "card_type",
        "section_1",
        "section_2",
        "section_3",
        "source",
        "verification",
        "distribution",
        "not_printed",
        "effects",
        "battle_edge",
        "stat_red",
        "bogus",
    ]
)


@st.composite
def mutated_files(draw):
    """A valid practice file with a few cards' fields replaced by arbitrary JSON."""
    data = json.loads(json.dumps(BASE))
    cards = data["sets"][0]["cards"][:6]
    data["sets"][0]["cards"] = cards
    for _ in range(draw(st.integers(0, 4))):
        card = cards[draw(st.integers(0, len(cards) - 1))]
        card[draw(fields)] = draw(json_values)
    if draw(st.booleans()):
        data[draw(st.sampled_from(["format", "version", "game", "sets"]))] = draw(
            json_values
        )
    return json.dumps(data)


def snapshot():
    return (
        CardSet.objects.count(),
        list(Card.objects.order_by("pk").values_list("pk", "updated_at")),
    )


def try_load(text: str):
    try:
        data = card_data_parse(text=text)
        return card_data_load(data=data, source_label="fuzz")
    except CardDataError as exc:
        assert exc.messages, "a refused file reports at least one problem"
        return None


@pytest.mark.django_db
@given(text=mutated_files())
def test_a_mutated_card_file_loads_whole_or_not_at_all(text):
    before = snapshot()
    result = try_load(text)
    if result is None:
        assert snapshot() == before


@pytest.mark.django_db
@given(text=st.text(max_size=300) | json_values.map(json.dumps))
def test_arbitrary_text_as_a_card_file_is_refused_with_a_message(text):
    before = snapshot()
    assert try_load(text) is None
    assert snapshot() == before


@pytest.mark.django_db
def test_reimporting_an_export_is_idempotent():
    card_data_load(data=card_data_parse(text=json.dumps(BASE)), source_label="fuzz")
    exported = card_data_dumps(card_data_export(game="collide-o", kind="practice"))
    result = card_data_load(data=card_data_parse(text=exported), source_label="again")
    assert (result.created, result.updated) == (0, 0)
    assert (
        card_data_dumps(card_data_export(game="collide-o", kind="practice")) == exported
    )
