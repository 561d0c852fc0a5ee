"""Template helpers for playtest boards: engine views drawn as zones of cards."""

from django import template

register = template.Library()

HIDDEN_KEYS = {"seat", "events", "log", "legal", "you"}
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
def seats(view: dict) -> list[dict]:
    """Return the per-seat parts of an engine view."""
    for key in ("players", "seats"):
        if isinstance(view.get(key), list):
            return view[key]
    return []


@register.filter
def table_parts(view: dict) -> list[dict]:
    """Return the shared parts of an engine view (not per seat) as zone rows."""
    shared = {
        k: v
        for k, v in view.items()
        if k not in ("players", "seats", "events", "log", "legal", "game")
    }
    return zones(shared)


@register.filter
def seat_name(pt, seat) -> str:
    try:
        seat = int(seat)
        info = pt.seats[seat]
    except (TypeError, ValueError, IndexError):
        return "Chance"
    who = {
        "human": "You",
        "hotseat": f"Player {seat + 1}",
        "random": "Random bot",
        "greedy": "Greedy bot",
    }[info["kind"]]
    return f"{who} (seat {seat + 1}, {info['name']})"
