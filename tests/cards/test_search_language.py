"""The search language as card players know it (issue 24): every key and alias,
every operator on every number key, grouping and negated groups, colour letters
per game, order:, the property that parentheses in the right places change
nothing, and the help table generated from the parser's own keys."""

import operator
from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cards import search
from cards.games import GAMES
from cards.models import Card
from cards.search import KEY_TABLE, KEYS, MAX_DEPTH, help_rows, parse_query
from tests.factories import CO, MF, B, C, make_card, make_set, three_rows

pytestmark = pytest.mark.django_db


def found(text: str) -> list[int]:
    return sorted(Card.objects.filter(parse_query(text).q).values_list("pk", flat=True))


def pks(*cards) -> list[int]:
    return sorted(c.pk for c in cards)


# One case per key: three rows (the first two match) and the value after the key.
# The key is written by its name and by each alias in turn.
BLADE = {"card_type": "blade"}
KEY_CASES = {
    "game": ([(C, {}), (C, {}), (MF, {})], ":collision"),
    "set": ([(C, {"set": "alpha"}), (C, {"set": "alpha"}), (C, {})], ":alpha"),
    "type": (
        [
            (C, {"card_type": "event"}),
            (C, {"card_type": "event"}),
            (C, {"card_type": "character"}),
        ],
        ":event",
    ),
    "colour": (
        [
            (C, {"colour": "red"}),
            (B, {"card_type": "ability", "colour": "red"}),
            (C, {"colour": "blue"}),
        ],
        ":red",
    ),
    "rarity": (
        [(C, {"rarity": "rare"}), (C, {"rarity": "rare"}), (C, {"rarity": "common"})],
        ":rare",
    ),
    "number": ([(C, {"number": 7}), (MF, {"number": 7}), (C, {"number": 8})], ":7"),
    "name": (
        [
            (C, {"title": "Dragoon"}),
            (MF, {"name": "Dragoon Storm"}),
            (C, {"title": "Draciel", "text": "Dragoon"}),
        ],
        ":dragoon",
    ),
    "text": (
        [
            (C, {"text": "Draw a card."}),
            (C, {"text": "then draw two"}),
            (C, {"text": "Withdraw."}),
        ],
        ":draw",
    ),
    "is": (
        [(C, {"number": 131}), (C, {"rarity": "promo"}), (C, {"number": 130})],
        ":promo",
    ),
    "not": ([(C, {}), (C, {}), (C, {"kind": "practice"})], ":practice"),
    "status": (
        [
            (C, {"verification": "disputed"}),
            (C, {"verification": "disputed"}),
            (C, {"verification": "verified"}),
        ],
        ":disputed",
    ),
    "edge": (
        [
            (C, {"battle_edge": "...S.."}),
            (C, {"battle_edge": "LLLSLL"}),
            (C, {"battle_edge": "LLLLLL"}),
        ],
        ":4=strike",
    ),
    "live": (
        [
            (C, {"battle_edge": "LLL..."}),
            (C, {"battle_edge": "LLLL.."}),
            (C, {"battle_edge": "LL...."}),
        ],
        ">=3",
    ),
    "strike": (
        [
            (C, {"battle_edge": "S....."}),
            (C, {"battle_edge": "......"}),
            (C, {"battle_edge": "SS...."}),
        ],
        "<2",
    ),
    "empty": (
        [
            (C, {"battle_edge": "EE...."}),
            (C, {"battle_edge": "..EE.."}),
            (C, {"battle_edge": "E....."}),
        ],
        "=2",
    ),
    "spin": (
        [
            (C, {**BLADE, "spin_strength": 6}),
            (C, {**BLADE, "spin_strength": 7}),
            (C, {**BLADE, "spin_strength": 5}),
        ],
        ">=6",
    ),
    "symbol": (
        [
            (C, {"card_type": "action", "symbol": "win"}),
            (C, {"card_type": "action", "symbol": "win"}),
            (C, {"card_type": "action", "symbol": "play"}),
        ],
        ":win",
    ),
    "red": (
        [(MF, {"stat_red": 4}), (MF, {"stat_red": 5}), (MF, {"stat_red": 3})],
        ">3",
    ),
    "blue": (
        [(MF, {"stat_blue": 1}), (MF, {"stat_blue": 1}), (MF, {"stat_blue": 2})],
        ":1",
    ),
    "green": (
        [(MF, {"stat_green": 0}), (MF, {"stat_green": 2}), (MF, {"stat_green": 3})],
        "<=2",
    ),
    "yellow": (
        [(MF, {"stat_yellow": 0}), (MF, {"stat_yellow": 1}), (MF, {"stat_yellow": 2})],
        "<2",
    ),
    "emblem": (
        [
            (MF, {"emblem": "Pegasus"}),
            (MF, {"emblem": "Pegasus"}),
            (MF, {"emblem": "Leone"}),
        ],
        ":pegasus",
    ),
    "launcher": (
        [
            (MF, {"launcher": "red"}),
            (MF, {"launcher": "red"}),
            (MF, {"launcher": "blue"}),
        ],
        ":red",
    ),
    "booster": (
        [(MF, {"boosters": "Y"}), (MF, {"boosters": "GY"}), (MF, {"boosters": "G"})],
        ":yellow",
    ),
    "timing": (
        [
            (MF, {"card_type": "effect", "timing": "when-revealed"}),
            (MF, {"card_type": "effect", "timing": "when-revealed"}),
            (MF, {"card_type": "effect", "timing": "in-lineup"}),
        ],
        ":when-revealed",
    ),
    "section": (
        [(CO, {"section_1": "K"}), (CO, {"section_2": "BK"}), (CO, {"section_1": "B"})],
        ":black",
    ),
    "section1": (
        [(CO, {"section_1": "R"}), (CO, {"section_1": "RG"}), (CO, {"section_2": "R"})],
        ":red",
    ),
    "section2": (
        [(CO, {"section_2": "G"}), (CO, {"section_2": "YG"}), (CO, {"section_1": "G"})],
        ":g",
    ),
    "section3": (
        [(CO, {"section_3": "Y"}), (CO, {"section_3": "YR"}), (CO, {"section_3": "R"})],
        ":yellow",
    ),
    "wild": (
        [
            (CO, {"section_1": "BYRGK"}),
            (CO, {"section_3": "BYRGK"}),
            (CO, {"section_1": "B"}),
        ],
        ":yes",
    ),
    "attribute": (
        [
            (B, {"card_type": "bakugan", "attribute": "darkus"}),
            (B, {"card_type": "bakugan", "attribute": "darkus"}),
            (B, {"card_type": "bakugan", "attribute": "haos"}),
        ],
        ":darkus",
    ),
    "gpower": (
        [
            (B, {"card_type": "bakugan", "g_power": 450}),
            (B, {"card_type": "bakugan", "g_power": 500}),
            (B, {"card_type": "bakugan", "g_power": 400}),
        ],
        ">400",
    ),
    "class": (
        [
            (B, {"card_type": "gate", "gate_class": "silver"}),
            (B, {"card_type": "gate", "gate_class": "silver"}),
            (B, {"card_type": "gate", "gate_class": "gold"}),
        ],
        ":silver",
    ),
    "pyrus": (
        [
            (B, {"bonus_pyrus": 200}),
            (B, {"bonus_pyrus": 250}),
            (B, {"bonus_pyrus": 150}),
        ],
        ">=200",
    ),
    "aquos": (
        [
            (B, {"bonus_aquos": 100}),
            (B, {"bonus_aquos": 100}),
            (B, {"bonus_aquos": 50}),
        ],
        "=100",
    ),
    "subterra": (
        [
            (B, {"bonus_subterra": -100}),
            (B, {"bonus_subterra": 0}),
            (B, {"bonus_subterra": 50}),
        ],
        "<=0",
    ),
    "haos": (
        [(B, {"bonus_haos": 300}), (B, {"bonus_haos": 400}), (B, {"bonus_haos": 200})],
        ">200",
    ),
    "darkus": (
        [
            (B, {"bonus_darkus": 10}),
            (B, {"bonus_darkus": 20}),
            (B, {"bonus_darkus": 30}),
        ],
        "<30",
    ),
    "ventus": (
        [
            (B, {"bonus_ventus": 70}),
            (B, {"bonus_ventus": 70}),
            (B, {"bonus_ventus": 80}),
        ],
        ":70",
    ),
}
# order: and direction: sort rather than filter (test_order_* below).
SORTING = {"order", "direction"}


def _rows(rows):
    made = []
    for game, fields in rows:
        fields = dict(fields)
        if fields.pop("set", None):
            fields["card_set"] = make_set(game, slug="alpha")
        made.append((game, fields))
    return made


def test_every_key_of_the_language_has_a_case_here():
    assert set(KEY_CASES) | SORTING == {k.name for k in KEY_TABLE}


@pytest.mark.parametrize(
    "name",
    [n for k in KEY_TABLE if k.name not in SORTING for n in k.names],
)
def test_each_key_and_alias_keeps_the_two_matching_rows_of_three(name):
    rows, rest = KEY_CASES[KEYS[name].name]
    first, second, _ = three_rows(_rows(rows))
    result = parse_query(name + rest)
    assert result.warnings == []
    assert found(name + rest) == pks(first, second)


# Operators: every number key takes each of them, read as Python reads them.
NUMBER_ROWS = {
    "number": lambda v: (C, {"number": v}),
    "cn": lambda v: (C, {"number": v}),
    "live": lambda v: (C, {"battle_edge": "L" * v + "." * (6 - v)}),
    "strike": lambda v: (C, {"battle_edge": "S" * v + "." * (6 - v)}),
    "empty": lambda v: (C, {"battle_edge": "E" * v + "." * (6 - v)}),
    "spin": lambda v: (C, {**BLADE, "spin_strength": v}),
    **{c: partial(lambda c, v: (MF, {f"stat_{c}": v}), c) for c in search.MF_COLOURS},
    "g": lambda v: (B, {"card_type": "bakugan", "g_power": v}),
    "gpower": lambda v: (B, {"card_type": "bakugan", "g_power": v}),
    "power": lambda v: (B, {"card_type": "bakugan", "g_power": v}),
    **{a: partial(lambda a, v: (B, {f"bonus_{a}": v}), a) for a in search.ATTRIBUTES},
}
PYTHON_OPS = {
    ":": operator.eq,
    "=": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def test_every_number_key_is_tried_with_every_operator():
    numeric = {n for k in KEY_TABLE if k.numeric for n in k.names} - {"game"}
    assert numeric == set(NUMBER_ROWS)
    assert set(PYTHON_OPS) == set(search.OPERATORS)


@pytest.mark.parametrize("op", list(PYTHON_OPS))
@pytest.mark.parametrize("key", list(NUMBER_ROWS))
def test_each_operator_on_each_number_key_compares_as_written(key, op):
    cards = {}
    for v in (2, 3, 4):
        game, fields = NUMBER_ROWS[key](v)
        cards[v] = make_card(game, **fields)
    text = f"{key}{op}3"
    assert parse_query(text).warnings == []
    expected = [c for v, c in cards.items() if PYTHON_OPS[op](v, 3)]
    assert found(text) == pks(*expected)


def test_not_equal_negates_a_key_that_is_not_a_number():
    red = make_card(C, colour="red")
    blue = make_card(C, colour="blue")
    assert found("c!=red") == pks(blue)
    assert found("c:red") == pks(red)
    assert found("t!=blade") == pks(red, blue)


# Grouping and logic.


@pytest.fixture
def actions():
    return {
        colour: make_card(
            C, card_type="action", colour=colour, symbol="play", title=f"{colour} move"
        )
        for colour in ("red", "blue", "green")
    } | {"red event": make_card(C, card_type="event", colour="red", title="Red event")}


def test_parentheses_group_an_or_inside_an_and(actions):
    text = "(colour:red or colour:blue) type:action"
    assert found(text) == pks(actions["red"], actions["blue"])
    assert parse_query(text).description == "Actions that are red or blue"


def test_without_parentheses_and_binds_tighter_than_or(actions):
    assert found("colour:red or colour:blue type:action") == pks(
        actions["red"], actions["blue"], actions["red event"]
    )


def test_and_may_be_written(actions):
    assert found("c:red and t:action") == pks(actions["red"])


def test_a_negated_group_leaves_out_every_card_it_matches(actions):
    text = "t:action -(c:red or c:blue)"
    assert found(text) == pks(actions["green"])
    assert parse_query(text).description == "Actions that are neither red nor blue"
    other = "t:action -(c:red or spin>=6)"
    assert found(other) == pks(actions["blue"], actions["green"])
    assert parse_query(other).description == (
        "Actions not (that are red or whose spin strength is at least 6)"
    )


def test_groups_nest(actions):
    text = "((c:red or (c:blue)) and (t:action or t:event)) -(t:event)"
    assert found(text) == pks(actions["red"], actions["blue"])


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "(c:red or c:blue t:action",
            "The “(” at character 1 is never closed; nothing was searched.",
        ),
        (
            "c:red) t:action",
            "The “)” at character 6 closes no “(”; nothing was searched.",
        ),
        (
            "t:action ((c:red) or c:blue",
            "The “(” at character 10 is never closed; nothing was searched.",
        ),
        (
            "(" * (MAX_DEPTH + 1) + "c:red" + ")" * (MAX_DEPTH + 1),
            f"The parentheses are nested more than {MAX_DEPTH} deep (at character "
            f"{MAX_DEPTH + 1}); nothing was searched.",
        ),
    ],
)
def test_unbalanced_or_too_deep_parentheses_are_refused_naming_the_place(
    actions, text, message
):
    result = parse_query(text)
    assert result.warnings == [message]
    assert result.refused
    assert found(text) == []


@pytest.mark.parametrize(
    "text",
    [
        '"unbalanced',
        ">=",
        "<",
        ":",
        "-",
        "()",
        "(" * 5000,
        ")" * 5000,
        "() or ()",
        "or and or",
        "- - -",
    ],
)
def test_hostile_input_answers_with_a_message_and_never_all_cards(actions, text):
    result = parse_query(text)
    assert result.warnings
    assert len(found(text)) < len(actions)


# Colour letters, game by game (the letters come from the registry).


def test_colour_letters_read_each_games_colours():
    red_c = make_card(C, colour="red")
    yellow_c = make_card(C, colour="yellow")
    green_c = make_card(C, colour="green")
    red_b = make_card(B, card_type="ability", colour="red")
    green_b = make_card(B, card_type="ability", colour="green")
    black_o = make_card(CO, section_1="K")
    red_o = make_card(CO, section_1="B", section_2="RG")
    wild_o = make_card(CO, section_3="BYRGK")
    make_card(MF, launcher="red")  # a Metal Fusion card has no colour here
    assert found("c:r") == pks(red_c, red_b, red_o, wild_o)
    assert found("c:ry") == pks(red_c, yellow_c, red_b, red_o, wild_o)
    assert found("c:g game:bakugan") == pks(green_b)
    assert found("c:g game:collision") == pks(green_c)
    assert found("c:k") == pks(black_o, wild_o)
    assert found("c:black") == pks(black_o, wild_o)
    assert found("c:k game:collision") == []


def test_every_games_colour_letter_is_the_registrys():
    for game in GAMES.values():
        for colour in game.colours:
            assert search.LETTER_COLOURS[colour.letter.lower()] == colour.value


# order: and direction:, the checklist's and the API's sort words.


@pytest.fixture
def blades():
    return [
        make_card(C, card_type="blade", title=name, number=n, spin_strength=s)
        for name, n, s in (("Beta", 1, 7), ("Alpha", 2, 5), ("Gamma", 3, 6))
    ]


@pytest.mark.parametrize(
    "text, order",
    [
        ("order:name", "name"),
        ("sort:name", "name"),
        ("order:spin direction:desc", "-spin"),
        ("order:spin dir:asc", "spin"),
        ("order:-number", "-number"),
        ("direction:desc", "-number"),
        ("order:cn", "number"),
    ],
)
def test_order_reads_a_sort_key_and_a_direction(text, order):
    assert parse_query(text).order == order


def test_order_sorts_the_search_page_and_the_sort_parameter_wins(client, blades):
    beta, alpha, gamma = blades
    response = client.get("/search/", {"q": "t:blade order:spin direction:desc"})
    assert [c.pk for c in response.context["cards"]] == [beta.pk, gamma.pk, alpha.pk]
    response = client.get("/search/", {"q": "t:blade order:spin", "sort": "name"})
    assert [c.pk for c in response.context["cards"]] == [alpha.pk, beta.pk, gamma.pk]


def test_order_sorts_the_api_list_as_its_sort_parameter_does(client, blades):
    beta, alpha, gamma = blades
    by_q = client.get("/api/cards/", {"q": "t:blade order:spin"}).json()
    by_sort = client.get("/api/cards/", {"q": "t:blade", "sort": "spin"}).json()
    assert [c["id"] for c in by_q["results"]] == [alpha.pk, gamma.pk, beta.pk]
    assert [c["id"] for c in by_sort["results"]] == [alpha.pk, gamma.pk, beta.pk]


def test_an_unknown_order_is_ignored_with_a_hint():
    result = parse_query("t:blade order:spinn")
    assert result.order is None
    assert result.warnings == [
        f"Ignored “order:spinn”: order by one of {', '.join(search.SORT_KEYS)}. "
        "Did you mean “spin”?"
    ]


# A query and its fully parenthesised form find the same cards, and both find
# what the set algebra of their terms says.

ATOMS = [
    "c:red",
    "t:action",
    "spin>=6",
    "n:storm",
    "is:promo",
    "number<5",
    "r:rare",
    "g:bakugan",
]


def trees(depth=3):
    atom = st.sampled_from(ATOMS).map(lambda a: ("atom", a))
    return st.recursive(
        atom,
        lambda sub: st.one_of(
            st.tuples(st.just("and"), st.lists(sub, min_size=2, max_size=3)),
            st.tuples(st.just("or"), st.lists(sub, min_size=2, max_size=3)),
            st.tuples(st.just("not"), sub),
        ),
        max_leaves=8,
    )


def plain(tree) -> str:
    """Write the tree with only the parentheses precedence needs."""
    kind = tree[0]
    if kind == "atom":
        return tree[1]
    if kind == "not":
        inner = tree[1]
        return "-" + inner[1] if inner[0] == "atom" else f"-({plain(inner)})"
    parts = []
    for child in tree[1]:
        text = plain(child)
        if kind == "and" and child[0] == "or" or child[0] == kind:
            text = f"({text})"
        parts.append(text)
    return (" " if kind == "and" else " or ").join(parts)


def full(tree) -> str:
    """Write the tree with every group in parentheses."""
    kind = tree[0]
    if kind == "atom":
        return tree[1]
    if kind == "not":
        return f"-({full(tree[1])})"
    return (
        "("
        + (" and " if kind == "and" else " or ").join(full(c) for c in tree[1])
        + ")"
    )


def test_a_query_and_its_fully_parenthesised_form_find_the_same_cards():
    cards = [
        make_card(
            C,
            card_type="action",
            colour="red",
            symbol="play",
            title="Storm Move",
            number=1,
            rarity="rare",
        ),
        make_card(C, card_type="blade", title="Storm Blade", number=7, spin_strength=6),
        make_card(C, card_type="blade", title="Calm Blade", number=3, spin_strength=5),
        make_card(
            C,
            card_type="action",
            colour="blue",
            symbol="win",
            title="Calm Move",
            number=131,
        ),
        make_card(B, card_type="ability", colour="red", name="Red Storm", number=2),
        make_card(B, card_type="gate", gate_class="gold", name="Fire Pit", number=9),
    ]
    every = {c.pk for c in cards}
    atoms = {a: set(found(a)) for a in ATOMS}

    def expected(tree):
        kind = tree[0]
        if kind == "atom":
            return atoms[tree[1]]
        if kind == "not":
            return every - expected(tree[1])
        sets = [expected(c) for c in tree[1]]
        return set.intersection(*sets) if kind == "and" else set.union(*sets)

    @settings(max_examples=60, deadline=None, database=None)
    @given(tree=trees())
    def check(tree):
        short, long = plain(tree), full(tree)
        assert parse_query(short).warnings == []
        assert parse_query(long).warnings == []
        assert set(found(short)) == set(found(long)) == expected(tree), (short, long)

    check()


# The help table is the parser's own.


def test_the_help_table_lists_every_key_and_alias_the_parser_reads():
    rows = help_rows()
    assert [r["key"] for r in rows] == [k.name for k in KEY_TABLE]
    named = {r["key"] for r in rows} | {a for r in rows for a in r["aliases"]}
    assert named == set(KEYS)
    for row, key in zip(rows, KEY_TABLE, strict=True):
        assert row["games"] == [GAMES[s].short_name for s in key.games]
        assert row["operators"] == key.operators


def test_the_help_page_shows_the_generated_table(client):
    page = client.get("/search/help/").content.decode()
    for row in help_rows():
        assert f'<th scope="row"><code>{row["key"]}</code></th>' in page
        for alias in row["aliases"]:
            assert f"<code>{alias}</code>" in page


def test_the_games_a_key_applies_to_come_from_the_registry():
    rows = {r["key"]: r["games"] for r in help_rows()}
    assert rows["spin"] == [GAMES[C].short_name]
    assert rows["class"] == [GAMES[B].short_name]
    assert rows["colour"] == [
        GAMES[g].short_name for g in GAMES if GAMES[g].colour_search
    ]
    assert rows["name"] == [g.short_name for g in GAMES.values()]


def test_the_benchmark_query_has_100_terms_in_20_nested_groups_and_reads_cleanly():
    from cards.search import tokenize
    from tools.bench.search import benchmark_query, depth

    text = benchmark_query()
    assert sum(t.kind == "term" for t in tokenize(text, [])) == 100
    assert depth(text) == 20
    assert parse_query(text).warnings == []


def test_a_rarity_letter_reads_as_the_games_word_and_as_a_printed_letter():
    common = make_card(C, rarity="common")
    make_card(C, rarity="rare")
    letter_c = make_card(MF, rarity="C")
    make_card(MF, rarity="R")
    assert found("r:c") == pks(common, letter_c)
    assert found("r:c g:collision") == pks(common)
    result = parse_query("r:comon")
    assert result.warnings == [
        "Ignored “r:comon”: no rarity “comon”. Did you mean “common”?"
    ]


def test_each_card_is_listed_once_however_many_terms_it_matches(client, blades):
    text = "t:blade or n:alpha or spin>=5 or g:collision or order:name"
    rows = client.get("/api/cards/", {"q": text}).json()
    ids = [c["id"] for c in rows["results"]]
    assert rows["count"] == len(ids) == len(set(ids)) == 3


@pytest.mark.parametrize("text", ["order:bogus", "or or or", "direction:sideways"])
def test_a_query_of_nothing_but_unreadable_order_or_connectives_finds_no_card(
    blades, text
):
    result = parse_query(text)
    assert result.refused
    assert found(text) == []


def test_order_alone_lists_every_card_in_that_order(client, blades):
    beta, alpha, gamma = blades
    result = parse_query("order:name")
    assert not result.refused
    assert result.description == "All cards (ordered by name)"
    response = client.get("/search/", {"q": "order:name"})
    assert [c.pk for c in response.context["cards"]] == [alpha.pk, beta.pk, gamma.pk]


def test_a_repeated_term_or_group_is_read_once_and_finds_the_same_cards(actions):
    once = parse_query("(c:red or c:blue) t:action")
    again = parse_query(
        "(c:red or c:blue or c:red) t:action (c:blue or c:red or c:blue)"
    )
    assert found("(c:red or c:blue or c:red) t:action") == found(
        "(c:red or c:blue) t:action"
    )
    assert once.description == "Actions that are red or blue"
    assert again.description == "Actions that are red or blue and that are blue or red"


@pytest.mark.parametrize("direction", ["asc", "desc"])
def test_cards_whose_value_is_unknown_sort_last_either_way(client, blades, direction):
    unknown = make_card(C, card_type="blade", title="Delta", number=4)
    response = client.get(
        "/search/", {"q": f"t:blade order:spin direction:{direction}"}
    )
    assert [c.pk for c in response.context["cards"]][-1] == unknown.pk
