"""Card numbers and provenance read as a player's words."""

import pytest

from cards.provenance import as_printed, provenance_sentence, unknown_card_label

COMPANION = (
    "WonderAliceUwU/bakugan-companion-app, assets/images/cards/cards.json at commit "
    "2e416714b9f95f77561eb1dfaa3535346df66a5b (built from bakugan.wiki), copied into "
    "fixtures/sources/bakugan/gen1_battle_brawlers_cards.csv; machine-transcribed."
)
FIGURES = (
    "ProfLeonDias/Bakugan-Database (bakugandb.com), battle-brawlers.html at commit "
    "f5502580b8d562a405ff6eb1aeeebadc1cd4d28d, copied into fixtures/sources/bakugan/"
    "figure_variants.csv; facts only, unchecked."
)
RULES = (
    "Collision rules booklet (starter deck), as retold on beybladewiki.com, via the "
    "rules text supplied to the project, collision-rules_000_686bdfc34129dad1.txt: "
    "the set has 130 numbered cards; nothing else about #7 is known."
)
READINGS = "Readings #3 by alice, #4 by bob: agreed"
PROPOSAL = "Submission #12 by alice, accepted by mod: my own copy"
CENSUS = "Counted by alice in their Collide-O! pack census."
OTHER = "test rows"

ORIGINS = {
    COMPANION: "From the Bakugan companion app's card list",
    FIGURES: "From the Bakugan Database's list of figures",
    RULES: "From the game's rules booklet",
    READINGS: "From collectors' readings of their own cards",
    PROPOSAL: "From a collector's proposal, accepted by a moderator",
    CENSUS: "From collectors' counts of their own packs",
    OTHER: "From a source named in the card's history",
}
STATUSES = {
    "verified": "checked by a moderator",
    "confirmed": "confirmed by two collectors whose readings agree",
    "unverified": "not yet confirmed by a collector",
    "disputed": "sources or readings disagree, so some values are in dispute",
}
RULES_SAYS = " It says: The set has 130 numbered cards; nothing else about #7 is known."


@pytest.mark.parametrize("status", STATUSES)
@pytest.mark.parametrize("source", ORIGINS)
def test_an_official_card_says_where_its_data_comes_from_and_how_far_it_is_checked(
    source, status
):
    says = RULES_SAYS if source == RULES else ""
    assert provenance_sentence(source, "official", status) == (
        f"{ORIGINS[source]}; {STATUSES[status]}.{says}"
    )


@pytest.mark.parametrize("status", STATUSES)
@pytest.mark.parametrize(
    "kind, sentence",
    [
        ("practice", "Made by this site for practice play; not a printed card."),
        ("custom", "Made by a collector as a custom card; not a printed card."),
    ],
)
def test_a_card_not_printed_says_who_made_it_whatever_its_status(
    kind, sentence, status
):
    assert (
        provenance_sentence("Custom card made by its owner", kind, status) == sentence
    )


@pytest.mark.parametrize(
    "printed, key, shown",
    [
        ("96", "96", "#96"),
        ("1/48", "1/48", "1/48"),
        ("9/48c", "9-48c", "9/48c"),
        ("", "7", "#7"),
        ("", "example-customizer", "not numbered"),
        (None, "dragoon", "not numbered"),
    ],
)
def test_a_number_shows_as_printed_never_as_the_slug(printed, key, shown):
    assert as_printed(printed, key) == shown


def test_a_card_without_a_name_is_called_by_its_number_or_said_to_have_none():
    assert unknown_card_label("96", "96") == "Unknown card #96"
    assert unknown_card_label("", "dragoon") == "Unknown card, not numbered"
