"""A printable one-page deck list for tournaments: cards by zone, counts, set numbers.

The zones come in the game's order (``cards.games``); within a zone the cards are
in checklist order, each with its count, name and set and number as printed.
Practice and custom cards say their kind; a card the reader may not see is
written as the stand-in the deck page shows. A long list goes to two columns
and a smaller type so that it stays on one page.
"""

from __future__ import annotations

import io

from reportlab.lib.units import mm
from reportlab.pdfgen import canvas

from cards.choices import SetKind
from cards.games import GAMES

from .proxies import PAPERS

KIND_WORDS = {SetKind.PRACTICE: "practice", SetKind.CUSTOM: "custom"}


def decklist_rows(entries, game_slug: str) -> list[dict]:
    """Return ``[{zone, label, count, lines: [(count, name, number)]}]`` by zone."""
    game = GAMES[game_slug]
    rows = []
    for zone in game.zones:
        in_zone = [e for e in entries if e.zone == zone.value]
        if not in_zone:
            continue
        in_zone.sort(
            key=lambda e: (e.card.number is None, e.card.number or 0, e.card.key)
        )
        lines = []
        for e in in_zone:
            card = e.card
            name = card.display_name
            if card.card_set.kind in KIND_WORDS:
                name += f" ({KIND_WORDS[card.card_set.kind]})"
            number = card.printed_number or card.key
            # The number first, so a narrow column cuts the set's name, never it.
            where = f"#{number} {card.card_set.name}" if number else card.card_set.name
            lines.append((e.quantity, name, where))
        rows.append(
            {
                "zone": zone.value,
                "label": zone.label,
                "count": sum(e.quantity for e in in_zone),
                "lines": lines,
            }
        )
    return rows


def render_decklist(deck, entries, *, paper: str, printed_on: str) -> bytes:
    """Return the one-page PDF deck list of ``deck`` (its ``entries`` as shown)."""
    _, page = PAPERS[paper]
    rows = decklist_rows(entries, deck.game.slug)
    total = sum(r["count"] for r in rows)
    line_count = sum(len(r["lines"]) + 2 for r in rows)
    width, height = page
    margin = 15 * mm
    top = height - margin - 28 * mm
    available = top - margin
    columns, size = 1, 10.0
    while (line_count / columns) * size * 1.3 > available:
        if columns == 1:
            columns = 2
        elif size > 5.5:
            size -= 0.5
        else:
            break
    leading = size * 1.3
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, pagesize=page)
    c.setTitle(f"Deck list: {deck.name}")
    c.setFont("Helvetica-Bold", 16)
    c.drawString(margin, height - margin - 6 * mm, deck.name[:70])
    c.setFont("Helvetica", 10)
    c.drawString(
        margin,
        height - margin - 12 * mm,
        f"{deck.game.name} · {total} cards · deck by {deck.owner.get_username()}"
        f" · printed {printed_on}",
    )
    c.drawString(
        margin,
        height - margin - 19 * mm,
        "Player: ________________________   Event: ________________________"
        "   Date: ____________",
    )
    column_w = (width - 2 * margin) / columns
    x, y, column = margin, top, 0
    per_column = -(-line_count // columns)
    used = 0

    def next_line():
        nonlocal x, y, column, used
        used += 1
        y -= leading
        if used >= per_column and column + 1 < columns:
            column += 1
            used = 0
            x, y = margin + column * column_w, top

    for row in rows:
        c.setFont("Helvetica-Bold", size + 1)
        c.drawString(x, y, f"{row['label']} ({row['count']})")
        next_line()
        for count, name, where in row["lines"]:
            c.setFont("Helvetica-Bold", size)
            c.drawRightString(x + 6 * mm, y, str(count))
            c.setFont("Helvetica", size)
            name_w = column_w * 0.62 - 8 * mm
            c.drawString(x + 8 * mm, y, _fit(c, name, name_w, size))
            c.drawString(
                x + column_w * 0.64, y, _fit(c, where, column_w * 0.34 - 3 * mm, size)
            )
            next_line()
        next_line()
    c.setFont("Helvetica", 7)
    c.drawString(
        margin,
        margin - 6 * mm,
        "Cards marked practice or custom are not printed products.",
    )
    c.save()
    return buffer.getvalue()


def _fit(c, text: str, width: float, size: float) -> str:
    if c.stringWidth(text, "Helvetica", size) <= width:
        return text
    while text and c.stringWidth(text + "…", "Helvetica", size) > width:
        text = text[:-1]
    return text + "…"
