"""Card pictures: drawn from data, cached on disk, redrawn when the card changes."""

import io
from datetime import timedelta

import pytest
from django.core.files.base import ContentFile
from PIL import Image, ImageDraw

from cards import images
from cards.games import rgb
from cards.models import Card
from tests.factories import CO, MF, B, C, build_card, make_card

pytestmark = pytest.mark.django_db

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
GAMES = {
    C: {
        "title": "Dragoon",
        "card_type": "blade",
        "battle_edge": "LS.E..",
        "spin_strength": 6,
    },
    MF: {
        "name": "Storm Pegasus",
        "card_type": "beyblade",
        "stat_yellow": 2,
        "move_yellow": -1,
    },
    CO: {"section_1": "B", "section_2": "RG", "section_3": "BYRGK"},
    B: {
        "name": "Fire Pit",
        "card_type": "gate",
        "gate_class": "gold",
        "bonus_pyrus": 100,
    },
}


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def body(response) -> bytes:
    return b"".join(response.streaming_content)


@pytest.mark.parametrize("game", list(GAMES))
def test_each_game_gets_a_png_card_face(client, media, game):
    card = make_card(game, **GAMES[game])
    response = client.get(f"/cards/{card.pk}/image.png")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    data = body(response)
    assert data.startswith(PNG_MAGIC)
    assert Image.open(io.BytesIO(data)).size == images.SIZES["full"]
    assert (media / "card-images" / images.cache_key(card, "full")).exists()


@pytest.mark.parametrize("game", list(GAMES))
def test_the_thumbnail_is_the_small_size(client, game):
    card = make_card(game, **GAMES[game])
    response = client.get(f"/cards/{card.pk}/image.png?size=thumb")
    assert Image.open(io.BytesIO(body(response))).size == images.SIZES["thumb"]


def test_an_unknown_size_falls_back_to_full(client):
    card = make_card(C)
    response = client.get(f"/cards/{card.pk}/image.png?size=%00huge")
    assert Image.open(io.BytesIO(body(response))).size == images.SIZES["full"]


def test_the_picture_carries_caching_headers_and_answers_not_modified(client):
    card = make_card(C, **GAMES[C])
    response = client.get(f"/cards/{card.pk}/image.png")
    etag = response["ETag"]
    assert response["Cache-Control"] == "public, max-age=3600"
    assert response["Last-Modified"]
    again = client.get(f"/cards/{card.pk}/image.png", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304


def test_a_changed_card_is_redrawn_and_the_old_file_removed(client, media):
    card = make_card(C, **GAMES[C])
    first = client.get(f"/cards/{card.pk}/image.png")
    old_file = media / "card-images" / images.cache_key(card, "full")
    old_bytes = body(first)
    card.spin_strength = 7
    card.save()
    Card.objects.filter(pk=card.pk).update(
        updated_at=card.updated_at + timedelta(seconds=1)
    )
    card.refresh_from_db()
    second = client.get(f"/cards/{card.pk}/image.png", HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200
    assert second["ETag"] != first["ETag"]
    assert body(second) != old_bytes
    assert not old_file.exists()


def test_practice_cards_are_marked_on_the_face():
    official = make_card(CO, section_1="B")
    practice = make_card(CO, kind="practice", section_1="B")
    official_face = images.draw_card(official)
    practice_face = images.draw_card(practice)
    # The practice banner is drawn in purple across the bottom of the face.
    w, h = images.FULL
    assert practice_face.getpixel((w - 20, h - 26)) == (122, 63, 176)
    assert official_face.getpixel((w - 20, h - 26)) != (122, 63, 176)


def test_unknown_values_are_drawn_as_question_marks():
    unknown_edge = images.draw_card(make_card(C, card_type="blade"))
    known_edge = images.draw_card(make_card(C, card_type="blade", battle_edge="LLLLLL"))
    # A live notch is filled green; an unknown one is an empty box with a "?".
    assert known_edge.getpixel((48, 84 + 30)) == rgb("green")
    assert unknown_edge.getpixel((48, 84 + 30)) != rgb("green")


class Scan:
    """Stands in for the accepted scan another issue adds."""

    def __init__(self, image):
        self.pk = 9
        self.image = image


def test_an_accepted_scan_is_shown_instead_of_the_drawn_face(client, monkeypatch):
    card = make_card(C, **GAMES[C])
    buffer = io.BytesIO()
    Image.new("RGB", (200, 280), (1, 2, 3)).save(buffer, format="JPEG")
    scan = Scan(ContentFile(buffer.getvalue(), name="scan.jpg"))
    monkeypatch.setattr(
        Card, "accepted_scan", property(lambda self: scan), raising=False
    )
    response = client.get(f"/cards/{card.pk}/image.png")
    picture = Image.open(io.BytesIO(body(response)))
    assert picture.size == (200, 280)
    assert picture.getpixel((100, 140))[0] < 10


def test_an_unreadable_scan_falls_back_to_the_drawn_face(client, monkeypatch):
    card = make_card(C, **GAMES[C])
    scan = Scan(ContentFile(b"not an image", name="scan.jpg"))
    monkeypatch.setattr(
        Card, "accepted_scan", property(lambda self: scan), raising=False
    )
    response = client.get(f"/cards/{card.pk}/image.png")
    assert response.status_code == 200
    assert Image.open(io.BytesIO(body(response))).size == images.SIZES["full"]


class Counted:
    """Count the calls of a real ImageDraw method (it still runs)."""

    def __init__(self, monkeypatch, name: str):
        self.calls = []
        real = getattr(ImageDraw.ImageDraw, name)

        def counted(draw, text, *args, **kwargs):
            self.calls.append(text)
            return real(draw, text, *args, **kwargs)

        monkeypatch.setattr(ImageDraw.ImageDraw, name, counted)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Gate card. " * 181, id="longest-allowed-text"),
        pytest.param("Gate card. " * 190_000, id="2.1-mb-text"),
        pytest.param("X" * 2_000, id="one-long-word"),
    ],
)
def test_drawing_the_longest_text_measures_only_what_fits(monkeypatch, text):
    card = build_card(B, key="1", card_type="ability", text=text, source="test")
    measured = Counted(monkeypatch, "textlength")

    images.draw_card(card)

    # Each of the 8 lines is found by bisection over at most 100 characters.
    assert len(measured.calls) <= 8 * 7
    assert max(len(text) for text in measured.calls) <= images.MAX_LINE_CHARS
    lines = images._wrap(
        ImageDraw.Draw(Image.new("RGB", (1, 1))), text, images.font(13), 308, 8
    )
    assert len(lines) == 8
    assert lines[-1].endswith("…")


def test_the_longest_allowed_text_is_valid_and_drawn_in_eight_lines(monkeypatch):
    card = make_card(B, card_type="ability", text="Gate card. " * 181)
    drawn = []
    real = ImageDraw.ImageDraw.text

    def text(draw, xy, line, *args, **kwargs):
        drawn.append((xy, line))
        return real(draw, xy, line, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)

    images.draw_card(card)

    body_lines = [line for (x, y), line in drawn if y in range(360, 360 + 8 * 17, 17)]
    assert len(body_lines) == 8
    assert body_lines[0] == "Gate card. Gate card. Gate card. Gate card. Gate"
    assert body_lines[-1].endswith("…")


def test_a_face_is_drawn_once_and_served_from_the_cache(client, monkeypatch):
    card = make_card(C, **GAMES[C])
    draws = []
    real = images.draw_card
    monkeypatch.setattr(images, "draw_card", lambda c: draws.append(c.pk) or real(c))

    first = client.get(f"/cards/{card.pk}/image.png")
    again = client.get(f"/cards/{card.pk}/image.png")
    thumb = client.get(f"/cards/{card.pk}/image.png?size=thumb")
    thumb_again = client.get(f"/cards/{card.pk}/image.png?size=thumb")

    assert [r.status_code for r in (first, again, thumb, thumb_again)] == [200] * 4
    assert body(first) == body(again)
    assert draws == [card.pk, card.pk]  # once per size


def test_the_collision_face_draws_the_whole_rarity_inside_the_panel():
    card = make_card(
        C, title="Tyson", card_type="character", colour="red", rarity="common"
    )
    image = images.draw_card(card)
    w, _ = image.size
    frame = image.getpixel((w - 5, 60))
    # The frame strip right of the white panel, on the rarity's line, is all frame.
    strip = {image.getpixel((x, y)) for x in range(w - 13, w) for y in range(54, 72)}
    assert strip == {frame}


def test_a_card_known_only_by_its_key_shows_no_slug_for_a_number():
    card = make_card(
        MF, key="storm-pegasus", name="Storm Pegasus", card_type="beyblade"
    )
    assert (card.printed_number, card.number) == ("", None)
    assert images.type_line(card) == "Beyblade"
    numbered = make_card(C, title="Tyson", card_type="character", number=96)
    assert images.type_line(numbered) == "Character  ·  #96"
