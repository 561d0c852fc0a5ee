"""A data file's load refreshes set totals, the card list version and words once.

The card-save receivers (``cards/signals.py``, ``cards/words.py``) only note
their refreshes inside ``card_refreshes_deferred``; the block's end runs each
once. What a load leaves must equal a recount from the cards themselves.
"""

import copy
from pathlib import Path

import pytest
from django.db import transaction
from django.db.models import Count
from django.test.utils import CaptureQueriesContext

from cards.data import card_data_load, card_data_parse
from cards.models import Card, CardListVersion, CardSet, CardWord
from cards.signals import card_refreshes_deferred
from cards.words import card_word_rows
from tests.factories import C, build_card, make_set

pytestmark = pytest.mark.django_db
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def practice_bakugan():
    return card_data_parse(text=(FIXTURES / "practice-bakugan.json").read_text())


def totals() -> dict[int, int]:
    return dict(CardSet.objects.values_list("pk", "cards_total"))


def recounted_totals() -> dict[int, int]:
    return dict(CardSet.objects.annotate(n=Count("cards")).values_list("pk", "n"))


def words() -> set[tuple[int, str, str]]:
    return set(CardWord.objects.values_list("card_id", "field", "word"))


def recomputed_words() -> set[tuple[int, str, str]]:
    return {
        (row.card_id, row.field, row.word)
        for card in Card.objects.all()
        for row in card_word_rows(card)
    }


def version() -> int:
    return CardListVersion.objects.current()


def test_a_load_leaves_totals_and_words_equal_to_a_recount():
    card_data_load(data=practice_bakugan(), source_label="test")
    assert Card.objects.count() > 40
    assert totals() == recounted_totals()
    assert words() == recomputed_words()


def test_a_reload_renaming_every_card_rewrites_their_words():
    card_data_load(data=practice_bakugan(), source_label="test")
    renamed = practice_bakugan()
    for card_set in renamed.sets:
        for card in card_set["cards"]:
            card["name"] = f"Renamed {card['key']}"
    card_data_load(data=renamed, source_label="test")
    assert ("name", "renamed ") in {(f, w[:8]) for _, f, w in words()}
    assert words() == recomputed_words()
    assert totals() == recounted_totals()


def test_a_load_bumps_the_card_list_version_once_whatever_its_size():
    before = version()
    with CaptureQueriesContext(transaction.get_connection()) as queries:
        card_data_load(data=practice_bakugan(), source_label="test")
    bumps = [q for q in queries if "cardlistversion" in q["sql"].lower()]
    assert (version() - before, len(bumps)) == (1, 1)


def test_inside_the_block_nothing_is_refreshed_until_its_end():
    card_set = make_set(C, slug="deferred")
    before = version()
    with card_refreshes_deferred():
        card = build_card(C, card_set=card_set, name="Waiting Card")
        card.save()
        inside = (totals()[card_set.pk], version(), words())
    assert inside == (0, before, set())
    assert (totals()[card_set.pk], version()) == (1, before + 1)
    assert words() == recomputed_words() != set()


def test_a_nested_block_refreshes_at_the_outer_blocks_end():
    card_set = make_set(C, slug="nested")
    with card_refreshes_deferred():
        with card_refreshes_deferred():
            build_card(C, card_set=card_set, name="Inner Card").save()
        after_inner = totals()[card_set.pk]
    assert (after_inner, totals()[card_set.pk]) == (0, 1)


def test_a_block_that_raises_refreshes_nothing_and_writes_nothing():
    card_set = make_set(C, slug="raising")
    before = (totals(), version(), words())
    with pytest.raises(RuntimeError), card_refreshes_deferred():
        build_card(C, card_set=card_set, name="Lost Card").save()
        raise RuntimeError("stop")
    assert (totals(), version(), words()) == before
    assert not Card.objects.filter(card_set=card_set).exists()


def test_a_failed_load_changes_no_total_version_or_word():
    card_data_load(data=practice_bakugan(), source_label="test")
    before = (totals(), version(), words())
    broken = copy.deepcopy(practice_bakugan())
    broken.sets[0]["cards"][0]["name"] = 5
    with pytest.raises(Exception, match="must be text"):
        card_data_load(data=broken, source_label="test")
    assert (totals(), version(), words()) == before
