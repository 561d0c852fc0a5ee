"""Play whole games by clicking, resume after reload and restart, see the stale-tab refusal."""

import pytest

from decks.play.models import Playtest
from decks.play.services import playtest_create

from .conftest import click_to_the_end, screenshot

pytestmark = pytest.mark.browser

GAMES = ["collision", "metal-fusion", "collide-o", "bakugan"]


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_is_played_to_the_end_by_clicking(
    signed_in_page, server, user, deck_for, game
):
    deck = deck_for(game)
    pt = playtest_create(owner=user, deck=deck, opponent="random", seed=5)
    page = signed_in_page
    page.goto(f"{server.url}/play/{pt.pk}/")
    screenshot(page, f"{game}-start")
    click_to_the_end(page)
    screenshot(page, f"{game}-over")
    assert Playtest.objects.get(pk=pt.pk).over is True
    assert page.locator(".game-log li").count() > 0


@pytest.mark.parametrize("game", ["collision", "bakugan"])
def test_a_whole_game_against_the_search_bot_is_played_to_the_end_by_clicking(
    signed_in_page, server, user, deck_for, game
):
    """The search bot reads the others as greedy inside its tree; a game with it still ends."""
    pt = playtest_create(owner=user, deck=deck_for(game), opponent="search", seed=7)
    page = signed_in_page
    page.goto(f"{server.url}/play/{pt.pk}/")
    click_to_the_end(page)
    screenshot(page, f"{game}-search-over")
    done = Playtest.objects.get(pk=pt.pk)
    assert done.over is True
    assert "Strong bot" in page.locator(".game-log").inner_text()


def test_a_game_resumes_after_a_reload_and_after_a_server_restart(
    signed_in_page, server, user, deck_for
):
    pt = playtest_create(
        owner=user, deck=deck_for("collision"), opponent="random", seed=9
    )
    page = signed_in_page
    page.goto(f"{server.url}/play/{pt.pk}/")
    for _ in range(3):
        version = page.locator("#board").get_attribute("data-version")
        page.locator(".choices button").first.click()
        page.wait_for_function(
            "v => document.querySelector('#board').dataset.version !== v", arg=version
        )
    board_before = page.locator("#board").inner_text()
    version_before = page.locator("#board").get_attribute("data-version")
    page.reload()
    assert page.locator("#board").get_attribute("data-version") == version_before
    assert page.locator("#board").inner_text() == board_before
    server.restart()
    page.goto(f"{server.url}/play/{pt.pk}/")
    screenshot(page, "resumed-after-restart")
    assert page.locator("#board").get_attribute("data-version") == version_before
    assert page.locator("#board").inner_text() == board_before


def test_an_action_from_an_out_of_date_tab_is_refused_and_the_tab_refreshes(
    signed_in_page, server, user, deck_for
):
    pt = playtest_create(
        owner=user, deck=deck_for("collision"), opponent="random", seed=3
    )
    first = signed_in_page
    second = first.context.new_page()
    first.goto(f"{server.url}/play/{pt.pk}/")
    second.goto(f"{server.url}/play/{pt.pk}/")
    version = first.locator("#board").get_attribute("data-version")
    first.locator(".choices button").first.click()
    first.wait_for_function(
        "v => document.querySelector('#board').dataset.version !== v", arg=version
    )
    new_version = first.locator("#board").get_attribute("data-version")
    second.locator(".choices button").first.click()
    second.wait_for_selector("text=has moved on", timeout=15000)
    screenshot(second, "stale-tab-refused")
    assert second.locator("#board").get_attribute("data-version") == new_version
    assert Playtest.objects.get(pk=pt.pk).version == int(new_version)


def test_hot_seat_hides_the_hand_behind_a_pass_the_device_screen(
    signed_in_page, server, user, deck_for
):
    pt = playtest_create(
        owner=user, deck=deck_for("collision"), opponent="hotseat", seed=4
    )
    page = signed_in_page
    page.goto(f"{server.url}/play/{pt.pk}/")
    assert page.locator(".pass-screen").count() == 1
    assert page.locator(".choices").count() == 0
    page.locator(".pass-screen a").click()
    assert page.locator(".choices button").count() > 0
    screenshot(page, "hotseat")


def test_a_three_player_collide_o_game_from_the_start_page_names_the_bots(
    signed_in_page, server, user, deck_for
):
    """Collide-O! is one pack for the table: three players, two named bots."""
    deck = deck_for("collide-o")
    page = signed_in_page
    page.goto(f"{server.url}/play/new/?deck={deck.pk}")
    assert "one pack for the whole table" in page.content()
    page.select_option("select[name=players]", "3")
    page.locator("input[name=seed]").first.fill("4")
    page.locator("form.start-form button[type=submit]").first.click()
    page.wait_for_selector("#board")
    pt = Playtest.objects.get()
    assert [s["kind"] for s in pt.seats] == ["human", "random", "random"]
    board = page.locator("#board").inner_text()
    assert "Beginner bot 1" in board and "Beginner bot 2" in board
    click_to_the_end(page)
    screenshot(page, "collide-o-three-players-over")
    assert Playtest.objects.get(pk=pt.pk).over is True
    log = page.locator(".game-log").inner_text()
    assert "Player 2" not in log and "Player 3" not in log


def _wait_for_move(page, version):
    page.wait_for_function(
        "v => { const b = document.querySelector('#board'); return b && b.dataset.version !== v; }",
        arg=version,
        timeout=15000,
    )


def click_cards_to_the_end(page, limit=600) -> int:
    """Play by tapping cards whenever one is playable, else the first move button.

    Return how many moves were made by tapping a card.
    """
    by_card = 0
    for _ in range(limit):
        if page.locator("text=Game over").count():
            return by_card
        version = page.locator("#board").get_attribute("data-version")
        cards = page.locator("button[data-play-card]")
        if cards.count():
            card = cards.first
            if card.get_attribute("data-action"):
                card.click()
            else:
                # Several moves play this card: it opens their list.
                card.click()
                page.locator(
                    ".pc-menu:popover-open button[data-play-choice]"
                ).first.click()
            by_card += 1
        elif page.locator(".choices button").count():
            page.locator(".choices button").first.click()
        else:
            page.reload()
            continue
        _wait_for_move(page, version)
    raise AssertionError("the game did not end within the click limit")


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_is_played_to_the_end_by_tapping_cards(
    signed_in_page, server, user, deck_for, game
):
    deck = deck_for(game)
    players = 3 if game == "collide-o" else 2
    pt = playtest_create(
        owner=user, deck=deck, opponent="greedy", seed=11, players=players
    )
    page = signed_in_page
    page.goto(f"{server.url}/play/{pt.pk}/")
    by_card = click_cards_to_the_end(page)
    screenshot(page, f"{game}-over-by-cards")
    assert Playtest.objects.get(pk=pt.pk).over is True
    assert by_card > 0


def test_a_card_is_played_by_enter_and_a_faded_card_says_why_and_posts_nothing(
    signed_in_page, server, user, deck_for
):
    pt = playtest_create(
        owner=user, deck=deck_for("bakugan"), opponent="greedy", seed=7
    )
    page = signed_in_page
    page.set_viewport_size({"width": 390, "height": 900})
    page.goto(f"{server.url}/play/{pt.pk}/")
    # Set-up: the gates in hand are playable, the Bakugan and ability cards not yet.
    faded = page.locator("button.pc-why").first
    reason = faded.get_attribute("data-why")
    assert reason
    version = page.locator("#board").get_attribute("data-version")
    faded.click(force=True)  # aria-disabled: still tappable, for its reason
    shown = page.locator(".pc-reason:popover-open")
    assert shown.inner_text().startswith(reason)
    screenshot(page, "faded-card-reason-390")
    assert page.locator("#board").get_attribute("data-version") == version
    page.keyboard.press("Escape")
    card = page.locator("button[data-play-card][data-action]").first
    box = card.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    label, action = card.get_attribute("aria-label"), card.get_attribute("data-action")
    assert label.startswith("You place ")
    card.focus()
    page.keyboard.press("Enter")
    _wait_for_move(page, version)
    assert Playtest.objects.get(pk=pt.pk).log[len(pt.log)] == action
