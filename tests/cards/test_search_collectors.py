"""Search in the words collectors type (issue 19, item 1): each query names the
exact cards it finds, and the description says how each word was read. Then the
same language on every page that searches, and the practice-card rule the search
page and the checklists share."""

import pytest
from django.urls import reverse

from cards.models import Card
from cards.search import parse_query
from tests.factories import CO, MF, B, C, make_card, make_entry, make_set

pytestmark = pytest.mark.django_db


def found(text: str) -> list[int]:
    return sorted(Card.objects.filter(parse_query(text).q).values_list("pk", flat=True))


def pks(*cards) -> list[int]:
    return sorted(c.pk for c in cards)


@pytest.fixture
def cards():
    one_48 = make_set(B, slug="1-48", name="Battle Brawlers series 1-48")
    one_48c = make_set(B, slug="1-48c", name="Battle Brawlers series 1-48c")
    return {
        "red action": make_card(
            C, card_type="action", colour="red", symbol="play", title="Dragoon Storm", number=12
        ),
        "predictable": make_card(
            C, card_type="action", colour="blue", symbol="win", title="Predictable Opponent", number=13
        ),
        "yellow event": make_card(C, card_type="event", colour="yellow", title="Bright Day", number=14),
        "rare blade": make_card(
            C, card_type="blade", title="Rare Find", rarity="rare", spin_strength=6, number=15
        ),
        "common blade": make_card(C, card_type="blade", title="Plain", rarity="common", number=16),
        "tyson": make_card(C, card_type="character", title="Tyson", subtitle="Eager", number=96),
        "mf 96": make_card(MF, name="Gingka", number=96),
        "red ability": make_card(B, card_type="ability", colour="red", name="Fire Wall", number=30),
        "green ability": make_card(B, card_type="ability", colour="green", name="Leaf Guard", number=31),
        "gold gate": make_card(
            B, card_type="gate", gate_class="gold", name="Golden Gate", card_set=one_48, number=1,
            printed_number="1/48", bonus_haos=150, bonus_pyrus=200,
        ),
        "silver gate": make_card(
            B, card_type="gate", gate_class="silver", name="Haos", card_set=one_48, number=11,
            printed_number="11/48", bonus_haos=100, bonus_pyrus=250,
        ),
        "gate 9/48c": make_card(
            B, card_type="gate", gate_class="copper", name="Heavy Surf", card_set=one_48c,
            number=9, printed_number="9/48c", bonus_haos=150, bonus_pyrus=100,
        ),
        "yellow section": make_card(CO, section_1="Y", section_2="RG"),
    }  # fmt: skip


@pytest.mark.parametrize(
    "text, names, reading",
    [
        (
            "red",
            ["red action", "red ability", "yellow section"],
            "red: read as colour red",
        ),
        ("rare", ["rare blade"], "rare: read as rarity rare"),
        ("gold", ["gold gate"], "gold: read as gate class gold"),
        ("yellow", ["yellow event", "yellow section"], "yellow: read as colour yellow"),
        ("1/48", ["gold gate"], "1/48: read as printed number 1/48"),
        ("9/48c", ["gate 9/48c"], "9/48c: read as printed number 9/48c"),
        ("#96", ["tyson", "mf 96"], "#96: read as card number 96"),
        ("collision 96", ["tyson"], "96: read as card number 96"),
        ("Haos 150", ["gold gate", "gate 9/48c"], "Haos 150: read as Haos bonus 150"),
        ("play", ["red action"], "play: read as play symbol"),
        (
            "bakugan ability",
            ["red ability", "green ability"],
            "ability: read as type Ability card",
        ),
    ],
)
def test_a_collectors_word_is_read_as_the_field_it_names(cards, text, names, reading):
    result = parse_query(text)
    assert found(text) == pks(*(cards[n] for n in names))
    assert reading in result.readings
    assert reading in result.description


def test_an_attribute_comparison_reads_as_that_bonus(cards):
    assert found("pyrus>=200") == pks(cards["gold gate"], cards["silver gate"])


def test_a_plain_word_matches_names_and_text_at_word_starts_not_inside_words(cards):
    assert found("opponent") == pks(cards["predictable"])
    assert found("ponent") == []
    assert found("n:storm") == pks(cards["red action"])
    assert found("orm") == []


def test_a_quoted_field_word_is_searched_as_words(cards):
    assert found('"haos"') == pks(cards["silver gate"])
    assert found('"red"') == []


def test_ability_cards_answer_class_as_well_as_colour(cards):
    assert found("class:red") == pks(cards["red ability"])
    assert found("class:red") == found("colour:red game:bakugan")
    assert found("class:gold") == pks(cards["gold gate"])


@pytest.mark.parametrize(
    "text, warning",
    [
        (
            "colur:red",
            'Ignored “colur:red”: unknown key "colur". Did you mean “colour”?',
        ),
        (
            "pyros>=200",
            'Ignored “pyros>=200”: unknown key "pyros". Did you mean “pyrus”?',
        ),
        (
            "colour:purpel",
            "Ignored “colour:purpel”: colour is a colour (red, yellow, green, blue, "
            "black) or colour letters (r y g b k).",
        ),
        ("t:actoin", "Ignored “t:actoin”: type is one of "),
        ("class:sliver", "Did you mean “silver”?"),
    ],
)
def test_a_close_miss_gets_a_hint_and_a_query_with_nothing_readable_finds_no_card(
    cards, text, warning
):
    result = parse_query(text)
    assert any(warning in w for w in result.warnings), result.warnings
    assert result.refused
    assert found(text) == []
    assert result.description == "No cards: nothing in the query could be read"


def test_a_misspelt_word_is_searched_as_words_with_a_hint(cards):
    result = parse_query("yelow")
    assert result.warnings == ["“yelow” was searched as words. Did you mean “yellow”?"]
    assert found("yelow") == []


# The same language everywhere.


def test_the_checklist_filter_box_reads_groups(client, cards):
    response = client.get("/games/collision/", {"q": "(c:red or c:blue) t:action"})
    assert sorted(c.pk for c in response.context["cards"]) == pks(
        cards["red action"], cards["predictable"]
    )
    assert "Actions that are red or blue" in response.content.decode()


def test_the_api_q_reads_groups_and_refuses_what_it_cannot_read(client, cards):
    data = client.get("/api/cards/", {"q": "(c:red or c:blue) t:action"}).json()
    assert sorted(c["id"] for c in data["results"]) == pks(
        cards["red action"], cards["predictable"]
    )
    assert data["searched"] == "Actions that are red or blue"
    data = client.get("/api/cards/", {"q": "(c:red"}).json()
    assert data["results"] == []
    assert data["warnings"] == [
        "The “(” at character 1 is never closed; nothing was searched."
    ]


def test_the_collection_pages_read_the_language(client, user, cards):
    make_entry(user, cards["red ability"], quantity=1)
    make_entry(user, cards["gold gate"], quantity=1)
    client.force_login(user)
    url = reverse("collection:entries")
    response = client.get(url, {"q": "class:red or gold"})
    shown = sorted(e.card_id for e in response.context["page"].object_list)
    assert shown == pks(cards["red ability"], cards["gold gate"])
    response = client.get(url, {"q": "colur:red"})
    assert list(response.context["page"].object_list) == []
    assert "Did you mean “colour”?" in response.content.decode()
    home = reverse("collection:home")
    response = client.get(home, {"q": "class:red or gold", "status": "owned"})
    shown = sorted(c.pk for c in response.context["page"].object_list)
    assert shown == pks(cards["red ability"], cards["gold gate"])


def test_the_deck_builders_card_finder_reads_the_language(client, user):
    from tests.factories import make_deck

    red = make_card(C, card_type="action", colour="red", symbol="play", title="Hot")
    make_card(C, card_type="action", colour="blue", symbol="play", title="Cold")
    deck = make_deck(user, C)
    client.force_login(user)
    response = client.get(
        reverse("decks:search", args=[deck.pk]), {"q": "c:r t:action"}
    )
    assert [c.pk for c in response.context["search"]["cards"]] == [red.pk]


# Practice cards: the search page and the checklists agree, and say so.


def test_the_search_page_and_the_checklist_both_leave_practice_cards_out_and_say_so(
    client,
):
    official = make_card(C, title="Storm Rider", number=1)
    make_card(C, kind="practice", title="Storm Trainer", number=2)
    for url in ("/search/", "/games/collision/"):
        response = client.get(url, {"q": "storm"})
        assert [c.pk for c in response.context["cards"]] == [official.pk]
        page = response.content.decode()
        assert (
            "Official cards only: 1 matching practice or custom card left out." in page
        )
        assert "kind=official&amp;kind=practice&amp;kind=custom" in page


def test_naming_practice_cards_in_the_query_includes_them_on_both(client):
    make_card(C, title="Storm Rider", number=1)
    practice = make_card(C, kind="practice", title="Storm Trainer", number=2)
    for url in ("/search/", "/games/collision/"):
        response = client.get(url, {"q": "storm is:practice"})
        assert [c.pk for c in response.context["cards"]] == [practice.pk]
        assert "Official cards only" not in response.content.decode()
