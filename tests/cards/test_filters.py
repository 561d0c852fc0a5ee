"""CardFilterSet: each filter over three rows keeps exactly the two that match."""

from urllib.parse import urlencode

import pytest
from django.http import QueryDict

from cards.filtersets import CardFilterSet, CardSetFilterSet, sort_cards
from cards.models import Card, CardSet
from cards.search import SORT_KEYS
from tests.factories import CO, MF, B, C, make_card, make_set, three_rows

pytestmark = pytest.mark.django_db

# Each case: three rows (the first two match) and the filter parameters.
CASES = {
    "game": ([(C, {}), (C, {}), (B, {})], {"game": "collision"}),
    "type": (
        [
            (C, {"card_type": "event"}),
            (C, {"card_type": "event"}),
            (C, {"card_type": "character"}),
        ],
        {"type": "event"},
    ),
    "colour": (
        [(C, {"colour": "red"}), (C, {"colour": "red"}), (C, {"colour": "blue"})],
        {"colour": "red"},
    ),
    "rarity": (
        [(C, {"rarity": "rare"}), (C, {"rarity": "rare"}), (C, {"rarity": "common"})],
        {"rarity": "RARE"},
    ),
    "number": (
        [(C, {"number": 7}), (C, {"number": 7}), (C, {"number": 8})],
        {"number": "7"},
    ),
    "number_min": (
        [(C, {"number": 10}), (C, {"number": 20}), (C, {"number": 9})],
        {"number_min": "10"},
    ),
    "number_max": (
        [(C, {"number": 1}), (C, {"number": 5}), (C, {"number": 6})],
        {"number_max": "5"},
    ),
    "promo": (
        [
            (C, {"number": 141}),
            (C, {"rarity": "promo", "number": 3}),
            (C, {"number": 130, "rarity": "rare"}),
        ],
        {"promo": "true"},
    ),
    "verification": (
        [
            (C, {"verification": "verified"}),
            (C, {"verification": "verified"}),
            (C, {"verification": "disputed"}),
        ],
        {"verification": "verified"},
    ),
    "text": (
        [
            (C, {"title": "Storm Rider"}),
            (C, {"text": "A storm is coming."}),
            (C, {"title": "Calm", "text": "Quiet."}),
        ],
        {"text": "storm"},
    ),
    "name": (
        [
            (C, {"title": "Dragoon"}),
            (C, {"title": "Dragoon", "subtitle": "Storm"}),
            (C, {"title": "Dranzer"}),
        ],
        {"name": "dragoon"},
    ),
    "kind": (
        [(C, {"card_set": "practice"}), (C, {"card_set": "practice"}), (C, {})],
        {"kind": "practice"},
    ),
    "edge_4": (
        [
            (C, {"battle_edge": "...S.."}),
            (C, {"battle_edge": "LLLSEE"}),
            (C, {"battle_edge": "LLLLEE"}),
        ],
        {"edge_4": "strike"},
    ),
    "live_min": (
        [
            (C, {"battle_edge": "LLL..."}),
            (C, {"battle_edge": "LLLLSE"}),
            (C, {"battle_edge": "LL.SSS"}),
        ],
        {"live_min": "3"},
    ),
    "strike_max": (
        [
            (C, {"battle_edge": "LLL..."}),
            (C, {"battle_edge": "LLLLSE"}),
            (C, {"battle_edge": "LL.SSS"}),
        ],
        {"strike_max": "1"},
    ),
    "empty": (
        [
            (C, {"battle_edge": "EE...."}),
            (C, {"battle_edge": "E.L.E."}),
            (C, {"battle_edge": "EEE..."}),
        ],
        {"empty": "2"},
    ),
    "spin_min": (
        [
            (C, {"card_type": "blade", "spin_strength": 6}),
            (C, {"card_type": "blade", "spin_strength": 5}),
            (C, {"card_type": "blade", "spin_strength": 4}),
        ],
        {"spin_min": "5"},
    ),
    "symbol": (
        [
            (C, {"card_type": "action", "symbol": "play"}),
            (C, {"card_type": "action", "symbol": "play"}),
            (C, {"card_type": "action", "symbol": "win"}),
        ],
        {"symbol": "play"},
    ),
    "red_min": (
        [(MF, {"stat_red": 4}), (MF, {"stat_red": 5}), (MF, {"stat_red": 3})],
        {"red_min": "4"},
    ),
    "yellow_max": (
        [(MF, {"stat_yellow": 0}), (MF, {"stat_yellow": 2}), (MF, {"stat_yellow": 3})],
        {"yellow_max": "2"},
    ),
    "emblem": (
        [
            (MF, {"emblem": "Pegasus"}),
            (MF, {"emblem": "pegasus wing"}),
            (MF, {"emblem": "Leone"}),
        ],
        {"emblem": "pegasus"},
    ),
    "launcher": (
        [
            (MF, {"launcher": "green"}),
            (MF, {"launcher": "green"}),
            (MF, {"launcher": "blue"}),
        ],
        {"launcher": "green"},
    ),
    "booster": (
        [
            (MF, {"boosters": "RB"}),
            (MF, {"boosters": "RBGY"}),
            (MF, {"boosters": "GY"}),
        ],
        {"booster": "blue"},
    ),
    "section": (
        [
            (CO, {"section_1": "K"}),
            (CO, {"section_3": "RK"}),
            (CO, {"section_1": "R", "section_2": "BY"}),
        ],
        {"section": "black"},
    ),
    "section_2": (
        [(CO, {"section_2": "R"}), (CO, {"section_2": "YR"}), (CO, {"section_1": "R"})],
        {"section_2": "red"},
    ),
    "wild": (
        [
            (CO, {"section_2": "BYRGK"}),
            (CO, {"section_3": "BYRGK"}),
            (CO, {"section_1": "BY"}),
        ],
        {"wild": "true"},
    ),
    "attribute": (
        [
            (B, {"card_type": "bakugan", "attribute": "haos"}),
            (B, {"card_type": "bakugan", "attribute": "haos"}),
            (B, {"card_type": "bakugan", "attribute": "pyrus"}),
        ],
        {"attribute": "haos"},
    ),
    "g_power_min": (
        [
            (B, {"card_type": "bakugan", "g_power": 400}),
            (B, {"card_type": "bakugan", "g_power": 350}),
            (B, {"card_type": "bakugan", "g_power": 340}),
        ],
        {"g_power_min": "350"},
    ),
    "gate_class": (
        [
            (B, {"card_type": "gate", "gate_class": "gold"}),
            (B, {"card_type": "gate", "gate_class": "gold"}),
            (B, {"card_type": "gate", "gate_class": "copper"}),
        ],
        {"gate_class": "gold"},
    ),
    "ability colour": (
        [
            (B, {"card_type": "ability", "colour": "green"}),
            (B, {"card_type": "ability", "colour": "green"}),
            (B, {"card_type": "ability", "colour": "red"}),
        ],
        {"colour": "green"},
    ),
    "pyrus_min": (
        [
            (B, {"bonus_pyrus": 200}),
            (B, {"bonus_pyrus": 300}),
            (B, {"bonus_pyrus": 100}),
        ],
        {"pyrus_min": "200"},
    ),
    "ventus_max": (
        [
            (B, {"bonus_ventus": -50}),
            (B, {"bonus_ventus": 0}),
            (B, {"bonus_ventus": 50}),
        ],
        {"ventus_max": "0"},
    ),
}

CASES |= {
    "q": (
        [
            (C, {"card_type": "blade", "spin_strength": 6}),
            (C, {"card_type": "blade", "spin_strength": 7}),
            (C, {"card_type": "blade", "spin_strength": 5}),
        ],
        {"q": "spin>=6"},
    ),
    "set": (
        [(C, {"set": "alpha"}), (C, {"set": "alpha"}), (C, {"set": "beta"})],
        {"set": "alpha"},
    ),
    "live": (
        [
            (C, {"battle_edge": "LL...."}),
            (C, {"battle_edge": "L.L.SE"}),
            (C, {"battle_edge": "LLL..."}),
        ],
        {"live": "2"},
    ),
    "live_max": (
        [
            (C, {"battle_edge": "L....."}),
            (C, {"battle_edge": "SSSEEE"}),
            (C, {"battle_edge": "LL...."}),
        ],
        {"live_max": "1"},
    ),
    "strike": (
        [
            (C, {"battle_edge": "S....."}),
            (C, {"battle_edge": "LLLS.."}),
            (C, {"battle_edge": "SS...."}),
        ],
        {"strike": "1"},
    ),
    "strike_min": (
        [
            (C, {"battle_edge": "SS...."}),
            (C, {"battle_edge": "SSSLLL"}),
            (C, {"battle_edge": "S....."}),
        ],
        {"strike_min": "2"},
    ),
    "empty_min": (
        [
            (C, {"battle_edge": "EE...."}),
            (C, {"battle_edge": "EEELLL"}),
            (C, {"battle_edge": "E....."}),
        ],
        {"empty_min": "2"},
    ),
    "empty_max": (
        [
            (C, {"battle_edge": "LLLLLL"}),
            (C, {"battle_edge": "......"}),
            (C, {"battle_edge": "E....."}),
        ],
        {"empty_max": "0"},
    ),
    "section_1": (
        [(CO, {"section_1": "B"}), (CO, {"section_1": "BY"}), (CO, {"section_2": "B"})],
        {"section_1": "blue"},
    ),
    "section_3": (
        [(CO, {"section_3": "G"}), (CO, {"section_3": "RG"}), (CO, {"section_1": "G"})],
        {"section_3": "green"},
    ),
}


def _edge(notch: int, piece: str, rest: str) -> str:
    """Return a battle edge with ``piece`` at ``notch`` and ``rest`` elsewhere."""
    return rest * (notch - 1) + piece + rest * (6 - notch)


# Every notch: a live piece there (alone, or among strikes) against a strike there.
for _notch in range(1, 7):
    CASES.setdefault(
        f"edge_{_notch}",
        (
            [
                (C, {"battle_edge": _edge(_notch, "L", ".")}),
                (C, {"battle_edge": _edge(_notch, "L", "S")}),
                (C, {"battle_edge": _edge(_notch, "S", "L")}),
            ],
            {f"edge_{_notch}": "live"},
        ),
    )

# Number filters come in threes (exact, at least, at most); each is tried over
# three rows of low, middle and high values, cut at the middle one.
RANGES = {
    "spin": (C, "spin_strength", {"card_type": "blade"}, (4, 5, 6)),
    "red": (MF, "stat_red", {}, (1, 2, 3)),
    "blue": (MF, "stat_blue", {}, (0, 1, 5)),
    "green": (MF, "stat_green", {}, (2, 3, 4)),
    "yellow": (MF, "stat_yellow", {}, (3, 4, 5)),
    "g_power": (B, "g_power", {"card_type": "bakugan"}, (300, 350, 400)),
    "pyrus": (B, "bonus_pyrus", {}, (-50, 0, 50)),
    "aquos": (B, "bonus_aquos", {}, (0, 100, 200)),
    "subterra": (B, "bonus_subterra", {}, (50, 100, 150)),
    "haos": (B, "bonus_haos", {}, (-100, 50, 300)),
    "darkus": (B, "bonus_darkus", {}, (100, 200, 300)),
    "ventus": (B, "bonus_ventus", {}, (-50, 50, 100)),
}
for _prefix, (_game, _field, _extra, (_low, _mid, _high)) in RANGES.items():

    def _row(value, game=_game, field=_field, extra=_extra):
        return (game, {**extra, field: value})

    CASES.setdefault(
        _prefix, ([_row(_mid), _row(_mid), _row(_high)], {_prefix: str(_mid)})
    )
    CASES.setdefault(
        f"{_prefix}_min",
        ([_row(_mid), _row(_high), _row(_low)], {f"{_prefix}_min": str(_mid)}),
    )
    CASES.setdefault(
        f"{_prefix}_max",
        ([_row(_low), _row(_mid), _row(_high)], {f"{_prefix}_max": str(_mid)}),
    )


def query(params: dict) -> QueryDict:
    """Return ``params`` as a request's query string would arrive."""
    return QueryDict(urlencode(params, doseq=True))


def _rows(case_rows):
    rows = []
    for game, fields in case_rows:
        fields = dict(fields)
        if fields.get("card_set") == "practice":
            fields["card_set"] = make_set(game, "practice")
        if "set" in fields:
            fields["card_set"] = make_set(game, slug=fields.pop("set"))
        rows.append((game, fields))
    return rows


def test_every_card_filter_has_a_three_row_case():
    covered = {name for _, params in CASES.values() for name in params}
    assert sorted(set(CardFilterSet.base_filters) - covered) == []
    assert sorted(covered - set(CardFilterSet.base_filters)) == []
    assert {len(rows) for rows, _ in CASES.values()} == {3}


@pytest.mark.parametrize("name", list(CASES))
def test_each_filter_keeps_the_two_matching_rows_of_three(name):
    case_rows, params = CASES[name]
    first, second, third = three_rows(_rows(case_rows))
    filterset = CardFilterSet(query(params), queryset=Card.objects.all())
    assert filterset.is_valid(), filterset.errors
    assert sorted(filterset.qs.values_list("pk", flat=True)) == sorted(
        [first.pk, second.pk]
    )


@pytest.mark.parametrize("name", ["red_min", "section", "live_min"])
def test_the_pruned_api_filterset_filters_the_same(name):
    case_rows, params = CASES[name]
    first, second, _ = three_rows(_rows(case_rows))
    filterset = CardFilterSet(query(params), queryset=Card.objects.all(), prune=True)
    assert list(filterset.filters) == list(params)
    assert sorted(filterset.qs.values_list("pk", flat=True)) == sorted(
        [first.pk, second.pk]
    )


def test_the_q_filter_reads_the_search_language_and_keeps_its_warnings():
    first = make_card(C, card_type="blade", spin_strength=6)
    second = make_card(C, card_type="blade", spin_strength=7)
    make_card(C, card_type="blade", spin_strength=5)
    filterset = CardFilterSet(
        query({"q": "spin>=6 bogus:1"}), queryset=Card.objects.all()
    )
    assert sorted(filterset.qs.values_list("pk", flat=True)) == [first.pk, second.pk]
    assert filterset.search.warnings == ['Ignored “bogus:1”: unknown key "bogus".']


@pytest.mark.parametrize(
    "params, field",
    [
        ({"number_min": "abc"}, "number_min"),
        ({"red_max": "99999999"}, "red_max"),
        ({"colour": "pink"}, "colour"),
        ({"edge_4": "sideways"}, "edge_4"),
        ({"game": "chess"}, "game"),
    ],
)
def test_a_bad_filter_value_is_a_form_error_not_an_exception(params, field):
    filterset = CardFilterSet(query(params), queryset=Card.objects.all())
    assert not filterset.is_valid()
    assert list(filterset.errors) == [field]


def test_sorting_by_a_whitelisted_key_orders_the_rows():
    b = make_card(C, title="Beta", number=1)
    a = make_card(C, title="Alpha", number=2)
    qs, warning = sort_cards(Card.objects.all(), "name")
    assert (list(qs), warning) == ([a, b], None)
    qs, warning = sort_cards(Card.objects.all(), "-number")
    assert (list(qs), warning) == ([a, b], None)


def test_sorting_by_an_unknown_key_is_ignored_with_a_warning():
    qs, warning = sort_cards(Card.objects.all(), "password")
    assert warning == (
        f"Ignored the sort “password”: sort by one of {', '.join(SORT_KEYS)} "
        "(- first for descending)."
    )


def test_the_set_filterset_filters_by_game_and_kind():
    first = make_set(C, "practice")
    second = make_set(B, "practice")
    make_set(C, "official")
    qs = CardSetFilterSet(
        query({"kind": "practice"}), queryset=CardSet.objects.all()
    ).qs
    assert sorted(qs.values_list("pk", flat=True)) == sorted([first.pk, second.pk])
