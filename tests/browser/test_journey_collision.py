"""A Collision collector's evening at 390 px, from a new account on a clean database.

They read Dragoon's battle edge and two unknown cards of the set (one under a
new title), find those cards by what they read in the deck builder's finder,
build a legal deck with them, play it to the end against a bot, run a 100-game
report and a deck doctor run, and print the proxy sheet, which shows the read
title and edge. Everything is done by clicking and typing; the task worker runs
beside the server as ``make run`` starts one.
"""

import pytest
from django.core.management import call_command

from cards.models import Card
from decks.models import Deck
from decks.play.models import DeckDoctor, DeckReport, Playtest
from tests.table.pdf import pages

from .conftest import ROOT, click_to_the_end, run_task_worker, screenshot, start_job

pytestmark = pytest.mark.browser

TITLE = "Dragon Storm"
EDGE = "LS.E.L"  # typed as the six keys l s b e b l


def _phone(browser):
    return browser.new_context(viewport={"width": 390, "height": 844})


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def _transcribe(page, *, card_type: str, edge: str, **fields) -> None:
    """Fill the transcribe page: type, the six edge keys, then any other field."""
    page.check(f"input[name=card_type][value={card_type}]")
    page.wait_for_selector("[data-edge]")
    for name, value in fields.items():
        if name == "title":
            page.fill("input[name=title]", value)
        else:
            page.check(f"input[name={name}][value={value}]")
    page.fill("[data-edge]", "")
    page.type("[data-edge]", edge)


def test_a_collision_collector_reads_builds_plays_reports_and_prints(browser, server):
    call_command(
        "load_cards",
        str(ROOT / "fixtures" / "collision.json"),
        str(ROOT / "fixtures" / "practice-collision.json"),
        verbosity=0,
    )
    context = _phone(browser)
    page = context.new_page()

    # A new account.
    page.goto(f"{server.url}/accounts/signup/")
    page.fill("input[name=username]", "tala")
    page.fill("input[name=password1]", "a-long-pass-phrase-42")
    page.fill("input[name=password2]", "a-long-pass-phrase-42")
    page.click("button:has-text('Create my account')")
    page.wait_for_url("**/collection/")

    # Dragoon's battle edge, from its card page.
    page.goto(f"{server.url}/search/?q=dragoon")
    page.click("a:has-text('Dragoon')")
    page.click("text=I have this card: fill in what it prints")
    page.wait_for_selector("[data-edge]")
    page.fill("[data-edge]", "")
    page.type("[data-edge]", "lsbebl")
    assert page.input_value("[data-edge]") == EDGE
    page.click("button[name=save]")
    page.wait_for_selector("text=your reading")
    _fits(page)
    screenshot(page, "journey-collision-dragoon-read")

    # Two unknown cards of the set: #1 under a new title, #2 without one.
    first = Card.objects.get(card_set__slug="collision", key="1")
    second = Card.objects.get(card_set__slug="collision", key="2")
    page.goto(f"{server.url}/community/cards/{first.pk}/transcribe/")
    _transcribe(page, card_type="action", edge="lsbebl", title=TITLE, colour="red")
    page.click("button[name=next_unknown]")
    page.wait_for_url(f"**/community/cards/{second.pk}/transcribe/")
    _transcribe(page, card_type="action", edge="sllbbe", colour="blue")
    page.click("button[name=save]")
    page.wait_for_load_state()

    # A deck: fourteen practice actions typed in as a list, then the read cards
    # found in the finder by what was read.
    page.goto(f"{server.url}/decks/new/?game=collision")
    page.fill("input[name=name]", "My own Dragoon")
    page.locator("form:has(input[name=name]) button[type=submit]").click()
    page.wait_for_url("**/decks/*/")
    deck = Deck.objects.get(name="My own Dragoon")
    actions = (
        Card.objects.filter(card_set__kind="practice", card_set__game__slug="collision")
        .filter(card_type="action")
        .order_by("number")
        .values_list("name", flat=True)[:14]
    )
    page.goto(f"{server.url}/decks/{deck.pk}/import/")
    page.fill("textarea[name=text]", "\n".join(f"4 {name}" for name in actions))
    page.click("button:has-text('Import')")
    page.wait_for_url(f"**/decks/{deck.pk}/")

    def find_and_add(query: str, name: str, zone: str, copies: int) -> None:
        page.fill("#search-title ~ form input[name=q]", query)
        page.press("#search-title ~ form input[name=q]", "Enter")
        item = page.locator("#search-results li", has_text=name).first
        item.wait_for()
        item.locator("input[name=quantity]").last.fill(str(copies))
        with page.expect_response(lambda r: "/add/" in r.url):
            item.locator(f"button:has-text('Add to {zone}')").click()

    find_and_add('"dragon storm"', TITLE, "deck", 2)
    page.wait_for_selector(f"#deck-panel :text('{TITLE}')")
    screenshot(page, "journey-collision-finder")
    find_and_add("set:collision t:action c:blue", "Unknown card #2", "deck", 1)
    find_and_add("dragoon", "Dragoon", "blade", 1)
    page.reload()
    assert page.inner_text(".legality h2").startswith("Legal deck (60 cards)")
    _fits(page)
    screenshot(page, "journey-collision-deck")

    # Play it to the end against the random bot.
    page.click(f"a[href='/play/new/?deck={deck.pk}']")
    start = page.locator("form[action='/play/new/']")
    start.locator("input[name=opponent][value=random]").check()
    start.locator("button[type=submit]").click()
    page.wait_for_url("**/play/*/")
    assert page.locator(".badge-reading").count() > 0
    click_to_the_end(page)
    _fits(page)
    screenshot(page, "journey-collision-over")
    assert Playtest.objects.get(owner__username="tala").over is True

    # A 100-game report and a deck doctor run, from the start page.
    start_job(page, server, deck, "reports", 100)
    report = DeckReport.objects.get(owner__username="tala")
    start_job(page, server, deck, "doctor", 20)
    doctor = DeckDoctor.objects.get(owner__username="tala")
    run_task_worker(server)
    page.goto(f"{server.url}/play/reports/{report.pk}/")
    page.wait_for_selector(f"text={TITLE}")
    assert DeckReport.objects.get(pk=report.pk).status == "done"
    screenshot(page, "journey-collision-report")
    page.goto(f"{server.url}/play/doctor/{doctor.pk}/")
    assert DeckDoctor.objects.get(pk=doctor.pk).status == "done"
    screenshot(page, "journey-collision-doctor")

    # The proxy sheet: the page lists the read title, the PDF prints it and the edge.
    page.goto(f"{server.url}/decks/{deck.pk}/")
    page.click("a:has-text('Print proxies')")
    page.wait_for_selector("text=The cards that print")
    page.click("text=The cards that print")
    assert page.locator(f".proxy-lines :text('{TITLE}')").count() == 1
    _fits(page)
    screenshot(page, "journey-collision-proxies")
    sheet = context.request.get(
        f"{server.url}/table/decks/{deck.pk}/proxies.pdf?paper=a4"
    )
    assert sheet.status == 200
    text = " ".join(p["text"] for p in pages(sheet.body()))
    assert TITLE in text
    assert f"Battle edge {EDGE}" in text
    context.close()
