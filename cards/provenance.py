"""Card numbers and provenance in a player's words.

A card's ``source`` is the technical record (repository, file, commit), kept
whole on the card's history page; pages show the sentence made here instead.
Pure Python, so the deck rules and the picture drawing name cards the same way.
"""

from __future__ import annotations

NOT_NUMBERED = "not numbered"

# Where the data came from, recognised by a phrase of its recorded source: the
# first entry whose phrase the source contains names it.
ORIGINS = (
    ("bakugan-companion-app", "From the Bakugan companion app's card list"),
    ("Bakugan-Database", "From the Bakugan Database's list of figures"),
    ("rules text", "From the game's rules booklet"),
    ("Readings ", "From collectors' readings of their own cards"),
    ("Submission #", "From a collector's proposal, accepted by a moderator"),
    ("Counted ", "From collectors' counts of their own packs"),
)
UNNAMED_ORIGIN = "From a source named in the card's history"
MADE_HERE = {
    "practice": "Made by this site for practice play; not a printed card.",
    "custom": "Made by a collector as a custom card; not a printed card.",
}
STATUS = {
    "verified": "checked by a moderator",
    "confirmed": "confirmed by two collectors whose readings agree",
    "unverified": "not yet confirmed by a collector",
    "disputed": "sources or readings disagree, so some values are in dispute",
}


def as_printed(printed_number: str | None, key: str | None = "") -> str:
    """Return the number as the card prints it ("#96", "1/48") or "not numbered"."""
    number = (printed_number or "").strip()
    if not number and str(key or "").isdigit():
        # A key of digits is the printed number (the key is it "where known").
        number = str(key)
    if not number:
        return NOT_NUMBERED
    return f"#{number}" if number.isdigit() else number


def unknown_card_label(printed_number: str | None, key: str | None = "") -> str:
    """Return how a card without a known name is called ("Unknown card #7")."""
    number = as_printed(printed_number, key)
    if number == NOT_NUMBERED:
        return f"Unknown card, {NOT_NUMBERED}"
    return f"Unknown card {number}"


def origin(source: str, set_kind: str, unnamed: str = UNNAMED_ORIGIN) -> str:
    """Return where the data comes from, in words, without a file or a commit."""
    if set_kind in MADE_HERE:
        return MADE_HERE[set_kind]
    for phrase, words in ORIGINS:
        if phrase in (source or ""):
            return words
    return unnamed


def _detail(source: str) -> str:
    # The rules-text sources end with what the rules say of the card, after the
    # file name and a colon: that part is for players.
    head, sep, tail = (source or "").partition(".txt: ")
    return tail.strip() if sep and "rules text" in head else ""


def provenance_sentence(source: str, set_kind: str, verification: str) -> str:
    """Return where a card's data comes from and how far it is checked, as a sentence."""
    if set_kind in MADE_HERE:
        return MADE_HERE[set_kind]
    sentence = f"{origin(source, set_kind)}; {STATUS[verification]}."
    detail = _detail(source)
    if detail:
        sentence += f" It says: {detail[0].upper()}{detail[1:]}"
        if not detail.endswith((".", "!", "?")):
            sentence += "."
    return sentence
