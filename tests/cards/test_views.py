"""Checklist, set, search and card pages."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils.html import escape

from tests.factories import CO, MF, B, C, make_card, make_set

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


def row_names(response) -> list[str]:
    return [card.display_name for card in response.context["cards"]]


def test_the_home_page_links_each_game(client):
    response = client.get("/")
    for slug in ("collision", "metal-fusion", "collide-o", "bakugan"):
        assert f'href="/games/{slug}/"' in response.content.decode()


def test_the_game_page_lists_its_sets_and_official_cards_by_default(client):
    official = make_set(C, slug="base")
    practice = make_set(C, "practice", slug="practice")
    make_card(C, card_set=official, title="Dragoon", number=1)
    make_card(C, card_set=practice, title="Trainer", number=1)
    response = client.get("/games/collision/")
    assert response.status_code == 200
    assert row_names(response) == ["Dragoon"]
    page = response.content.decode()
    assert 'href="/games/collision/sets/base/"' in page
    assert 'href="/games/collision/sets/practice/"' in page


def test_practice_cards_appear_on_request_with_their_badge(client):
    make_card(C, title="Dragoon", number=1)
    make_card(C, kind="practice", title="Trainer", number=2)
    response = client.get("/games/collision/?kind=official&kind=practice")
    assert row_names(response) == ["Dragoon", "Trainer"]
    assert "practice · not printed" in response.content.decode()
    response = client.get("/games/collision/?q=is:practice")
    assert row_names(response) == ["Trainer"]


def test_other_users_private_custom_cards_are_hidden(client, user, other_user):
    mine = make_set(C, "custom", slug="mine", owner=user, is_public=False)
    make_card(C, card_set=mine, title="Homebrew")
    url = "/games/collision/?kind=custom"
    assert row_names(client.get(url)) == []
    client.force_login(other_user)
    assert row_names(client.get(url)) == []
    client.force_login(user)
    response = client.get(url)
    assert row_names(response) == ["Homebrew"]
    assert "custom · not printed" in response.content.decode()


def test_a_private_custom_card_page_is_not_found_for_others(client, user, other_user):
    mine = make_set(C, "custom", slug="mine", owner=user, is_public=False)
    card = make_card(C, card_set=mine, title="Homebrew")
    assert client.get(f"/cards/{card.pk}/").status_code == 404
    assert client.get(f"/cards/{card.pk}/image.png").status_code == 404
    client.force_login(other_user)
    assert client.get(f"/cards/{card.pk}/").status_code == 404
    client.force_login(user)
    assert client.get(f"/cards/{card.pk}/").status_code == 200


def test_the_set_page_shows_its_cards_even_when_practice(client):
    practice = make_set(MF, "practice", slug="practice")
    make_card(MF, card_set=practice, name="Gingka", number=1)
    response = client.get("/games/metal-fusion/sets/practice/")
    assert response.status_code == 200
    assert row_names(response) == ["Gingka"]
    assert client.get("/games/metal-fusion/sets/nope/").status_code == 404


@pytest.mark.parametrize(
    "sort, names",
    [
        ("number", ["Beta", "Alpha", "Gamma"]),
        ("-number", ["Gamma", "Alpha", "Beta"]),
        ("name", ["Alpha", "Beta", "Gamma"]),
        ("type", ["Alpha", "Beta", "Gamma"]),
    ],
)
def test_the_checklist_sorts_by_whitelisted_keys(client, sort, names):
    make_card(C, title="Beta", number=1, card_type="character")
    make_card(C, title="Alpha", number=2, card_type="action", symbol="play")
    make_card(C, title="Gamma", number=3, card_type="event")
    assert row_names(client.get(f"/games/collision/?sort={sort}")) == names


def test_an_unknown_sort_is_ignored_with_a_warning(client):
    make_card(C, title="Beta", number=1)
    response = client.get("/games/collision/?sort=secret")
    assert response.status_code == 200
    assert "Ignored the sort “secret”" in response.content.decode()


def test_pagination_is_bounded_and_a_bad_page_gives_a_real_page(client):
    for n in range(1, 6):
        make_card(C, title=f"Card {n}", number=n)
    response = client.get("/games/collision/?per_page=2&page=99")
    assert row_names(response) == ["Card 5"]
    response = client.get("/games/collision/?per_page=2&page=abc")
    assert row_names(response) == ["Card 1", "Card 2"]
    response = client.get("/games/collision/?per_page=5000")
    assert response.context["per_page"] == 200
    assert "The page size must be 1 to 200; showing 200." in response.content.decode()
    response = client.get("/games/collision/?per_page=x")
    assert response.context["per_page"] == 50


def test_a_bad_filter_value_shows_an_error_and_filters_by_the_rest(client):
    make_card(C, title="Red", colour="red", number=1)
    make_card(C, title="Blue", colour="blue", number=2)
    response = client.get("/games/collision/?number_min=abc&colour=red")
    assert response.status_code == 200
    assert row_names(response) == ["Red"]
    assert "Enter a whole number." in response.content.decode()


def test_the_search_page_searches_every_game_and_says_what_it_searched(client):
    make_card(C, title="Storm Rider")
    make_card(MF, name="Storm Pegasus")
    make_card(B, name="Fire Pit")
    response = client.get("/search/?q=storm+zap:1")
    assert sorted(row_names(response)) == ["Storm Pegasus", "Storm Rider"]
    page = response.content.decode()
    assert "Cards whose name or text has a word starting “storm”" in page
    assert "Ignored “zap:1”: unknown key &quot;zap&quot;." in page


@pytest.mark.parametrize(
    "query,message",
    [
        ("q=" + "a" * 5000, "search-warnings"),
        ("q=%22unbalanced", "search-warnings"),
        ("q=nope:1+zap>3", "search-warnings"),
        # Searched as words: the page says so, the text comes back escaped.
        ("q=%27+OR+1%3D1+--", "Ignored “&#x27;”"),
        ("q=a%00b", "search-warnings"),
        # Nothing readable: no card, and the page says so.
        ("q=%ff%fe%80", "No cards: nothing in the query could be read"),
        ("number_min=%ff&page=%00&per_page=-1&sort=%27", "filter-errors"),
        ("kind=bogus&game=chess&edge_1=x", "filter-errors"),
        ("q=" + "+or" * 300, "search-warnings"),
    ],
)
@pytest.mark.parametrize("url", ["/search/", "/games/bakugan/"])
def test_hostile_query_strings_answer_with_a_message_never_an_error(
    client, url, query, message
):
    response = client.get(f"{url}?{query}")
    assert response.status_code == 200
    assert message in response.content.decode()


def test_a_hostile_search_shows_its_warnings(client):
    response = client.get("/search/?q=%22Tyson+nope:1")
    page = response.content.decode()
    assert "Ignored the unbalanced quote mark" in page
    assert "unknown key &quot;nope&quot;" in page


@pytest.mark.parametrize("logged_in", [False, True])
def test_the_checklist_runs_the_same_number_of_queries_for_1_and_50_rows(
    client, user, logged_in
):
    if logged_in:
        client.force_login(user)
    for n in range(1, 61):
        make_card(C, title=f"Card {n}", number=n, battle_edge="LLS.E.")
    counts = []
    for size in (1, 50):
        client.get(f"/games/collision/?per_page={size}")  # warm the session
        with CaptureQueriesContext(connection) as queries:
            response = client.get(f"/games/collision/?per_page={size}")
        assert len(response.context["cards"]) == size
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_each_row_carries_the_key_stats_and_the_owned_widget(client):
    make_card(
        C, title="Dragoon", card_type="blade", spin_strength=6, number=1, rarity="rare"
    )
    page = client.get("/games/collision/").content.decode()
    assert "spin 6" in page
    assert "★" in page
    assert 'class="owned-widget-login"' in page
    assert 'src="/cards/' in page and "size=thumb" in page


def test_unknown_values_render_as_unknown_and_not_printed_as_not_printed(client):
    card = make_card(
        B, card_type="ability", bonus_pyrus=100, not_printed=["bonus_aquos"]
    )
    page = client.get(f"/cards/{card.pk}/").content.decode()
    assert '<td><span class="not-printed"' in page
    assert '<td><span class="unknown"' in page
    assert "+100" in page


@pytest.mark.parametrize(
    "game, fields, expected",
    [
        (
            C,
            {
                "title": "Dragoon",
                "card_type": "blade",
                "battle_edge": "LS.E..",
                "spin_strength": 6,
            },
            ['class="edge"', "Notch 2: strike", "edge-legend"],
        ),
        (
            MF,
            {
                "name": "Storm Pegasus",
                "card_type": "beyblade",
                "stat_yellow": 2,
                "move_yellow": -1,
            },
            ['class="pips"', "yellow 2", "-1"],
        ),
        (
            CO,
            {"section_1": "B", "section_2": "RG", "section_3": "BYRGK"},
            ['class="sections"', "red and green", "wild (all five colours)"],
        ),
        (
            B,
            {
                "name": "Fire Pit",
                "card_type": "gate",
                "gate_class": "gold",
                "bonus_pyrus": 100,
            },
            ['class="bonus-grid"', "Pyrus", "Ventus"],
        ),
    ],
)
def test_the_card_page_draws_the_pictures_of_its_game(client, game, fields, expected):
    card = make_card(game, **fields)
    response = client.get(f"/cards/{card.pk}/")
    assert response.status_code == 200
    page = response.content.decode()
    for text in expected:
        assert text in page
    assert f'src="/cards/{card.pk}/image.png?v=' in page
    assert "Provenance" in page and escape(card.provenance) in page
    assert 'class="badge badge-unverified"' in page


def test_the_card_page_shows_only_its_games_fields(client):
    card = make_card(MF, name="Gingka", card_type="character")
    page = client.get(f"/cards/{card.pk}/").content.decode()
    assert "Emblem" in page
    assert "Battle edge" not in page
    assert "G-Power" not in page


def test_the_card_page_links_its_set_and_neighbours(client):
    first = make_card(C, title="One", number=1)
    middle = make_card(C, title="Two", number=2)
    last = make_card(C, title="Three", number=3)
    page = client.get(f"/cards/{middle.pk}/").content.decode()
    assert re.search(rf'rel="prev" href="/cards/{first.pk}/"', page)
    assert re.search(rf'rel="next" href="/cards/{last.pk}/"', page)
    assert 'href="/games/collision/sets/official-set/"' in page
    page = client.get(f"/cards/{first.pk}/").content.decode()
    assert 'rel="prev"' not in page


def test_a_practice_card_page_says_it_is_not_printed(client):
    card = make_card(CO, kind="practice", section_1="B")
    page = client.get(f"/cards/{card.pk}/").content.decode()
    assert "practice · not printed" in page
    assert "Not a printed card" in page


def test_pages_carry_no_inline_styles_or_scripts(client):
    card = make_card(C, title="Dragoon", battle_edge="LS.E..", number=1)
    for url in ("/games/collision/", f"/cards/{card.pk}/", "/search/?q=x"):
        page = client.get(url).content.decode()
        assert " style=" not in page
        assert "<script>" not in page
        assert not re.search(r"\son[a-z]+=", page)


def test_fields_a_card_type_does_not_print_are_left_out_not_called_unknown(client):
    card = make_card(C, title="Dragoon", card_type="blade", spin_strength=6, number=1)
    page = client.get(f"/cards/{card.pk}/").content.decode()
    assert '<th scope="row">Colour</th>' not in page
    assert '<th scope="row">Symbol</th>' not in page
    assert '<th scope="row">Spin strength</th><td>6</td>' in page
    checklist = client.get("/games/collision/").content.decode()
    assert 'class="not-applicable"' in checklist


@pytest.mark.parametrize(
    "url",
    ["/cards/99999999999999999999/", "/cards/99999999999999999999/image.png"],
)
def test_out_of_range_card_ids_are_not_found(client, url):
    assert client.get(url).status_code == 404


def test_a_bakugan_card_s_rarity_is_not_printed_on_the_checklist_and_its_page(
    client,
):
    gate = make_card(B, card_type="gate", name="Fire Pit", gate_class="silver")
    unread = make_card(C, title="Dragoon", number=1)
    checklist = client.get("/games/bakugan/").content.decode()
    assert (
        '<td><span class="not-printed" title="The card does not print this">'
        "not printed</span></td>"
    ) in checklist
    page = client.get(f"/cards/{gate.pk}/").content.decode()
    assert re.search(
        r"<th scope=\"row\">Rarity</th><td><span class=\"not-printed\"", page
    )
    page = client.get(f"/cards/{unread.pk}/").content.decode()
    assert re.search(r"<th scope=\"row\">Rarity</th><td><span class=\"unknown\"", page)
