"""Names suggested for a misspelt decklist line: bounded reads, today's answers."""

import difflib

import pytest
from django.db.models.functions import Lower, Trim

from cards.data import card_data_load, card_data_parse
from decks.text_io import CardIndex
from tests.conftest import FIXTURES

pytestmark = pytest.mark.django_db


def every_name_sharing_the_first_letter(index: CardIndex, ref: str) -> list[str]:
    """Return the suggestions as they were worked out over every candidate name."""
    folded = ref.casefold()
    first = folded[0]
    names = {}
    for name in (
        index.cards.alias(_folded=Lower(Trim("name")))
        .filter(_folded__gte=first, _folded__lt=first + "\U0010ffff")
        .values_list("name", flat=True)
    ):
        names.setdefault(name.casefold(), name)
    close = difflib.get_close_matches(folded, list(names), n=3, cutoff=0.6)
    return [names[c] for c in close]


def misspellings(name: str) -> list[str]:
    """Return a name with two letters swapped, one dropped, and one doubled."""
    middle = len(name) // 2
    return [
        name[:1] + name[2:3] + name[1:2] + name[3:],
        name[:middle] + name[middle + 1 :],
        name[:middle] + name[middle] + name[middle:],
    ]


def test_the_real_bakugan_cards_get_the_suggestions_every_name_would_give():
    data = card_data_parse(text=(FIXTURES / "bakugan.json").read_text())
    card_data_load(data=data, source_label="tests")
    index = CardIndex.for_game("bakugan")
    names = sorted(set(index.cards.values_list("name", flat=True)))
    assert len(names) > 300
    tried = suggested = 0
    for name in names[::3]:
        for typo in misspellings(name):
            if typo.casefold() == name.casefold():
                continue
            expected = every_name_sharing_the_first_letter(index, typo)
            assert index.close_names(typo) == expected, typo
            tried += 1
            suggested += name in expected
    assert tried > 300
    # Most typos get their own name back, so the comparison is not of empty lists.
    assert suggested > tried // 2, (suggested, tried)


def test_the_practice_cards_get_the_suggestions_every_name_would_give(practice):
    for game in ("collision", "metal-fusion", "collide-o", "bakugan"):
        practice(game)
        index = CardIndex.for_game(game)
        names = set(index.cards.exclude(name=None).values_list("name", flat=True))
        suggested = 0
        for name in names:
            for typo in misspellings(name):
                expected = every_name_sharing_the_first_letter(index, typo)
                assert index.close_names(typo) == expected, (game, typo)
                suggested += name in expected
        assert names and suggested, (game, len(names), suggested)
