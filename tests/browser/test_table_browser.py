"""The table companion in a real browser at phone width: enter, reload, undo, share."""

import pytest

from tests.browser.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_companion_keeps_the_score_through_a_reload_at_phone_width(
    signed_in_page, server
):
    page = signed_in_page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{server.url}/table/companion/?game=collision")
    page.fill("input[name=strength_0]", "6")
    page.fill("input[name=strength_1]", "6")
    page.click("button.big")
    page.select_option("select[name=defender]", "1")
    page.fill("input[name=hits]", "3")
    with page.expect_navigation():
        page.click("text=Battle won by the attacker")
    page.reload()
    rows = page.locator("table.score tbody tr")
    assert rows.nth(1).inner_text().split("\t")[-1].strip() == "3 / 6"
    # Nothing wider than the phone.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    screenshot(page, "table-companion-390")
    shared = page.locator(".companion-share a").get_attribute("href")
    page.click("text=Undo the last entry")
    assert rows.nth(1).inner_text().split("\t")[-1].strip() == "6 / 6"
    page.goto(shared)
    assert page.locator("form button.big").count() == 0
    assert page.locator("table.score tbody tr").nth(1).inner_text().endswith("6 / 6")


def test_the_companions_game_buttons_can_be_read_and_start_metal_fusion_everyone_at_once(
    signed_in_page, server
):
    page = signed_in_page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{server.url}/table/companion/")
    buttons = page.locator("ul.companion-games a.button")
    assert buttons.count() == 4
    for i in range(4):
        ink, ground = buttons.nth(i).evaluate(
            "e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]"
        )
        assert ink != ground  # white on white once hid every game's name
    buttons.filter(has_text="Metal Fusion").click()
    page.select_option("select[name=players]", "3")
    variants = page.locator("select[name=variant] option")
    assert variants.evaluate_all("os => os.map(o => o.value)") == ["left", "all"]
