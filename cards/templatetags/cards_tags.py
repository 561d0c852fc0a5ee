"""Template helpers for card pages: values, badges and the SVG pictures."""

import re
from pathlib import Path

from django import template
from django.conf import settings
from django.template.loader import select_template
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from cards import games
from cards.choices import (
    LETTER_COLOURS,
    PIECE_NAMES,
    SetKind,
)
from cards.games import PALETTE

register = template.Library()

# A file path written into a source note: absolute, or climbing out with "../".
_PATH = re.compile(r"(?<![\w./:])(?:/|\.\./)(?:[\w.-]+/)+[\w.-]+")

UNKNOWN = mark_safe(
    '<span class="unknown" title="Nobody has recorded this yet">unknown</span>'
)
NOT_PRINTED = mark_safe(
    '<span class="not-printed" title="The card does not print this">not printed</span>'
)
FILL = PALETTE
INK, GREY = PALETTE["ink"], PALETTE["unknown"]
PIECE_FILL = {
    ".": PALETTE["bare"],
    "L": PALETTE["green"],
    "S": PALETTE["red"],
    "E": PALETTE["paper"],
}


@register.simple_tag
def value(card, field: str, signed: bool = False):
    """Render a card field, or "unknown" / "not printed" styled."""
    raw = getattr(card, field)
    if raw is None or raw == "":
        return NOT_PRINTED if field in (card.not_printed or []) else UNKNOWN
    display = getattr(card, f"get_{field}_display", None)
    if display is not None:
        return display()
    if signed and isinstance(raw, int):
        return f"{raw:+d}"
    return raw


@register.simple_tag
def kind_badge(card_or_set):
    """Render the practice/custom badge (nothing for official cards)."""
    card_set = getattr(card_or_set, "card_set", card_or_set)
    if card_set.kind == SetKind.PRACTICE:
        return mark_safe(
            '<span class="badge badge-practice" title="Made by this site to play with">'
            "practice · not printed</span>"
        )
    if card_set.kind == SetKind.CUSTOM:
        return mark_safe(
            '<span class="badge badge-custom" title="Made by a user">custom · not printed</span>'
        )
    return ""


# What a card not printed by anyone shows instead of a verification level: its
# values are the site's or the user's own, so there is nothing to verify.
KIND_STATUS = {
    SetKind.PRACTICE: ("practice", "Made by this site"),
    SetKind.CUSTOM: ("custom", "Custom"),
}


@register.simple_tag
def status_badge(card):
    """Render the verification level, or for practice and custom cards their kind."""
    kind = KIND_STATUS.get(card.card_set.kind)
    if kind is not None:
        return format_html('<span class="badge badge-{}">{}</span>', *kind)
    return format_html(
        '<span class="badge badge-{}">{}</span>',
        card.verification,
        card.get_verification_display(),
    )


@register.simple_tag
def field_level(level):
    """Render one field's own level: confirmed by whom and when, or disputed."""
    who = " and ".join(level.who)
    when = level.when.strftime("%-d %b %Y") if level.when else ""
    if level.level == "confirmed":
        text, title = "confirmed", f"Confirmed by {who} on {when}"
    else:
        text, title = "disputed", f"Readings by {who} disagree"
    return format_html(
        '<span class="badge badge-{}" title="{}">{}</span> <small class="meta">{}</small>',
        level.level,
        title,
        text,
        title,
    )


@register.simple_tag
def rarity(card):
    """Render the rarity with its printed symbol (Collision) or as printed."""
    game = games.get(card.card_set.game.slug)
    if card.rarity is None:
        printed = game.prints("rarity", card.card_type, card.not_printed or ())
        return UNKNOWN if printed else NOT_PRINTED
    symbol = game.rarity_symbols.get(card.rarity)
    if symbol:
        return format_html(
            '<span class="rarity" title="{}"><span aria-hidden="true">{}</span> {}</span>',
            card.rarity,
            symbol,
            card.rarity,
        )
    return card.rarity


@register.simple_tag
def image_url(card, size: str = "full"):
    """Return the card picture URL, versioned so a changed card is fetched again."""
    url = reverse("cards:card-image", kwargs={"pk": card.pk})
    stamp = int(card.updated_at.timestamp()) if card.updated_at else 0
    query = f"?v={stamp}" if size == "full" else f"?size={size}&v={stamp}"
    return url + query


@register.simple_tag
def edge_svg(card, scale: int = 24):
    """Draw the card's battle edge as six notches (inline SVG; unknown drawn as ?)."""
    return edge_picture(card.battle_edge, scale)


@register.simple_tag
def edge_picture(edge: str | None, scale: int = 24):
    """Draw a battle edge written as its six piece codes ("L.S..E").

    The one picture of an edge: the card page, the checklist, the playtest board
    and the help page draw it here, in the colours the card face uses (PIECE_FILL).
    """
    w, h = scale * 6 + 2, scale + 2
    if edge is None:
        return UNKNOWN
    cells = []
    for i, code in enumerate(edge):
        x = 1 + i * scale
        name = PIECE_NAMES.get(code, "?")
        cells.append(
            format_html(
                '<rect class="piece piece-{}" x="{}" y="1" width="{}" height="{}" fill="{}" '
                'stroke="' + INK + '"><title>Notch {}: {}</title></rect>',
                name,
                x,
                scale,
                scale,
                PIECE_FILL.get(code, "#ccc"),
                i + 1,
                name,
            )
        )
        if code == "E":
            cells.append(
                format_html(
                    '<circle cx="{}" cy="{}" r="{}" fill="none" stroke="' + INK + '" '
                    'stroke-width="2"/>',
                    x + scale / 2,
                    1 + scale / 2,
                    scale / 4,
                )
            )
        if code == "S":
            cells.append(
                format_html(
                    '<path d="M{} {} L{} {} L{} {} Z" fill="#fff"/>',
                    x + scale / 2,
                    4,
                    x + scale - 4,
                    scale - 2,
                    x + 4,
                    scale - 2,
                )
            )
    label = ", ".join(PIECE_NAMES.get(c, "?") for c in edge)
    return format_html(
        '<svg class="edge" role="img" aria-label="Battle edge: {}" width="{}" height="{}" '
        'viewBox="0 0 {} {}">{}</svg>',
        label,
        w,
        h,
        w,
        h,
        mark_safe("".join(cells)),
    )


@register.simple_tag
def edge_legend():
    """Draw the legend of the four notch pieces."""
    items = []
    for code, name in PIECE_NAMES.items():
        items.append(
            format_html(
                '<li><svg width="16" height="16" viewBox="0 0 16 16"><rect x="1" y="1" '
                'width="14" height="14" fill="{}" stroke="'
                + INK
                + '"/>{}</svg> {}</li>',
                PIECE_FILL[code],
                mark_safe(
                    '<circle cx="8" cy="8" r="4" fill="none" stroke="' + INK + '"/>'
                    if code == "E"
                    else '<path d="M8 3 L13 13 L3 13 Z" fill="#fff"/>'
                    if code == "S"
                    else ""
                ),
                name,
            )
        )
    return format_html('<ul class="edge-legend">{}</ul>', mark_safe("".join(items)))


def _section_svg(letters: str | None, order: str, x: int, width: int, height: int):
    if not letters:
        return format_html(
            '<g><rect x="{}" y="0" width="{}" height="{}" fill="#eee" stroke="'
            + GREY
            + '"/>'
            '<text x="{}" y="{}" text-anchor="middle" fill="' + GREY + '">?</text></g>',
            x,
            width,
            height,
            x + width / 2,
            height / 2 + 5,
        )
    letters = "".join(c for c in order if c in letters)
    stripe = width / len(letters)
    names = " and ".join(LETTER_COLOURS[c] for c in letters)
    rects = format_html_join(
        "",
        '<rect x="{}" y="0" width="{}" height="{}" fill="{}"/>',
        (
            (x + j * stripe, stripe, height, FILL[LETTER_COLOURS[c]])
            for j, c in enumerate(letters)
        ),
    )
    return format_html(
        '<g><title>{}</title>{}<rect x="{}" y="0" width="{}" height="{}" fill="none" '
        'stroke="' + INK + '"/></g>',
        "wild (all five colours)" if len(letters) == 5 else names,
        rects,
        x,
        width,
        height,
    )


@register.simple_tag
def sections_svg(card, width: int = 30, height: int = 40):
    """Draw the three Collide-O! sections with their stripes (inline SVG)."""
    fields = ("section_1", "section_2", "section_3")
    # Stripes are drawn in the order the game lists its colours.
    order = "".join(c.letter for c in games.get(card.card_set.game.slug).colours)
    parts = [
        _section_svg(getattr(card, f), order, i * (width + 2), width, height)
        for i, f in enumerate(fields)
    ]
    total = 3 * width + 4
    label = "; ".join(
        getattr(card, f)
        and ", ".join(LETTER_COLOURS[c] for c in getattr(card, f))
        or "unknown"
        for f in fields
    )
    return format_html(
        '<svg class="sections" role="img" aria-label="Sections: {}" width="{}" height="{}" '
        'viewBox="0 0 {} {}">{}</svg>',
        label,
        total,
        height,
        total,
        height,
        mark_safe("".join(parts)),
    )


@register.simple_tag
def pips(card, colour: str):
    """Draw a Metal Fusion stat row as five pips, filled up to the value."""
    number = getattr(card, f"stat_{colour}")
    if number is None:
        return UNKNOWN
    circles = format_html_join(
        "",
        '<circle cx="{}" cy="8" r="6" fill="{}" stroke="{}"/>',
        (
            (8 + i * 16, FILL[colour] if i < number else "none", FILL[colour])
            for i in range(5)
        ),
    )
    return format_html(
        '<svg class="pips" role="img" aria-label="{} {}" width="82" height="16" '
        'viewBox="0 0 82 16">{}</svg>',
        colour,
        number,
        circles,
    )


@register.simple_tag
def key_stats(card):
    """Render the key stats of the card's game for a checklist row."""
    spec = games.get(card.card_set.game.slug)
    return select_template(spec.key_stats_template).render({"card": card, "spec": spec})


@register.simple_tag(takes_context=True)
def query_with(context, **changes):
    """Return the current query string with some parameters replaced."""
    params = context["request"].GET.copy()
    for key, new in changes.items():
        if new in (None, ""):
            params.pop(key, None)
        else:
            params[key] = new
    if "page" not in changes:
        params.pop("page", None)
    return "?" + params.urlencode()


@register.simple_tag
def sort_link(current: str, key: str):
    """Return the sort value a column header links to (toggles the direction)."""
    return f"-{key}" if current == key else key


@register.simple_tag
def colour_cell(card):
    """Render the card colour, or a dash where the card kind has no colour."""
    spec = games.get(card.card_set.game.slug)
    kind = spec.kind(card.card_type)
    has_colour = "colour" in spec.fields and (kind is None or "colour" in kind.fields)
    if not has_colour:
        return mark_safe(
            '<span class="not-applicable" title="This kind of card has no colour">—</span>'
        )
    if card.colour is None:
        return value(card, "colour")
    return format_html(
        '<span class="swatch swatch-{}"></span> {}',
        card.colour,
        card.get_colour_display(),
    )


@register.filter
def repo_path(text):
    """Name files by their path in the repository, never by a server path.

    A path inside the project becomes relative to its root
    (``fixtures/collision.json``); one outside it is named by its file name.
    """
    if not isinstance(text, str) or "/" not in text:
        return text
    root = Path(settings.BASE_DIR).resolve()

    def name(match):
        found = match.group(0)
        if found.startswith("/"):
            try:
                return Path(found).relative_to(root).as_posix()
            except ValueError:
                pass
        return Path(found).name

    return _PATH.sub(name, text)
