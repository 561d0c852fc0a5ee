"""Bakugan figures as collectors own them: the figure items, and the G-Power a
collection entry records for its copy."""

import json
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from cards.data import card_data_dumps, card_data_load, card_data_parse
from cards.management.commands.convert_bakugan_csv import convert_figures
from cards.models import Card
from collection.selectors import g_power_population
from collection.services import collection_entry_update
from tests.factories import B, make_card, make_entry, make_set

ROOT = Path(__file__).resolve().parents[2]
FIGURES = ROOT / "fixtures" / "bakugan-figures.json"
CSV = ROOT / "fixtures" / "sources" / "bakugan" / "figure_variants.csv"


def figure(**fields):
    card_set = make_set(B, name="Figures")
    fields.setdefault("name", "Pyrus Dragonoid (B1)")
    fields.setdefault("attribute", "pyrus")
    return make_card(
        card_set=card_set, card_type="bakugan", source="figure tests", **fields
    )


def test_the_figure_file_is_the_converted_source_list():
    assert card_data_dumps(convert_figures(CSV.read_text("utf-8"))) == (
        FIGURES.read_text(encoding="utf-8")
    )


def test_every_variant_is_a_figure_item_by_release_line_with_no_g_power():
    data = json.loads(FIGURES.read_text(encoding="utf-8"))
    sets = {s["slug"]: s for s in data["sets"]}
    cards = [c for s in data["sets"] for c in s["cards"]]
    assert len(cards) == 1057
    assert len(sets["figures-spin-master"]["cards"]) == 433
    assert len(sets["figures-sega-toys-japan"]["cards"]) == 117
    assert len(sets["figures-sonokong-south-korea"]["cards"]) == 106
    assert len(sets["figures-translucent-treatment"]["cards"]) == 114
    assert len(sets["figures-unreleased"]["cards"]) == 25
    assert {c["card_type"] for c in cards} == {"bakugan"}
    assert {c["g_power"] for c in cards} == {None}
    assert {c["verification"] for c in cards} == {"unverified"}
    dragonoid = next(
        c for c in sets["figures-sega-toys-japan"]["cards"]
        if c["name"] == "Pyrus Dragonoid (Sega Toys B1)"
    )  # fmt: skip
    assert (dragonoid["number"], dragonoid["attribute"]) == (1, "pyrus")
    assert "Species: Dragonoid; mould B1." in dragonoid["source"]
    clear = [c for c in cards if "(none of the six)" in c["source"]]
    assert len(clear) == 25 and {c["attribute"] for c in clear} == {None}


@pytest.mark.django_db
def test_the_figures_load_as_collectable_items(user):
    result = card_data_load(data=card_data_parse(text=FIGURES.read_text("utf-8")))
    assert result.created == 1057
    card = Card.objects.get(
        card_set__slug="figures-spin-master", key="pyrus-dragonoid-b1"
    )
    entry = make_entry(user, card, quantity=1, wanted_quantity=1, trade_quantity=1)
    assert (entry.quantity, entry.wanted_quantity, entry.trade_quantity) == (1, 1, 1)


@pytest.mark.django_db
def test_a_copy_records_its_g_power_and_unknown_is_allowed(user):
    card = figure()
    unknown = make_entry(user, card, quantity=1)
    assert unknown.g_power is None
    strong = make_entry(user, card, quantity=2, g_power=350)
    assert strong.g_power == 350 and strong.variant_label.endswith("350 G")
    assert make_entry(user, card, quantity=1, g_power=10).g_power == 10
    assert make_entry(user, card, quantity=1, g_power=1000).g_power == 1000


@pytest.mark.django_db
@pytest.mark.parametrize("g_power", [355, 5, 0, 1010, 2000])
def test_a_g_power_that_was_never_printed_is_refused_with_a_message(user, g_power):
    card = figure()
    with pytest.raises(ValidationError) as error:
        make_entry(user, card, quantity=1, g_power=g_power)
    assert error.value.message_dict["g_power"] == [
        f"A figure's G-Power is printed as a multiple of 10 from 10 to 1,000; "
        f"{g_power} is not one."
    ]
    assert not card.collection_entries.exists()


@pytest.mark.django_db
def test_only_a_figure_records_a_g_power(user):
    gate = make_card(
        card_set=make_set(B, name="Gates"),
        card_type="gate",
        gate_class="gold",
        source="figure tests",
    )
    with pytest.raises(ValidationError) as error:
        make_entry(user, gate, quantity=1, g_power=300)
    assert error.value.message_dict["g_power"] == [
        "Only a Bakugan figure prints a G-Power on each copy."
    ]


@pytest.mark.django_db
def test_one_entry_per_g_power_and_a_bad_update_changes_nothing(user):
    card = figure()
    entry = make_entry(user, card, quantity=1, g_power=300)
    with pytest.raises(ValidationError):
        make_entry(user, card, quantity=1, g_power=300)
    with pytest.raises(ValidationError):
        collection_entry_update(entry=entry, g_power=305)
    entry.refresh_from_db()
    assert entry.g_power == 300


@pytest.mark.django_db
def test_the_checklist_shows_the_values_recorded_across_collections(
    client, user, other_user
):
    card = figure()
    make_entry(user, card, quantity=2, g_power=350)
    make_entry(other_user, card, quantity=1, g_power=350)
    make_entry(other_user, card, quantity=1, g_power=320)
    make_entry(other_user, card, quantity=3)  # not recorded: not counted
    assert g_power_population(card=card) == [
        {"g_power": 350, "copies": 3},
        {"g_power": 320, "copies": 1},
    ]
    page = client.get(card.get_absolute_url()).content.decode()
    assert "<td>350 G</td><td>3</td>" in page and "<td>320 G</td><td>1</td>" in page
    fresh = figure(name="Aquos Preyas (B1)", attribute="aquos")
    page = client.get(fresh.get_absolute_url()).content.decode()
    assert "No copy of this figure has its G-Power recorded" in page
