"""Transcribe an unknown Collision card on a phone-wide screen, with the notch buttons."""

import pytest

from cards.models import CardSubmission
from tests.factories import C, make_card, make_set

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
    page.wait_for_selector("[data-edge]")
    page.fill("[data-edge]", "")
    page.type("[data-edge]", "lsbebl")
    assert page.input_value("[data-edge]") == "LS.E.L"
    assert page.inner_text("[data-notch='1']") == "strike"
    context.close()
