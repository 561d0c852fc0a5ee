"""The coach at 390 px: Hint lists the moves with their chances and plays one,
marked "(hint)"; "Review this game" runs on the task worker and draws the graph."""

import shutil
from pathlib import Path

import pytest

from decks.play.services import playtest_create

from .conftest import (
    click_to_the_end,
    run_task_worker,
    screenshot,
    signed_in_context,
)

pytestmark = pytest.mark.browser
SHOTS = Path("/work/shots/coach")


def _shot(page, name: str) -> None:
    screenshot(page, name)
    if SHOTS.parent.is_dir():  # the helpers' screenshot folder, where it exists
        SHOTS.mkdir(exist_ok=True)
        shutil.copy(Path("test-artifacts") / f"{name}.png", SHOTS / f"{name}.png")


@pytest.fixture
def phone_page(browser, server, user, client):
    """Return a 390 px page whose session belongs to ``user``, on the server."""
    context = signed_in_context(browser, server, client, user, 390, 844)
    yield context.new_page()
    context.close()


def test_hint_shows_the_moves_and_review_draws_the_win_chance_graph(
    phone_page, server, user, deck_for
):
    page = phone_page
    pt = playtest_create(
        owner=user, deck=deck_for("collision"), opponent="greedy", seed=11
    )
    page.goto(f"{server.url}{pt.get_absolute_url()}")
    page.click("[data-hint]")
    page.wait_for_selector("[data-hint-list] li")
    rows = page.locator("[data-hint-list] li")
    assert rows.count() == page.locator(".choices button").count()
    assert rows.first.locator(".hint-chance").inner_text().endswith("%")
    _shot(page, "coach-hint-390")
    version = page.locator("#board").get_attribute("data-version")
    rows.first.locator("button").click()
    page.wait_for_function(
        "v => document.querySelector('#board').dataset.version !== v", arg=version
    )
    assert "(hint)" in page.locator(".game-log").inner_text()
    _shot(page, "coach-hint-taken-390")
    click_to_the_end(page)
    page.click("[data-review]")
    page.wait_for_url("**/play/review/*/")
    run_task_worker(server)
    page.reload()
    graph = page.locator("[data-win-chance]")
    graph.wait_for()
    assert graph.locator("circle").count() >= 1
    assert page.locator("[data-turning-point]").inner_text().strip()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    _shot(page, "coach-review-390")
