"""Card checks: the common ones and each game's own (``cards.games``).

``validate_card`` runs them; ``Card.clean`` calls it, so every write path
applies the same rules.
"""

from django.core.exceptions import ObjectDoesNotExist, ValidationError

from .effects import EffectError, parse_effects
from .games import GAME_FIELDS, GAMES


class Errors(dict):
    """Field errors collected for one card, each a list of ValidationError."""

    def add(self, field: str, message: str, code: str) -> None:
        self.setdefault(field, []).append(ValidationError(message, code=code))


def field_applies(card, field: str) -> bool:
    """Return whether ``field`` belongs on ``card``: a game column its type does not print does not."""
    game = GAMES[card.card_set.game.slug]
    if field not in game.fields or card.card_type is None:
        return True
    kind = game.kind(card.card_type)
    return field in (kind.fields if kind else game.fields)


# The most a printed card holds in each free-text field, with room to spare (the
# longest in the data files is under a quarter of it). The other text fields
# are bounded by their ``max_length``.
TEXT_LIMITS = {"text": 2_000, "lore": 1_000, "source": 2_000}


def validate_card(card) -> dict:
    """Return the field errors of ``card`` under its game's rules (empty when valid)."""
    errors = Errors()
    for field, limit in TEXT_LIMITS.items():
        value = getattr(card, field)
        if isinstance(value, str) and len(value) > limit:
            errors.add(
                field,
                f"Keep this to {limit:,} characters (it has {len(value):,}); no "
                "printed card holds more.",
                "too_long",
            )
    if isinstance(card.effects, list):
        try:
            parse_effects(card.effects)
        except EffectError as error:
            errors.add("effects", str(error), "bad_effects")
    # An unsaved set (a whole-set import being checked) is validated too.
    try:
        game_slug = card.card_set.game.slug
    except ObjectDoesNotExist:
        return dict(errors)
    game = GAMES.get(game_slug)
    if game is None:
        errors.add(
            "card_set", "This set's game is not one the site knows.", "unknown_game"
        )
        return errors
    for field in GAME_FIELDS:
        if field not in game.fields and getattr(card, field) not in (None, ""):
            errors.add(
                field,
                f"{game.short_name} cards have no {field.replace('_', ' ')}.",
                "not_this_game",
            )
    if card.card_type is not None and card.card_type not in game.types:
        allowed = ", ".join(game.types)
        errors.add(
            "card_type", f"{game.short_name} card types are: {allowed}.", "bad_type"
        )
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
            if field not in game.not_printable:
                errors.add(
                    "not_printed",
                    f"'{field}' cannot be marked as not printed on a {game.short_name} card.",
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
    game.validate(card, errors)
    return dict(errors)
