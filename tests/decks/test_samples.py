"""Sample decks: each game's rules module builds a legal deck of its practice set."""

import pytest

from cards.games import GAMES
from cards.models import Card
from decks.rules import is_legal, validate_deck
from decks.samples import sample_entries


@pytest.mark.django_db
@pytest.mark.parametrize("slug", list(GAMES))
def test_every_sample_is_legal_and_the_variants_differ(slug, practice):
    practice(slug)
    samples = [sample_entries(slug, variant) for variant in range(3)]
    for entries in samples:
        cards = Card.objects.in_bulk([e["card"] for e in entries])
        lines = [{**e, "card": cards[e["card"]]} for e in entries]
        assert [
            p.message for p in validate_deck(slug, lines) if not is_legal([p])
        ] == []
    assert sample_entries(slug, 0) == samples[0]
    if not GAMES[slug].shared_pack:  # a pack is the whole practice set
        assert samples[0] != samples[1]


@pytest.mark.django_db
def test_a_game_without_its_practice_set_has_no_sample():
    with pytest.raises(LookupError, match="No practice set is loaded for bakugan."):
        sample_entries("bakugan")
