"""Bakugan Battle Brawlers deck rules (rules text: what each player needs).

Exactly three Bakugan; three Gate cards, one gold, one silver and one copper;
three Ability cards, one red, one blue and one green. Each card sits in the zone
of its own type. The requirements are data (``REQUIREMENTS``), checked by one
loop.

A Bakugan slot may play with a G-Power: one of the owner's recorded copies or
a value the player types. A typed value obeys the rule a collection copy obeys
(``cards.games.bakugan.copy_g_power_problem``, the one function for both); a
slot with none plays the strongest recorded copy the owner has (the playtest
adapter), and a figure with no value at all cannot be played.
"""

from cards.games.bakugan import (
    ABILITY_COLOURS,
    GAME,
    GATE_CLASSES,
    copy_g_power_problem,
)

from . import WARNING, Line, Problem, count_phrase, ids, rotated, total

SLUG = GAME.slug
NAME = GAME.short_name
ZONES = GAME.zone_values
SOURCE = "rules: what each player needs"

# zone: (card type, how many, the field each card must differ on, its values)
REQUIREMENTS = {
    "bakugan": ("bakugan", 3, None, ()),
    "gate": ("gate", 3, "gate_class", GATE_CLASSES),
    "ability": ("ability", 3, "colour", ABILITY_COLOURS),
}
NOUNS = {
    "bakugan": ("Bakugan", "Bakugan"),
    "gate": ("Gate card", "Gate cards"),
    "ability": ("Ability card", "Ability cards"),
}
RULE_TEXT = (
    "A Bakugan player brings exactly three Bakugan; three Gate cards, one gold, one "
    "silver and one copper; and three Ability cards, one red, one blue and one green"
)


def validate(lines: list[Line], **options) -> list[Problem]:
    """Return the problems of a Bakugan deck."""
    problems = _g_power_problems(lines)
    for zone, (card_type, needed, field, values) in REQUIREMENTS.items():
        one, many = NOUNS[zone]
        in_zone = [line for line in lines if line.zone == zone]
        wrong = [line for line in in_zone if line.get("card_type") != card_type]
        if wrong:
            problems.append(
                Problem(
                    f"not_{card_type}",
                    f"Only {many} go among the {many} ({SOURCE}): "
                    + ", ".join(line.label for line in wrong)
                    + f" {'is' if len(wrong) == 1 else 'are'} not.",
                    ids(wrong),
                )
            )
        count = total(in_zone)
        if count != needed:
            problems.append(
                Problem(
                    f"{zone}_count",
                    f"{RULE_TEXT} ({SOURCE}). This deck has "
                    f"{count_phrase(count, one, many)}.",
                    ids(in_zone),
                )
            )
        if field is None:
            continue
        problems.extend(_spread_problems(zone, in_zone, field, values, many, card_type))
    return problems


def _g_power_problems(lines: list[Line]) -> list[Problem]:
    problems = []
    for line in lines:
        if line.g_power is None:
            continue
        message = copy_g_power_problem(line.get("card_type"), line.g_power)
        if message:
            problems.append(
                Problem("bad_g_power", f"{line.label}: {message}", ids([line]))
            )
    return problems


def _spread_problems(zone, in_zone, field, values, many, card_type) -> list[Problem]:
    problems = []
    counts = {value: 0 for value in values}
    for line in in_zone:
        value = line.get(field)
        if value in counts:
            counts[value] += line.quantity
    extra = [v for v in values if counts[v] > 1]
    missing = [v for v in values if counts[v] == 0]
    if extra or missing:
        parts = [f"{counts[v]} {v}" for v in extra] + [f"no {v}" for v in missing]
        involved = [line for line in in_zone if line.get(field) in extra]
        problems.append(
            Problem(
                f"{zone}_{'colours' if field == 'colour' else 'classes'}",
                f"{RULE_TEXT} ({SOURCE}). This deck's {many} have "
                + " and ".join(parts)
                + ".",
                ids(involved),
            )
        )
    # A card of the wrong type is reported above, not as an unknown value.
    unknown = [
        line
        for line in in_zone
        if line.get(field) is None and line.get("card_type") == card_type
    ]
    if unknown:
        what = "colour" if field == "colour" else "class"
        problems.append(
            Problem(
                f"unknown_{what}",
                f"The {what} of "
                + ", ".join(line.label for line in unknown)
                + f" is unknown, so it cannot count toward one {'/'.join(values)} "
                f"({SOURCE}).",
                ids(unknown),
                WARNING,
            )
        )
    return problems


def sample(cards: list, variant: int = 0) -> list[dict]:
    """Return entries of a legal deck of ``cards``: three of each, one per value.

    ``variant`` turns the choice of cards, so two samples can face each other.
    """
    entries = []
    for zone, (card_type, needed, field, values) in REQUIREMENTS.items():
        of_type = [c for c in cards if c.card_type == card_type]
        if field is None:
            chosen = rotated(of_type, variant)[:needed]
        else:
            chosen = [
                rotated([c for c in of_type if getattr(c, field) == v], variant)[0]
                for v in values
            ]
        entries += [{"card": c.pk, "quantity": 1, "zone": zone} for c in chosen]
    return entries


def _playable_gate(card) -> bool:
    return all(
        getattr(card, f"bonus_{a}") is not None
        or f"bonus_{a}" in (card.not_printed or [])
        for a in ("pyrus", "aquos", "subterra", "haos", "darkus", "ventus")
    )


def from_collection(owned: list, copies: dict[int, list[int]]) -> list[dict]:
    """Return the entries of a legal deck built from what a collector owns.

    ``owned`` holds the cards the collector owns; ``copies`` maps a figure's
    card id to the G-Power recorded on each owned copy. The deck takes the
    three strongest recorded copies (each slot with its copy's G-Power) whose attribute is known, one gate of each
    class with a known bonus grid and one ability of each colour (an encoded
    one first, then the lowest number). Raise ValueError saying what is missing.
    """
    missing = []
    figures = sorted(
        (
            (g, c.pk)
            for c in owned
            if c.card_type == "bakugan" and c.attribute
            for g in copies.get(c.pk, ())
        ),
        reverse=True,
    )[:3]
    if len(figures) < 3:
        missing.append(
            f"three Bakugan figures with their G-Power recorded in your collection "
            f"(you have {len(figures)})"
        )
    entries, counts = [], {}
    for g_power, pk in figures:
        counts[pk, g_power] = counts.get((pk, g_power), 0) + 1
    # Each slot plays the G-Power of the copies chosen for it.
    entries += [
        {"card": pk, "quantity": n, "zone": "bakugan", "g_power": g_power}
        for (pk, g_power), n in counts.items()
    ]
    for zone, field, values, check in (
        ("gate", "gate_class", GATE_CLASSES, _playable_gate),
        ("ability", "colour", ABILITY_COLOURS, lambda c: True),
    ):
        for value in values:
            fits = [
                c
                for c in owned
                if c.card_type == zone and getattr(c, field) == value and check(c)
            ]
            fits.sort(
                key=lambda c: (not c.effects, c.card_set.sort_order, c.number or 0)
            )
            if not fits:
                what = (
                    "gate with a known bonus grid" if zone == "gate" else "Ability card"
                )
                missing.append(f"a {value} {what}")
                continue
            entries.append({"card": fits[0].pk, "quantity": 1, "zone": zone})
    if missing:
        raise ValueError(
            "To build a deck from what you own you still need "
            + "; ".join(missing)
            + "."
        )
    return entries


def timing_entries(size: int) -> list[dict]:
    """Return a plain legal deck and ``size - 9`` more red Ability cards."""

    def entry(card_id, zone, **fields):
        card = {"id": card_id, "name": f"Card {card_id}", **fields}
        return {"card": card, "quantity": 1, "zone": zone}

    entries = [entry(300 + i, "bakugan", card_type="bakugan") for i in range(3)]
    entries += [
        entry(310 + i, "gate", card_type="gate", gate_class=c)
        for i, c in enumerate(GATE_CLASSES)
    ]
    entries += [
        entry(320 + i, "ability", card_type="ability", colour=c)
        for i, c in enumerate(ABILITY_COLOURS)
    ]
    entries += [
        entry(400 + i, "ability", card_type="ability", colour="red")
        for i in range(size - 9)
    ]
    return entries
