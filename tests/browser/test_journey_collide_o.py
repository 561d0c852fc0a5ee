"""The Collide-O! journey at 390 px: count a pack, play it, two censuses make it official.

A new collector counts the 90 cards of their pack on the census page and plays
it against a bot to the end. An established collector counts the same pack; the
two agreeing censuses make it the official pack, which a third, new account
then plays. Everything on the page is done by clicks and typing.
"""

import json
import shutil
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from cards.choices import Verification
from cards.community.collide_o_census import official_pack
from cards.community.trust import TRUSTED_AFTER
from cards.data import card_data_load, card_data_parse
from cards.games.collide_o import canonical
from cards.models import CardSubmission, GameRecord, ReviewStatus
from decks.play.models import Playtest

from .conftest import ARTIFACTS, click_to_the_end, screenshot

pytestmark = pytest.mark.browser

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
PHONE = {"width": 390, "height": 844}
SHOTS = Path("/tmp/shots-census")


def pack_patterns() -> Counter:
    """Return a real 90-card composition: the practice pack's patterns and counts."""
    data = json.loads((FIXTURES / "practice-collide-o.json").read_text())
    return Counter(
        (c["section_1"], c["section_2"], c["section_3"])
        for c in data["sets"][0]["cards"]
    )


def shot(page, name: str) -> None:
    screenshot(page, f"journey-collide-o-{name}")
    SHOTS.mkdir(exist_ok=True)
    shutil.copy(ARTIFACTS / f"journey-collide-o-{name}.png", SHOTS / f"{name}.png")


def sign_up(browser, server, username: str):
    """Return a phone page signed in to a new account made on the sign-up page."""
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{server.url}/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_password1", "a-long-pass-phrase-1")
    page.fill("#id_password2", "a-long-pass-phrase-1")
    page.click("text=Create my account")
    page.wait_for_url(f"{server.url}/collection/")
    return page


COLOURS = {"B": "blue", "Y": "yellow", "R": "red", "G": "green", "K": "black"}


def count_pack(page, server, patterns: Counter) -> None:
    """Count every card: tick the three sections, +1; repeats with the pattern's +1."""
    page.goto(f"{server.url}/community/")
    page.click("text=Count my Collide-O! pack")
    for pattern, n in patterns.items():
        for index, section in enumerate(pattern, 1):
            words = ["wild"] if len(section) == 5 else [COLOURS[c] for c in section]
            for word in words:
                page.check(f"[aria-label='Section {index}: {word}']")
        page.click("text=+1 card")
        # The page shows the card one way round (it may be turned end to end).
        row = page.locator(".census-row")
        for index, section in enumerate(canonical(pattern), 1):
            row = row.filter(
                has=page.locator(f"input[name=section_{index}][value='{section}']")
            )
        for _ in range(n - 1):
            total = page.locator("#census-total").inner_text()
            row.get_by_role("button", name="One more").click()
            page.wait_for_function(
                "t => document.querySelector('#census-total').innerText !== t",
                arg=total,
            )
        assert row.locator(".census-count").inner_text() == f"× {n}"


def play_to_the_end(page) -> Playtest:
    page.click("text=Start the game")
    page.wait_for_selector("#board")
    click_to_the_end(page)
    pk = int(page.url.rstrip("/").split("/")[-1])
    return Playtest.objects.get(pk=pk)


def establish(username: str) -> None:
    """Age an account past the trust window and give it a moderator-accepted proposal.

    Stands for the week that passes and the proposal a moderator accepts
    (``counts_toward_confirmation``); neither is a thing to click through here.
    """
    user = get_user_model().objects.get(username=username)
    user.date_joined = timezone.now() - TRUSTED_AFTER - timedelta(days=1)
    user.save(update_fields=["date_joined"])
    CardSubmission.objects.create(
        submitter=user,
        game=GameRecord.objects.get(slug="bakugan"),
        is_new=True,
        source="a proposal a moderator accepted",
        status=ReviewStatus.ACCEPTED,
    )


def test_a_counted_pack_plays_and_two_agreeing_censuses_make_it_official(
    browser, server
):
    # A clean site: the game's card data loaded, its official set with no card.
    text = (FIXTURES / "collide-o.json").read_text()
    card_data_load(data=card_data_parse(text=text), source_label="journey")
    patterns = pack_patterns()

    # A new collector counts their pack and plays it against a bot.
    ana = sign_up(browser, server, "ana")
    ana.goto(f"{server.url}/community/help-wanted/collide-o/")
    assert "no card of this set is recorded" in ana.content()
    count_pack(ana, server, patterns)
    assert "90 of 90 counted" in ana.locator("#census-total").inner_text()
    assert "The official composition is not known yet" in ana.content()
    shot(ana, "census-counted")
    ana.click("text=Play this pack")
    game = play_to_the_end(ana)
    shot(ana, "census-pack-played")
    assert game.over is True
    assert len(game.decks[0]["pack"]) == 90
    assert official_pack() == []

    # A week on, with a proposal accepted, an established collector counts the same
    # pack: the two censuses agree and the pack becomes the official one.
    establish("ana")
    ben = sign_up(browser, server, "ben")
    establish("ben")
    count_pack(ben, server, patterns)
    pack = official_pack()
    assert len(pack) == 90
    assert {card.verification for card, _ in pack} == {Verification.CONFIRMED}
    ben.reload()
    assert "The official Collide-O! pack is known" in ben.content()
    assert "ana" in ben.content() and "ben" in ben.content()

    # A third, new account plays the official pack.
    cleo = sign_up(browser, server, "cleo")
    cleo.goto(f"{server.url}/community/")
    cleo.click("text=Count my Collide-O! pack")
    shot(cleo, "census-official-known")
    cleo.click("text=Play the official pack")
    game = play_to_the_end(cleo)
    shot(cleo, "official-pack-played")
    assert game.over is True
    assert game.owner.username == "cleo"
    assert len(game.decks[0]["pack"]) == 90
    assert {e.card.card_set.slug for e in game.deck.entries.select_related("card")} == {
        "collide-o"
    }
