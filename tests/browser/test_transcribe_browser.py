"""Transcribe an unknown Collision card on a phone-wide screen, with the notch buttons."""

import pytest

from cards.models import CardSubmission
from tests.factories import C, make_card, make_deck, make_set

from .conftest import screenshot

pytestmark = pytest.mark.browser


def test_an_unknown_card_is_transcribed_with_the_notch_buttons_at_390_px(
    browser, server, user, client
):
    from django.conf import settings

    official = make_set(C, slug="base-browser", name="Base browser", source="test")
    first, second = (
        make_card(C, card_set=official, key=str(n), number=n, source="slot")
        for n in (1, 2)
    )
    client.force_login(user)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": server.url,
            }
        ]
    )
    page = context.new_page()
    page.goto(f"{server.url}/community/cards/{first.pk}/transcribe/")
    page.check("input[name=card_type][value=action]")
    page.wait_for_selector("[data-notch='5']")
    before = page.get_attribute("#face img", "src")
    # Each click cycles one notch: bare, live, strike, empty.
    for index, clicks in enumerate([2, 1, 3, 4, 1, 2]):
        for _ in range(clicks):
            page.click(f"[data-notch='{index}']")
    assert page.input_value("[data-edge]") == "L.SE.L"
    assert page.inner_text("[data-notch='3']") == "empty"
    page.wait_for_function(
        "src => document.querySelector('#face img').src !== src", arg=before
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "transcribe-collision-390")
    page.check("input[name=colour][value=red]")
    page.click("button[name=next_unknown]")
    page.wait_for_url(f"**/community/cards/{second.pk}/transcribe/")

    reading = CardSubmission.objects.get(card=first, submitter=user)
    assert reading.status == "pending"
    assert reading.fields == {
        "card_type": "action",
        "battle_edge": "L.SE.L",
        "colour": "red",
    }
    # On the next card, the edge is typed as six keys and the buttons follow.
    page.check("input[name=card_type][value=blade]")
    # The card before was an Action, which this page suggests: wait for the Blade's.
    page.wait_for_selector("input[name=spin_strength]")
    page.fill("[data-edge]", "")
    page.type("[data-edge]", "lsbebl")
    assert page.input_value("[data-edge]") == "LS.E.L"
    assert page.inner_text("[data-notch='1']") == "strike"
    context.close()


def _focused(page, selector: str) -> None:
    """Wait until the element ``selector`` has the keyboard's focus."""
    page.locator(f"{selector}:focus").wait_for()


def test_two_unknown_cards_of_a_deck_are_transcribed_by_keyboard_only(
    browser, server, user, client
):
    from django.conf import settings

    official = make_set(C, slug="base-keys", name="Base keys", source="test")
    first, second = (
        make_card(C, card_set=official, key=str(n), number=n, source="slot")
        for n in (1, 2)
    )
    deck = make_deck(
        user,
        entries=[
            {"card": c.pk, "zone": "deck", "quantity": 1} for c in (first, second)
        ],
    )
    client.force_login(user)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": server.url,
            }
        ]
    )
    page = context.new_page()
    page.goto(f"{server.url}/play/new/?deck={deck.pk}")
    page.click(f"a[href^='/community/cards/{first.pk}/transcribe/']")
    assert "2 of its 2 different cards" in page.inner_text(".deck-progress")
    keys = page.keyboard
    # The page starts in the title; the type is one Shift+Tab back.
    _focused(page, "#f-title")
    keys.type("Dragon Storm")
    keys.press("Shift+Tab")
    keys.press("ArrowRight")  # Blade
    keys.press("ArrowRight")  # Action: its colour and symbol come in
    _focused(page, "input[name=card_type][value=action]")
    page.locator("input[name=colour]").first.wait_for()
    keys.press("Tab")  # rarity
    keys.press("Tab")  # title
    keys.press("Tab")  # colour
    keys.press("ArrowRight")  # red
    keys.press("Tab")  # the six edge keys (the notch buttons are skipped)
    _focused(page, "[data-edge]")
    keys.type("llbseb")
    assert page.input_value("[data-edge]") == "LL.SE."
    keys.press("Enter")
    page.wait_for_url(f"**/community/cards/{second.pk}/transcribe/?deck={deck.pk}*")
    assert "1 of its 2 different cards" in page.inner_text(".deck-progress")
    # The type and colour of the card before are suggested: title and edge remain.
    assert page.is_checked("input[name=card_type][value=action]")
    assert page.is_checked("input[name=colour][value=red]")
    screenshot(page, "transcribe-keyboard-390")
    _focused(page, "#f-title")
    keys.type("Wind Step")
    keys.press("Tab")  # colour, as suggested
    keys.press("Tab")
    _focused(page, "[data-edge]")
    keys.type("blbleb")
    keys.press("Enter")
    page.wait_for_url(f"**/play/new/?deck={deck.pk}")
    assert "That was the last unknown card of your deck." in page.inner_text("body")

    readings = {
        r.card_id: r.fields for r in CardSubmission.objects.filter(submitter=user)
    }
    assert readings == {
        first.pk: {
            "card_type": "action",
            "title": "Dragon Storm",
            "name": "Dragon Storm",
            "colour": "red",
            "battle_edge": "LL.SE.",
        },
        second.pk: {
            "card_type": "action",
            "title": "Wind Step",
            "name": "Wind Step",
            "colour": "red",
            "battle_edge": ".L.LE.",
        },
    }
    context.close()
