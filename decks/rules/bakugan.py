"""Bakugan Battle Brawlers deck rules (rules text: what each player needs).

Exactly three Bakugan; three Gate cards, one gold, one silver and one copper;
three Ability cards, one red, one blue and one green. Each card sits in the zone
of its own type. The requirements are data (``REQUIREMENTS``), checked by one
loop.
"""

from . import WARNING, Line, Problem, count_phrase, ids, total

SLUG = "bakugan"
NAME = "Bakugan"
ZONES = ("bakugan", "gate", "ability")
SOURCE = "rules: what each player needs"

# zone: (card type, how many, the field each card must differ on, its values)
REQUIREMENTS = {
    "bakugan": ("bakugan", 3, None, ()),
    "gate": ("gate", 3, "gate_class", ("gold", "silver", "copper")),
    "ability": ("ability", 3, "colour", ("red", "blue", "green")),
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
    problems = []
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
