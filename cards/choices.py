"""Choices shared by the card models."""

from django.db import models

from .games import GAMES

# The games, their card types and colours come from the registry (``cards.games``).
GameSlug = models.TextChoices(
    "GameSlug", [(g.module.upper(), (g.slug, g.name)) for g in GAMES.values()]
)


class SetKind(models.TextChoices):
    OFFICIAL = "official", "Official (printed product)"
    PRACTICE = "practice", "Practice (made by this site, not a printed product)"
    CUSTOM = "custom", "Custom (made by a user, not a printed product)"


class Verification(models.TextChoices):
    # From highest to lowest: a moderator checked it; two collectors' readings
    # agree; nobody has checked it; readings or sources disagree.
    VERIFIED = "verified", "Verified"
    CONFIRMED = "confirmed", "Confirmed"
    UNVERIFIED = "unverified", "Unverified"
    DISPUTED = "disputed", "Disputed"


class Distribution(models.TextChoices):
    UNKNOWN = "unknown", "Unknown"
    STARTER = "starter", "Starter deck"
    BOOSTER = "booster", "Booster pack"
    PROMO_LEAGUE = "promo-league", "Promo (league play)"
    PROMO_TOURNAMENT = "promo-tournament", "Promo (tournament play)"
    PROMO = "promo", "Promo (other)"
    PACK = "pack", "Boxed game or pack"
    BLISTER = "blister", "Blister"
    PRACTICE = "practice", "Practice set (not printed)"
    CUSTOM = "custom", "Custom card (not printed)"


def _unique(pairs):
    return list(dict(pairs).items())


CardType = models.TextChoices(
    "CardType",
    [
        (value.upper(), (value, label))
        for value, label in _unique(
            (k.value, k.label) for g in GAMES.values() for k in g.kinds
        )
    ],
)
# The card page's and deck editor's name of each type (the column has no choices:
# ``validate_card`` checks a type against its own game's).
CARD_TYPE_LABELS = dict(CardType.choices)
_COLOUR_ORDER = ("red", "yellow", "green", "blue", "black")
_COLOURS = {c.value: c for g in GAMES.values() for c in g.colours}
Colour = models.TextChoices(
    "Colour", [(v.upper(), (v, _COLOURS[v].label)) for v in _COLOUR_ORDER]
)

# One letter per colour, for colour sets stored as strings ("RB" = red and blue).
COLOUR_LETTERS = {v: _COLOURS[v].letter for v in _COLOUR_ORDER}
LETTER_COLOURS = {v: k for k, v in COLOUR_LETTERS.items()}


class Symbol(models.TextChoices):
    PLAY = "play", "Play symbol (fanned hand)"
    WIN = "win", "Win symbol (trophy)"


# Battle-edge notches (Collision): the stored letter and its name.
PIECE_NAMES = {".": "bare", "L": "live", "S": "strike", "E": "empty"}
PIECE_CODES = {v: k for k, v in PIECE_NAMES.items()}


class MoveKind(models.TextChoices):
    LAUNCH = "launch", "Launch"
    LANDING = "landing", "Landing"


class Timing(models.TextChoices):
    # Metal Fusion effect timing (the fine print)
    WHEN_REVEALED = "when-revealed", "When revealed"
    DISCARD_FROM_HAND = "discard-from-hand", "Discard this card from your hand"
    IN_LINEUP = "in-lineup", "While in the line-up"
    # Bakugan ability windows (ruling B10)
    BEFORE_ROLL = "before-roll", "Play before a roll"
    AFTER_ROLL = "after-roll", "Play after a roll"
    BEFORE_BATTLE = "before-battle", "Play before a battle"
    IN_BATTLE = "in-battle", "Play in battle"
    AFTER_BATTLE = "after-battle", "Play after a battle"


class Attribute(models.TextChoices):
    PYRUS = "pyrus", "Pyrus"
    AQUOS = "aquos", "Aquos"
    SUBTERRA = "subterra", "Subterra"
    HAOS = "haos", "Haos"
    DARKUS = "darkus", "Darkus"
    VENTUS = "ventus", "Ventus"


class GateClass(models.TextChoices):
    GOLD = "gold", "Gold"
    SILVER = "silver", "Silver"
    COPPER = "copper", "Copper"
