"""One-tap play from home, as a visitor and signed in (390 px, every game).

Tap one is a game's "Play now" button on the home page, tap two a bot's button
on the game's form: a board with moves appears, and one move is played (other
browser tests play games to the end). The visitor then signs up, and the games
of the visit are theirs. One server for the whole journey.
"""

import pytest
from django.core.management import call_command

from decks.play.models import Playtest

from .conftest import ROOT, screenshot

pytestmark = pytest.mark.browser

GAMES = ("collision", "metal-fusion", "collide-o", "bakugan")
PHONE = {"width": 390, "height": 844}


def _play_in_two_taps(page, server, slug: str) -> None:
    """From home, start ``slug`` with two taps and play one move on its board."""
    page.goto(f"{server.url}/")
    page.locator(f".play-now a[href='/play/now/{slug}/']").click()  # tap 1
    page.locator(".play-now-bots button").first.click()  # tap 2: the random bot
    page.wait_for_url("**/play/*/")
    moves = page.locator("#board .choices button")
    assert moves.count() > 0, slug
    version = page.locator("#board").get_attribute("data-version")
    moves.first.click()
    page.wait_for_function(
        "v => { const b = document.querySelector('#board'); return b && b.dataset.version !== v; }",
        arg=version,
        timeout=15000,
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_one_tap_play_from_home_as_a_visitor_then_signed_in_for_every_game(
    browser, server
):
    call_command(
        "load_cards",
        *(str(ROOT / "fixtures" / f"practice-{slug}.json") for slug in GAMES),
        verbosity=0,
    )
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()

    for slug in GAMES:
        _play_in_two_taps(page, server, slug)
    screenshot(page, "play-now-visitor-board-390")
    visited = list(Playtest.objects.order_by("pk"))
    assert [(p.game, p.owner_id, p.seats[1]["kind"]) for p in visited] == [
        (slug, None, "random") for slug in GAMES
    ]
    assert len({p.visitor_key for p in visited}) == 1

    # Signing up keeps the games of the visit.
    page.goto(f"{server.url}/accounts/signup/")
    page.fill("input[name=username]", "mina")
    page.fill("input[name=password1]", "xq7!kd9#zp-long")
    page.fill("input[name=password2]", "xq7!kd9#zp-long")
    page.locator("form button[type=submit]").click()
    page.wait_for_url(f"{server.url}/collection/")
    owners = set(Playtest.objects.values_list("owner__username", flat=True))
    assert owners == {"mina"}

    for slug in GAMES:
        _play_in_two_taps(page, server, slug)
    mine = Playtest.objects.filter(owner__username="mina", visitor_key="")
    assert mine.count() == 8
    page.goto(f"{server.url}/play/now/")
    screenshot(page, "play-now-390")
    page.goto(f"{server.url}/decks/")
    screenshot(page, "decks-starters-390")
    context.close()

    wide = browser.new_context(viewport={"width": 1280, "height": 900})
    page = wide.new_page()
    for path, name in (
        ("/play/now/", "play-now-1280"),
        ("/play/now/bakugan/", "play-now-game-1280"),
        ("/decks/", "decks-starters-1280"),
    ):
        page.goto(f"{server.url}{path}")
        screenshot(page, name)
    wide.close()
