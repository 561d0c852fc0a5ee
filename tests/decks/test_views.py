"""Deck pages: public lists, privacy (404), the htmx editor, tools, import."""

import pytest
from django.urls import reverse

from decks import services
from decks.models import Deck, DeckEntry
from tests.factories import make_deck

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_public_decks_are_listed_per_game_and_private_ones_are_not(
    client, private_deck, public_deck, other_user
):
    services.deck_create(owner=other_user, game="bakugan", name="Brawl", is_public=True)
    response = client.get("/decks/?game=collision")
    assert response.status_code == 200
    assert [d.name for d in response.context["page"]] == ["Open storm"]
    response = client.get("/decks/games/bakugan/")
    assert [d.name for d in response.context["page"]] == ["Brawl"]
    response = client.get("/decks/")
    assert "Secret storm" not in response.content.decode()


def test_unknown_game_is_404_and_bad_filter_is_no_error(client):
    assert client.get("/decks/games/chess/").status_code == 404
    response = client.get("/decks/?game=chess")
    assert response.status_code == 200
    assert list(response.context["page"]) == []


def test_owner_sees_their_private_decks_in_the_list(client, user, private_deck):
    client.force_login(user)
    response = client.get("/decks/")
    assert [d.name for d in response.context["mine"]] == ["Secret storm"]


READ_PAGES = ["decks:detail", "decks:export", "decks:versions", "decks:hand"]
OWNER_GETS = ["decks:settings", "decks:import", "decks:search"]
OWNER_POSTS = [
    "decks:add",
    "decks:remove",
    "decks:settings",
    "decks:delete",
    "decks:import",
    "decks:wishlist",
]


@pytest.mark.parametrize("who", ["anonymous", "other"])
def test_a_private_deck_is_404_to_everyone_but_its_owner(
    client, other_user, private_deck, who
):
    if who == "other":
        client.force_login(other_user)
    for name in READ_PAGES + OWNER_GETS:
        assert client.get(reverse(name, args=[private_deck.pk])).status_code == 404, (
            name
        )
    for name in OWNER_POSTS:
        data = {
            "card": private_deck.entries.first().card_id,
            "zone": "deck",
            "quantity": 1,
            "text": "1 Move 1",
            "name": "x",
        }
        assert (
            client.post(reverse(name, args=[private_deck.pk]), data).status_code == 404
        ), name
    assert (
        client.get(reverse("decks:version", args=[private_deck.pk, 1])).status_code
        == 404
    )
    assert Deck.objects.get(pk=private_deck.pk).name == "Secret storm"
    assert private_deck.versions.count() == 1


@pytest.mark.parametrize("who", ["anonymous", "other"])
def test_a_public_deck_is_readable_but_not_writable_by_others(
    client, other_user, public_deck, who
):
    if who == "other":
        client.force_login(other_user)
    for name in READ_PAGES:
        # Outside htmx the hand page sends the reader to the deck page (below).
        headers = HTMX if name == "decks:hand" else {}
        response = client.get(reverse(name, args=[public_deck.pk]), **headers)
        assert response.status_code == 200, name
    hand = client.get(reverse("decks:hand", args=[public_deck.pk]), {"seed": "7"})
    assert (hand.status_code, hand["Location"]) == (
        302,
        f"{public_deck.get_absolute_url()}?seed=7#hand",
    )
    for name in OWNER_POSTS:
        assert (
            client.post(reverse(name, args=[public_deck.pk]), {"name": "x"}).status_code
            == 404
        ), name
    assert public_deck.entries.count() == 1


def test_clone_needs_a_signed_in_user_and_a_visible_deck(
    client, other_user, public_deck, private_deck
):
    assert client.post(reverse("decks:clone", args=[public_deck.pk])).status_code == 302
    assert Deck.objects.count() == 2
    client.force_login(other_user)
    assert (
        client.post(reverse("decks:clone", args=[private_deck.pk])).status_code == 404
    )
    response = client.post(reverse("decks:clone", args=[public_deck.pk]))
    copy = Deck.objects.get(owner=other_user)
    assert response.url == copy.get_absolute_url()


def test_deck_page_shows_problems_and_tools(client, user, public_deck):
    response = client.get(public_deck.get_absolute_url())
    html = response.content.decode()
    assert response.status_code == 200
    assert "This deck has 1." in html
    assert "<svg" in html
    assert "style=" not in html
    assert "<script>" not in html


def test_legal_deck_page_says_legal(client, user, private_deck):
    client.force_login(user)
    response = client.get(private_deck.get_absolute_url())
    assert response.context["legal"] is True
    assert "Legal deck" in response.content.decode()


def test_htmx_add_returns_the_panel_with_fresh_problems(
    client, user, public_deck, collision_cards
):
    _, actions = collision_cards
    client.force_login(user)
    url = reverse("decks:add", args=[public_deck.pk])
    response = client.post(
        url, {"card": actions[0].pk, "zone": "deck", "quantity": 4}, **HTMX
    )
    assert response.status_code == 200
    assert response.templates[0].name == "decks/_panel.html"
    assert "This deck has 5." in response.content.decode()
    assert DeckEntry.objects.get(deck=public_deck, card=actions[0]).quantity == 4


def test_htmx_remove_updates_the_panel(client, user, public_deck, collision_cards):
    blade, _ = collision_cards
    client.force_login(user)
    url = reverse("decks:remove", args=[public_deck.pk])
    response = client.post(
        url, {"card": blade.pk, "zone": "blade", "quantity": 1}, **HTMX
    )
    assert "This deck has 0." in response.content.decode()
    assert public_deck.entries.count() == 0


def test_add_without_htmx_redirects_back(client, user, public_deck, collision_cards):
    _, actions = collision_cards
    client.force_login(user)
    response = client.post(
        reverse("decks:add", args=[public_deck.pk]),
        {"card": actions[0].pk, "quantity": 1},
    )
    assert response.status_code == 302
    assert DeckEntry.objects.get(deck=public_deck, card=actions[0]).zone == "deck"


@pytest.mark.parametrize(
    "data,message",
    [
        ({"card": "abc", "quantity": 1}, "Choose a card and a count from 1 to 99."),
        ({"card": 1, "quantity": 1000}, "Choose a card and a count from 1 to 99."),
        ({"card": 999999, "quantity": 1}, "There is no such card."),
    ],
)
def test_bad_add_input_is_a_message_not_an_error(
    client, user, public_deck, data, message
):
    client.force_login(user)
    response = client.post(reverse("decks:add", args=[public_deck.pk]), data, **HTMX)
    assert response.status_code == 200
    assert response.context["panel_error"] == message
    assert public_deck.entries.count() == 1


def test_adding_a_card_of_another_game_is_refused(
    client, user, public_deck, card_factory
):
    gate = card_factory("bakugan", card_type="gate", gate_class="gold")
    client.force_login(user)
    response = client.post(
        reverse("decks:add", args=[public_deck.pk]),
        {"card": gate.pk, "quantity": 1},
        **HTMX,
    )
    assert "is not a Beyblade Collision card" in response.context["panel_error"]
    assert public_deck.entries.count() == 1


def test_search_uses_the_search_language_within_the_decks_game(
    client, user, public_deck, collision_cards, card_factory
):
    card_factory("bakugan", card_type="gate", gate_class="gold", name="Move 1 gate")
    client.force_login(user)
    response = client.get(
        reverse("decks:search", args=[public_deck.pk]), {"q": "Move 1"}, **HTMX
    )
    names = sorted(c.display_name for c in response.context["search"]["cards"])
    assert names == ["Move 1", "Move 10", "Move 11", "Move 12", "Move 13", "Move 14"]


def test_search_only_cards_i_own(client, user, public_deck, collision_cards):
    from collection.services import collection_change_quantity

    _, actions = collision_cards
    collection_change_quantity(user=user, card=actions[3], owned_delta=2)
    client.force_login(user)
    response = client.get(
        reverse("decks:search", args=[public_deck.pk]), {"q": "Move", "owned": "1"}
    )
    assert [c.pk for c in response.context["search"]["cards"]] == [actions[3].pk]


def test_owned_and_missing_copies_and_the_wishlist_button(
    client, user, private_deck, collision_cards
):
    from collection.models import CollectionEntry
    from collection.services import collection_change_quantity

    blade, actions = collision_cards
    collection_change_quantity(user=user, card=actions[0], owned_delta=1)
    client.force_login(user)
    response = client.get(private_deck.get_absolute_url())
    assert response.context["missing_total"] == 59
    entry = next(
        e
        for z in response.context["zones"]
        for e in z["entries"]
        if e.card_id == actions[0].pk
    )
    assert (entry.owned, entry.missing) == (1, 3)
    response = client.post(reverse("decks:wishlist", args=[private_deck.pk]), **HTMX)
    assert (
        response.context["panel_message"] == "Added 59 wanted copies to your wishlist."
    )
    assert CollectionEntry.objects.get(user=user, card=actions[0]).wanted_quantity == 3


def test_import_page_reports_bad_lines_and_writes_nothing(client, user, public_deck):
    client.force_login(user)
    response = client.post(
        reverse("decks:import", args=[public_deck.pk]),
        {"text": "Deck:\n4 Move 1\n3 Nope\n"},
    )
    assert response.status_code == 200
    assert [e.line for e in response.context["line_errors"]] == [3]
    assert public_deck.entries.count() == 1
    response = client.post(
        reverse("decks:import", args=[public_deck.pk]), {"text": "Deck:\n4 Move 1\n"}
    )
    assert response.status_code == 302
    assert list(public_deck.entries.values_list("zone", "quantity")) == [("deck", 4)]


def test_export_is_plain_text(client, public_deck):
    response = client.get(reverse("decks:export", args=[public_deck.pk]))
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response.content.decode() == "Blade:\n1 Dragoon, Storm\n"


def test_versions_page_compares_two_versions(
    client, user, public_deck, collision_cards
):
    _, actions = collision_cards
    services.deck_add_card(deck=public_deck, card=actions[0], quantity=2)
    response = client.get(
        reverse("decks:versions", args=[public_deck.pk]), {"a": 1, "b": 2}
    )
    assert response.context["diff"]["added"][0]["after"] == 2
    assert "1 added, 0 removed, 0 changed." in response.content.decode()


def test_hand_redraw_is_seeded(client, user, private_deck):
    client.force_login(user)
    url = reverse("decks:hand", args=[private_deck.pk])
    first = client.get(url, {"seed": 5}, **HTMX)
    again = client.get(url, {"seed": 5}, **HTMX)
    cards = [line.card_id for line in first.context["tools"]["hand"]["cards"]]
    assert len(cards) == 5
    assert cards == [line.card_id for line in again.context["tools"]["hand"]["cards"]]
    assert client.get(url, {"seed": "x"}, **HTMX).status_code == 200


def test_create_and_settings_and_delete(client, user):
    client.force_login(user)
    response = client.post(
        reverse("decks:create"), {"game": "metal-fusion", "name": "Pegasus"}
    )
    deck = Deck.objects.get(name="Pegasus")
    assert response.url == deck.get_absolute_url()
    client.post(
        reverse("decks:settings", args=[deck.pk]),
        {"name": "Pegasus 2", "notes": "n", "is_public": "on"},
    )
    deck.refresh_from_db()
    assert (deck.name, deck.is_public, deck.versions.count()) == ("Pegasus 2", True, 2)
    client.post(reverse("decks:delete", args=[deck.pk]))
    assert not Deck.objects.filter(pk=deck.pk).exists()


def test_creating_a_deck_needs_a_signed_in_user(client):
    response = client.post(reverse("decks:create"), {"game": "collision", "name": "x"})
    assert response.status_code == 302
    assert Deck.objects.count() == 0


def test_search_applies_the_checklist_filters(
    client, user, public_deck, collision_cards
):
    _, actions = collision_cards
    client.force_login(user)
    url = reverse("decks:search", args=[public_deck.pk])
    response = client.get(url, {"q": "Move", "colour": "blue"}, **HTMX)
    assert [c.pk for c in response.context["search"]["cards"]] == [
        actions[i].pk for i in (3, 7, 11)
    ]
    page = client.get(public_deck.get_absolute_url(), {"type": "blade"})
    assert [c.display_name for c in page.context["search"]["cards"]] == [
        "Dragoon, Storm"
    ]
    assert 'name="colour"' in page.content.decode()


def test_each_games_deck_page_renders_its_tools(client, user, card_factory):
    figure = card_factory(
        "bakugan", card_type="bakugan", name="Dragonoid", attribute="pyrus", g_power=350
    )
    gate = card_factory(
        "bakugan", card_type="gate", name="Gold", gate_class="gold", bonus_pyrus=100
    )
    gingka = card_factory(
        "metal-fusion", kind="practice", card_type="character", name="Gingka", number=1
    )
    section = card_factory(
        "collide-o",
        card_type="sections",
        section_1="B",
        section_2="BYRGK",
        section_3="R",
    )
    decks = {
        "bakugan": [
            {"card": figure.pk, "zone": "bakugan", "quantity": 1},
            {"card": gate.pk, "zone": "gate", "quantity": 1},
        ],
        "metal-fusion": [{"card": gingka.pk, "zone": "lineup", "quantity": 1}],
        "collide-o": [{"card": section.pk, "zone": "pack", "quantity": 11}],
    }
    client.force_login(user)
    expected = {
        "bakugan": "450",
        "metal-fusion": "Power cannot be counted yet",
        "collide-o": "A wild section counts for every colour",
    }
    for game, entries in decks.items():
        deck = services.deck_create(owner=user, game=game, name=game, entries=entries)
        html = client.get(deck.get_absolute_url()).content.decode()
        assert expected[game] in html, game
    mf = Deck.objects.get(name="metal-fusion")
    html = client.get(mf.get_absolute_url()).content.decode()
    assert "practice set, not a printed product" in html


def test_the_card_finder_offers_only_the_card_types_of_the_decks_game(
    client, user, deck_for
):
    deck = deck_for("collide-o")
    client.force_login(user)
    response = client.get(reverse("decks:detail", args=[deck.pk]))
    choices = list(response.context["card_filters"].fields["type"].choices)
    assert choices == [("", "any type"), ("sections", "Section card")]


def test_the_deck_page_buttons_speak_the_card_they_change(client, user, deck_for):
    deck = deck_for("collision")
    client.force_login(user)
    text = client.get(reverse("decks:detail", args=[deck.pk])).content.decode()
    entry = deck.entries.select_related("card").order_by("pk").first()
    name = entry.card.display_name
    assert (
        '<span aria-hidden="true">+1</span><span class="visually-hidden">'
        f"One more {name}</span>"
    ) in text


def test_practice_cards_are_never_missing_and_the_wishlist_is_not_offered(
    client, user, deck_for
):
    deck = deck_for("collision")  # practice cards only
    client.force_login(user)
    response = client.get(deck.get_absolute_url())
    assert response.context["missing_total"] == 0
    assert "wishlist" not in response.content.decode()
    assert services.deck_add_missing_to_wishlist(deck=deck, user=user) == 0


def test_a_rule_broken_by_several_titles_is_said_once_with_each_title_listed(
    client, user, collision_cards
):
    from tests.factories import make_card

    blade, actions = collision_cards
    over = [
        make_card(number=200 + n, key=str(200 + n), title=title, card_type="action")
        for n, title in enumerate(["Alpha", "Beta"])
    ]
    deck = make_deck(
        user,
        name="Too many",
        entries=[{"card": blade.pk, "zone": "blade", "quantity": 1}]
        + [{"card": c.pk, "zone": "deck", "quantity": 5} for c in over],
    )
    client.force_login(user)
    text = client.get(deck.get_absolute_url()).content.decode()
    assert text.count("holds at most 4 cards sharing a title") == 1
    assert "<li>This deck has 5 titled “Alpha”.</li>" in text
    assert "<li>This deck has 5 titled “Beta”.</li>" in text


def _collection_summary(response) -> str:
    text = response.content.decode()
    start = text.index('<p class="collection-summary">') + len(
        '<p class="collection-summary">'
    )
    return " ".join(text[start:].split("<", 1)[0].split())


def test_an_empty_deck_says_it_has_no_cards_rather_than_that_you_own_them(client, user):
    deck = make_deck(user, name="Empty")
    client.force_login(user)
    response = client.get(deck.get_absolute_url())
    assert _collection_summary(response) == "This deck has no cards yet."


def test_a_deck_of_practice_cards_only_says_there_is_nothing_printed_to_own(
    client, user, deck_for
):
    deck = deck_for("collision")  # practice cards only, none owned
    client.force_login(user)
    response = client.get(deck.get_absolute_url())
    assert _collection_summary(response) == (
        "This deck holds no printed cards, so there is nothing to own or miss."
    )


def test_owning_every_printed_card_of_a_mixed_deck_says_printed(
    client, user, deck_for, collision_cards
):
    from collection.services import collection_change_quantity

    _, actions = collision_cards
    deck = deck_for("collision")
    services.deck_add_card(deck=deck, card=actions[0], zone="deck")
    collection_change_quantity(user=user, card=actions[0], owned_delta=1)
    client.force_login(user)
    response = client.get(deck.get_absolute_url())
    assert _collection_summary(response) == ("You own every printed card of this deck.")


def test_owning_every_card_of_an_all_printed_deck_says_so(
    client, user, public_deck, collision_cards
):
    from collection.services import collection_change_quantity

    blade, _ = collision_cards
    collection_change_quantity(user=user, card=blade, owned_delta=1)
    client.force_login(user)
    response = client.get(public_deck.get_absolute_url())
    assert _collection_summary(response) == "You own every card of this deck."


@pytest.fixture
def forty_five_actions(card_factory):
    """Return 45 Collision actions numbered 1 to 45 and a Bakugan gate."""
    card_factory("bakugan", card_type="gate", name="Fire Pit", gate_class="silver")
    return [
        card_factory(
            "collision",
            card_type="action",
            title=f"Step {n}",
            colour="red",
            number=n,
            printed_number=str(n),
            key=str(n),
        )
        for n in range(1, 46)
    ]


def test_an_empty_search_pages_through_the_deck_s_game_s_cards(
    client, user, forty_five_actions
):
    deck = make_deck(user, name="Browse")
    client.force_login(user)
    url = reverse("decks:search", args=[deck.pk])
    empty = {"q": "", "type": "", "colour": "", "rarity": ""}
    first = client.get(url, empty, **HTMX)
    assert [c.pk for c in first.context["search"]["cards"]] == [
        c.pk for c in forty_five_actions[:20]
    ]
    text = first.content.decode()
    assert "Every Collision card, page 1 of 3." in text
    query = "q=&amp;type=&amp;colour=&amp;rarity=&amp;page=2"
    assert f'hx-get="/decks/{deck.pk}/search/?{query}"' in text
    last = client.get(url, {**empty, "page": "3"}, **HTMX)
    assert [c.pk for c in last.context["search"]["cards"]] == [
        c.pk for c in forty_five_actions[40:]
    ]
    assert "Every Collision card, page 3 of 3." in last.content.decode()


def test_the_deck_page_without_javascript_browses_on_an_empty_search(
    client, user, forty_five_actions
):
    deck = make_deck(user, name="Browse")
    client.force_login(user)
    assert client.get(deck.get_absolute_url()).context["search"] is None
    page = client.get(deck.get_absolute_url(), {"q": "", "page": "3"})
    assert [c.display_name for c in page.context["search"]["cards"]] == [
        f"Step {n}" for n in range(41, 46)
    ]
    assert f'href="/decks/{deck.pk}/?q=&amp;page=2"' in page.content.decode()


def test_the_finder_offers_a_rarity_filter_only_where_cards_print_one(client, user):
    client.force_login(user)
    for game, offered in (("collision", True), ("bakugan", False)):
        deck = make_deck(user, game, name=f"{game} deck")
        text = client.get(deck.get_absolute_url()).content.decode()
        assert ('name="rarity"' in text) is offered
