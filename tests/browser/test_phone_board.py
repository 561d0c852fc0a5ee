"""A board made for a phone: at 390 x 844 px the first screen holds what a move needs."""

import pytest

from decks.play.models import DeckReport, Playtest
from decks.play.reports import deck_report_start, simulate_report
from decks.play.services import playtest_create

from .conftest import click_to_the_end, signed_in_context

pytestmark = pytest.mark.browser

WIDTH, HEIGHT = 390, 844
# The player's own tappable cards (Metal Fusion deals no hand: its line-up is tapped).
HAND = {
    "collision": ".gb-seat.gb-you .gb-hand .pc",
    "metal-fusion": ".gb-seat.gb-you .gb-lineup .pc",
    "collide-o": ".gb-hand.gb-you .pc",
    "bakugan": ".gb-seat.gb-you .gb-hand .pc",
}
# What the opponent's summary says, in the words of each game.
SUMMARY = {
    "collision": ["spin 6 of 6", "hand 4", "deck 48"],
    "metal-fusion": ["hand 0 of 5", "deck 15"],
    "collide-o": ["hand 5", "stack 38"],
    "bakugan": ["won 0/3 gates", "3 Bakugan", "hand 3+3"],
}
RECT = (
    "e => { const r = e.getBoundingClientRect(); return [r.top, r.bottom, r.right]; }"
)


@pytest.fixture
def phone(browser, server, user, client):
    """Return a 390 x 844 page signed in as ``user``."""
    context = signed_in_context(browser, server, client, user, WIDTH, HEIGHT)
    page = context.new_page()
    yield page
    context.close()


def _rect(page, selector):
    return page.locator(selector).first.evaluate(RECT)


def _no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH


@pytest.mark.parametrize("game", list(HAND))
def test_the_first_phone_screen_holds_the_hand_the_moves_the_opponent_and_the_turn(
    phone, server, user, deck_for, game
):
    pt = playtest_create(owner=user, deck=deck_for(game), opponent="random", seed=5)
    phone.goto(f"{server.url}/play/{pt.pk}/")
    assert phone.evaluate("window.scrollY") == 0
    assert phone.locator(".status h2").inner_text() == "You to act"
    opponent = phone.locator(".gb-sum:not(.gb-sum-you)")
    assert opponent.count() == 1
    summary = " ".join(opponent.inner_text().split())
    for words in SUMMARY[game]:
        assert words in summary, (words, summary)
    for selector in (".status h2", HAND[game], ".choices button", ".gb-sum"):
        top, bottom, right = _rect(phone, selector)
        assert 0 <= top and bottom <= HEIGHT and right <= WIDTH, (selector, top, bottom)
    assert _rect(phone, ".gb-sum:not(.gb-sum-you)")[1] <= HEIGHT
    log_top = _rect(phone, ".game-log")[0]
    assert log_top >= HEIGHT
    assert _rect(phone, ".gb-rules")[0] >= HEIGHT
    _no_sideways_scroll(phone)


def test_a_card_face_opens_enlarged_in_a_dialog_from_the_keyboard(
    phone, server, user, deck_for
):
    pt = playtest_create(
        owner=user, deck=deck_for("collision"), opponent="random", seed=5
    )
    phone.goto(f"{server.url}/play/{pt.pk}/")
    link = phone.locator(".gb-seat.gb-you .gb-hand [data-zoom]").first
    name = link.get_attribute("aria-label").removeprefix("Enlarge ")
    link.focus()
    phone.keyboard.press("Enter")
    dialog = phone.locator("dialog#card-zoom")
    dialog.wait_for(state="visible")
    assert dialog.locator("img").get_attribute("alt") == name
    assert dialog.locator("img").get_attribute("src") == link.get_attribute("href")
    width = dialog.evaluate("d => d.getBoundingClientRect().width")
    assert 300 <= width <= WIDTH
    phone.keyboard.press("Escape")
    dialog.wait_for(state="hidden")


def test_a_whole_game_is_played_to_the_end_on_a_phone(phone, server, user, deck_for):
    pt = playtest_create(
        owner=user, deck=deck_for("bakugan"), opponent="random", seed=5
    )
    phone.goto(f"{server.url}/play/{pt.pk}/")
    click_to_the_end(phone)
    assert Playtest.objects.get(pk=pt.pk).over is True
    _no_sideways_scroll(phone)


def test_the_deck_editor_checklist_and_report_controls_fit_a_phone(
    phone, server, user, deck_for
):
    deck = deck_for("collision")
    phone.goto(f"{server.url}/decks/{deck.pk}/")
    for label in ("+1", "−1", "Remove"):
        button = phone.locator(f"#deck-panel button:has-text('{label}')").first
        assert _rect(phone, f"#deck-panel button:has-text('{label}')")[2] <= WIDTH
        assert button.is_visible()
    _no_sideways_scroll(phone)

    phone.goto(f"{server.url}{deck.entries.first().card.card_set.get_absolute_url()}")
    assert phone.locator(".owned-widget").count() > 0
    assert _rect(phone, ".owned-widget")[2] <= WIDTH
    _no_sideways_scroll(phone)

    report = deck_report_start(owner=user, deck=deck, games=4, bot="random")
    report.result = simulate_report(report)
    report.status = DeckReport.Status.DONE
    report.save()
    phone.goto(f"{server.url}/play/reports/{report.pk}/")
    assert _rect(phone, "svg.histogram")[2] <= WIDTH
    _no_sideways_scroll(phone)
