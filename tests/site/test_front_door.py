"""The front door and the map: the home page, the menu, /table/ and each game's links."""

import re

import pytest

from cards.models import Card
from tests.factories import C, make_card, make_set

GAMES = ("collision", "metal-fusion", "collide-o", "bakugan")
HREF = re.compile(r'href="([^"#?]*)')


def _nav(html: str) -> list[str]:
    """Return the link targets of the main menu."""
    nav = html.split('<nav class="main-nav"', 1)[1].split("</nav>", 1)[0]
    return HREF.findall(nav)


def _main(html: str) -> str:
    return html.split('<main id="main"', 1)[1].split("</main>", 1)[0]


@pytest.mark.django_db
@pytest.mark.parametrize("signed_in", [False, True])
def test_the_menu_reaches_play_how_to_play_decks_collection_table_and_help_wanted(
    client, user, signed_in
):
    if signed_in:
        client.force_login(user)
    links = _nav(client.get("/").content.decode())
    for area in ("/search/", "/play/now/", "/decks/", "/collection/", "/table/"):
        assert area in links
    assert "/community/help-wanted/" in links
    assert [link for link in links if link.startswith("/play/help/")] == [
        f"/play/help/{slug}/" for slug in GAMES
    ]


@pytest.mark.django_db
def test_every_menu_link_answers_a_signed_in_player(client, user):
    client.force_login(user)
    links = _nav(client.get("/").content.decode())
    answers = {link: client.get(link).status_code for link in links}
    assert {link: code for link, code in answers.items() if code != 200} == {}


@pytest.mark.django_db
def test_the_home_page_leads_with_search_then_play_now_and_add_your_cards(
    client, practice
):
    for slug in GAMES:
        practice(slug)
    main = _main(client.get("/").content.decode())
    search = main.index('action="/search/"')
    # Play now: one button per game, each a tap away from choosing a bot.
    assert search < main.index('href="/play/now/collision/">Play Beyblade Collision')
    assert search < main.index('href="/collection/">Add your cards</a>')
    assert search < main.index('class="game-grid"')


@pytest.mark.django_db
def test_each_game_on_the_home_page_shows_a_picture_of_one_of_its_cards(
    client, practice
):
    for slug in GAMES:
        practice(slug)
    printed = make_set(C, slug="base")
    tyson = make_card(C, card_set=printed, key="96", number=96, title="Tyson")
    make_card(C, card_set=printed, key="1", number=1)  # nameless: not a cover
    main = _main(client.get("/").content.decode())
    pictures = re.findall(r'<img src="/cards/(\d+)/image.png\?size=thumb', main)
    covers = Card.objects.filter(pk__in=pictures).select_related("card_set__game")
    assert [
        c.card_set.game.slug for c in covers.order_by("card_set__game__sort_order")
    ] == list(GAMES)
    assert str(tyson.pk) in pictures  # a printed card wins over a practice one
    for pk in pictures:
        response = client.get(f"/cards/{pk}/image.png?size=thumb")
        assert (response.status_code, response["Content-Type"]) == (200, "image/png")


@pytest.mark.django_db
def test_the_home_page_says_what_is_known_of_each_game_in_a_sentence(client):
    printed = make_set(C, slug="base")
    make_card(C, card_set=printed, key="96", number=96, title="Tyson")
    make_card(C, card_set=printed, key="1", number=1)
    main = _main(client.get("/").content.decode())
    assert (
        "2 printed cards on record: 1 with a known name, 0 fully known, "
        "0 confirmed by two readings, 0 verified by a moderator." in main
    )
    # Each of the other three games says it has none.
    assert main.count("No printed card of this game is on record yet.") == 3


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_each_game_page_links_its_how_to_play_mats_and_companion(client, user, game):
    client.force_login(user)
    html = client.get(f"/games/{game}/").content.decode()
    module = game.replace("-", "_")
    links = {
        f"/play/help/{game}/": f'href="/play/help/{game}/"',
        "/table/mats/": f'href="/table/mats/#mats-{module}"',
        f"/table/companion/?game={game}": f'href="/table/companion/?game={game}"',
    }
    for url, link in links.items():
        assert link in html
        assert client.get(url).status_code == 200, url
    mats = client.get("/table/mats/").content.decode()
    assert f'id="mats-{module}"' in mats


@pytest.mark.django_db
def test_the_table_page_offers_each_game_proxies_mats_companion_decks_and_help(
    client, practice
):
    practice("collision")
    response = client.get("/table/")
    assert response.status_code == 200
    html = _main(response.content.decode())
    assert 'href="/table/sets/collision/practice-collision/proxies/"' in html
    for game in GAMES:
        module = game.replace("-", "_")
        assert f'id="table-{game}"' in html
        assert f'href="/table/mats/#mats-{module}"' in html
        assert f'href="/table/companion/?game={game}"' in html
        assert f'href="/decks/games/{game}/"' in html
        assert f'href="/play/help/{game}/"' in html


@pytest.mark.django_db
def test_a_ruling_code_shown_to_players_links_to_its_words_on_the_help_page(
    client, user
):
    client.force_login(user)
    page = client.get("/table/companion/").content.decode()
    assert (
        '<a class="ruling" href="/play/help/metal-fusion/#ruling-M3" '
        'title="How the site reads the rules: ruling M3">M3</a>'
    ) in page
    help_page = client.get("/play/help/metal-fusion/").content.decode()
    assert 'id="ruling-M3"' in help_page


@pytest.mark.django_db
def test_the_deck_tools_link_their_ruling_codes_to_the_decks_own_game(
    client, user, deck_for
):
    client.force_login(user)
    deck = deck_for("metal-fusion")
    response = client.get(f"/decks/{deck.pk}/")
    assert response.status_code == 200
    assert 'href="/play/help/metal-fusion/#ruling-M10"' in response.content.decode()


@pytest.mark.django_db
def test_the_new_game_page_links_where_a_bakugan_lands_to_its_ruling(
    client, user, deck_for
):
    client.force_login(user)
    deck = deck_for("bakugan")
    response = client.get(f"/play/new/?deck={deck.pk}")
    assert response.status_code == 200
    assert 'href="/play/help/bakugan/#ruling-B2"' in response.content.decode()
