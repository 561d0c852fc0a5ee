"""Per-game card knowledge: which columns a game uses and what values they allow.

Each game has one module here (``collision``, ``metal_fusion``, ``collide_o``,
``bakugan``) with ``FIELDS`` (its own columns), ``TYPES`` (its card types) and
``validate(card, errors)``. ``validate_card`` runs the common checks and the
game's own; ``Card.clean`` calls it, so every write path applies the same rules.
"""

from django.core.exceptions import ObjectDoesNotExist, ValidationError

from . import bakugan, collide_o, collision, metal_fusion

GAMES = {
    collision.SLUG: collision,
    metal_fusion.SLUG: metal_fusion,
    collide_o.SLUG: collide_o,
    bakugan.SLUG: bakugan,
}

# Columns used by some game only; a card of another game must leave them empty.
GAME_FIELDS = sorted({f for module in GAMES.values() for f in module.FIELDS})
COMMON_FIELDS = (
    "key",
    "number",
    "printed_number",
    "name",
    "card_type",
    "rarity",
    "text",
    "lore",
    "code",
    "source",
    "verification",
    "distribution",
    "not_printed",
    "effects",
)


# The four games' rows (a frozen copy lives in migration 0002, which creates them).
GAME_ROWS = (
    ("collision", "Beyblade Collision", "Decipher", "2002", 1),
    ("metal-fusion", "Beyblade Metal Fusion", "DeAgostini", "c. 2010", 2),
    ("collide-o", "Collide-O!", "Playroom Entertainment", "2004", 3),
    ("bakugan", "Bakugan Battle Brawlers", "Spin Master", "2007-2012", 4),
)


def ensure_games() -> None:
    """Create any of the four Game rows that is missing (after a flush, say)."""
    from cards.models import Game

    for slug, name, publisher, year, order in GAME_ROWS:
        Game.objects.get_or_create(
            slug=slug,
            defaults={
                "name": name,
                "publisher": publisher,
                "year": year,
                "sort_order": order,
            },
        )


class Errors(dict):
    """Field errors collected for one card, each a list of ValidationError."""

    def add(self, field: str, message: str, code: str) -> None:
        self.setdefault(field, []).append(ValidationError(message, code=code))


def game_module(slug: str):
    return GAMES[slug]


def type_fields(game_slug: str, card_type: str | None) -> tuple[str, ...]:
    """Return the fields a card of this game and type prints (all kinds when unknown)."""
    table = GAMES[game_slug].TYPE_FIELDS
    return table.get(card_type, table[None])


def field_applies(card, field: str) -> bool:
    """Return whether ``field`` belongs on ``card``: a game column its type does not print does not."""
    module = GAMES[card.card_set.game.slug]
    if field not in module.FIELDS or card.card_type is None:
        return True
    return field in module.TYPE_FIELDS.get(card.card_type, module.FIELDS)


def validate_card(card) -> dict:
    """Return the field errors of ``card`` under its game's rules (empty when valid)."""
    errors = Errors()
    # An unsaved set (a whole-set import being checked) is validated too.
    try:
        game_slug = card.card_set.game.slug
    except ObjectDoesNotExist:
        return errors
    module = GAMES.get(game_slug)
    if module is None:
        errors.add(
            "card_set", "This set's game is not one the site knows.", "unknown_game"
        )
        return errors
    for field in GAME_FIELDS:
        if field not in module.FIELDS and getattr(card, field) not in (None, ""):
            errors.add(
                field,
                f"{module.NAME} cards have no {field.replace('_', ' ')}.",
                "not_this_game",
            )
    if card.card_type is not None and card.card_type not in module.TYPES:
        allowed = ", ".join(module.TYPES)
        errors.add("card_type", f"{module.NAME} card types are: {allowed}.", "bad_type")
    not_printed = card.not_printed or []
    if not isinstance(not_printed, list) or not all(
        isinstance(f, str) for f in not_printed
    ):
        errors.add(
            "not_printed",
            "List the names of the fields the card does not print.",
            "bad_not_printed",
        )
    else:
        for field in not_printed:
            if field not in module.NOT_PRINTABLE:
                errors.add(
                    "not_printed",
                    f"'{field}' cannot be marked as not printed on a {module.NAME} card.",
                    "bad_not_printed",
                )
            elif getattr(card, field, None) is not None:
                errors.add(
                    field,
                    "A field marked as not printed must be empty.",
                    "not_printed_has_value",
                )
    for field in card._meta.get_fields():
        value = getattr(card, field.name, None) if field.concrete else None
        if isinstance(value, str) and "\x00" in value:
            # PostgreSQL cannot store it, and no printed card has one.
            errors.add(
                field.name, "Text may not contain null characters.", "null_characters"
            )
    if not isinstance(card.effects, list):
        errors.add("effects", "Effects must be a list of effect steps.", "bad_effects")
    module.validate(card, errors)
    return dict(errors)
