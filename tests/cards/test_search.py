"""The search language: keys, comparisons, negation, or, quotes, words and warnings."""

import pytest

from cards.models import Card
from cards.search import MAX_LENGTH, MAX_TERMS, parse_query
from tests.factories import CO, MF, B, C, make_card, make_set, three_rows

pytestmark = pytest.mark.django_db

BLADE = {"card_type": "blade"}

# Each case: three rows (the first two match) and the query.
CASES = {
    "game": ([(C, {}), (C, {}), (MF, {})], "game:collision"),
    "game alias": ([(MF, {}), (MF, {}), (C, {})], "game:mf"),
    "type": (
        [
            (C, {"card_type": "event"}),
            (C, {"card_type": "event"}),
            (C, {"card_type": "action", "symbol": "win"}),
        ],
        "type:event",
    ),
    "type by label": (
        [
            (B, {"card_type": "gate", "gate_class": "gold"}),
            (B, {"card_type": "gate", "gate_class": "silver"}),
            (B, {"card_type": "ability"}),
        ],
        "type:Gate",
    ),
    "colour": (
        [(C, {"colour": "red"}), (C, {"colour": "red"}), (C, {"colour": "blue"})],
        "colour:red",
    ),
    "color": (
        [(C, {"colour": "blue"}), (C, {"colour": "blue"}), (C, {"colour": "red"})],
        "color:blue",
    ),
    "rarity": (
        [(MF, {"rarity": "R"}), (MF, {"rarity": "R"}), (MF, {"rarity": "C"})],
        "rarity:r",
    ),
    "number =": (
        [(C, {"number": 5}), (C, {"number": 5}), (C, {"number": 6})],
        "number=5",
    ),
    "number >": (
        [(C, {"number": 6}), (C, {"number": 9}), (C, {"number": 5})],
        "number>5",
    ),
    "number <=": (
        [(C, {"number": 5}), (C, {"number": 1}), (C, {"number": 6})],
        "number<=5",
    ),
    "number <": (
        [(C, {"number": 4}), (C, {"number": 1}), (C, {"number": 5})],
        "number<5",
    ),
    "number !=": (
        [(C, {"number": 4}), (C, {"number": 6}), (C, {"number": 5})],
        "number!=5",
    ),
    "text": (
        [(C, {"text": "Draw a card."}), (C, {"text": "draw two"}), (C, {"text": "x"})],
        "text:draw",
    ),
    "name": (
        [
            (C, {"title": "Dragoon"}),
            (C, {"title": "Dragoon", "subtitle": "S"}),
            (C, {"title": "Draciel", "text": "Dragoon"}),
        ],
        "name:dragoon",
    ),
    "is:promo": (
        [(C, {"number": 131}), (C, {"rarity": "promo"}), (C, {"number": 130})],
        "is:promo",
    ),
    "is:practice": (
        [(C, {"card_set": "practice"}), (C, {"card_set": "practice"}), (C, {})],
        "is:practice",
    ),
    "is:custom": (
        [(C, {"card_set": "custom"}), (C, {"card_set": "custom"}), (C, {})],
        "is:custom",
    ),
    "is:official": ([(C, {}), (C, {}), (C, {"card_set": "practice"})], "is:official"),
    "status": (
        [
            (C, {"verification": "disputed"}),
            (C, {"verification": "disputed"}),
            (C, {"verification": "verified"}),
        ],
        "status:disputed",
    ),
    "set": (
        [(C, {"card_set": "alpha"}), (C, {"card_set": "alpha"}), (C, {})],
        "set:alpha",
    ),
    "edge": (
        [
            (C, {"battle_edge": "...S.."}),
            (C, {"battle_edge": "LLLSLL"}),
            (C, {"battle_edge": "LLLLLL"}),
        ],
        "edge:4=strike",
    ),
    "edge by letter": (
        [
            (C, {"battle_edge": "E....."}),
            (C, {"battle_edge": "ELLLLL"}),
            (C, {"battle_edge": "LLLLLL"}),
        ],
        "edge:1=E",
    ),
    "edge by the transcribe page's key": (
        [
            (C, {"battle_edge": "......"}),
            (C, {"battle_edge": "LL.LLL"}),
            (C, {"battle_edge": "LLLLLL"}),
        ],
        "edge:3=b",
    ),
    "live": (
        [
            (C, {"battle_edge": "LLL..."}),
            (C, {"battle_edge": "LLLL.."}),
            (C, {"battle_edge": "LL...."}),
        ],
        "live>=3",
    ),
    "strike": (
        [
            (C, {"battle_edge": "S....."}),
            (C, {"battle_edge": "......"}),
            (C, {"battle_edge": "SS...."}),
        ],
        "strike<2",
    ),
    "empty": (
        [
            (C, {"battle_edge": "EE...."}),
            (C, {"battle_edge": "..EE.."}),
            (C, {"battle_edge": "E....."}),
        ],
        "empty=2",
    ),
    "spin": (
        [
            (C, {**BLADE, "spin_strength": 6}),
            (C, {**BLADE, "spin_strength": 7}),
            (C, {**BLADE, "spin_strength": 5}),
        ],
        "spin>=6",
    ),
    "symbol": (
        [
            (C, {"card_type": "action", "symbol": "win"}),
            (C, {"card_type": "action", "symbol": "win"}),
            (C, {"card_type": "action", "symbol": "play"}),
        ],
        "symbol:win",
    ),
    "red": (
        [(MF, {"stat_red": 4}), (MF, {"stat_red": 5}), (MF, {"stat_red": 3})],
        "red>3",
    ),
    "blue": (
        [(MF, {"stat_blue": 1}), (MF, {"stat_blue": 1}), (MF, {"stat_blue": 2})],
        "blue:1",
    ),
    "green": (
        [(MF, {"stat_green": 0}), (MF, {"stat_green": 2}), (MF, {"stat_green": 3})],
        "green<=2",
    ),
    "yellow": (
        [(MF, {"stat_yellow": 0}), (MF, {"stat_yellow": 1}), (MF, {"stat_yellow": 2})],
        "yellow<2",
    ),
    "emblem": (
        [
            (MF, {"emblem": "Pegasus"}),
            (MF, {"emblem": "Pegasus"}),
            (MF, {"emblem": "Leone"}),
        ],
        "emblem:pegasus",
    ),
    "launcher": (
        [
            (MF, {"launcher": "red"}),
            (MF, {"launcher": "red"}),
            (MF, {"launcher": "blue"}),
        ],
        "launcher:red",
    ),
    "booster": (
        [(MF, {"boosters": "Y"}), (MF, {"boosters": "GY"}), (MF, {"boosters": "G"})],
        "booster:yellow",
    ),
    "section": (
        [(CO, {"section_1": "K"}), (CO, {"section_2": "BK"}), (CO, {"section_1": "B"})],
        "section:black",
    ),
    "section1": (
        [(CO, {"section_1": "R"}), (CO, {"section_1": "RG"}), (CO, {"section_2": "R"})],
        "section1:red",
    ),
    "wild": (
        [
            (CO, {"section_1": "BYRGK"}),
            (CO, {"section_3": "BYRGK"}),
            (CO, {"section_1": "B"}),
        ],
        "wild:yes",
    ),
    "is:wild": (
        [
            (CO, {"section_2": "BYRGK"}),
            (CO, {"section_3": "BYRGK"}),
            (CO, {"section_2": "B"}),
        ],
        "is:wild",
    ),
    "attribute": (
        [
            (B, {"card_type": "bakugan", "attribute": "darkus"}),
            (B, {"card_type": "bakugan", "attribute": "darkus"}),
            (B, {"card_type": "bakugan", "attribute": "haos"}),
        ],
        "attribute:darkus",
    ),
    "g": (
        [
            (B, {"card_type": "bakugan", "g_power": 450}),
            (B, {"card_type": "bakugan", "g_power": 500}),
            (B, {"card_type": "bakugan", "g_power": 400}),
        ],
        "g>400",
    ),
    "class": (
        [
            (B, {"card_type": "gate", "gate_class": "silver"}),
            (B, {"card_type": "gate", "gate_class": "silver"}),
            (B, {"card_type": "gate", "gate_class": "gold"}),
        ],
        "class:silver",
    ),
    "pyrus": (
        [
            (B, {"bonus_pyrus": 200}),
            (B, {"bonus_pyrus": 250}),
            (B, {"bonus_pyrus": 150}),
        ],
        "pyrus>=200",
    ),
    "aquos": (
        [
            (B, {"bonus_aquos": 100}),
            (B, {"bonus_aquos": 100}),
            (B, {"bonus_aquos": 50}),
        ],
        "aquos=100",
    ),
    "subterra": (
        [
            (B, {"bonus_subterra": -100}),
            (B, {"bonus_subterra": 0}),
            (B, {"bonus_subterra": 50}),
        ],
        "subterra<=0",
    ),
    "haos": (
        [(B, {"bonus_haos": 300}), (B, {"bonus_haos": 400}), (B, {"bonus_haos": 200})],
        "haos>200",
    ),
    "darkus": (
        [
            (B, {"bonus_darkus": 10}),
            (B, {"bonus_darkus": 20}),
            (B, {"bonus_darkus": 30}),
        ],
        "darkus<30",
    ),
    "ventus": (
        [
            (B, {"bonus_ventus": 70}),
            (B, {"bonus_ventus": 70}),
            (B, {"bonus_ventus": 80}),
        ],
        "ventus:70",
    ),
    "negation": (
        [(C, {"colour": "blue"}), (C, {"colour": "green"}), (C, {"colour": "red"})],
        "game:collision -colour:red",
    ),
    "negated comparison": (
        [
            (C, {**BLADE, "spin_strength": 5}),
            (C, {**BLADE, "spin_strength": 4}),
            (C, {**BLADE, "spin_strength": 6}),
        ],
        "game:collision -spin>=6",
    ),
    "or": (
        [(C, {"colour": "red"}), (C, {"colour": "blue"}), (C, {"colour": "green"})],
        "colour:red or colour:blue",
    ),
    "or binds looser than and": (
        [
            (C, {"colour": "red", "number": 1}),
            (C, {"colour": "blue"}),
            (C, {"colour": "red", "number": 2}),
        ],
        "colour:red number=1 or colour:blue",
    ),
    "bare word": (
        [(C, {"title": "Storm"}), (C, {"text": "a storm"}), (C, {"title": "Calm"})],
        "storm",
    ),
    "quoted phrase": (
        [
            (C, {"title": "Tyson", "subtitle": "Eager Champion"}),
            (C, {"text": "Like Tyson, Eager to win"}),
            (C, {"title": "Tyson", "subtitle": "Bladebreaker"}),
        ],
        '"Tyson, Eager"',
    ),
    "quoted value": (
        [
            (MF, {"title": None, "name": "Storm Pegasus"}),
            (MF, {"name": "Storm Pegasus 105RF"}),
            (MF, {"name": "Storm Aquario"}),
        ],
        'name:"Storm Pegasus"',
    ),
}


def _rows(case_rows):
    rows = []
    for game, fields in case_rows:
        fields = {k: v for k, v in fields.items() if v is not None}
        where = fields.get("card_set")
        if where in ("practice", "custom"):
            fields["card_set"] = make_set(
                game, where, owner=_owner() if where == "custom" else None
            )
        elif where == "alpha":
            fields["card_set"] = make_set(game, slug="alpha")
        rows.append((game, fields))
    return rows


def _owner():
    from django.contrib.auth import get_user_model

    user, _ = get_user_model().objects.get_or_create(username="maker")
    return user


@pytest.mark.parametrize("name", list(CASES))
def test_each_search_term_keeps_the_two_matching_rows_of_three(name):
    case_rows, text = CASES[name]
    first, second, _ = three_rows(_rows(case_rows))
    result = parse_query(text)
    assert result.warnings == []
    found = Card.objects.filter(result.q).values_list("pk", flat=True)
    assert sorted(found) == sorted([first.pk, second.pk])


def test_negated_comparisons_keep_cards_whose_value_is_unknown():
    unknown = make_card(C, card_type="blade")
    low = make_card(C, card_type="blade", spin_strength=3)
    make_card(C, card_type="blade", spin_strength=8)
    found = Card.objects.filter(parse_query("-spin>=6").q).values_list("pk", flat=True)
    assert sorted(found) == sorted([unknown.pk, low.pk])


@pytest.mark.parametrize(
    "text, description",
    [
        ("", "All cards"),
        (
            "game:collision spin>=6 -colour:red",
            "Cards of Collision whose spin strength is at least 6 and that are not red",
        ),
        (
            'pyrus>=200 or name:"Storm Pegasus"',
            "Cards whose Pyrus bonus is at least 200, or cards whose name has a word "
            "starting “Storm Pegasus”",
        ),
        (
            "edge:4=strike live<2",
            "Cards whose battle edge has a strike piece at notch 4 "
            "and whose number of live pieces is less than 2",
        ),
        (
            "section:black is:practice",
            "Cards with black in a section and that are practice cards",
        ),
        ("-is:promo", "Cards that are not promos"),
        ("dragoon", "Cards whose name or text has a word starting “dragoon”"),
        ("unknown:1", "No cards: nothing in the query could be read"),
    ],
)
def test_the_description_says_in_plain_words_what_was_searched(text, description):
    assert parse_query(text).description == description


@pytest.mark.parametrize(
    "text, warnings",
    [
        ("foo:bar", ['Ignored “foo:bar”: unknown key "foo".']),
        ("spin>=abc", ["Ignored “spin>=abc”: spin needs a whole number."]),
        ("red>9999999", ["Ignored “red>9999999”: red needs a whole number."]),
        ("red>999999", ["Ignored “red>999999”: red must be between -99999 and 99999."]),
        (
            "colour:pink",
            [
                "Ignored “colour:pink”: colour is a colour (red, yellow, green, blue, "
                "black) or colour letters (r y g b k)."
            ],
        ),
        ("colour>red", ['Ignored “colour>red”: colour takes ":" only, not ">".']),
        ("name:", ["Ignored “name:”: no value given."]),
        (
            "edge:7=live",
            [
                "Ignored “edge:7=live”: edge needs a notch and a piece, e.g. "
                "edge:4=strike."
            ],
        ),
        (
            "edge:2=wobbly",
            ["Ignored “edge:2=wobbly”: edge pieces are bare, live, strike and empty."],
        ),
        (
            '"Tyson',
            [
                'Ignored the unbalanced quote mark (") at character 1; the rest was '
                "read as plain words."
            ],
        ),
        ("or red", ["Ignored the “or” at character 1: no term before it."]),
        ("dragoon or", ["Ignored the “or” at character 9: no term after it."]),
        (
            "is:shiny",
            [
                "Ignored “is:shiny”: is: is one of promo, practice, custom, "
                "official, wild."
            ],
        ),
        ("a\x00b", ["Removed control characters from the query."]),
    ],
)
def test_every_ignored_term_is_reported_with_its_reason(text, warnings):
    assert parse_query(text).warnings == warnings


def test_a_query_longer_than_the_limit_is_refused_with_a_message():
    result = parse_query("x" * (MAX_LENGTH + 100))
    assert result.warnings == [
        f"The query is {MAX_LENGTH + 100} characters long; the most is {MAX_LENGTH}. "
        "Nothing was searched."
    ]
    assert result.refused
    assert not Card.objects.filter(result.q).exists()


def test_a_query_of_too_many_terms_is_refused_with_a_message():
    make_card(C, title="W1")
    result = parse_query(" ".join(f"w{i}" for i in range(MAX_TERMS + 5)))
    assert result.warnings == [
        f"The query has {MAX_TERMS + 5} terms; the most is {MAX_TERMS}. "
        "Nothing was searched."
    ]
    assert list(Card.objects.filter(result.q)) == []


@pytest.mark.parametrize(
    "text",
    [
        "' OR 1=1 --",
        "'; DROP TABLE cards_card; --",
        '"""',
        'name:"a',
        "\x00\x01\x02",
        "%ff%fe",
        "\ud800",
        "-",
        "--",
        "or or or",
        "edge:4=",
        "number>=-",
        "game:" + "z" * 400,
        "é" * 600,
    ],
)
def test_hostile_queries_read_without_raising(text):
    result = parse_query(text)
    list(Card.objects.filter(result.q))
    assert isinstance(result.description, str)


def test_a_practice_or_custom_search_is_flagged_so_checklists_keep_those_cards():
    assert parse_query("is:practice").mentions_kind
    assert parse_query("set:practice-set").mentions_kind
    assert not parse_query("colour:red").mentions_kind
