"""Every known Bakugan series: the later series load as official, unverified
sets; copied grids are unknown and disputed; a bad row loads nothing."""

import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from cards.data import (
    card_data_dumps,
    card_data_export,
    card_data_load,
    card_data_parse,
)
from cards.management.commands.convert_bakugan_csv import (
    RowError,
    convert,
    read_sources,
)
from cards.models import Card, CardSet

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "fixtures" / "bakugan.json"
SOURCES = ROOT / "fixtures" / "sources" / "bakugan"
BONUSES = [
    f"bonus_{a}" for a in ("pyrus", "aquos", "subterra", "haos", "darkus", "ventus")
]
LATER = {
    "1-48e": 48,
    "1-18f": 18,
    "1-18h": 18,
    "1-48i": 48,
    "1-18L": 18,
    "1-48n": 48,
    "1-48q-1": 48,
    "1-48q-2": 48,
    "1-48ah": 48,
}
AH_COPIED = (1, 2, 3, 4, 5, 6, 7, 9, 12, 14, 15, 18, 23, 24)


def fixture_sets() -> dict:
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return {s["slug"]: s for s in data["sets"]}


def cards_of(slug: str) -> dict:
    return {c["key"]: c for c in fixture_sets()[slug]["cards"]}


def load_fixture():
    return card_data_load(data=card_data_parse(text=FIXTURE.read_text("utf-8")))


def test_the_later_series_are_official_unverified_sets_of_their_sizes():
    sets = fixture_sets()
    assert {slug: len(sets[slug]["cards"]) for slug in LATER} == LATER
    assert sum(len(s["cards"]) for s in sets.values()) == 549
    later = [c for slug in LATER for c in sets[slug]["cards"]]
    assert {sets[slug]["kind"] for slug in LATER} == {"official"}
    assert {c["verification"] for c in later} == {"unverified", "disputed"}
    assert all("cards_expansion.json" in c["source"] for c in later)


def test_a_later_card_keeps_its_number_name_class_code_and_grid():
    fire = cards_of("1-48e")["1/48e"]  # CSV: 1,1/48e,BA348,Gate of Fire,silver
    assert (fire["number"], fire["name"], fire["gate_class"], fire["code"]) == (
        1,
        "Gate of Fire",
        "silver",
        "BA348",
    )
    assert [fire[b] for b in BONUSES] == [150, 0, 90, 90, 120, 100]
    copper = cards_of("1-48q-1")["33/48q"]  # Copper Boost: 100,,,80,,
    assert copper["colour"] == "blue"
    assert [copper[b] for b in BONUSES] == [100, None, None, 80, None, None]
    assert copper["not_printed"] == [
        "bonus_aquos",
        "bonus_subterra",
        "bonus_darkus",
        "bonus_ventus",
    ]


def test_the_two_1_48q_blocks_are_two_sets_printing_the_same_numbers():
    first, second = cards_of("1-48q-1"), cards_of("1-48q-2")
    assert first["1/48q"]["name"] == "Clean Woods"
    assert second["1/48q"]["name"] == "Deep Roots"
    assert set(first) == set(second)


def test_the_1_48ah_grids_copied_from_the_second_1_48q_block_are_unknown_disputed():
    cards = cards_of("1-48ah")
    for number in range(1, 25):
        card = cards[f"{number}/48ah"]
        if number in AH_COPIED:
            assert [card[b] for b in BONUSES] == [None] * 6, number
            assert card["verification"] == "disputed"
            assert "second 1-48q block" in card["source"]
        else:
            assert card["verification"] == "unverified", number
    assert [cards["8/48ah"][b] for b in BONUSES] == [50, 50, 10, 20, 100, 140]


def test_every_conflict_the_readme_names_is_recorded_on_the_card():
    e, n, q1 = cards_of("1-48e"), cards_of("1-48n"), cards_of("1-48q-1")
    assert e["8/48e"]["bonus_haos"] is None and e["8/48e"]["bonus_darkus"] is None
    assert "no bonus for Haos, Darkus: unknown" in e["8/48e"]["source"]
    assert "no bonus for Ventus" in e["14/48e"]["source"]  # Brontes
    assert "no bonus for Ventus" in q1["5/48q"]["source"]  # Reduce
    assert "no bonus for Ventus" in q1["7/48q"]["source"]  # Reuse
    drain = n["18/48n"]
    assert [drain[b] for b in BONUSES] == [None] * 6
    assert "missing extraction" in drain["source"]
    wind = cards_of("1-48ah")["30/48ah"]
    assert (wind["name"], wind["number"], wind["printed_number"]) == (
        "Wind Blade",
        30,
        "29/48ah",
    )
    assert "Printed number 29/48ah" in wind["source"]
    assert "series page class mismatch" in cards_of("1-48i")["39/48i"]["source"]


@pytest.mark.django_db
def test_loading_every_series_round_trips_and_is_idempotent():
    first = load_fixture()
    assert first.created == 549
    assert CardSet.objects.filter(game__slug="bakugan").count() == 14
    again = load_fixture()
    assert (again.created, again.updated, again.unchanged) == (0, 0, 549)
    exported = card_data_export(game="bakugan", kind="official")
    assert card_data_dumps(exported) == FIXTURE.read_text(encoding="utf-8")


@pytest.mark.django_db
def test_loaded_suspect_grids_are_unknown_and_disputed():
    load_fixture()
    suspects = Card.objects.filter(
        card_set__slug__in=("1-48d", "1-48ah"),
        card_type="gate",
        verification="disputed",
    )
    assert suspects.count() == 24 + len(AH_COPIED)
    assert all(card.is_unknown("bonus_pyrus") for card in suspects)
    assert not suspects.exclude(bonus_ventus=None).exists()


def test_a_bad_row_is_reported_by_row_and_field_and_nothing_is_converted():
    text, later, effects = read_sources(ROOT)
    lines = later.splitlines()
    lines[3] = lines[3].replace(",silver,", ",tin,").replace(",110,", ",ninety,", 1)
    with pytest.raises(RowError) as caught:
        convert(text, "\n".join(lines) + "\n", effects)
    assert caught.value.problems == [
        "later_series_cards.csv row 4 card_class: 'tin' is not a gate class: "
        "gold, silver, copper.",
        "later_series_cards.csv row 4 subterra: 'ninety' is not a whole number.",
    ]


def test_the_command_writes_nothing_for_a_bad_row(tmp_path, capsys):
    bad = tmp_path / "later.csv"
    lines = (SOURCES / "later_series_cards.csv").read_text("utf-8").splitlines()
    lines[5] = lines[5].replace("1-48e,,5,", "1-48e,,x,")
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out.json"
    with pytest.raises(CommandError, match="nothing was written"):
        call_command("convert_bakugan_csv", "--later-csv", str(bad), "-o", str(out))
    assert "later_series_cards.csv row 6 number: 'x'" in capsys.readouterr().err
    assert not out.exists()
