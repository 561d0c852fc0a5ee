"""Template helpers for playtest boards: engine views drawn as zones of cards."""

from django import template

from cards.games import bakugan, collide_o, metal_fusion

from ..engine.collision import stopper
from ..engine.core import View
from ..playtest.names import seat_names

register = template.Library()

HIDDEN_KEYS = {"seat", "events", "log", "legal_actions", "you"}
LABELS = {
    "spin": "Spin pile",
    "deck": "Deck",
    "discard": "Discard pile",
    "battle_pile": "Battle pile",
    "characters": "Characters in play",
    "hand": "Hand",
    "blade": "Blade",
    "lineup": "Line-up",
    "boosters": "Boosters",
    "stack": "Stack",
    "used": "Used pile",
    "unused": "Unused Bakugan",
    "gates_won": "Gates won",
    "abilities": "Ability cards",
    "gates": "Gate cards in hand",
}


def _is_card(value) -> bool:
    return (
        isinstance(value, dict)
        and "id" in value
        and ("name" in value or "card_type" in value)
    )


@register.filter
def zones(seat: dict) -> list[dict]:
    """Return a seat's zones as {label, kind, value} rows for the board."""
    rows = []
    for key, value in seat.items():
        if key in HIDDEN_KEYS:
            continue
        label = LABELS.get(key, key.replace("_", " ").capitalize())
        if _is_card(value):
            rows.append({"label": label, "kind": "cards", "value": [value]})
        elif isinstance(value, list) and value and all(_is_card(v) for v in value):
            rows.append({"label": label, "kind": "cards", "value": value})
        elif isinstance(value, list) and not value:
            rows.append({"label": label, "kind": "text", "value": "none"})
        elif isinstance(value, bool):
            if value:
                rows.append({"label": label, "kind": "text", "value": "yes"})
        elif isinstance(value, (int, float, str)) or value is None:
            rows.append(
                {
                    "label": label,
                    "kind": "text",
                    "value": "—" if value is None else value,
                }
            )
        elif isinstance(value, dict):
            rows.append(
                {
                    "label": label,
                    "kind": "text",
                    "value": ", ".join(
                        f"{k}: {v}"
                        for k, v in value.items()
                        if not isinstance(v, (dict, list))
                    ),
                }
            )
        else:
            rows.append(
                {"label": label, "kind": "text", "value": f"{len(value)} item(s)"}
            )
    return rows


@register.filter
def seats(view: View) -> list[dict]:
    """Return the per-seat parts of an engine view."""
    return view.seats


@register.filter
def table_parts(view: View) -> list[dict]:
    """Return the shared parts of an engine view (not per seat) as zone rows."""
    return zones({k: v for k, v in view.board.items() if k != "log"})


def _names(pt) -> list[str]:
    names = getattr(pt, "names", None)
    if names is None:
        names = pt.names = seat_names(pt)
    return names


@register.filter
def seat_name(pt, seat) -> str:
    """Return the seat's one name ("You", "Greedy bot", a hot-seat name)."""
    try:
        return _names(pt)[int(seat)]
    except (TypeError, ValueError, IndexError):
        return "Chance"


@register.filter
def seat_title(pt, seat) -> str:
    """Return the seat's name and its deck, for a seat's heading."""
    try:
        seat = int(seat)
        return f"{_names(pt)[seat]} · {pt.seats[seat]['name']}"
    except (TypeError, ValueError, IndexError, KeyError):
        return "Chance"


# --- per-game board helpers ---------------------------------------------------

PIECES = {"L": "live", "S": "strike", "E": "empty", ".": "bare"}
SECTION_FILLS = {c.letter: c.hex for c in collide_o.GAME.colours}
COLOUR_WORDS = {c.letter: c.value for c in collide_o.GAME.colours}
BOOSTER_WORDS = {c.letter: c.value for c in metal_fusion.GAME.colours}


@register.filter
def next_colour(colour) -> str:
    """Return the Collision colour that stops ``colour`` (the next one round the bar)."""
    return stopper(colour) or ""


@register.filter
def edge_notches(edge) -> list[dict]:
    """Return a battle edge's six notches as {number, x, piece} rows for an SVG."""
    if not isinstance(edge, str):
        return []
    return [
        {"number": i + 1, "x": 4 + i * 14, "piece": PIECES.get(ch, "bare")}
        for i, ch in enumerate(edge[:6])
    ]


@register.filter
def times(count) -> range:
    """Return range(count), capped at 12, to draw a row of card backs."""
    try:
        return range(max(0, min(int(count), 12)))
    except (TypeError, ValueError):
        return range(0)


@register.filter
def section_rects(sections) -> list[dict]:
    """Return SVG rectangles of a Collide-O! card: three sections, stripes as bands."""
    rects = []
    if not isinstance(sections, (list, tuple)):
        return rects
    for index, letters in enumerate(sections[:3]):
        letters = [c for c in str(letters) if c in SECTION_FILLS] or ["K"]
        x = 2 + index * 30
        bands = len(letters) if len(letters) > 2 else len(letters) * 2
        if len(letters) == 1:
            bands = 1
        height = 44 / bands
        for band in range(bands):
            letter = letters[band % len(letters)]
            rects.append(
                {
                    "x": x,
                    "y": round(2 + band * height, 2),
                    "w": 30,
                    "h": round(height, 2),
                    "fill": SECTION_FILLS[letter],
                }
            )
    return rects


@register.filter
def section_words(letters) -> str:
    """Return a Collide-O! section in words: "red", "red-black stripe" or "wild"."""
    letters = [c for c in str(letters or "") if c in COLOUR_WORDS]
    if len(letters) == 5:
        return "wild (any colour)"
    if len(letters) == 2:
        return "-".join(COLOUR_WORDS[c] for c in letters) + " stripe"
    return " ".join(COLOUR_WORDS[c] for c in letters) or "unknown"


@register.filter
def card_sections_words(sections) -> str:
    """Return all three sections of a Collide-O! card in words."""
    if not isinstance(sections, (list, tuple)):
        return ""
    return " | ".join(section_words(s) for s in sections)


@register.filter
def booster_colours(code) -> list[str]:
    """Return the colour words of a Metal Fusion booster code ("RB" -> red, blue)."""
    return [BOOSTER_WORDS[c] for c in str(code or "") if c in BOOSTER_WORDS]


@register.filter
def power_parts(parts) -> list[dict]:
    """Return a Metal Fusion power breakdown as labelled rows, in counting order."""
    if not isinstance(parts, dict):
        return []
    labels = (
        ("character", "Character stat"),
        ("beyblade", "Beyblade stat"),
        ("customizer", "Customizer stat"),
        ("emblem", "Matching emblems"),
        ("move", "Beyblade move"),
        ("boosters", "Boosters"),
        ("effects", "Card effects"),
    )
    return [
        {"label": label, "value": parts[key]} for key, label in labels if key in parts
    ]


@register.simple_tag
def deck_card(pt, ref, seat=None):
    """Return the stored card dict behind an engine reference, or {}.

    Bakugan references read "P1-G2" / "P1-B3" (seat 1, gate or Bakugan 2 / 3) and
    "A2" (ability 2 of ``seat``); a Collide-O! reference is the pack index.
    Only call it with references the player's view already names, so nothing
    hidden is revealed.
    """
    decks = getattr(pt, "decks", None) or []
    try:
        if isinstance(ref, int):
            return decks[0]["pack"][ref]
        ref = str(ref)
        if ref.startswith("A"):
            return decks[int(seat)]["ability"][int(ref[1:]) - 1]
        player, item = ref.split("-")
        zone = {"G": "gate", "B": bakugan.FIGURE}[item[0]]
        return decks[int(player[1:]) - 1][zone][int(item[1:]) - 1]
    except (IndexError, KeyError, TypeError, ValueError, AttributeError):
        return {}


@register.filter
def index_of(items, value):
    """Return the position of ``value`` in ``items``, or -1."""
    try:
        return list(items).index(value)
    except (TypeError, ValueError):
        return -1


@register.filter
def words(value) -> str:
    """Return an engine word with underscores as spaces ("in_battle" -> "in battle")."""
    return str(value or "").replace("_", " ")


@register.filter
def seat_short(pt, seat) -> str:
    """Return the seat's name for tight spaces (the same one name)."""
    try:
        return _names(pt)[int(seat)]
    except (TypeError, ValueError, IndexError):
        return "nobody"


@register.inclusion_tag("play/_play_card.html", takes_context=True)
def play_card(context, key, name, grey=False):
    """Draw the button over a board card: its move, the list of its moves, or why not.

    ``key`` is the engine's board key of the card (``action_cards``); ``grey``
    asks for the engine's reason when no legal move plays it (cards in hand).
    """
    from ..playtest.clicks import card_reason

    key = str(key)
    moves = (context.get("card_moves") or {}).get(key, [])
    why = None
    if not moves and grey and context.get("may_grey"):
        why = card_reason(
            context["game"],
            context["engine_state"],
            context["viewer"],
            key,
            _names(context["pt"]),
        )
    return {
        "key": key,
        "dom": "".join(ch if ch.isalnum() else "-" for ch in key),
        "name": name or "this card",
        "moves": moves,
        "why": why,
        "pt": context.get("pt"),
        "hotseat": context.get("hotseat"),
        "acting": context.get("acting"),
        "csrf_token": context.get("csrf_token"),
    }


@register.simple_tag
def say(pt, text, *seats):
    """Return ``text`` with each "{}" as a seat, spoken as the log is ("You have")."""
    from ..playtest.names import speak

    try:
        sentence = text.format(*(int(seat) + 1 for seat in seats))
    except (TypeError, ValueError, IndexError):
        return text
    return speak(sentence, _names(pt))


@register.simple_tag
def bakugan_versus(pt, battle) -> str:
    """Return a Bakugan battle naming both owners: "Your Dragonoid (Pyrus, 340 G) against ..."."""
    from ..playtest.names import speak

    def side(b) -> str:
        owner = str(b.get("id", ""))[1:2]
        power = b.get("g_power")
        parts = [str(b.get("attribute") or "attribute unknown").capitalize()]
        parts.append(f"{power} G" if power is not None else "G-Power unknown")
        who = f"Player {owner}'s " if owner.isdigit() else ""
        return f"{who}{b.get('name')} ({', '.join(parts)})"

    try:
        sentence = f"{side(battle['attacker'])} against {side(battle['defender'])}"
    except (KeyError, TypeError, AttributeError):
        return ""
    return speak(sentence, _names(pt))
