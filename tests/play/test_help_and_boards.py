"""How-to-play pages and the per-game playtest boards."""

import re

import pytest

from cards.games import PALETTE
from decks.engine import engine_for
from decks.engine.collision import stopper
from decks.play.services import load_state, playtest_create
from decks.rules.collide_o import section_rects, section_words
from decks.rules.collision import edge_notches, next_colour
from decks.rules.metal_fusion import booster_colours
from decks.templatetags.play import count

GAMES = ("collision", "metal-fusion", "collide-o", "bakugan")

RULING_IDS = {
    "collision": [f"C{i}" for i in range(1, 21)],
    "metal-fusion": [f"M{i}" for i in range(1, 11)],
    "collide-o": [f"O{i}" for i in range(1, 9)],
    "bakugan": [f"B{i}" for i in range(1, 13)],
}

HEADINGS = {
    "collision": [
        "Colours and stopping",
        "Counting hits",
        "Refill",
        "The advanced game",
        "Testing Characters and Events",
        "Building a deck",
        "Match play",
    ],
    "metal-fusion": [
        "The line-up",
        "Battle power",
        "Who wins a battle",
        "Boosters",
        "Winning",
        "More than two players",
    ],
    "collide-o": [
        "Set-up",
        "Matching an end",
        "When nobody can play",
        "Challenges",
        "Winning",
    ],
    "bakugan": [
        "The field",
        "Rolling",
        "Landing",
        "Battles",
        "Ability cards",
        "New gates",
        "Four players",
    ],
}

ANCHORS = {
    "collision": ["stopping", "battle", "hits", "refill", "test", "pass"],
    "metal-fusion": ["reveal", "power", "battle", "boosters", "winning"],
    "collide-o": ["matching", "rounds", "stuck", "challenges", "winning"],
    "bakugan": ["roll", "landing", "battle", "abilities", "new-gates"],
}

BOARD_HEADINGS = {
    "collision": [
        "Blade",
        "Spin pile",
        "Battle pile",
        "Characters in play",
        "Discard pile",
        "Deck",
        "Hand",
    ],
    "metal-fusion": ["Line-up", "Cards in hand", "Deck", "Discard pile", "Hand"],
    "collide-o": ["The line", "Left end", "Right end", "Stack", "Hand"],
    "bakugan": [
        "The field",
        "Gates won",
        "Unused Bakugan",
        "Used pile",
        "Gate cards in hand",
        "Ability cards in hand",
        "Ability cards used",
    ],
}

IMAGE = re.compile(r'src="/cards/(\d+)/image\.png\?size=thumb"')


def _page(client, game):
    response = client.get(f"/play/help/{game}/")
    return response, response.content.decode()


@pytest.mark.parametrize("game", GAMES)
def test_help_page_answers_with_its_key_headings(client, db, game):
    response, html = _page(client, game)
    assert response.status_code == 200
    for heading in HEADINGS[game]:
        assert f">{heading}</h" in html, heading
    assert "How the playtest models the game" in html


@pytest.mark.parametrize("game", GAMES)
def test_help_page_cites_every_ruling_of_its_game_and_the_common_ones(client, db, game):
    html = _page(client, game)[1]
    for ruling in RULING_IDS[game] + ["E1", "E2", "E3", "E4"]:
        assert f'id="ruling-{ruling}"' in html, ruling
        assert f"Ruling {ruling}</strong>" in html, ruling


def test_each_help_page_cites_only_its_own_game_rulings(client, db):
    html = _page(client, "collision")[1]
    assert 'id="ruling-M1"' not in html
    assert 'id="ruling-B1"' not in html


@pytest.mark.parametrize("game", GAMES)
def test_help_page_has_the_anchors_boards_link_to(client, db, game):
    html = _page(client, game)[1]
    for anchor in ANCHORS[game]:
        assert f'id="{anchor}"' in html, anchor


@pytest.mark.parametrize("game", GAMES)
def test_help_page_has_no_inline_script_or_style(client, db, game):
    html = _page(client, game)[1]
    scripts = re.findall(r"<script\b[^>]*>", html)
    assert scripts and all(" src=" in tag for tag in scripts)
    assert re.search(r"\sstyle\s*=", html) is None
    assert re.search(r"\son[a-z]+\s*=", html) is None
    assert "<style" not in html


@pytest.mark.parametrize("game", GAMES)
def test_help_page_draws_at_least_one_svg_diagram(client, db, game):
    html = _page(client, game)[1]
    assert html.count("<svg") >= 1
    assert 'role="img"' in html


def test_collide_o_help_explains_rounds_and_bakugan_help_states_the_odds(client, db):
    assert "plays in rounds" in _page(client, "collide-o")[1]
    bakugan = _page(client, "bakugan")[1]
    assert "probability 0.6" in bakugan
    assert "30% for each gate and 40% for a miss" in bakugan


def test_metal_fusion_help_works_the_thirteen_on_yellow(client, db):
    html = _page(client, "metal-fusion")[1]
    assert "4 + 1 + 2 + 5 + 1 + 1 − 1 = <tspan" in html
    assert ">13</tspan>" in html


@pytest.mark.parametrize("game", ["chess", "COLLISION", "collision-2"])
def test_unknown_game_has_no_help_page(client, db, game):
    assert client.get(f"/play/help/{game}/").status_code == 404


@pytest.mark.parametrize("game", GAMES)
def test_board_renders_every_zone_with_card_pictures(client, user, deck_for, game):
    deck = deck_for(game)
    pt = playtest_create(owner=user, deck=deck, opponent="random", seed=5)
    client.force_login(user)
    response = client.get(f"/play/{pt.pk}/")
    html = response.content.decode()
    assert response.status_code == 200
    assert f'class="gb gb-{game}"' in html
    for heading in BOARD_HEADINGS[game]:
        assert f">{heading}" in html, heading
    card_ids = {int(i) for i in IMAGE.findall(html)}
    known = {
        card["id"]
        for seat_deck in pt.decks
        for cards in seat_deck.values()
        for card in cards
    }
    assert card_ids and card_ids <= known
    assert f'href="/play/help/{game}/#' in html
    assert "gb-you" in html
    assert re.search(r"\sstyle\s*=", html) is None


@pytest.mark.parametrize("game", GAMES)
def test_board_partial_for_htmx_keeps_the_board_frame(client, user, deck_for, game):
    pt = playtest_create(owner=user, deck=deck_for(game), opponent="random", seed=5)
    client.force_login(user)
    html = client.get(f"/play/{pt.pk}/", HTTP_HX_REQUEST="true").content.decode()
    assert f'data-version="{pt.version}"' in html
    assert 'class="game-log"' in html
    assert f'class="gb gb-{game}"' in html


def test_collision_board_hides_the_other_hand_as_a_count(client, user, deck_for):
    pt = playtest_create(
        owner=user, deck=deck_for("collision"), opponent="random", seed=5
    )
    client.force_login(user)
    html = client.get(f"/play/{pt.pk}/").content.decode()
    view = engine_for("collision").view(load_state(pt), 0)
    hidden = view["seats"][1]["hand"]
    assert isinstance(hidden, int)
    assert html.count('<span class="meta"> hidden</span>') == 1
    assert (
        f'<span class="gb-count">{hidden}</span></span><span class="meta"> hidden'
        in (html.replace("\n", ""))
    )


def test_the_board_names_the_engines_stopper_of_each_colour():
    colours = ("red", "yellow", "green", "blue")
    assert [next_colour(c) for c in colours] == [stopper(c) for c in colours]
    assert next_colour(None) == ""


def test_edge_notches_name_each_piece():
    assert [n["piece"] for n in edge_notches("LS.E.L")] == [
        "live",
        "strike",
        "bare",
        "empty",
        "bare",
        "live",
    ]
    assert edge_notches(None) == []


def test_section_rects_draw_solid_stripe_and_wild_sections():
    rects = section_rects(["R", "BY", "BYRGK"])
    assert [r["x"] for r in rects] == [2, 32, 32, 32, 32, 62, 62, 62, 62, 62]
    blue, yellow = PALETTE["blue"], PALETTE["yellow"]
    assert [r["fill"] for r in rects[1:5]] == [blue, yellow] * 2
    assert section_rects("junk") == []
    assert section_words("BYRGK") == "wild (any colour)"
    assert section_words("RK") == "red-black stripe"


def test_a_zone_count_is_its_cards_or_the_number_a_hidden_zone_shows():
    assert [count([{"id": 1}, {"id": 2}]), count(4), count([]), count(None)] == [
        2,
        4,
        0,
        0,
    ]


def test_booster_colours_read_single_double_and_multicolour_codes():
    assert booster_colours("Y") == ["yellow"]
    assert booster_colours("RB") == ["red", "blue"]
    assert booster_colours("RBGY") == ["red", "blue", "green", "yellow"]
    assert booster_colours(None) == []


READINGS = {
    "collision": (
        11,
        [
            "Lasting text happens once a turn.",
            "each player's Blade goes first, then their Characters in the order they"
            " came into play",
            "the next player to their left",
            "After fifty tied cuts in a row, the seed chooses",
            "at least the spin strength plus six cards",
            "the player who went second goes first in the next one",
            "even when that player is a third player who was not in it",
            "Everyone draws first, one card at a time in turn order.",
        ],
    ),
    "metal-fusion": (
        13,
        [
            "the colours left blank are read as not printed and count zero",
            "A line-up card may carry the same number as a card in the deck.",
            "Only the players tied for the highest number turn over their next card",
            "the seed picks the first attacker",
            "goes under whichever line-up card its owner chooses",
            "even when the attacker ties or loses the battle",
            "Drawing never reshuffles.",
            "power is compared once everyone in the battle has passed in a row",
            "if two or more share the most, the game is a draw",
        ],
    ),
    "collide-o": (
        13,
        [
            "Player 1 starts the first round",
            "it is treated just like the opening card",
            "there are neither set-aside cards nor removed cards to make a new pile"
            " from, the game is a tie",
            "every other player first gets one move, so they can challenge it",
            "the win waits until every other player has had one move",
            "the card they drew after playing it goes back on top",
            "A player barred after a wrong challenge may not play, but may still"
            " challenge.",
            "in about one decision in ten",
        ],
    ),
    "bakugan": (
        14,
        [
            "applies to two-player games as well",
            "that gate counts as won",
            "A player whose Bakugan have all been removed from the game skips the"
            " turn.",
            "the person whose turn is next plays first",
            "You say which Bakugan you will roll before anyone may play a before-roll"
            " card.",
            '"self" means the winning Bakugan',
            "If both are removed, nobody wins and the gate stays on the field",
            "starting with the player whose turn is next",
            "all six of its attribute bonuses are known",
            "a game is for two or four players, never three",
        ],
    ),
}


def _readings_section(html):
    match = re.search(r'<section id="readings">(.*?)</section>', html, re.S)
    assert match, "no readings section"
    return match.group(1)


@pytest.mark.parametrize("game", GAMES)
def test_help_page_lists_the_engine_readings_beyond_the_rulings(client, db, game):
    html = _page(client, game)[1]
    section = _readings_section(html)
    minimum, phrases = READINGS[game]
    assert "<h2>Where the rules are silent: this site's readings</h2>" in section
    assert section.count("<li>") >= minimum
    for phrase in phrases:
        assert phrase in section, phrase


@pytest.mark.parametrize("game", GAMES)
def test_help_page_table_of_contents_links_to_the_readings(client, db, game):
    html = _page(client, game)[1]
    toc = re.search(r'<nav class="help-toc".*?</nav>', html, re.S).group(0)
    assert '<a href="#readings">Readings</a>' in toc
