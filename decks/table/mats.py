"""Play mats as PDF: each game's mats from the registry (``Game.mats``) at true size.

A mat that fits the page (either way round) prints on one sheet; a larger one
(the Bakugan two-player field, with its roll lines two card lengths out) is
tiled over several sheets, each marked with its place in the grid, to be
joined edge to edge. A per-player mat prints one sheet per player, each named.
"""

from __future__ import annotations

import io
import math

from reportlab.lib.units import mm
from reportlab.pdfgen import canvas

from cards.games import PALETTE
from cards.games.spec import Game, Mat, hex_rgb

from .proxies import PAPERS

MARGIN_MM = 5.0
CAPTION_MM = 9.0  # the title line and the note above the mat
MAX_PLAYERS = 5


def _rgb(name: str) -> tuple[float, float, float]:
    return tuple(v / 255 for v in hex_rgb(PALETTE[name]))


def mat_pages(mat: Mat, page: tuple[float, float]):
    """Return (page size, columns, rows) the mat needs: one sheet when it fits."""
    portrait = (min(page), max(page))
    landscape = (max(page), min(page))
    best = None
    for size in (landscape, portrait):
        usable_w = size[0] / mm - 2 * MARGIN_MM
        usable_h = size[1] / mm - 2 * MARGIN_MM - CAPTION_MM  # room for the caption
        cols = math.ceil(mat.width_mm / usable_w)
        rows = math.ceil(mat.height_mm / usable_h)
        if best is None or cols * rows < best[1] * best[2]:
            best = (size, cols, rows)
    return best


def _draw_place(c, place, height_mm: float) -> None:
    """Draw one place; mat coordinates run from the top left, PDF from the bottom."""
    x, w, h = place.x * mm, place.w * mm, place.h * mm
    y = (height_mm - place.y - place.h) * mm
    ink = _rgb("ink")
    c.setStrokeColorRGB(*ink)
    c.setFillColorRGB(*ink)
    if place.kind == "arrow":
        c.setDash(4, 3)
        c.line(x, y, x + w, y)
        c.setDash()
        c.setFont("Helvetica", 8)
        c.drawString(x + 2 * mm, y + 1.5 * mm, place.label)
        return
    if place.kind == "colour":
        c.setFillColorRGB(*_rgb(place.colour))
        radius = min(w, h) / 2
        c.circle(x + w / 2, y + h / 2, radius, stroke=1, fill=1)
        c.setFillColorRGB(*ink)
        c.setFont("Helvetica-Bold", 8)
        c.drawCentredString(x + w / 2, y - 3.5 * mm, place.label)
        return
    card_like = place.kind in ("card", "sections", "ghost")
    c.setLineWidth(0.8 if card_like else 0.5)
    if place.kind == "ghost":
        # Only its outer third shows beyond the card it covers: label it there.
        c.setDash(2, 2)
        c.roundRect(x, y, w, h, 3 * mm)
        c.setDash()
        c.setFont("Helvetica", 6.5)
        third = x + w / 6 if "left" in place.label else x + w - w / 6
        c.drawCentredString(third, y + 2 * mm, place.label)
        return
    c.roundRect(x, y, w, h, 3 * mm if card_like else 1.5 * mm)
    if place.kind == "sections":
        c.setDash(1, 2)
        for i in (1, 2):
            c.line(x + i * w / 3, y, x + i * w / 3, y + h - 8 * mm)
        c.setDash()
        c.setFont("Helvetica", 6.5)
        for i, word in enumerate(("end", "middle", "end")):
            c.drawCentredString(x + (2 * i + 1) * w / 6, y + 3 * mm, word)
    c.setFont("Helvetica-Bold", 9)
    c.drawCentredString(x + w / 2, y + h - 6 * mm, place.label)
    if place.note and place.note != "ghost":
        c.setFont("Helvetica", 6.5)
        words, line, lines = place.note.split(), "", []
        for word in words:
            trial = f"{line} {word}".strip()
            if c.stringWidth(trial, "Helvetica", 6.5) > w - 4 * mm and line:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
        for i, text in enumerate(lines[:4]):
            c.drawCentredString(x + w / 2, y + h - 11 * mm - i * 3 * mm, text)


def _draw_mat(c, game: Game, mat: Mat, caption: str) -> None:
    ink = _rgb("ink")
    c.setStrokeColorRGB(*ink)
    c.setLineWidth(0.3)
    c.rect(0, 0, mat.width_mm * mm, mat.height_mm * mm)
    for place in mat.places:
        _draw_place(c, place, mat.height_mm)


def render_mat(game: Game, mat: Mat, *, paper: str, players: int = 1) -> bytes:
    """Return the PDF of ``mat`` on ``paper``: one copy per player when it is a player's."""
    _, page = PAPERS[paper]
    size, cols, rows = mat_pages(mat, page)
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, pagesize=size, pageCompression=1)
    c.setTitle(mat.name)
    copies = list(range(1, players + 1)) if mat.per_player else [None]
    usable_w = size[0] - 2 * MARGIN_MM * mm
    usable_h = size[1] - 2 * MARGIN_MM * mm - CAPTION_MM * mm
    first = True
    for player in copies:
        who = f" · player {player}" if player is not None else ""
        for row in range(rows):
            for col in range(cols):
                if not first:
                    c.showPage()
                first = False
                tile = (
                    f" · sheet {row * cols + col + 1} of {cols * rows} (row {row + 1}, column {col + 1})"
                    if cols * rows > 1
                    else ""
                )
                c.setFillColorRGB(*_rgb("ink"))
                c.setFont("Helvetica-Bold", 10)
                c.drawString(
                    MARGIN_MM * mm,
                    size[1] - MARGIN_MM * mm - 3 * mm,
                    f"{mat.name}{who}{tile}",
                )
                c.setFont("Helvetica", 6.5)
                c.drawString(
                    MARGIN_MM * mm,
                    size[1] - MARGIN_MM * mm - 7 * mm,
                    f"{mat.note} Print at 100% (no scaling).",
                )
                c.saveState()
                clip = c.beginPath()
                clip.rect(MARGIN_MM * mm, MARGIN_MM * mm, usable_w, usable_h)
                c.clipPath(clip, stroke=0, fill=0)
                # The mat's top left sits at the tile's top left.
                mat_h = mat.height_mm * mm
                dx = MARGIN_MM * mm - col * usable_w
                dy = MARGIN_MM * mm + usable_h - mat_h + row * usable_h
                c.translate(dx, dy)
                _draw_mat(c, game, mat, mat.name)
                c.restoreState()
                if cols * rows > 1:
                    c.setLineWidth(0.3)
                    c.setDash(1, 2)
                    c.rect(MARGIN_MM * mm, MARGIN_MM * mm, usable_w, usable_h)
                    c.setDash()
    c.save()
    return buffer.getvalue()
