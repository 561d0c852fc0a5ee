"""Fuzzing search queries: parse_query never raises and no page answers 500.

Queries mix the search language's keys, comparisons, negation, ``or``, groups
(balanced or not) and quotes with garbage, null bytes, lone surrogates and SQL-looking text. Query
strings are percent-encoded by hand from UTF-8 with surrogates passed through,
as a client may send any bytes.
"""

import json
from urllib.parse import quote_from_bytes

import pytest
from hypothesis import event, example, given
from hypothesis import strategies as st

from cards import search
from cards.filtersets import CardFilterSet
from cards.models import Card

KEYS = [*search.KEYS, "Game", "NAME", "bogus", "_", "x1"]
VALUES = [
    "collision",
    "metal-fusion",
    "collide-o!",
    "mf",
    "practice",
    "custom",
    "official",
    "promo",
    "wild",
    "blade",
    "action",
    "red",
    "blue",
    "yes",
    "no",
    "4=strike",
    "7=live",
    "1:x",
    "96",
    "-3",
    "+5",
    "99999",
    "100000",
    "1e3",
    "0x1f",
    "١٢",
    '"Storm Pegasus"',
    '"unclosed',
    '""',
    "%",
    "_",
    "\\",
    "'",
    "practice-collision",
    "Ember",
]
NASTY = [
    "or",
    "OR",
    "or or",
    "-",
    "--",
    "-or",
    '"',
    "“quoted”",
    "\x00",
    "\x00name:x",
    "\ud800",
    "\udfff",
    "\x7f",
    "\u202e",
    "\u0301",
    "e\u0301",
    "💥",
    "' OR 1=1 --",
    "'; DROP TABLE cards_card; --",
    "%' OR '1'='1",
    "UNION SELECT * FROM auth_user",
    "name:%",
    "a" * 600,
    "x " * 40,
    ">=",
    ":",
    "=",
    "!=",
    "<",
    "(",
    ")",
    "-(",
    "()",
    "(" * 40,
    ")" * 40,
    "( or )",
    "and",
    "order:",
    "order:spin",
    "direction:up",
]


@st.composite
def terms(draw):
    kind = draw(st.integers(0, 5))
    if kind <= 2:
        key = draw(st.sampled_from(KEYS))
        op = draw(st.sampled_from(search.OPERATORS))
        value = draw(st.sampled_from(VALUES) | st.text(max_size=8))
        term = f"{key}{op}{value}"
    elif kind == 3:
        term = draw(st.sampled_from(NASTY))
    elif kind == 4:
        term = draw(st.sampled_from(VALUES))
    else:
        term = draw(st.text(max_size=10))
    if draw(st.integers(0, 4)) == 0:
        term = "-" + term
    return term


# Groups: parentheses (balanced or not), "or" inside, negated groups.
grouped = st.recursive(
    terms(),
    lambda sub: (
        st.lists(sub, min_size=1, max_size=3).map(
            lambda xs: "(" + " or ".join(xs) + ")"
        )
        | sub.map(lambda x: f"-({x})")
        | sub.map(lambda x: f"({x}")
        | sub.map(lambda x: f"{x})")
    ),
    max_leaves=6,
)
queries = st.lists(terms() | grouped, max_size=8).map(" ".join) | st.text(max_size=40)
GAMES = ["collision", "metal-fusion", "collide-o", "bakugan"]
FILTERS = [
    "game",
    "set",
    "kind",
    "type",
    "colour",
    "number",
    "number_min",
    "spin_max",
    "live",
    "edge_3",
    "promo",
    "wild",
    "g_power_min",
    "sort",
    "page",
    "per_page",
    "page_size",
]
junk = st.sampled_from(
    ["", "1", "-1", "99999999999999999999", "abc", "true", "\x00", "1.5", "name"]
) | st.text(max_size=6)


def encode(params: list[tuple[str, str]]) -> str:
    """Percent-encode parameters from UTF-8, lone surrogates included."""
    return "&".join(
        quote_from_bytes(k.encode("utf-8", "surrogatepass"), safe="")
        + "="
        + quote_from_bytes(v.encode("utf-8", "surrogatepass"), safe="")
        for k, v in params
    )


@pytest.fixture
def cards(practice):
    """Load one game's practice cards once per test function; return their count."""
    practice("collision")
    return Card.objects.count()


@given(text=queries | st.text())
def test_parse_query_never_raises(text):
    parsed = search.parse_query(text)
    assert isinstance(parsed.description, str) and parsed.description
    assert all(isinstance(w, str) and w for w in parsed.warnings)
    assert "\x00" not in parsed.text


@pytest.mark.django_db
@given(
    q=queries,
    where=st.sampled_from(["search", "game", "api", "api"]),
    game=st.sampled_from(GAMES),
    extra=st.lists(st.tuples(st.sampled_from(FILTERS), junk), max_size=3),
)
@example(q="", where="api", game="bakugan", extra=[("page", "abc")])
@example(q="\x00\ud800", where="game", game="collide-o", extra=[("page", "-1")])
@example(q="name:%", where="search", game="collision", extra=[("per_page", "0")])
@example(q=" -game>=collision -", where="api", game="collision", extra=[])
def test_a_fuzzed_query_never_makes_a_server_error(
    client, cards, q, where, game, extra
):
    # The server reads the query string as UTF-8, replacing what is not.
    parsed = search.parse_query(
        q.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    )
    # The database must accept the condition, whatever was typed.
    list(CardFilterSet({"q": q}, queryset=Card.objects.all()).qs[:1])
    path = {"search": "/search/", "game": f"/games/{game}/", "api": "/api/cards/"}
    response = client.get(path[where] + "?" + encode([("q", q), *extra]))
    event(f"{where} answered {response.status_code}")
    if where != "api":
        assert response.status_code == 200
        return
    # A page number that is not a page is "not found" (tests/cards/test_api.py).
    pages = [value for name, value in extra if name == "page"]
    assert response.status_code in ((200, 400, 404) if pages else (200, 400))
    body = json.loads(response.content)
    if response.status_code == 200:
        assert body["searched"] == parsed.description
        assert body["warnings"][: len(parsed.warnings)] == parsed.warnings
        assert body["count"] <= cards
        if parsed.refused:  # nothing could be read: no card, never all of them
            assert body["count"] == 0
    else:
        assert isinstance(body, dict) and body, "an error says why"


# -- Regressions found by the fuzzers above -----------------------------------


@pytest.mark.parametrize("query", ["number=-1", "q=number%3A-3", "q=-g%21%3D-3"])
@pytest.mark.django_db
def test_a_condition_no_card_can_meet_lists_no_card_in_the_api(client, cards, query):
    response = client.get(f"/api/cards/?{query}")
    assert response.status_code == 200
    body = response.json()
    assert (body["count"], body["results"]) == (0, [])
