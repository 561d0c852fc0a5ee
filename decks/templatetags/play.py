"""Template helpers for playtest boards: engine views drawn as zones of cards."""

from django import template

from cards.games import GAMES

from ..engine.core import View
from ..play.names import seat_names
from ..rules import rules_module

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
    """Return the seat's one name ("You", "Casual bot", a hot-seat name)."""
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


@register.simple_tag
def deck_card(pt, ref, seat=None):
    """Return the stored card dict behind an engine reference, or {}.

    The game's rules module reads its own references (``board_card``). Only call
    it with references the player's view already names, so nothing hidden is
    revealed.
    """
    try:
        board_card = rules_module(pt.game).board_card
        return board_card(getattr(pt, "decks", None) or [], ref, seat)
    except (IndexError, KeyError, TypeError, ValueError, AttributeError):
        return {}


def _spoken(helper):
    """Return a board tag that says ``helper``'s sentence as the log does ("You")."""

    def tag(pt, *args):
        from ..play.names import speak

        sentence = helper(*args)
        return speak(sentence, _names(pt)) if sentence else sentence

    return tag


# Each game's own helpers, from its rules module: ``BOARD_FILTERS`` (filters) and
# ``BOARD_SAYINGS`` (tags taking the playtest first, spoken with its seat names).
for _game in GAMES.values():
    _rules = rules_module(_game.slug)
    for _name, _helper in getattr(_rules, "BOARD_FILTERS", {}).items():
        register.filter(_name, _helper)
    for _name, _helper in getattr(_rules, "BOARD_SAYINGS", {}).items():
        register.simple_tag(_spoken(_helper), name=_name)


@register.filter
def times(count) -> range:
    """Return range(count), capped at 12, to draw a row of card backs."""
    try:
        return range(max(0, min(int(count), 12)))
    except (TypeError, ValueError):
        return range(0)


@register.filter
def count(zone) -> int:
    """Return how many cards a zone holds: a list's length, or a hidden zone's number."""
    return zone if isinstance(zone, int) else len(zone or ())


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
    from ..play.clicks import card_reason

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
    from ..play.names import speak

    try:
        sentence = text.format(*(int(seat) + 1 for seat in seats))
    except (TypeError, ValueError, IndexError):
        return text
    return speak(sentence, _names(pt))


@register.filter
def percent(share) -> str:
    """Return a share of one as a percentage to a tenth ("0.625" -> "62.5%")."""
    return f"{float(share):.1%}"
