"""The transcribe page's controls: shaped like the card, per game, never raw JSON.

``controls`` lists what the page asks of a card of one type (the registry's
``type_fields``), each with the control that fits it: six notch buttons for a
battle edge, a 0-5 pip stepper per colour row, section pickers, a bonus grid,
radio buttons for a short choice, a toggle per colour for a set of colours
(boosters). ``read_post`` turns a posted form back into reading values; the card
validator (through the reading service) judges them.
"""

from __future__ import annotations

import base64
import io
import json
from itertools import combinations

from django.core.exceptions import ValidationError
from django.db import models

from .. import images
from ..choices import LETTER_COLOURS, PIECE_NAMES
from ..games import GAMES
from ..models import Card
from .readings import _complete, pending_readings, reading_fields
from .services import SUBMITTABLE_KINDS, field_label, unknown_fields


def _kind(name: str, spec) -> str:
    """Return the control a field takes on the transcribe page."""
    declared = spec.printed_field(name)
    if declared is not None:
        return declared.kind
    # Columns no game declares (the card type, the printed number): by their type.
    # The card type is one of the game's kinds, which the column does not list.
    model_field = Card._meta.get_field(name)
    if name == "card_type" or model_field.choices:
        return "choice"
    if isinstance(model_field, models.IntegerField):
        return "number"
    return "text"


def _bounds(name: str, spec) -> tuple[int | None, int | None]:
    declared = spec.printed_field(name)
    if declared is not None:
        return declared.minimum, declared.maximum
    low = high = None
    for validator in Card._meta.get_field(name).validators:
        limit = getattr(validator, "limit_value", None)
        if validator.code == "min_value":
            low = limit
        elif validator.code == "max_value":
            high = limit
    return low, high


def section_choices(spec) -> list[tuple[str, list[tuple[str, str]]]]:
    """Return the Collide-O! section options: solid, two-colour stripe, wild."""
    letters = [c.letter for c in spec.colours]
    name = {c.letter: c.label for c in spec.colours}
    return [
        ("Solid", [(a, name[a]) for a in letters]),
        (
            "Two-colour stripe",
            [(a + b, f"{name[a]} and {name[b]}") for a, b in combinations(letters, 2)],
        ),
        ("Five-colour wild stripe", [("".join(letters), "All five colours")]),
    ]


def controls(
    *, card: Card, card_type: str | None, values: dict, errors: dict | None = None
):
    """Return the page's controls for ``card`` read as ``card_type``."""
    game = card.card_set.game.slug
    spec = GAMES[game]
    errors = errors or {}
    not_printed = set(values.get("not_printed", card.not_printed or []))
    result = []
    for name in reading_fields(game, card_type):
        kind = _kind(name, spec)
        model_field = Card._meta.get_field(name)
        value = values.get(name, getattr(card, name))
        control = {
            "name": name,
            "label": field_label(name),
            "kind": kind,
            "value": "" if value is None else value,
            "errors": errors.get(name, []),
            "can_be_not_printed": name in spec.not_printable,
            "not_printed": name in not_printed,
        }
        if kind == "notches":
            edge = (control["value"] or "")[:6].ljust(6, "?")
            control["notches"] = [
                {"index": i, "code": c, "name": PIECE_NAMES.get(c, "unknown")}
                for i, c in enumerate(edge)
            ]
            # The page's script reads the game's keys, as the server does.
            control["keys"] = json.dumps({k: code for k, code, _ in spec.notch_keys})
            control["key_help"] = spec.notch_key_help
        elif kind == "pips":
            control["colour"] = name.removeprefix("stat_")
        elif kind == "section":
            control["groups"] = section_choices(spec)
        elif kind == "rarity":
            control["choices"] = [
                (rarity, symbol) for rarity, symbol in spec.rarity_symbols.items()
            ]
        elif kind == "colour":
            control["choices"] = [(c.value, c.label) for c in spec.colours]
        elif kind == "colours":
            control["toggles"] = [
                {"letter": c.letter, "label": c.label, "colour": c.value,
                 "on": c.letter in control["value"]}
                for c in spec.colours
            ]  # fmt: skip
        elif kind == "choice":
            if name == "card_type":
                control["choices"] = [(k.value, k.label) for k in spec.kinds]
            else:
                control["choices"] = list(model_field.choices)
        if kind in ("number", "bonus", "pips"):
            control["min"], control["max"] = _bounds(name, spec)
        result.append(control)
    return result


def _picked_letters(spec, data, name: str) -> str:
    """Return the colours ticked for ``name`` as letters in the game's colour order."""
    # Each ticked box posts its letter; a plain mapping (a caller other than the
    # page) may give the letters as one string.
    picked = data.getlist(name) if hasattr(data, "getlist") else [data.get(name)]
    letters = "".join(p for p in picked if p).strip().upper()
    known = "".join(c.letter for c in spec.colours if c.letter in letters)
    # A letter outside the game's colours is kept, for the validator to refuse.
    return known + "".join(x for x in letters if x not in known)


def read_post(*, card: Card, data) -> tuple[str | None, dict, dict]:
    """Return (card type, values, errors) of a posted transcribe form.

    A blank control gives no value (the reader does not say); "not printed"
    boxes give the ``not_printed`` list; whole numbers are read as numbers and
    anything else is left for the card validator to refuse with its message.
    """
    game = card.card_set.game.slug
    spec = GAMES[game]
    card_type = (data.get("card_type") or "").strip() or card.card_type
    values, errors = {}, {}
    shown = reading_fields(game, card_type)
    not_printed = [f for f in (card.not_printed or []) if f not in shown]
    marked = False
    for name in shown:
        if data.get(f"{name}__not_printed"):
            not_printed.append(name)
            marked = True
            continue
        kind = _kind(name, spec)
        if kind == "colours":
            raw = _picked_letters(spec, data, name)
        else:
            raw = (data.get(name) or "").strip()
        if raw == "":
            continue
        if kind == "notches":
            raw = spec.read_notches(raw)
        if kind in ("number", "bonus", "pips"):
            try:
                values[name] = int(raw)
            except ValueError:
                errors[name] = ["Enter a whole number."]
            continue
        values[name] = raw
    # A field the reader leaves for a type they do not choose is not read; a
    # posted field of the game outside this type is passed on, for the card
    # validator to refuse (a Blade with a colour).
    for name in spec.fields:
        if name not in shown and (data.get(name) or "").strip():
            values[name] = data.get(name).strip()
    if marked or set(not_printed) != set(card.not_printed or []):
        values["not_printed"] = sorted(set(not_printed))
    return card_type, _complete(game, values, card), errors


def preview_card(*, card: Card, values: dict) -> tuple[Card, dict]:
    """Return the card as it would read with ``values`` (unsaved) and its problems."""
    built = Card.objects.select_related("card_set__game").get(pk=card.pk)
    for name, value in values.items():
        setattr(built, name, value)
    problems = {}
    try:
        built.full_clean()
    except ValidationError as error:
        problems = error.message_dict
        # The face draws only what is acceptable: a refused value shows as before.
        for name in problems:
            if hasattr(card, name) and name in values:
                setattr(built, name, getattr(card, name))
    return built, problems


def face_png(card: Card, size: str = "full") -> bytes:
    """Return the drawn face of ``card`` (saved or not) as PNG bytes."""
    image = images.draw_card(card)
    if size != "full":
        image = image.resize(images.SIZES[size])
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def face_data_uri(card: Card) -> str:
    """Return the drawn face of ``card`` (saved or not) as a PNG data URI."""
    return "data:image/png;base64," + base64.b64encode(face_png(card)).decode()


# The section letters' colour names, for the template's swatches.
SECTION_COLOURS = LETTER_COLOURS


# --- the way through a set or a deck --------------------------------------------


def set_cards(card: Card) -> list[Card]:
    """Return the cards of ``card``'s set in number order."""
    return list(
        Card.objects.filter(card_set=card.card_set)
        .select_related("card_set__game")
        .order_by("number", "key")
    )


def deck_cards(*, user, deck_id) -> list[Card]:
    """Return the readable cards of ``user``'s deck ``deck_id`` in number order.

    Custom cards are left out (their owner edits them); the list is empty when
    the deck is not theirs, and the page then walks the card's set.
    """
    if not (
        str(deck_id).isascii() and str(deck_id).isdigit() and len(str(deck_id)) <= 18
    ):
        return []
    return list(
        Card.objects.filter(
            deck_entries__deck_id=int(deck_id),
            deck_entries__deck__owner=user,
            card_set__kind__in=SUBMITTABLE_KINDS,
        )
        .select_related("card_set__game")
        .distinct()
        .order_by("number", "key")
    )


def still_unknown(*, user, cards: list[Card]) -> list[Card]:
    """Return the ``cards`` ``user`` has not read that still have unknown fields."""
    read = pending_readings(user, [c.pk for c in cards])
    return [c for c in cards if c.pk not in read and unknown_fields(c)]


def next_to_read(*, user, card: Card, cards: list[Card]) -> Card | None:
    """Return the card after ``card`` in ``cards`` that ``user`` has still to read.

    The walk goes round to the start: a reader who began mid-set or mid-deck
    still reaches the cards before the one they began with.
    """
    ids = [c.pk for c in cards]
    at = ids.index(card.pk) if card.pk in ids else len(cards)
    rest = cards[at + 1 :] + cards[:at]
    return next(iter(still_unknown(user=user, cards=rest)), None)


def suggestion(*, card: Card, last: dict | None) -> dict:
    """Return the type and colour ``last`` (the reading before) suggests for ``card``.

    In a binder or a deck, runs of cards share a type and a colour. Only the
    card the walk opened after ``last`` gets a suggestion, only for what it does
    not know, and the colour only with the type it was read with.
    """
    game = card.card_set.game.slug
    if not last or last.get("card") != card.pk:
        return {}
    values = {}
    if card.card_type is None and last.get("card_type"):
        values["card_type"] = last["card_type"]
    card_type = values.get("card_type", card.card_type)
    colour = GAMES[game].colour_field
    if (
        colour is not None
        and last.get(colour)
        and card_type == last.get("card_type")
        and colour in reading_fields(game, card_type)
        and card.is_unknown(colour)
    ):
        values[colour] = last[colour]
    return values


def remembered(*, card: Card, values: dict) -> dict:
    """Return what a saved reading suggests to the next card's page."""
    kept = {"card_type": values.get("card_type", card.card_type)}
    colour = GAMES[card.card_set.game.slug].colour_field
    if colour is not None:
        kept[colour] = values.get(colour, getattr(card, colour, None))
    return kept
