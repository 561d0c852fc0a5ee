"""Choices for collection entries and share links."""

from django.db import models


class Condition(models.TextChoices):
    MINT = "mint", "Mint"
    NEAR_MINT = "near-mint", "Near Mint"
    LIGHTLY_PLAYED = "lightly-played", "Lightly Played"
    PLAYED = "played", "Played"
    HEAVILY_PLAYED = "heavily-played", "Heavily Played"
    POOR = "poor", "Poor"


class Finish(models.TextChoices):
    NORMAL = "normal", "Normal"
    FOIL = "foil", "Foil"


class Language(models.TextChoices):
    ENGLISH = "en", "English"
    GERMAN = "de", "German"
    FRENCH = "fr", "French"
    ITALIAN = "it", "Italian"
    SPANISH = "es", "Spanish"
    DUTCH = "nl", "Dutch"
    PORTUGUESE = "pt", "Portuguese"
    JAPANESE = "ja", "Japanese"
    KOREAN = "ko", "Korean"
    CHINESE = "zh", "Chinese"
    OTHER = "other", "Other"


class GradingCompany(models.TextChoices):
    PSA = "psa", "PSA"
    BGS = "bgs", "Beckett (BGS)"
    CGC = "cgc", "CGC"
    SGC = "sgc", "SGC"
    OTHER = "other", "Other"


class ShareKind(models.TextChoices):
    COLLECTION = "collection", "Collection"
    WISHLIST = "wishlist", "Wishlist"
    TRADELIST = "tradelist", "Trade list"


class CardStatus(models.TextChoices):
    """What the My collection page shows of each card."""

    ALL = "all", "All cards"
    OWNED = "owned", "Owned"
    MISSING = "missing", "Missing"
    WANTED = "wanted", "Wanted"
    FOR_TRADE = "for-trade", "For trade"


class ImportMode(models.TextChoices):
    ADD = "add", "Add to my collection"
    REPLACE = "replace", "Replace my collection with the file"


class AccountRequestKind(models.TextChoices):
    SIGN_UP = "sign-up", "Sign-up"
    PASSWORD_RESET = "password-reset", "Password reset e-mail"
