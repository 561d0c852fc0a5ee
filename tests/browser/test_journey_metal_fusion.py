"""A Metal Fusion collector's evening at 390 px: read the line-up cards, build, play.

From a new account on a database holding only the loaded card data, as a person
uses the site: read the three official line-up cards of the rules' example
(Gingka, Storm Pegasus and the Customizer) from the cards in hand, build a deck
with them as the line-up, and play it to the end against a bot.
"""

from pathlib import Path

import pytest
from django.core.management import call_command

from cards.models import Card, CardSubmission
from decks.models import Deck
from decks.play.models import DeckDoctor, Playtest

from .conftest import click_to_the_end, run_task_worker, screenshot, start_job

pytestmark = pytest.mark.browser

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
PASSWORD = "a-long-enough-passphrase-9"
# The fifteen cards beside the line-up, from the practice set (numbers apart).
DECK = ("Heavy Ring", "Wide Track", "Sharp Tip", "Flat Base", "Wing Disk",
        "Spike Wheel", "Balance Core", "Surge of Will", "Second Wind",
        "Perfect Launch", "Shaken Grip", "Last Stand", "Crowd Support", "Feint",
        "Pit Stop")  # fmt: skip


def _menu(page, link: str) -> None:
    """Open the phone-width menu and follow one of its links."""
    page.click("header button:text-is('Menu')")
    page.click(f"header a:text-is('{link}')")


def _pips(page, field: str, count: int) -> None:
    """Press a stat's "+" ``count`` times, as a reader counting the dots."""
    for _ in range(count):
        page.click(f"[data-control={field}] [data-step='1']")
    assert page.input_value(f"#f-{field}") == str(count)


def _open_card(page, name: str) -> None:
    """Open a card of the game's list and its "I have this card" page."""
    page.click("header a:text-is('Classic Card Games')")
    page.click("main a:text-is('Beyblade Metal Fusion')")
    page.locator("main").get_by_role("link", name=name, exact=True).first.click()
    page.click("a:text-is('I have this card: fill in what it prints')")
    page.wait_for_selector("#transcribe")


def _find(page, query: str = "", card_type: str = "") -> None:
    page.fill(".deck-search [name=q]", query)
    page.select_option(".deck-search [name=type]", card_type)
    with page.expect_response("**/search/**"):
        page.click(".deck-search button[type=submit]")


def _add(page, name: str, zone: str) -> None:
    row = page.locator(
        "#search-results li", has=page.locator(f".card-name a:text-is('{name}')")
    )
    with page.expect_response("**/add/"):
        row.locator(f"button:text-is('Add to {zone}')").click()


def test_a_new_collector_reads_the_line_up_builds_a_deck_plays_it_and_runs_the_doctor(
    browser, server
):
    call_command(
        "load_cards",
        str(FIXTURES / "metal-fusion.json"),
        str(FIXTURES / "practice-metal-fusion.json"),
        verbosity=0,
    )
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{server.url}/")
    _menu(page, "Sign up")
    page.fill("[name=username]", "ginga")
    page.fill("[name=password1]", PASSWORD)
    page.fill("[name=password2]", PASSWORD)
    page.click("main button:text-is('Create my account')")

    # Gingka: the rules give its yellow row (4); the rest is read off the card.
    _open_card(page, "Gingka")
    _pips(page, "stat_red", 2)
    _pips(page, "stat_blue", 3)
    _pips(page, "stat_green", 1)
    page.fill("[name=emblem]", "Pegasus")
    page.check("input[name=launcher][value=yellow]")
    page.check("input[name=boosters][value=Y]")
    page.fill("[name=number]", "12")
    screenshot(page, "journey-mf-gingka-390")
    page.click("button[name=save]")
    page.wait_for_selector("text=Your reading, not reviewed yet.")
    stats = page.locator(".mf-stat-table")
    for label in ("red 2", "blue 3", "green 1", "yellow 4"):
        assert stats.locator(f"svg[aria-label='{label}']").count() == 1

    # Storm Pegasus: stats, emblem, its yellow landing move and no other value.
    _open_card(page, "Storm Pegasus")
    _pips(page, "stat_red", 1)
    _pips(page, "stat_blue", 2)
    _pips(page, "stat_green", 3)
    page.fill("[name=emblem]", "Pegasus")
    page.fill("[name=move_name]", "Star Blast")
    for colour in ("red", "blue", "green"):
        page.check(f"[name=move_{colour}__not_printed]")
    page.check("input[name=launcher][value=yellow]")
    page.check("input[name=boosters][value=Y]")
    page.check("input[name=boosters][value=R]")
    page.fill("[name=number]", "13")
    page.click("button[name=save]")
    page.wait_for_selector("text=Your reading, not reviewed yet.")

    # The Customizer of the example: stats, launcher, booster, number.
    _open_card(page, "Unknown card, not numbered")
    _pips(page, "stat_red", 2)
    _pips(page, "stat_blue", 2)
    _pips(page, "stat_green", 2)
    page.check("input[name=launcher][value=green]")
    page.check("input[name=boosters][value=G]")
    page.fill("[name=number]", "14")
    page.click("button[name=save]")
    page.wait_for_selector("text=Your reading, not reviewed yet.")

    readings = {
        r.card.key: r.fields
        for r in CardSubmission.objects.filter(submitter__username="ginga")
    }
    # The page posts what the card already knows with what was read.
    assert readings["gingka"] == {
        "card_type": "character", "name": "Gingka", "stat_yellow": 4,
        "stat_red": 2, "stat_blue": 3, "stat_green": 1, "emblem": "Pegasus",
        "launcher": "yellow", "boosters": "Y", "number": 12,
    }  # fmt: skip
    assert readings["storm-pegasus"]["boosters"] == "RY"
    assert readings["storm-pegasus"]["not_printed"] == [
        "move_blue",
        "move_green",
        "move_red",
    ]
    assert readings["example-customizer"]["number"] == 14

    # A deck: the three read cards as the line-up, fifteen practice cards.
    _menu(page, "Decks")
    page.click("main a:text-is('New deck')")
    page.select_option("[name=game]", label="Beyblade Metal Fusion")
    page.fill("[name=name]", "Gingka's line-up")
    page.click("main button:text-is('Save')")
    _find(page, "Gingka")
    _add(page, "Gingka", "lineup")
    _find(page, "Storm Pegasus")
    _add(page, "Storm Pegasus", "lineup")
    _find(page, card_type="customizer")
    _add(page, "Unknown card, not numbered", "lineup")
    for name in DECK[:7]:
        _add(page, name, "deck")
    _find(page, card_type="effect")
    for name in DECK[7:]:
        _add(page, name, "deck")
    assert page.locator("#deck-panel .legality.illegal").count() == 0
    screenshot(page, "journey-mf-deck-390")

    # Play it to the end against the greedy bot.
    page.click("main a:text-is('Playtest')")
    assert page.locator("text=This deck cannot be playtested yet").count() == 0
    page.check("input[name=opponent][value=greedy]")
    page.click("button:text-is('Start the game')")
    page.wait_for_selector("#board")
    click_to_the_end(page)
    screenshot(page, "journey-mf-over-390")
    deck = Deck.objects.get(owner__username="ginga")
    played = Playtest.objects.get(owner__username="ginga")
    assert played.over is True
    lineup = {e.card.key for e in deck.entries.filter(zone="lineup")}
    assert lineup == {"gingka", "storm-pegasus", "example-customizer"}
    # Nobody else's card changed: the readings are the reader's own.
    assert Card.objects.get(key="gingka", card_set__slug="metal-fusion").number is None

    # The deck doctor takes the deck as the playtest did.
    start_job(page, server, deck, "doctor", 20)
    doctor = DeckDoctor.objects.get(owner__username="ginga")
    run_task_worker(server)
    page.goto(f"{server.url}/play/doctor/{doctor.pk}/")
    assert DeckDoctor.objects.get(pk=doctor.pk).status == "done"
    assert "As it is, the deck wins" in page.locator("#doctor").inner_text()
    screenshot(page, "journey-mf-doctor-390")
    context.close()
