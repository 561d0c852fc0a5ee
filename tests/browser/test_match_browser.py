"""A whole Collision best of three against a bot, played by clicking in Chromium.

The match is started from the start page, every game is played by clicking a
playable card (``[data-play-card]``) when the board offers one and a move
button otherwise, and the next game is started with the board's button; the
loser of each game goes first in the next (ruling C13) and the match ends at
two wins. A second tab's stale "next game" lands on the game under way.
"""

import re

import pytest

from decks.play.models import Playtest, PlaytestMatch
from decks.play.services import load_state

from .conftest import screenshot

pytestmark = pytest.mark.browser

SCORE = re.compile(
    r"Best of three, game (\d+) · match score: You (\d) – (\d) Casual bot"
)


def click_one_move(page) -> None:
    """Click a playable card if there is one, else the first move button; wait for the board."""
    cards = page.locator("#board [data-play-card]")
    target = cards.first if cards.count() else page.locator(".choices button").first
    version = page.locator("#board").get_attribute("data-version")
    target.click()
    page.wait_for_function(
        "v => { const b = document.querySelector('#board'); return b && b.dataset.version !== v; }",
        arg=version,
        timeout=15000,
    )


def play_game_by_clicking(page, limit=600) -> None:
    for _ in range(limit):
        if page.locator("text=Game over").count():
            return
        if (
            page.locator("#board [data-play-card]").count() == 0
            and page.locator(".choices button").count() == 0
        ):
            page.reload()
            continue
        click_one_move(page)
    raise AssertionError("the game did not end within the click limit")


def board_score(page) -> tuple[int, int, int]:
    found = SCORE.search(page.locator("[data-match-score]").inner_text())
    assert found, page.locator("[data-match-score]").inner_text()
    return tuple(int(g) for g in found.groups())


def test_a_whole_collision_best_of_three_is_played_by_clicking(
    signed_in_page, server, user, deck_for
):
    deck = deck_for("collision")
    page = signed_in_page
    page.goto(f"{server.url}/play/new/?deck={deck.pk}")
    page.check("input[name=opponent][value=greedy]")
    page.check("input[name=match][value=match]")
    page.locator("input[name=seed]").first.fill("3")
    page.locator("form.start-form button[type=submit]").first.click()
    page.wait_for_selector("#board")
    assert board_score(page) == (1, 0, 0)

    wins = [0, 0]
    previous = None
    stale_checked = False
    for number in range(1, 8):
        pt = Playtest.objects.get(match_game=number)
        if previous is not None:
            # Ruling C13: the loser of the game before goes first.
            loser = (
                1 - previous.winner
                if previous.winner is not None
                else 1 - load_state(previous).first
            )
            assert load_state(pt).first == loser
        assert board_score(page) == (number, *wins)
        play_game_by_clicking(page)
        pt.refresh_from_db()
        assert pt.over
        if pt.winner is not None:
            wins[pt.winner] += 1
        # The score counts the game just finished; it survives a reload.
        assert board_score(page) == (number, *wins)
        page.reload()
        assert board_score(page) == (number, *wins)
        screenshot(page, f"match-game-{number}-over")
        if max(wins) == 2:
            break
        if not stale_checked:
            stale = page.context.new_page()
            stale.goto(page.url)
            assert stale.locator("[data-next-game]").count() == 1
        page.locator("[data-next-game]").click()
        page.wait_for_selector("#board")
        assert Playtest.objects.filter(match_game=number + 1).exists()
        if not stale_checked:
            # The other tab still shows the button: its click is refused and
            # sent to the game now under way, with no third game started.
            stale.locator("[data-next-game]").click()
            stale.wait_for_selector("text=has already started")
            assert stale.url.rstrip("/").endswith(
                str(Playtest.objects.get(match_game=number + 1).pk)
            )
            assert Playtest.objects.filter(match__isnull=False).count() == number + 1
            # Undo on the settled game is refused: its result stands.
            stale.goto(f"{server.url}/play/{pt.pk}/")
            stale.locator("text=Undo last move").click()
            stale.wait_for_selector("text=this game's result stands")
            settled = Playtest.objects.get(pk=pt.pk)
            assert (settled.over, settled.winner, settled.log) == (
                True,
                pt.winner,
                pt.log,
            )
            stale.close()
            stale_checked = True
        previous = pt
    else:
        raise AssertionError("the match did not end")

    match = PlaytestMatch.objects.get()
    assert match.games == number and 2 <= number
    assert max(wins) == 2 and min(wins) <= 1
    assert "Match over" in page.locator("[data-match-score]").inner_text()
    assert page.locator("[data-next-game]").count() == 0
    screenshot(page, "match-over")
    listed = page.goto(f"{server.url}/play/")
    assert listed.ok
    score = f"You {wins[0]} – {wins[1]} Casual bot"
    assert f"Best of three, game {number} · match score: {score}" in page.content()
