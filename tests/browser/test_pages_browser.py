"""Every page of the URL conf in the browser, at a phone's width and a laptop's.

A signed-in moderator with real objects of every game visits each page that
answers HTML: at 390 px the document is no wider than the screen (nothing
scrolls sideways), at 1280 px nothing is cut off, and axe-core (vendored in
``vendor/axe.min.js``) finds no serious or critical accessibility violation.
"""

from pathlib import Path

import pytest
from django.conf import settings

from tests.site.every_page import every_page

from .conftest import screenshot

pytestmark = pytest.mark.browser

AXE = (Path(__file__).with_name("vendor") / "axe.min.js").read_text()
WIDTHS = (390, 1280)


@pytest.fixture
def pages(server, user, deck_for):
    """Return (client, every URL that answers the owner a 200 HTML page)."""
    return every_page(user, deck_for)


def _context(browser, server, client, width):
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": server.url,
            }
        ]
    )
    return context


def _serious_violations(page) -> list[str]:
    page.evaluate(AXE)
    found = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ["violations"]}))
        .violations.filter(v => v.impact === "serious" || v.impact === "critical")
        .map(v => v.id + ": " + v.nodes.slice(0, 2).map(n => n.html.slice(0, 120)).join(" | "))"""
    )
    return found


def _sweep(browser, server, client, urls, width) -> tuple[list[str], list[str]]:
    """Load every page once at ``width``; return (too wide, serious violations)."""
    context = _context(browser, server, client, width)
    page = context.new_page()
    too_wide, violations = [], []
    for url in urls:
        page.goto(server.url + url)
        document_width = page.evaluate("document.documentElement.scrollWidth")
        if document_width > width:
            too_wide.append(f"{width}px {url}: {document_width}px")
            screenshot(page, f"too-wide-{width}-{url.strip('/').replace('/', '_')}")
        if width == 1280:
            violations += [f"{url} {v}" for v in _serious_violations(page)]
    context.close()
    return too_wide, violations


# Both widths in one test: the pages (a scenario, every card file, a request to
# every URL) and the server are made once, not once per width.
def test_no_page_is_wider_than_the_screen_and_none_has_a_serious_accessibility_violation(
    browser, server, pages
):
    client, urls = pages
    assert len(urls) > 60, urls  # every kind of page was reached, signed in
    too_wide, violations = [], []
    for width in WIDTHS:
        wide, violated = _sweep(browser, server, client, urls, width)
        too_wide += wide
        violations += violated
    assert too_wide == [], "\n".join(too_wide)
    assert violations == [], "\n".join(violations)


def test_the_api_docs_page_lists_every_endpoint_under_the_content_security_policy(
    browser, server
):
    from cardsite.views import api_operations

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    refused = []
    page.on(
        "console",
        lambda m: (
            refused.append(m.text) if "Content Security Policy" in m.text else None
        ),
    )
    response = page.goto(server.url + "/api/docs/")
    assert "Content-Security-Policy" in response.headers or (
        "content-security-policy" in response.headers
    )
    listed = page.locator(".api-op").evaluate_all(
        "ops => ops.map(op => op.querySelector('h3').innerText.replace(/\\s+/g, ' '))"
    )
    expected = [f"{op['method']} {op['path']}" for op in api_operations()]
    assert listed == expected
    assert "GET /api/cards/" in listed
    assert refused == []
    page.close()


def test_on_a_phone_the_navigation_folds_into_a_menu_that_opens(browser, server):
    page = browser.new_page(viewport={"width": 390, "height": 800})
    page.goto(server.url + "/search/")
    menu = page.get_by_role("button", name="Menu")
    search_link = page.locator(".main-nav a", has_text="Search")
    assert menu.is_visible()
    assert not search_link.is_visible()
    menu.click()
    assert menu.get_attribute("aria-expanded") == "true"
    assert search_link.is_visible()
    assert search_link.get_attribute("aria-current") == "page"
    page.close()


def test_the_first_tab_reaches_a_skip_link_that_moves_to_the_content(browser, server):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(server.url + "/")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.textContent")
    assert focused == "Skip to the content"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"
    page.close()
