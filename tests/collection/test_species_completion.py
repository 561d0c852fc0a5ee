"""Set completion per species: for each Bakugan species, how many of its release
variants a collector owns, and the list of the missing ones."""

import csv
from pathlib import Path

import pytest
from django.urls import reverse

from cards.data import card_data_load, card_data_parse
from cards.games.bakugan import SPECIES, species_of
from cards.models import Card
from collection.selectors import species_completion
from tests.factories import B, make_card, make_entry, make_set

ROOT = Path(__file__).resolve().parents[2]
CSV = ROOT / "fixtures" / "sources" / "bakugan" / "figure_variants.csv"


def test_the_species_table_is_the_source_lists_mould_numbers():
    rows = csv.DictReader(CSV.read_text("utf-8").splitlines())
    from_source = {
        int(r["mold_number"]): r["species"].strip() for r in rows if r["mold_number"]
    }
    assert SPECIES == from_source and len(SPECIES) == 54
    assert species_of("bakugan", 1) == ("1", "Dragonoid")
    assert species_of("bakugan", None) == (
        "unreleased",
        "Unreleased figures (no mould number)",
    )
    assert species_of("gate", 1) is None


@pytest.fixture(scope="module")
def figures(module_rows_without_practice):
    """Load the 1,057 official figures once for the module."""
    with module_rows_without_practice():
        text = (ROOT / "fixtures" / "bakugan-figures.json").read_text("utf-8")
        card_data_load(data=card_data_parse(text=text))


def figure(set_slug, key):
    return Card.objects.get(card_set__slug=set_slug, key=key)


@pytest.mark.django_db
def test_each_species_counts_its_variants_across_release_lines(user, figures):
    dragonoid = Card.objects.filter(number=1, card_type="bakugan")
    total = dragonoid.count()
    assert total == 55  # the source lists 55 Dragonoid variants
    make_entry(user, figure("figures-spin-master", "pyrus-dragonoid-b1"), quantity=2)
    make_entry(
        user,
        figure("figures-sega-toys-japan", "aquos-dragonoid-sega-toys-b1"),
        quantity=1,
    )
    make_entry(  # wanted, not owned: not counted
        user,
        figure("figures-spin-master", "aquos-dragonoid-b1"),
        quantity=0,
        wanted_quantity=1,
    )
    # A practice figure is no release variant.
    practice = make_set(B, kind="practice", name="Practice figures")
    make_entry(
        user,
        make_card(card_set=practice, card_type="bakugan", number=1, source="t"),
        quantity=1,
    )
    (block,) = species_completion(user=user)
    rows = {r["key"]: r for r in block["species"]}
    assert (rows["1"]["name"], rows["1"]["owned"], rows["1"]["total"]) == (
        "Dragonoid",
        2,
        55,
    )
    assert rows["1"]["missing"] == 53 and rows["1"]["percent"] == 3.6
    assert rows["2"]["owned"] == 0 and rows["2"]["name"] == "Delta Dragonoid"
    assert len(rows) == 55 and list(rows)[-1] == "unreleased"
    assert sum(r["total"] for r in rows.values()) == 1057


@pytest.mark.django_db
def test_the_collection_page_lists_species_and_the_missing_variants(
    client, user, figures
):
    make_entry(user, figure("figures-spin-master", "pyrus-dragonoid-b1"), quantity=1)
    client.force_login(user)
    page = client.get(reverse("collection:home")).content.decode()
    url = reverse("collection:species_missing", args=["bakugan", "1"])
    assert '<tr data-species="1"><td>Dragonoid</td><td>1 / 55 <progress' in page
    assert f'<a href="{url}">54 missing</a>' in page
    missing = client.get(url).content.decode()
    assert "54 of the 55 release variants of Dragonoid missing" in missing
    assert "Pyrus Dragonoid (B1)</a>" not in missing
    assert (
        "Aquos Dragonoid (B1)" in missing
        and "Aquos Dragonoid (Sega Toys B1)" in missing
    )
    for bad in (["bakugan", "999"], ["collision", "1"], ["nope", "1"]):
        url = reverse("collection:species_missing", args=bad)
        assert client.get(url).status_code == 404
