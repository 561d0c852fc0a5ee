"""Card data files: parse, validate, load, export, and the fixture files."""

import importlib.util
import io
import json
from collections import Counter
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction

from cards.data import (
    CardChange,
    CardDataError,
    FieldChange,
    card_data_diff,
    card_data_dumps,
    card_data_export,
    card_data_export_csv,
    card_data_load,
    card_data_normalise,
    card_data_parse,
    card_data_parse_csv,
    card_data_validate,
)
from cards.effects import EFFECT_OPS, EFFECT_TARGETS, EFFECT_TIMINGS
from cards.management.commands.convert_bakugan_csv import convert, read_sources
from cards.models import Card, CardSet

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
BAKUGAN_CSV = FIXTURES / "sources" / "bakugan" / "gen1_battle_brawlers_cards.csv"
OFFICIAL = {
    "collision": "collision.json",
    "metal-fusion": "metal-fusion.json",
    "collide-o": "collide-o.json",
    "bakugan": "bakugan.json",
}
PRACTICE = {game: f"practice-{name}" for game, name in OFFICIAL.items()}

pytestmark = pytest.mark.django_db


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def fixture(name: str) -> dict:
    return json.loads(fixture_text(name))


def load(name: str):
    return card_data_load(data=card_data_parse(text=fixture_text(name)))


def data_file(game: str, cards: list, slug: str = "s1", **set_fields) -> str:
    card_set = {"slug": slug, "name": "Test set", "kind": "official", **set_fields}
    card_set["cards"] = cards
    return json.dumps(
        {"format": "cardsite-card-data", "version": 1, "game": game, "sets": [card_set]}
    )


def cards_by_key(name: str, set_slug: str | None = None) -> dict:
    data = fixture(name)
    return {
        card["key"]: card
        for card_set in data["sets"]
        if set_slug is None or card_set["slug"] == set_slug
        for card in card_set["cards"]
    }


# --- parse -------------------------------------------------------------------


def test_parse_refuses_text_that_is_not_json():
    with pytest.raises(CardDataError) as caught:
        card_data_parse(text="{not json")
    assert caught.value.problems[0].message.startswith("Not valid JSON")


def test_parse_refuses_a_wrong_format_or_version_and_names_both():
    text = json.dumps({"format": "other", "version": 2, "game": "bakugan", "sets": []})
    with pytest.raises(CardDataError) as caught:
        card_data_parse(text=text)
    assert [p.field for p in caught.value.problems] == ["format", "version"]


def test_parse_refuses_a_card_that_is_not_an_object():
    with pytest.raises(CardDataError) as caught:
        card_data_parse(text=data_file("bakugan", [["1/48"]]))
    assert str(caught.value.problems[0]) == "s1/card[0]: A card must be an object."


# --- validate ----------------------------------------------------------------

GATE = {
    "key": "1",
    "name": "Test gate",
    "card_type": "gate",
    "gate_class": "gold",
    "source": "test",
}


def test_a_valid_file_has_no_problems():
    data = card_data_parse(text=data_file("bakugan", [GATE]))
    assert card_data_validate(data=data) == []


def test_validation_reports_unknown_fields_and_wrong_types_by_record_and_field():
    bad = {**GATE, "colr": "red", "number": "7", "bonus_pyrus": True}
    data = card_data_parse(text=data_file("bakugan", [bad]))
    problems = [str(p) for p in card_data_validate(data=data)]
    assert problems == [
        "s1/1 colr: Unknown field.",
        's1/1 number: must be a whole number, not "7".',
        "s1/1 bonus_pyrus: must be a whole number, not true.",
    ]


def test_validation_runs_the_game_rules_on_cards_of_a_new_set():
    data = card_data_parse(text=data_file("bakugan", [{**GATE, "gate_class": None}]))
    problems = card_data_validate(data=data)
    assert [(p.key, p.field) for p in problems] == [("1", "gate_class")]


def test_validation_reports_duplicate_keys_within_a_set():
    data = card_data_parse(text=data_file("bakugan", [GATE, GATE]))
    problems = card_data_validate(data=data)
    assert [(p.index, p.field, p.message) for p in problems] == [
        (1, "key", "This key appears twice in the set.")
    ]


def test_validation_reports_a_game_mismatch():
    data = card_data_parse(text=data_file("bakugan", [GATE]))
    problems = card_data_validate(data=data, game="collision")
    assert [(p.where, p.field) for p in problems] == [("file", "game")]


def test_validation_refuses_another_games_field_with_a_value():
    card = {**GATE, "spin_strength": 6}
    data = card_data_parse(text=data_file("bakugan", [card]))
    assert [p.field for p in card_data_validate(data=data)] == ["spin_strength"]


def test_validation_refuses_an_effect_step_outside_the_engine_vocabulary():
    card = {**GATE, "effects": [{"op": "explode", "timing": "gate_open"}]}
    data = card_data_parse(text=data_file("bakugan", [card]))
    problems = card_data_validate(data=data)
    assert [(p.field, p.message) for p in problems] == [
        ("effects", "Unknown effect step 'explode'.")
    ]


def test_validation_refuses_a_custom_set_in_a_file():
    data = card_data_parse(text=data_file("bakugan", [], kind="custom"))
    problems = [(p.field, p.message) for p in card_data_validate(data=data)]
    assert problems == [
        ("kind", "Data files carry official and practice sets."),
        ("owner", "A custom set needs an owner."),
    ]


def test_a_card_without_source_is_refused():
    card = {key: value for key, value in GATE.items() if key != "source"}
    data = card_data_parse(text=data_file("bakugan", [card]))
    assert [p.field for p in card_data_validate(data=data)] == ["source"]


# --- load --------------------------------------------------------------------


def test_a_bad_record_among_good_ones_loads_nothing_and_names_each_problem():
    cards = [
        GATE,
        {**GATE, "key": "2", "bonus_aquos": 10000},
        {**GATE, "key": "3"},
        {**GATE, "key": "4", "card_type": "ability", "colour": "black"},
    ]
    data = card_data_parse(text=data_file("bakugan", cards))
    with pytest.raises(CardDataError) as caught:
        card_data_load(data=data, source_label="bad.json")
    problems = [(p.set_slug, p.key, p.field) for p in caught.value.problems]
    assert problems == [
        ("s1", "2", "bonus_aquos"),
        ("s1", "4", "gate_class"),
        ("s1", "4", "colour"),
    ]
    assert caught.value.messages[0].startswith("bad.json: s1/2 bonus_aquos: ")
    assert not CardSet.objects.filter(slug="s1").exists()
    assert Card.objects.count() == 0


def test_loading_twice_is_idempotent():
    first = load("bakugan.json")
    second = load("bakugan.json")
    assert (first.created, first.updated, first.unchanged) == (549, 0, 0)
    assert (first.sets_created, second.sets_created) == (14, 0)
    assert (second.created, second.updated, second.unchanged) == (0, 0, 549)


def test_a_changed_card_is_updated_and_the_diff_names_the_field():
    load("practice-bakugan.json")
    data = fixture("practice-bakugan.json")
    data["sets"][0]["cards"][0]["g_power"] = 500
    parsed = card_data_parse(text=json.dumps(data))
    assert card_data_diff(data=parsed) == [
        CardChange("practice-bakugan", "1", False, (FieldChange("g_power", 400, 500),))
    ]
    result = card_data_load(data=parsed)
    assert (result.created, result.updated, result.unchanged) == (0, 1, 47)
    assert Card.objects.get(card_set__slug="practice-bakugan", key="1").g_power == 500


def test_diff_lists_new_sets_and_cards():
    data = card_data_parse(text=data_file("bakugan", [GATE]))
    changes = card_data_diff(data=data)
    assert [(c.set_slug, c.key, c.created) for c in changes] == [
        ("s1", None, True),
        ("s1", "1", True),
    ]


# --- export ------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(OFFICIAL))
def test_export_then_load_into_an_empty_database_is_lossless(game):
    with transaction.atomic():
        for name in (OFFICIAL[game], PRACTICE[game]):
            load(name)
        exported = card_data_dumps(card_data_export(game=game))
        transaction.set_rollback(True)
    assert not CardSet.objects.exists()
    card_data_load(data=card_data_parse(text=exported))
    assert card_data_dumps(card_data_export(game=game)) == exported


@pytest.mark.parametrize("game", sorted(OFFICIAL))
def test_each_fixture_file_is_exactly_what_export_writes(game):
    load(OFFICIAL[game])
    load(PRACTICE[game])
    official = card_data_dumps(card_data_export(game=game, kind="official"))
    practice = card_data_dumps(card_data_export(game=game, kind="practice"))
    assert official == fixture_text(OFFICIAL[game])
    assert practice == fixture_text(PRACTICE[game])


def test_csv_export_then_import_round_trips():
    with transaction.atomic():
        load("practice-collision.json")
        load("collision.json")
        exported = card_data_export_csv(game="collision")
        transaction.set_rollback(True)
    for name in ("practice-collision.json", "collision.json"):
        data = fixture(name)
        data["sets"][0]["cards"] = []
        card_data_load(data=card_data_parse(text=json.dumps(data)))
    assert not Card.objects.exists()
    result = card_data_load(data=card_data_parse_csv(game="collision", text=exported))
    assert (result.created, result.updated) == (92 + 146, 0)
    assert card_data_export_csv(game="collision") == exported


def test_csv_import_refuses_a_set_that_is_not_loaded():
    text = "set_slug,key,source\nnowhere,1,test\n"
    with pytest.raises(CardDataError) as caught:
        card_data_parse_csv(game="collision", text=text)
    assert [(p.set_slug, p.field) for p in caught.value.problems] == [
        ("nowhere", "set_slug")
    ]


# --- commands ----------------------------------------------------------------


def test_load_cards_loads_every_fixture_file_and_reports_each(capsys):
    call_command("load_cards")
    out = capsys.readouterr().out
    assert "bakugan.json: 549 created, 0 updated, 0 unchanged" in out
    assert out.count("\n") == len(list(FIXTURES.glob("*.json")))
    call_command("load_cards")
    assert (
        "bakugan.json: 0 created, 0 updated, 549 unchanged" in capsys.readouterr().out
    )


def test_load_cards_with_a_bad_file_writes_nothing_and_fails(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(data_file("bakugan", [{**GATE, "gate_class": "tin"}]))
    with pytest.raises(CommandError):
        call_command("load_cards", str(FIXTURES / "bakugan.json"), str(bad))
    assert f"{bad}: s1/1 gate_class: " in capsys.readouterr().err
    assert Card.objects.count() == 0


def test_export_cards_writes_the_fixture(tmp_path):
    load("metal-fusion.json")
    out = tmp_path / "mf.json"
    call_command("export_cards", "--game", "metal-fusion", "-o", str(out))
    assert out.read_text() == fixture_text("metal-fusion.json")


def test_convert_bakugan_csv_reproduces_the_committed_fixture():
    data = convert(*read_sources(ROOT))
    assert card_data_dumps(data) == fixture_text("bakugan.json")


# --- Bakugan data ------------------------------------------------------------

BONUSES = [
    f"bonus_{a}" for a in ("pyrus", "aquos", "subterra", "haos", "darkus", "ventus")
]


def test_bakugan_has_five_series_of_the_expected_sizes():
    data = fixture("bakugan.json")
    sizes = {s["slug"]: len(s["cards"]) for s in data["sets"]}
    gen1 = {"1-48": 48, "1-15a": 15, "1-48b": 48, "1-48c": 48, "1-48d": 48}
    assert {k: v for k, v in sizes.items() if k in gen1} == gen1
    assert {s["kind"] for s in data["sets"]} == {"official"}


def test_bakugan_suspect_1_48d_gates_have_unknown_bonuses_and_are_disputed():
    cards = cards_by_key("bakugan.json", "1-48d")
    gates = [cards[f"{n}/48d"] for n in range(1, 25)]
    assert all(card["card_type"] == "gate" for card in gates)
    assert all(card[b] is None for card in gates for b in BONUSES)
    assert all(card["not_printed"] == [] for card in gates)
    assert {card["verification"] for card in gates} == {"disputed"}
    assert "copy error" in gates[8]["source"]


def test_bakugan_unreadable_22_48b_has_unknown_bonuses():
    card = cards_by_key("bakugan.json")["22/48b"]
    assert [card[b] for b in BONUSES] == [None] * 6
    assert card["not_printed"] == []
    assert card["verification"] == "unverified"
    assert "could not read" in card["source"]


def test_bakugan_ability_blanks_are_not_printed_and_a_printed_zero_stays_zero():
    cards = cards_by_key("bakugan.json")
    flash = cards["33/48b"]  # CSV: 0,0,50,110,0,0
    assert [flash[b] for b in BONUSES] == [0, 0, 50, 110, 0, 0]
    assert flash["not_printed"] == []
    bright_light = cards["33/48"]  # CSV: ,,50,80,50,
    assert [bright_light[b] for b in BONUSES] == [None, None, 50, 80, 50, None]
    assert bright_light["not_printed"] == ["bonus_pyrus", "bonus_aquos", "bonus_ventus"]


def test_bakugan_records_name_their_source_and_colour_conflicts():
    cards = cards_by_key("bakugan.json")
    assert all(
        "2e416714b9f95f77561eb1dfaa3535346df66a5b" in c["source"]
        and "machine-transcribed, unchecked" in c["source"]
        for c in cards.values()
    )
    assert cards["39/48b"]["colour"] == "green"
    assert "card page says Blue" in cards["39/48b"]["source"]
    assert cards["1/48d"]["code"] is None
    assert cards["9/48c"]["number"] == 9
    assert not any(c["card_type"] == "bakugan" for c in cards.values())


def test_bakugan_verification_is_unverified_except_the_disputed_gates():
    data = fixture("bakugan.json")
    gen1 = ("1-48", "1-15a", "1-48b", "1-48c", "1-48d")
    cards = [c for s in data["sets"] if s["slug"] in gen1 for c in s["cards"]]
    counts = Counter(c["verification"] for c in cards)
    assert counts == {"unverified": 183, "disputed": 24}


# --- Collision, Metal Fusion and Collide-O! official data ---------------------


def test_collision_shape_is_144_numbered_cards_and_two_starter_blades():
    cards = cards_by_key("collision.json", "collision")
    numbered = sorted(c["number"] for c in cards.values() if c["number"] is not None)
    assert numbered == list(range(1, 145))
    assert len(cards) == 146
    promos = {k for k, c in cards.items() if c["rarity"] == "promo"}
    assert promos == {str(n) for n in range(131, 145)}
    assert all(cards[k]["distribution"] == "promo" for k in promos)
    for key, name in (("dragoon", "Dragoon"), ("dranzer", "Dranzer")):
        blade = cards[key]
        assert (blade["name"], blade["card_type"], blade["spin_strength"]) == (
            name,
            "blade",
            6,
        )
        assert (blade["number"], blade["printed_number"]) == (None, "")
        assert blade["distribution"] == "starter"
        assert blade["battle_edge"] is None


def test_collision_named_cards_and_unknown_fields():
    cards = cards_by_key("collision.json")
    tyson = cards["96"]
    assert (tyson["name"], tyson["title"], tyson["subtitle"], tyson["card_type"]) == (
        "Tyson, Eager Champion",
        "Tyson",
        "Eager Champion",
        "character",
    )
    promo = cards["141"]
    assert (promo["name"], promo["title"], promo["subtitle"]) == (
        "Tyson, Bladebreaker",
        "Tyson",
        "Bladebreaker",
    )
    assert cards["1"]["name"] is None and cards["1"]["card_type"] is None
    assert all(c["battle_edge"] is None for c in cards.values())
    assert all("rules booklet" in c["source"] for c in cards.values())
    assert {c["verification"] for c in cards.values()} == {"unverified"}


def test_collision_unknown_cards_show_as_unknown():
    load("collision.json")
    card = Card.objects.get(card_set__slug="collision", key="7")
    assert card.display_name == "Unknown card #7"
    assert card.is_unknown("colour")


def test_metal_fusion_records_only_the_worked_example():
    cards = cards_by_key("metal-fusion.json")
    assert sorted(cards) == ["example-customizer", "gingka", "storm-pegasus"]
    gingka, pegasus = cards["gingka"], cards["storm-pegasus"]
    customizer = cards["example-customizer"]
    assert (gingka["card_type"], gingka["stat_yellow"], gingka["stat_red"]) == (
        "character",
        4,
        None,
    )
    assert (pegasus["stat_yellow"], pegasus["move_kind"], pegasus["move_yellow"]) == (
        2,
        "landing",
        -1,
    )
    assert (customizer["name"], customizer["stat_yellow"]) == (None, 5)
    assert all(c["emblem"] is None and c["number"] is None for c in cards.values())
    assert "emblems match" in gingka["source"]


def test_collide_o_official_set_has_no_invented_cards():
    data = fixture("collide-o.json")
    (card_set,) = data["sets"]
    assert card_set["cards"] == []
    assert "90 cards" in card_set["notes"]


# --- practice sets -----------------------------------------------------------


def practice_cards(game: str) -> list:
    data = fixture(PRACTICE[game])
    (card_set,) = data["sets"]
    assert card_set["kind"] == "practice"
    assert card_set["name"].startswith("Practice")
    cards = card_set["cards"]
    assert {c["distribution"] for c in cards} == {"practice"}
    assert {c["source"] for c in cards} == {
        "Authored by this site for practice play; not a printed product"
    }
    return cards


def assert_effects_in_vocabulary(cards):
    for card in cards:
        for step in card["effects"]:
            assert step["op"] in EFFECT_OPS
            assert step["timing"] in EFFECT_TIMINGS
            assert step.get("target", "self") in EFFECT_TARGETS


def test_every_fixture_file_loads_cleanly():
    for path in sorted(FIXTURES.glob("*.json")):
        data = card_data_parse(text=path.read_text(encoding="utf-8"))
        assert card_data_validate(data=data) == [], path.name
        card_data_load(data=data, source_label=path.name)


def test_practice_collision_meets_its_minimums():
    cards = practice_cards("collision")
    blades = [c for c in cards if c["card_type"] == "blade"]
    assert {6, 5} <= {b["spin_strength"] for b in blades}
    assert len({b["battle_edge"] for b in blades}) == len(blades)
    others = [c for c in cards if c["card_type"] != "blade"]
    assert len(others) >= 80
    types = {(c["card_type"], c["colour"]) for c in others}
    assert types == {
        (t, colour)
        for t in ("action", "character", "event")
        for colour in ("red", "yellow", "green", "blue")
    }
    edges = "".join(c["battle_edge"] for c in cards)
    assert {"L", "S", "E", "."} <= set(edges)
    actions = [c for c in cards if c["card_type"] == "action"]
    assert {a["symbol"] for a in actions} == {"play", "win"}
    assert all(a["effects"][0]["timing"] == a["symbol"] for a in actions)
    assert all(c["subtitle"] for c in cards if c["card_type"] == "character")
    titles = Counter(c["title"] for c in cards if c["card_type"] != "blade")
    assert sum(min(4, n) for n in titles.values()) >= 59
    assert_effects_in_vocabulary(cards)


def test_practice_metal_fusion_meets_its_minimums():
    cards = practice_cards("metal-fusion")
    assert len(cards) >= 30
    stats = ("stat_red", "stat_blue", "stat_green", "stat_yellow")
    line_up = [
        c for c in cards if c["card_type"] in ("character", "beyblade", "customizer")
    ]
    assert all(all(0 <= c[s] <= 5 for s in stats) for c in line_up)
    assert Counter(c["card_type"] for c in cards) == {
        "character": 8,
        "beyblade": 8,
        "customizer": 8,
        "effect": 8,
    }
    characters = {c["emblem"] for c in cards if c["card_type"] == "character"}
    beyblades = {c["emblem"] for c in cards if c["card_type"] == "beyblade"}
    assert len(characters & beyblades) >= 4
    assert all(c["launcher"] for c in cards)
    assert {"R", "RB", "RBGY"} <= {c["boosters"] for c in cards}
    assert len({c["number"] for c in cards}) == len(cards)
    assert {c["rarity"] for c in cards} == {"C", "U", "R"}
    for card in cards:
        if card["card_type"] == "beyblade":
            moves = [f"move_{c}" for c in ("red", "blue", "green", "yellow")]
            printed = [m for m in moves if card[m] is not None]
            assert printed and sorted(
                printed + [m for m in card["not_printed"] if m in moves]
            ) == sorted(moves)
    timings = {c["timing"] for c in cards if c["card_type"] == "effect"}
    assert timings == {"when-revealed", "discard-from-hand"}
    assert "strength (red)" in fixture("practice-metal-fusion.json")["sets"][0]["notes"]
    assert_effects_in_vocabulary(cards)


def test_practice_collide_o_is_a_full_pack_of_every_pattern_and_colour():
    cards = practice_cards("collide-o")
    assert [c["key"] for c in cards] == [str(n) for n in range(1, 91)]
    assert [c["number"] for c in cards] == list(range(1, 91))
    sections = [c[f"section_{i}"] for c in cards for i in (1, 2, 3)]
    assert {len(s) for s in sections} == {1, 2, 5}
    assert set("".join(sections)) == set("BYRGK")
    assert {s for s in sections if len(s) == 1} == set("BYRGK")


def test_practice_bakugan_meets_its_minimums():
    cards = practice_cards("bakugan")
    figures = [c for c in cards if c["card_type"] == "bakugan"]
    assert len({f["attribute"] for f in figures}) == 6
    assert all(300 <= f["g_power"] <= 450 for f in figures)
    gates = Counter(c["gate_class"] for c in cards if c["card_type"] == "gate")
    assert gates == {"gold": 6, "silver": 6, "copper": 6}
    assert all(
        all(c[b] is not None for b in BONUSES)
        for c in cards
        if c["card_type"] == "gate"
    )
    abilities = [c for c in cards if c["card_type"] == "ability"]
    assert Counter(a["colour"] for a in abilities) == {"red": 6, "blue": 6, "green": 6}
    assert all(a["timing"] and a["effects"] for a in abilities)
    for ability in abilities:
        blanks = [b for b in BONUSES if ability[b] is None]
        assert blanks == ability["not_printed"]
    assert_effects_in_vocabulary(cards)


def test_the_practice_generator_reproduces_the_committed_files():
    spec = importlib.util.spec_from_file_location(
        "practice_generate", FIXTURES / "practice" / "generate.py"
    )
    generate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generate)
    for game, (slug, name, notes, build) in generate.SETS.items():
        card_set = generate.practice_set(slug, name, notes, build())
        data = card_data_normalise(data={"game": game, "sets": [card_set]})
        assert card_data_dumps(data) == fixture_text(f"{slug}.json")


@pytest.mark.django_db
def test_the_collision_set_records_its_printed_icon_and_the_set_page_shows_it(client):
    from django.core.management import call_command

    from cards.models import CardSet

    call_command("load_cards", str(FIXTURES / "collision.json"), stdout=io.StringIO())
    collision = CardSet.objects.get(game__slug="collision", slug="collision")
    assert collision.icon == "a small Tyson head"
    page = client.get("/games/collision/sets/collision/")
    assert b"<dt>Set icon</dt><dd>a small Tyson head</dd>" in page.content
