"""Proxy sheets: a deck's cards (or a set's, or a list's) as a PDF at card size.

Each face is the site's own drawing of the card (``cards.images``, the picture
the card page shows), placed at the size the game registry gives for its type
(``Game.card_size``), nine to a page where nine fit, each with a bleed of the
face's frame colour around it and cut marks in the page margin on every trim
line. Every proxy carries the band "PROXY - not a printed card" and, for
practice and custom cards, their kind: no sheet can pass for real cards.

Uploaded scans are never printed: a scan records no licence, so the site cannot
know that printing one is allowed. Card types that are not cards (a Bakugan
figure is a toy) are left out and the print page names them.

A sheet is cached on disk under a key made of every card's id and last change
(and the reader's own reading of it, if any) with the paper and copies, so it is
drawn again only when a card changes. The cache is bounded by its total size
(``PROXY_SHEET_CACHE_BYTES``) and by a count: the least recently used sheets go
first.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from PIL import Image
from reportlab import rl_config
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas

from cards import images
from cards.choices import SetKind
from cards.community.services import unknown_fields
from cards.games import GAMES

# Paper, in points (1/72 inch), as reportlab names them.
PAPERS = {"a4": ("A4", A4), "letter": ("US Letter", LETTER)}
DEFAULT_PAPER = "a4"
BLEED_MM = 1.5
# The least page margin kept clear; cut marks are drawn inside it. Three rows of
# 88 mm cards with their bleed need all but 3.2 mm of US Letter's height.
MARGIN_MM = 3.0
CUT_MARK_GAP_MM = 0.5
MAX_CARDS = 300
PROXY_MARK = "PROXY - not a printed card"
KIND_MARKS = {SetKind.PRACTICE: "PRACTICE", SetKind.CUSTOM: "CUSTOM"}
CACHE_DIR = "proxy-sheets"
# Binary image streams: ASCII85 text (reportlab's default) costs most of a
# sheet's time in pure Python and only makes the file larger.
rl_config.useA85 = 0
# Bumped when the drawing changes, so cached sheets of the old drawing are not served.
LAYOUT_VERSION = 3
# Sheets kept on disk; the least recently used go first past this many, or
# past the settings' PROXY_SHEET_CACHE_BYTES in all (a sheet is up to ~8 MB).
CACHE_KEEP = 200


class TooManyCards(ValueError):
    """A request for more proxies than one sheet run prints."""


@dataclass
class ProxyLine:
    """One card and how many copies of it to print."""

    card: object
    copies: int


@dataclass
class ProxyPlan:
    """What a sheet will print, and what the reader should know first."""

    lines: list[ProxyLine] = field(default_factory=list)
    incomplete: list[tuple[object, list[str]]] = field(default_factory=list)
    left_out: list[tuple[str, int]] = field(default_factory=list)  # (why, copies)
    unsourced_sizes: list[str] = field(default_factory=list)

    @property
    def count(self) -> int:
        return sum(line.copies for line in self.lines)


def proxy_plan(lines: list[ProxyLine], *, hidden: int = 0) -> ProxyPlan:
    """Return the plan for ``lines``: which cards print, which print incomplete.

    ``hidden`` counts copies of cards the reader may not see (left out unnamed).
    """
    plan = ProxyPlan()
    not_card_copies: dict[str, int] = {}
    seen: set[int] = set()
    for line in lines:
        game = GAMES[line.card.card_set.game.slug]
        if line.card.card_type in game.not_cards:
            label = game.kind(line.card.card_type).label
            not_card_copies[label] = not_card_copies.get(label, 0) + line.copies
            continue
        plan.lines.append(line)
        missing = unknown_fields(line.card)
        if missing and line.card.pk not in seen:
            seen.add(line.card.pk)
            labels = {field: label for label, field in game.page_fields}
            plan.incomplete.append(
                (
                    line.card,
                    [labels.get(f, f.replace("_", " ").capitalize()) for f in missing],
                )
            )
        size = game.card_size(line.card.card_type)
        if not size.sourced and game.short_name not in plan.unsourced_sizes:
            plan.unsourced_sizes.append(game.short_name)
    for label, copies in sorted(not_card_copies.items()):
        plan.left_out.append((f"{label}s are not cards", copies))
    if hidden:
        plan.left_out.append(("private custom cards you may not see", hidden))
    return plan


def check_limit(count: int) -> None:
    """Refuse a run of more than ``MAX_CARDS`` proxies with a message that says so."""
    if count > MAX_CARDS:
        raise TooManyCards(
            f"A proxy sheet run prints at most {MAX_CARDS} cards; this one asks "
            f"for {count}. Print it in parts (a deck's zones, or part of a set)."
        )


@dataclass(frozen=True)
class Slot:
    """Where one card goes on a page: its trim box, in points from bottom left."""

    x: float
    y: float
    w: float
    h: float


def page_slots(page: tuple[float, float], width_mm: float, height_mm: float):
    """Return (columns, rows, slots) of cards of this size on a page of ``page``.

    Cards stand in a centred grid, each with its bleed on every side, so the
    gutter between two trims is two bleeds wide. Slots run left to right, top
    to bottom.
    """
    page_w, page_h = page
    w, h, bleed, margin = width_mm * mm, height_mm * mm, BLEED_MM * mm, MARGIN_MM * mm
    cols = max(1, int((page_w - 2 * margin) // (w + 2 * bleed)))
    rows = max(1, int((page_h - 2 * margin) // (h + 2 * bleed)))
    cols, rows = min(cols, 3), min(rows, 3)
    grid_w, grid_h = cols * (w + 2 * bleed), rows * (h + 2 * bleed)
    left, top = (page_w - grid_w) / 2, page_h - (page_h - grid_h) / 2
    slots = [
        Slot(
            left + c * (w + 2 * bleed) + bleed,
            top - (r + 1) * (h + 2 * bleed) + bleed,
            w,
            h,
        )
        for r in range(rows)
        for c in range(cols)
    ]
    return cols, rows, slots


def _reading_stamp(card) -> str:
    """Return what identifies the reading a card is drawn with, or "" for none."""
    reading = getattr(card, "your_reading", None)
    if reading is None:
        return ""
    values = json.dumps(reading.fields, sort_keys=True, default=str)
    return f"r{reading.pk}-" + hashlib.sha256(values.encode()).hexdigest()[:16]


def print_face(card) -> Path:
    """Return the path of the card's face as a JPEG, drawn by ``cards.images``.

    A JPEG goes into the PDF as it is, where raw pixels would be deflated again
    on every sheet; and it is written without the page face's optimised PNG,
    which alone would cost most of a cold sheet's time. It is cached beside the
    page faces, under the card's id and last change, so a changed card prints
    afresh.
    """
    path = images.cache_path(card, "print").with_suffix(".jpg")
    older = f"{card.pk}-print-*.jpg"
    stamp = _reading_stamp(card)
    if stamp:
        # A reader's own reading is drawn under its own name, and replaces only
        # the faces of that reading's earlier values.
        path = path.with_name(f"{card.pk}-read-{stamp}.jpg")
        older = f"{card.pk}-read-{stamp.split('-')[0]}-*.jpg"
    if not path.exists():
        buffer = io.BytesIO()
        # Full chroma keeps the faces' colour edges sharp.
        images.draw_card(card).save(buffer, format="JPEG", quality=92, subsampling=0)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            fh.write(buffer.getvalue())
        os.replace(tmp, path)
        for old in path.parent.glob(older):
            if old != path:
                old.unlink(missing_ok=True)
    return path


def _face(card):
    """Return the face's JPEG path and its frame colour (a corner pixel)."""
    path = print_face(card)
    with Image.open(path) as image:
        image.draft("RGB", (image.width // 8, image.height // 8))
        r, g, b = image.convert("RGB").getpixel((0, 0))
    return str(path), (r / 255, g / 255, b / 255)


def _draw_cut_marks(c, used: list[Slot], grid: list[Slot], page) -> None:
    """Draw a mark in the page margin, outside the whole grid, on every trim line.

    The trim lines are those of the cards on the page (``used``); the marks stay
    in the margin around the full grid, so a half-filled page gets no lines
    across its empty part.
    """
    page_w, page_h = page
    xs = sorted({round(s.x, 3) for s in used} | {round(s.x + s.w, 3) for s in used})
    ys = sorted({round(s.y, 3) for s in used} | {round(s.y + s.h, 3) for s in used})
    bleed = BLEED_MM * mm
    grid_left = min(s.x for s in grid) - bleed
    grid_right = max(s.x + s.w for s in grid) + bleed
    grid_bottom = min(s.y for s in grid) - bleed
    grid_top = max(s.y + s.h for s in grid) + bleed
    gap = CUT_MARK_GAP_MM * mm
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.3)
    for x in xs:
        c.line(x, grid_top + gap, x, page_h - gap)
        c.line(x, gap, x, grid_bottom - gap)
    for y in ys:
        c.line(gap, y, grid_left - gap, y)
        c.line(grid_right + gap, y, page_w - gap, y)


def face_text(card) -> str:
    """Return the words of a card's face: its name and the values its page lists."""
    game = GAMES[card.card_set.game.slug]
    values = [
        f"{label} {value}"
        for label, name in game.page_fields
        if (value := getattr(card, name, None)) not in (None, "", [])
    ]
    return " · ".join([card.display_name, *values])


def _draw_text_layer(c, slot: Slot, card) -> None:
    """Write the face's words invisibly over it, so the sheet can be searched."""
    text = c.beginText(slot.x + 1 * mm, slot.y + slot.h - 4 * mm)
    text.setTextRenderMode(3)  # invisible: the drawn face shows the card
    text.setFont("Helvetica", 5)
    text.textLine(face_text(card))
    c.drawText(text)


def _draw_mark(c, slot: Slot, kind: str) -> None:
    """Draw the proxy band across the foot of the card."""
    band = 4.2 * mm
    c.setFillColorRGB(0, 0, 0)
    c.rect(slot.x, slot.y, slot.w, band, stroke=0, fill=1)
    c.setFillColorRGB(1, 1, 1)
    text = PROXY_MARK + (f" · {KIND_MARKS[kind]}" if kind in KIND_MARKS else "")
    c.setFont("Helvetica-Bold", 6.5)
    c.drawCentredString(slot.x + slot.w / 2, slot.y + 1.4 * mm, text)


def render_sheet(lines: list[ProxyLine], *, paper: str, title: str) -> bytes:
    """Return the PDF of ``lines`` (cards with copies) on ``paper``."""
    paper_name, page = PAPERS[paper]
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, pagesize=page, pageCompression=1)
    c.setTitle(title)
    c.setAuthor("card site proxy sheet - not printed cards")
    by_size: dict[tuple[float, float], list] = {}
    for line in lines:
        game = GAMES[line.card.card_set.game.slug]
        size = game.card_size(line.card.card_type)
        by_size.setdefault((size.width_mm, size.height_mm), []).extend(
            [line.card] * line.copies
        )
    faces: dict[int, tuple] = {}
    first = True
    for (width, height), cards in by_size.items():
        _, _, slots = page_slots(page, width, height)
        for start in range(0, len(cards), len(slots)):
            if not first:
                c.showPage()
            first = False
            on_page = cards[start : start + len(slots)]
            for card, slot in zip(on_page, slots, strict=False):
                if card.pk not in faces:
                    faces[card.pk] = _face(card)
                path, colour = faces[card.pk]
                bleed = BLEED_MM * mm
                c.setFillColorRGB(*colour)
                c.rect(
                    slot.x - bleed,
                    slot.y - bleed,
                    slot.w + 2 * bleed,
                    slot.h + 2 * bleed,
                    stroke=0,
                    fill=1,
                )
                c.drawImage(path, slot.x, slot.y, slot.w, slot.h)
                _draw_text_layer(c, slot, card)
                _draw_mark(c, slot, card.card_set.kind)
            _draw_cut_marks(c, slots[: len(on_page)], slots, page)
    if first:
        c.setFont("Helvetica", 12)
        c.drawString(20 * mm, page[1] - 30 * mm, "No cards to print.")
    c.save()
    return buffer.getvalue()


def cache_key(lines: list[ProxyLine], paper: str, title: str = "") -> str:
    """Return the name of the cached sheet: every card's id and last change, copies."""
    digest = hashlib.sha256(f"v{LAYOUT_VERSION}:{paper}:{title}".encode())
    for line in lines:
        stamp = line.card.updated_at.timestamp() if line.card.updated_at else 0
        read = _reading_stamp(line.card)
        digest.update(f"|{line.card.pk}:{stamp}:{read}:{line.copies}".encode())
    return digest.hexdigest()[:32] + ".pdf"


def _cache_path(lines: list[ProxyLine], paper: str, title: str) -> Path:
    return Path(settings.MEDIA_ROOT) / CACHE_DIR / cache_key(lines, paper, title)


def cached_sheet(lines: list[ProxyLine], *, paper: str, title: str) -> bytes | None:
    """Return the cached PDF of ``lines``, or None when it would have to be drawn."""
    path = _cache_path(lines, paper, title)
    try:
        data = path.read_bytes()
        # Marked as used, so the pruning keeps the sheets people print.
        os.utime(path)
    except FileNotFoundError:  # never drawn, or pruned by another request
        return None
    return data


def proxy_sheet(lines: list[ProxyLine], *, paper: str, title: str) -> bytes:
    """Return the PDF of ``lines``, from the cache when no card has changed."""
    check_limit(sum(line.copies for line in lines))
    data = cached_sheet(lines, paper=paper, title=title)
    if data is not None:
        return data
    path = _cache_path(lines, paper, title)
    data = render_sheet(lines, paper=paper, title=title)
    path.parent.mkdir(parents=True, exist_ok=True)
    # Two requests may draw the same sheet: each writes its own file and the
    # rename is atomic, so a reader never gets half a PDF.
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    os.replace(tmp, path)
    _prune(path.parent)
    return data


def _prune(folder: Path) -> None:
    """Remove the least recently used sheets beyond ``CACHE_KEEP`` or the byte bound."""
    sheets = []
    for path in folder.glob("*.pdf"):
        try:
            stat = path.stat()
        except FileNotFoundError:  # removed by another request's pruning
            continue
        sheets.append((stat.st_mtime, stat.st_size, path))
    sheets.sort(reverse=True)  # newest first: kept while they fit
    room = settings.PROXY_SHEET_CACHE_BYTES
    for count, (_, size, path) in enumerate(sheets):
        room -= size
        if count >= CACHE_KEEP or room < 0:
            path.unlink(missing_ok=True)
