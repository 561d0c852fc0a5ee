"""The Bakugan journey, as a new collector on a phone: import a collection CSV with
each figure copy's G-Power, build a deck of owned cards leaving every figure slot
on "your strongest recorded copy", play it to the end, and see each figure's
G-Power in the deck tools and in the game log."""

from pathlib import Path

import pytest

from cards.data import card_data_load, card_data_parse
from cards.models import Card
from decks.play.models import Playtest

from .conftest import click_to_the_end, screenshot

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
FIGURES = (
    ("pyrus-dragonoid-b1", 340),
    ("aquos-preyas-b1", 320),
    ("haos-tigrerra-b1", 300),
)
CARDS = ("1/48", "9/48", "17/48", "25/48", "33/48", "41/48")


@pytest.fixture
def bakugan_cards(transactional_db):
    """Load the official Bakugan cards and figures, as ``make data`` does."""
    for name in ("bakugan.json", "bakugan-figures.json"):
        text = (ROOT / "fixtures" / name).read_text(encoding="utf-8")
        card_data_load(data=card_data_parse(text=text))


def collection_csv(tmp_path) -> Path:
    """Write the collector's spreadsheet: three figures with G-Power, six cards."""
    rows = ["game,set,number,quantity,g_power"]
    rows += [f"bakugan,figures-spin-master,{key},1,{g}" for key, g in FIGURES]
    rows += [f"bakugan,1-48,{key},1," for key in CARDS]
    path = tmp_path / "my-bakugan.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_a_new_collector_plays_their_own_figures_at_their_copies_g_power(
    browser, server, bakugan_cards, tmp_path
):
    names = {
        key: Card.objects.get(card_set__slug="figures-spin-master", key=key)
        for key, _ in FIGURES
    }
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{server.url}/accounts/signup/")
    page.fill("input[name=username]", "brawler")
    page.fill("input[name=password1]", "Gate-card-gold-42")
    page.fill("input[name=password2]", "Gate-card-gold-42")
    page.click("text=Create my account")
    page.wait_for_url(f"{server.url}/collection/")

    page.goto(f"{server.url}/collection/import/")
    page.set_input_files("input[name=file]", str(collection_csv(tmp_path)))
    page.click("text=Check the file")
    page.wait_for_selector("text=Import preview")
    page.click("text=Apply all of it")
    page.wait_for_load_state()

    page.goto(f"{server.url}/decks/new/?game=bakugan")
    page.fill("input[name=name]", "My brawlers")
    page.click("form.deck-form button[type=submit]")
    page.wait_for_selector("#search-title")
    page.check("input[name=owned]")
    page.click(".deck-search button[type=submit]")
    results = page.locator("#search-results .search-results li")
    results.first.wait_for()
    assert results.count() == 9
    for index in range(9):
        results.nth(index).locator("button").first.click()
        size = f"({index + 1} card{'s' if index else ''})"
        page.wait_for_selector(f"#deck-panel h2:has-text('{size}')")
    panel = page.locator("#deck-panel").inner_text()
    assert panel.count("Plays your strongest recorded copy") == 3
    for _, g_power in FIGURES:
        assert f"Plays your strongest recorded copy: {g_power}\xa0G" in panel
    screenshot(page, "journey-bakugan-deck-390")

    table = page.locator("h3:has-text('G-Power on each gate') + table").inner_text()
    for key, g_power in FIGURES:
        assert f"{names[key].display_name}\t{g_power}" in table
    assert "unknown" not in table

    page.click(".deck-actions a:has-text('Playtest')")
    page.wait_for_selector("form.start-form")
    assert "G-Power is unknown" not in page.content()
    page.locator("input[name=seed]").first.fill("4")
    page.locator("form.start-form button[type=submit]").first.click()
    page.wait_for_selector("#board")
    screenshot(page, "journey-bakugan-board-390")
    click_to_the_end(page)
    screenshot(page, "journey-bakugan-over-390")
    game = Playtest.objects.get()
    assert game.over is True
    assert [c["g_power"] for c in game.decks[0]["bakugan"]] == [340, 320, 300]
    # Each of the player's figures that fought shows its copy's G-Power.
    log = page.locator(".game-log").inner_text()
    fought = [
        (key, g_power)
        for key, g_power in FIGURES
        if f"your {names[key].display_name} (" in log
    ]
    assert fought
    for key, g_power in fought:
        assert f"your {names[key].display_name} ({g_power} G)" in log
    context.close()
