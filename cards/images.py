"""Card face pictures drawn from card data with Pillow, cached on disk.

The face is a picture of what the site knows, not a scan: unknown values are
drawn as "?", and practice and custom cards say so on the face. A file is keyed
by card id, size and ``updated_at``, so a changed card is drawn afresh.
"""

import io
import os
import tempfile
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from django.conf import settings
from PIL import Image, ImageDraw, ImageFont

from .choices import SetKind
from .games import GAMES, rgb
from .games.spec import hex_rgb as rgb_hex
from .provenance import unknown_card_label

FULL = (360, 504)
SIZES = {"full": FULL, "thumb": (90, 126)}
CACHE_DIR = "card-images"

COLOURS = {c: rgb(c) for c in ("red", "yellow", "green", "blue", "black")}
COLOURS[None] = rgb("unknown")
GATE_FRAMES = {c: rgb(c) for c in ("gold", "silver", "copper")}
WHITE, INK, GREY = rgb("paper"), rgb("ink"), rgb("unknown")


@lru_cache(maxsize=16)
def font(size: int):
    """Return Pillow's bundled scalable font at ``size`` (no system font needed)."""
    return ImageFont.load_default(size=size)


def cache_key(card, size: str) -> str:
    """Return the file name of the cached picture of ``card`` at ``size``."""
    stamp = int(card.updated_at.timestamp() * 1_000_000) if card.updated_at else 0
    return f"{card.pk}-{size}-{stamp}.png"


def cache_path(card, size: str) -> Path:
    return Path(settings.MEDIA_ROOT) / CACHE_DIR / cache_key(card, size)


def card_image(card, size: str = "full") -> Path:
    """Return the path of the PNG of ``card`` at ``size``, drawing it if needed."""
    path = cache_path(card, size)
    if path.exists():
        return path
    image = draw_card(card)
    if size != "full":
        image = image.resize(SIZES[size], Image.LANCZOS)
    _write_atomically(path, image)
    _remove_stale(path, card, size)
    return path


def scan_image(card, scan_file, size: str, stamp: str) -> Path:
    """Return the path of an uploaded scan as a PNG at ``size``, cached like faces."""
    path = Path(settings.MEDIA_ROOT) / CACHE_DIR / f"{card.pk}-scan-{size}-{stamp}.png"
    if path.exists():
        return path
    with scan_file.open("rb") as fh, Image.open(fh) as img:
        img = img.convert("RGB")
        img.thumbnail(SIZES[size])
        _write_atomically(path, img)
    return path


def _write_atomically(path: Path, image) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    # Concurrent requests may draw the same card; each writes its own file and
    # the rename is atomic, so a reader never sees half a PNG.
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "wb") as fh:
        fh.write(buffer.getvalue())
    os.replace(tmp, path)


def _remove_stale(path: Path, card, size: str) -> None:
    for old in path.parent.glob(f"{card.pk}-{size}-*.png"):
        if old != path:
            old.unlink(missing_ok=True)


def _value(card, field: str) -> str:
    value = getattr(card, field)
    if value is None:
        return "not printed" if field in (card.not_printed or []) else "?"
    return str(value)


def type_line(card) -> str:
    """Return the face's second line: the card type and its number as printed.

    A card known only by its key (Metal Fusion's "storm-pegasus", an unnumbered
    Blade) shows no number rather than its slug.
    """
    kind = (card.card_type or "?").replace("-", " ").title()
    number = card.printed_number or (
        str(card.number) if card.number is not None else None
    )
    return f"{kind}  ·  #{number}" if number else kind


class Pen(NamedTuple):
    """What a game's ``draw_face`` draws its face's body with.

    ``draw`` is the Pillow drawing, ``font(size)`` the face font,
    ``value(card, field)`` a field as the face prints it ("?" when unknown).
    """

    draw: ImageDraw.ImageDraw
    font: Callable
    value: Callable
    ink: tuple[int, int, int]
    grey: tuple[int, int, int]


def draw_card(card) -> Image.Image:
    """Draw the full-size face of ``card``."""
    spec = GAMES[card.card_set.game.slug]
    kind = spec.kind(card.card_type)
    frame = rgb_hex(spec.frame)
    if kind and "colour" in kind.fields:
        frame = COLOURS.get(card.colour, GREY)
    elif card.gate_class:
        frame = GATE_FRAMES[card.gate_class]
    image = Image.new("RGB", FULL, frame)
    d = ImageDraw.Draw(image)
    w, h = FULL
    d.rounded_rectangle((14, 14, w - 14, h - 14), radius=12, fill=WHITE)
    title = card.name or unknown_card_label(card.printed_number, card.key)
    d.text((26, 24), _fit(title, 26), fill=INK, font=font(22))
    d.text((26, 54), type_line(card), fill=GREY, font=font(15))
    if card.rarity:
        # Right-aligned inside the white panel, the whole word: never cut off.
        rarity = card.rarity.replace("_", " ").title()
        width = d.textlength(rarity, font=font(15))
        d.text((w - 26 - width, 54), rarity, fill=GREY, font=font(15))
    if spec.draw_face is not None:
        spec.draw_face(card, Pen(d, font, _value, INK, GREY), 84)
    if card.text:
        _draw_text(d, card.text, (26, 360), w - 52, 8)
    elif card.is_unknown("text"):
        d.text((26, 360), "Text: ?", fill=GREY, font=font(14))
    kind_label = {
        SetKind.PRACTICE: "PRACTICE · not a printed card",
        SetKind.CUSTOM: "CUSTOM · not a printed card",
    }.get(card.card_set.kind)
    if kind_label:
        d.rectangle((14, h - 48, w - 14, h - 22), fill=(122, 63, 176))
        d.text((26, h - 44), kind_label, fill=WHITE, font=font(15))
    else:
        d.text((26, h - 40), card.card_set.name[:40], fill=GREY, font=font(13))
    return image


def _fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# More characters than one line of the 13 px face font holds.
MAX_LINE_CHARS = 100


def _draw_text(d, text: str, origin, width: int, max_lines: int) -> None:
    x, y = origin
    for i, line in enumerate(_wrap(d, text, font(13), width, max_lines)):
        d.text((x, y + i * 17), line, fill=INK, font=font(13))


def _wrap(d, text: str, f, width: int, max_lines: int) -> list[str]:
    """Return at most ``max_lines`` lines of ``text`` that fit ``width``.

    Only the text that can fit is looked at, and each line is found by bisection,
    so the work is bounded by ``max_lines`` whatever the text's length.
    """
    words = text[: max_lines * MAX_LINE_CHARS].split()
    lines, start = [], 0
    while start < len(words) and len(lines) < max_lines:
        end, chars = start + 1, len(words[start])
        while end < len(words) and chars + 1 + len(words[end]) <= MAX_LINE_CHARS:
            chars += 1 + len(words[end])
            end += 1
        line = _longest_fit(d, words[start:end], f, width)
        lines.append(line)
        if len(line) < len(words[start]):
            words[start] = words[start][len(line) :]  # a word wider than a line
        else:
            start += len(line.split())
    cut = start < len(words) or len(text) > max_lines * MAX_LINE_CHARS
    if cut and lines:
        lines[-1] = _fit(lines[-1], len(lines[-1]) - 1)
    return lines


def _longest_fit(d, words: list[str], f, width: int) -> str:
    """Return the most of ``words`` (at least the start of the first) that fits."""
    words = [words[0][:MAX_LINE_CHARS], *words[1:]]
    lo, hi = 0, len(words)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if d.textlength(" ".join(words[:mid]), font=f) <= width:
            lo = mid
        else:
            hi = mid - 1
    if lo:
        return " ".join(words[:lo])
    word = words[0]
    lo, hi = 1, len(word)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if d.textlength(word[:mid], font=f) <= width:
            lo = mid
        else:
            hi = mid - 1
    return word[:lo]
