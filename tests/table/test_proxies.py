"""Proxy sheets: pages, page size and card boxes measured from the PDF; marking; access."""

import pytest
from django.urls import reverse

from cards.choices import SetKind
from cards.community import readings
from cards.games import GAMES
from cards.models import Card
from decks.services import deck_create, deck_update
from decks.table import proxies
from tests.factories import C, make_card, make_set
from tests.table.pdf import pages

pytestmark = pytest.mark.django_db

A4_MM = (210.0, 297.0)
LETTER_MM = (215.9, 279.4)


def _deck_pdf(client, deck, paper="a4"):
    response = client.get(
        reverse("table:deck-proxies-pdf", args=[deck.pk]), {"paper": paper}
    )
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/pdf"
    return response.content


def _copies(deck):
    return sum(e.quantity for e in deck.entries.all())


@pytest.mark.parametrize("paper,size", [("a4", A4_MM), ("letter", LETTER_MM)])
def test_a_sixty_card_deck_prints_nine_to_a_page_at_card_size(
    client, user, deck_for, paper, size
):
    deck = deck_for("collision")
    copies = _copies(deck)
    client.force_login(user)
    sheet = pages(_deck_pdf(client, deck, paper))
    assert copies == 60
    assert len(sheet) == 7  # 6 full pages of nine and one of six
    assert [len(p["boxes"]) for p in sheet] == [9] * 6 + [6]
    for page in sheet:
        assert page["size"] == pytest.approx(size, abs=0.1)
        for _, _, w, h in page["boxes"]:
            assert (w, h) == pytest.approx((63.0, 88.0), abs=0.05)


def test_cards_sit_in_a_grid_with_two_bleeds_between_trims_and_inside_the_page(
    client, user, deck_for
):
    deck = deck_for("metal-fusion")
    client.force_login(user)
    page = pages(_deck_pdf(client, deck))[0]
    xs = sorted({round(x, 2) for x, _, _, _ in page["boxes"]})
    ys = sorted({round(y, 2) for _, y, _, _ in page["boxes"]})
    gap = 63 + 2 * proxies.BLEED_MM
    assert [round(b - a, 2) for a, b in zip(xs, xs[1:], strict=False)] == [gap, gap]
    assert [round(b - a, 2) for a, b in zip(ys, ys[1:], strict=False)] == [
        88 + 3.0,
        88 + 3.0,
    ]
    assert xs[0] - proxies.BLEED_MM >= proxies.MARGIN_MM
    assert ys[0] - proxies.BLEED_MM >= proxies.MARGIN_MM


def test_every_card_carries_the_proxy_mark_and_practice_cards_their_kind(
    client, user, deck_for
):
    deck = deck_for("collision")
    client.force_login(user)
    for page in pages(_deck_pdf(client, deck)):
        cards = len(page["boxes"])
        assert page["text"].count(proxies.PROXY_MARK) == cards
        assert page["text"].count(f"{proxies.PROXY_MARK} · PRACTICE") == cards


def test_bakugan_gates_and_abilities_print_and_figures_are_left_out(
    client, user, deck_for
):
    deck = deck_for("bakugan")
    client.force_login(user)
    entries = list(deck.entries.select_related("card"))
    figure = GAMES["bakugan"].not_cards[0]
    cards = sum(e.quantity for e in entries if e.card.card_type != figure)
    figures = sum(e.quantity for e in entries if e.card.card_type == figure)
    sheet = pages(_deck_pdf(client, deck))
    assert sum(len(p["boxes"]) for p in sheet) == cards
    notice = client.get(reverse("table:deck-proxies", args=[deck.pk]))
    text = notice.content.decode()
    assert f"Left out: {figures} copies (Bakugan figures are not cards)" in text
    assert "No source gives the printed size of Bakugan cards" in text


def test_the_notice_names_the_cards_that_print_incomplete(client, user, deck_for):
    deck = deck_for("collision")
    card = deck.entries.select_related("card").first().card
    Card.objects.filter(pk=card.pk).update(battle_edge=None)
    client.force_login(user)
    text = client.get(reverse("table:deck-proxies", args=[deck.pk])).content.decode()
    assert "1 card will print incomplete" in text
    assert f"{card.display_name}</a>: Battle edge" in text


def test_a_private_deck_prints_for_its_owner_only(client, user, other_user, deck_for):
    deck = deck_for("collision")
    for name in ("table:deck-proxies", "table:deck-proxies-pdf", "table:deck-list"):
        url = reverse(name, args=[deck.pk])
        client.logout()
        assert client.get(url).status_code == 404
        client.force_login(other_user)
        assert client.get(url).status_code == 404
        client.force_login(user)
        assert client.get(url).status_code == 200


def test_a_public_deck_prints_for_anyone(client, user, deck_for):
    deck = deck_for("collision")
    deck_update(deck=deck, name=deck.name, notes="", is_public=True)
    assert len(pages(_deck_pdf(client, deck))) == 7


def test_more_than_the_limit_is_refused_with_a_message(client, user, practice):
    practice("collision")
    card = Card.objects.filter(
        card_set__game__slug="collision", card_set__kind=SetKind.PRACTICE
    ).first()
    ids = ",".join([str(card.pk)] * (proxies.MAX_CARDS + 1))
    response = client.get(reverse("table:card-proxies-pdf"), {"cards": ids})
    assert response.status_code == 400
    assert (
        f"prints at most {proxies.MAX_CARDS} cards; this one asks for "
        f"{proxies.MAX_CARDS + 1}" in response.content.decode()
    )


def test_a_list_of_cards_prints_each_named_copy(client, practice):
    practice("collide-o")
    a, b = Card.objects.filter(card_set__game__slug="collide-o")[:2]
    response = client.get(
        reverse("table:card-proxies-pdf"), {"cards": f"{a.pk},{a.pk},{b.pk}"}
    )
    assert response.status_code == 200
    assert len(pages(response.content)[0]["boxes"]) == 3


def test_a_set_prints_one_of_each_card(client, practice):
    practice("metal-fusion")
    card = Card.objects.filter(card_set__game__slug="metal-fusion").first()
    card_set = card.card_set
    response = client.get(
        reverse("table:set-proxies-pdf", args=[card_set.game.slug, card_set.slug])
    )
    assert response.status_code == 200
    assert sum(len(p["boxes"]) for p in pages(response.content)) == (
        card_set.cards.count()
    )


def test_a_private_custom_card_in_a_public_deck_is_left_out_for_others(
    client, user, other_user, practice
):
    from cards.community.services import custom_card_create, custom_set_create

    practice("collision")
    custom = custom_set_create(user=user, game="collision", name="Mine")
    card = custom_card_create(
        user=user, card_set=custom, fields={"title": "Homebrew", "card_type": "action"}
    )
    deck = deck_create(
        owner=user,
        game="collision",
        name="Public with a secret",
        is_public=True,
        entries=[{"card": card.pk, "zone": "deck", "quantity": 2}],
    )
    client.force_login(other_user)
    text = client.get(reverse("table:deck-proxies", args=[deck.pk])).content.decode()
    assert "Homebrew" not in text
    assert "Left out: 2 copies (private custom cards you may not see)" in text
    sheet = pages(_deck_pdf(client, deck))
    assert sum(len(p["boxes"]) for p in sheet) == 0
    client.force_login(user)
    sheet = pages(_deck_pdf(client, deck))
    assert [len(p["boxes"]) for p in sheet] == [2]
    assert sheet[0]["text"].count(f"{proxies.PROXY_MARK} · CUSTOM") == 2


def test_the_sheet_is_cached_until_a_card_changes(user, deck_for):
    deck = deck_for("collision")
    lines = [
        proxies.ProxyLine(e.card, e.quantity)
        for e in deck.entries.select_related("card__card_set__game")
    ]
    key = proxies.cache_key(lines, "a4", "t")
    assert proxies.cache_key(lines, "a4", "t") == key
    card = lines[0].card
    card.save()  # a change stamps updated_at
    card.refresh_from_db()
    lines[0].card = card
    assert proxies.cache_key(lines, "a4", "t") != key


def test_an_unknown_paper_is_refused(client, user, deck_for):
    deck = deck_for("collision")
    client.force_login(user)
    response = client.get(
        reverse("table:deck-proxies-pdf", args=[deck.pk]), {"paper": "a3"}
    )
    assert response.status_code == 400
    assert "Paper is a4 or letter." in response.content.decode()


@pytest.mark.parametrize("value", [str(10**30), "-1", "0", "x"])
def test_a_card_id_no_row_can_have_is_a_message(client, value):
    response = client.get(reverse("table:card-proxies-pdf"), {"cards": value})
    assert response.status_code == 400
    text = response.content.decode()
    assert "No card with id" in text or "Cards are named by their ids" in text


def test_a_private_custom_set_prints_for_its_owner_only(
    client, user, other_user, practice
):
    from cards.community.services import custom_card_create, custom_set_create

    practice("collision")
    custom = custom_set_create(user=user, game="collision", name="Secret set")
    card = custom_card_create(
        user=user, card_set=custom, fields={"title": "Homebrew", "card_type": "action"}
    )
    url = reverse("table:set-proxies-pdf", args=["collision", custom.slug])
    assert client.get(url).status_code == 404
    listed = client.get(reverse("table:card-proxies-pdf"), {"cards": card.pk})
    assert listed.status_code == 400
    assert f"No card with id {card.pk}." in listed.content.decode()
    client.force_login(other_user)
    assert client.get(url).status_code == 404
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    assert len(pages(response.content)[0]["boxes"]) == 1


def test_old_sheets_beyond_the_cache_size_are_removed(tmp_path, monkeypatch):
    monkeypatch.setattr(proxies, "CACHE_KEEP", 2)
    import os
    import time

    for i in range(4):
        path = tmp_path / f"{i}.pdf"
        path.write_bytes(b"%PDF")
        os.utime(path, (time.time() + i, time.time() + i))
    proxies._prune(tmp_path)
    assert sorted(p.name for p in tmp_path.glob("*.pdf")) == ["2.pdf", "3.pdf"]


def test_the_rendered_page_shows_the_bleed_in_the_frame_colour_and_cut_marks(
    client, user, deck_for
):
    from cards.games.spec import hex_rgb
    from tests.table.pdf import render

    deck = deck_for("collision")
    client.force_login(user)
    data = _deck_pdf(client, deck)
    page = pages(data)[0]
    scale = 4  # 288 dpi
    image = render(data, 0, scale).convert("RGB")
    px = scale * 72 / 25.4  # pixels per mm
    height = image.height
    # The first card is the Blade, whose face frame is Collision's frame colour.
    x, y, w, h = min(page["boxes"], key=lambda b: (-b[1], b[0]))
    inside_bleed = (x - proxies.BLEED_MM / 2, y + h / 2)
    r, g, b = image.getpixel(
        (round(inside_bleed[0] * px), round(height - inside_bleed[1] * px))
    )
    frame = hex_rgb(GAMES["collision"].frame)
    assert max(abs(r - frame[0]), abs(g - frame[1]), abs(b - frame[2])) < 24
    # A cut mark sits in the top margin on the card's left trim line.
    mark = image.getpixel((round(x * px), round(1.5 * px)))
    assert max(mark) < 100
    # And nothing is drawn in the margin between two trim lines.
    assert image.getpixel((round((x + w / 2) * px), round(1.5 * px))) == (255, 255, 255)


def test_the_deck_page_links_to_its_proxies_deck_list_and_companion(
    client, user, deck_for
):
    deck = deck_for("collision")
    client.force_login(user)
    page = client.get(deck.get_absolute_url()).content.decode()
    assert reverse("table:deck-proxies", args=[deck.pk]) in page
    assert reverse("table:deck-list", args=[deck.pk]) in page
    assert f"{reverse('table:companion-new')}?game=collision&amp;deck={deck.pk}" in page
    started = client.get(
        f"{reverse('table:companion-new')}?game=collision&deck={deck.pk}"
    )
    assert f'<option value="{deck.pk}" selected>' in started.content.decode()


def test_a_half_filled_page_has_no_cut_lines_across_its_empty_part(client, practice):
    from tests.table.pdf import render

    practice("collision")
    ids = list(
        Card.objects.filter(card_set__game__slug="collision").values_list(
            "pk", flat=True
        )[:2]
    )
    response = client.get(
        reverse("table:card-proxies-pdf"), {"cards": ",".join(map(str, ids))}
    )
    data = response.content
    (page,) = pages(data)
    scale = 4
    image = render(data, 0, scale).convert("RGB")
    px = scale * 72 / 25.4
    x, y, w, h = page["boxes"][0]
    # On the first card's left trim line, half way down the empty lower rows.
    empty = image.getpixel((round(x * px), round(image.height * 0.75)))
    assert empty == (255, 255, 255)
    # The mark on that line is still there in the top margin.
    assert max(image.getpixel((round(x * px), round(1.5 * px)))) < 100


def _list_pdf(client, *cards, **extra):
    ids = ",".join(str(c.pk) for c in cards)
    return client.get(reverse("table:card-proxies-pdf"), {"cards": ids}, **extra)


def test_a_visitor_builds_a_few_sheets_an_hour_per_address_then_a_429_says_when(
    client, user, practice, settings, tmp_path, monkeypatch
):
    from django.utils import timezone

    from decks import budgets

    now = timezone.now()
    monkeypatch.setattr(budgets, "clock", lambda: now)
    settings.MEDIA_ROOT = tmp_path
    settings.ANONYMOUS_PROXY_SHEETS_PER_HOUR = 2
    practice("collide-o")
    a, b, c = Card.objects.filter(card_set__game__slug="collide-o")[:3]
    assert _list_pdf(client, a).status_code == 200
    assert _list_pdf(client, b).status_code == 200
    refused = _list_pdf(client, c)
    assert refused.status_code == 429
    assert refused["Retry-After"] == "3600"
    assert "log in to print more, or try again in 60 minutes." in (
        refused.content.decode()
    )
    # A sheet already drawn costs nothing and is served; another address and a
    # logged-in reader build their own.
    assert _list_pdf(client, a).status_code == 200
    assert _list_pdf(client, c, REMOTE_ADDR="192.0.2.7").status_code == 200
    client.force_login(user)
    assert _list_pdf(client, b, a).status_code == 200


def test_the_sheet_cache_is_bounded_by_its_total_size(practice, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    practice("collide-o")
    a, b = Card.objects.filter(card_set__game__slug="collide-o")[:2]
    first = proxies.proxy_sheet([proxies.ProxyLine(a, 9)], paper="a4", title="a")
    settings.PROXY_SHEET_CACHE_BYTES = len(first) * 3 // 2
    second = proxies.proxy_sheet([proxies.ProxyLine(b, 9)], paper="a4", title="b")
    kept = list((tmp_path / proxies.CACHE_DIR).glob("*.pdf"))
    assert [p.read_bytes() for p in kept] == [second]


def test_serving_a_cached_sheet_keeps_it_over_a_sheet_used_later(tmp_path, settings):
    import os

    settings.PROXY_SHEET_CACHE_BYTES = 8
    for i, name in enumerate(["used.pdf", "newer.pdf"]):
        (tmp_path / name).write_bytes(b"%PDF")
        os.utime(tmp_path / name, (1000 + i, 1000 + i))
    os.utime(tmp_path / "used.pdf")  # what ``cached_sheet`` does when it serves it
    (tmp_path / "new.pdf").write_bytes(b"%PDF")
    proxies._prune(tmp_path)
    assert sorted(p.name for p in tmp_path.glob("*.pdf")) == ["new.pdf", "used.pdf"]


def test_a_changed_reading_replaces_its_own_face_and_keeps_the_cards(
    user, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path
    card = make_card(
        C,
        card_set=make_set(C, slug="base-test", name="Base test", source="test"),
        key="dragoon",
        name="Dragoon",
        title="Dragoon",
        card_type="blade",
        spin_strength=6,
        source="the rules text",
    )
    stored = proxies.print_face(Card.objects.get(pk=card.pk))
    faces = []
    for edge in ("LS.E.L", "SS.E.L"):
        readings.card_reading_save(user=user, card=card, fields={"battle_edge": edge})
        read = readings.cards_as_read(user, [Card.objects.get(pk=card.pk)])[0]
        faces.append(proxies.print_face(read))
    assert faces[0] != faces[1] != stored
    assert sorted(stored.parent.glob(f"{card.pk}-*.jpg")) == sorted([stored, faces[1]])
