"""The word index serves word searches with exactly the scan's results (issue 22).

``word_scan_q`` is the matching rule as it was (``icontains`` and a word-start
``iregex`` over every row); ``word_q`` narrows by the index first. Run on
SQLite and, with ``DATABASE_URL`` naming one, on PostgreSQL.
"""

import io
import json
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.models import F
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards import search
from cards.community import services as community
from cards.history import card_save
from cards.models import Card, CardWord
from cards.search import parse_query, word_q, word_scan_q
from cards.words import Prefix, card_words_refresh, fold, search_prefix, word_starts
from tests.factories import build_card, make_card, make_set
from tests.utils import full_strength
from tools.bench import main

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
B = "bakugan"

# Letters whose case the databases and Python fold differently, word and
# non-word characters, ASCII and not.
ALPHABET = "abDRgoOnsSſßKKıIİiéÉ_0-' .,(/\n"
COLUMNS = (("name", "text"), ("name",), ("text",))


def found(q) -> list[int]:
    return sorted(Card.objects.filter(q).values_list("pk", flat=True))


@settings(
    max_examples=300 if full_strength() else 40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    rows=st.lists(
        st.tuples(
            st.text(ALPHABET, max_size=30),
            st.text(ALPHABET, max_size=60),
        ),
        min_size=1,
        max_size=4,
    ),
    picks=st.lists(
        st.tuples(
            st.integers(0, 3),
            st.booleans(),
            st.integers(0, 59),
            st.integers(1, 30),
        ),
        min_size=1,
        max_size=4,
    ),
    free=st.lists(st.text(ALPHABET, min_size=1, max_size=8), max_size=3),
)
def test_the_index_finds_exactly_what_the_scan_finds(rows, picks, free):
    card_set = make_set(B)
    cards = []
    try:
        for name, text in rows:
            card = build_card(B, card_set=card_set, name=name or None, text=text)
            card.save()
            cards.append(card)
        # Values taken from the cards (so that some match), and free ones.
        values = list(free)
        for which, in_name, start, length in picks:
            column = rows[which % len(rows)][0 if in_name else 1]
            value = column[start : start + length]
            if value:
                values.append(value)
        for value in values:
            for columns in COLUMNS:
                assert found(word_q(columns, value)) == found(
                    word_scan_q(columns, value)
                ), (columns, value)
    finally:
        Card.objects.filter(pk__in=[c.pk for c in cards]).delete()


@pytest.mark.parametrize(
    "query",
    [
        "dragoon",
        "dra",
        "DRAGOON",
        '"storm pegasus"',
        '"pegasus strikes back twice and then once more"',
        "n:storm",
        "o:pegasus",
        "-dragoon",
        "dragoon or pegasus",
        "égal",
        "gal",  # after "É": a word start to PostgreSQL in the C locale only
        "ſtorm",
        "'s",
        "a_b",
    ],
)
def test_queries_of_the_language_find_the_same_cards_with_and_without_the_index(
    query, monkeypatch
):
    for name, text in [
        ("Dragoon", "Dragoon attacks."),
        ("Storm Pegasus", "Pegasus strikes back twice and then once more, strongly."),
        ("Dranzer", "Not a dragoon-like card: predragoon."),
        ("Égal", "x'sa a_b"),
        ("Kai's Storm", None),
    ]:
        make_card(B, name=name, text=text, card_type="ability", colour="red")
    with_index = found(parse_query(query).q)
    CardWord.objects.all().delete()  # the scan alone does not need the index
    monkeypatch.setattr(search, "word_q", search.word_scan_q)
    assert found(parse_query(query).q) == with_index


def test_words_start_at_the_start_and_after_every_non_word_character():
    assert word_starts("Storm Pegasus-ex") == {
        "storm pegasus-ex",
        "pegasus-ex",
        "ex",
    }
    assert word_starts("Élan") == {"élan", "lan"}  # é is \W to PostgreSQL's C locale
    assert search_prefix("DRA") == "dra"
    assert fold("ſ") == fold("s") == fold("S")
    assert len(max(word_starts("x " * 40), key=len)) == 24


def _words(card) -> set[tuple[str, str]]:
    return set(CardWord.objects.filter(card=card).values_list("field", "word"))


def _finds(card, word) -> bool:
    return Card.objects.filter(word_q(("name", "text"), word), pk=card.pk).exists()


def test_card_save_refreshes_the_words(user):
    card = build_card(B, name="Old Gate", card_type="gate", gate_class="gold")
    card_save(card=card, user=user, source="test")
    assert _finds(card, "old")
    card.name = "New Gate"
    card_save(card=card, user=user, source="test")
    assert (_finds(card, "old"), _finds(card, "new")) == (False, True)
    assert ("name", "new gate") in _words(card)


def _data_file(path, name):
    path.write_text(
        json.dumps(
            {
                "format": "cardsite-card-data",
                "version": 1,
                "game": B,
                "sets": [
                    {
                        "slug": "words-series",
                        "name": "Words series",
                        "kind": "official",
                        "source": "test",
                        "cards": [
                            {
                                "key": "1/48",
                                "number": 1,
                                "name": name,
                                "card_type": "gate",
                                "gate_class": "gold",
                                "source": "test",
                            }
                        ],
                    }
                ],
            }
        )
    )
    call_command("load_cards", str(path), stdout=io.StringIO())
    return Card.objects.get(card_set__slug="words-series", key="1/48")


def test_load_cards_and_its_reload_refresh_the_words(tmp_path):
    card = _data_file(tmp_path / "b.json", "Quartz Gate")
    assert _finds(card, "quartz")
    card = _data_file(tmp_path / "b.json", "Basalt Gate")
    assert (_finds(card, "quartz"), _finds(card, "basalt")) == (False, True)


def test_an_accepted_community_correction_refreshes_the_words(user, django_user_model):
    from django.contrib.auth.models import Group

    moderator = django_user_model.objects.create_user("mod", "m@example.com", "pw-x")
    moderator.groups.add(Group.objects.get(name="moderators"))
    card = make_card(B, name="Plain Gate", card_type="gate", gate_class="gold")
    submission = community.card_submission_create(
        user=user, game=B, card=card, fields={"name": "Garnet Gate"}, source="mine"
    )
    community.card_submission_accept(submission=submission, moderator=moderator)
    assert (_finds(card, "plain"), _finds(card, "garnet")) == (False, True)


def test_custom_cards_are_indexed_when_made_and_when_edited(user):
    custom = community.custom_set_create(user=user, game=B, name="Proxies")
    card = community.custom_card_create(
        user=user,
        card_set=custom,
        fields={"name": "Topaz Gate", "card_type": "gate", "gate_class": "gold"},
    )
    assert _finds(card, "topaz")
    community.custom_card_update(user=user, card=card, fields={"name": "Onyx Gate"})
    assert (_finds(card, "topaz"), _finds(card, "onyx")) == (False, True)


def test_a_deleted_card_leaves_no_words():
    card = make_card(B, name="Gone Gate", card_type="gate", gate_class="gold")
    card.delete()
    assert not CardWord.objects.exists()


def test_refresh_rebuilds_the_words_of_cards_saved_in_bulk():
    card_set = make_set(B)
    Card.objects.bulk_create(
        [build_card(B, card_set=card_set, key=str(n), name=f"Bulk {n}") for n in (1, 2)]
    )
    assert not Card.objects.filter(word_q(("name",), "bulk")).exists()
    written = card_words_refresh(Card.objects.values_list("pk", flat=True))
    assert written == 4  # "bulk n" and "n" for each
    assert Card.objects.filter(word_q(("name",), "bulk")).count() == 2


def test_every_bulk_write_of_cards_in_the_code_refreshes_the_words():
    """Saves fire post_save; bulk_create and update do not, so they must refresh."""
    bulk = re.compile(r"Card\.objects[^\n]*\.(bulk_create|bulk_update)\(")
    update = re.compile(r"Card\.objects[^\n]*\.update\(([^)]*)\)")
    missing = []
    for app in ("cards", "collection", "decks", "cardsite"):
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            source = path.read_text()
            writes = bool(bulk.search(source)) or any(
                re.search(r"\b(name|text|emblem)\s*=", m.group(1))
                for m in update.finditer(source)
            )
            if writes and "card_words_refresh" not in source:
                missing.append(str(path.relative_to(ROOT)))
    assert missing == []


def test_the_word_search_reads_the_index():
    make_card(B, name="Dragoon", card_type="ability", colour="red")
    # The candidates subquery of the search (cards.words.WordCandidates) on its
    # own: the plan of the whole card query on a tiny table is the planner's whim.
    queryset = CardWord.objects.filter(
        Prefix(F("word"), "dragoon"), field__in=("name", "text")
    ).values("card_id")
    assert Card.objects.filter(word_q(("name", "text"), "dragoon")).count() == 1
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # A table this small is read whole; ask what the index would do.
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("EXPLAIN " + sql, params)
        else:
            cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
        plan = " ".join(str(row) for row in cursor.fetchall())
    assert "cards_cardword_prefix" in plan


def test_the_benchmark_finds_the_same_cards_both_ways_and_cleans_up():
    out = io.StringIO()
    before = Card.objects.count()
    assert main(["--json", "words", "--sizes", "20,40", "--runs", "1"], out=out) == 0
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [row["cards"] for row in rows if "cards" in row] == [20, 40]
    assert Card.objects.count() == before
    assert not CardWord.objects.exists()
