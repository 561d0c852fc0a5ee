"""Fuzzing collection CSV imports: never a server error, never a partial write.

Each example runs inside a savepoint that is rolled back afterwards, so every
example starts from the same collection; the practice cards are loaded once
per test function, before the first savepoint.
"""

import csv
import io
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from hypothesis import given
from hypothesis import strategies as st

from cards.models import Card
from collection import csv_io, services
from collection.choices import Condition, Finish, GradingCompany, Language
from collection.models import CollectionEntry, ImportPreview, grade_key

GAMES = ("collision", "collide-o")

CONDITIONS = [
    *Condition.values,
    *(label for _, label in Condition.choices),
    "NM",
    "lp",
    "HP",
    "po",
    "",
]
FINISHES = [*Finish.values, "Foil", "NORMAL", ""]
LANGUAGES = [*Language.values, "English", "japanese", "DE", ""]
COMPANIES = [*GradingCompany.values, "PSA", "Beckett (BGS)"]
GRADES = ["1", "9.5", "10", "10.0", "7,5", "8"]
NASTY = [
    "",
    " ",
    "-1",
    "-0",
    "+3",
    "1e3",
    "1.5",
    "999999",
    "1000000",
    "99999999999999999999",
    "0x10",
    "١٢",
    "NaN",
    "Infinity",
    "sNaN",
    "-Infinity",
    '=HYPERLINK("http://x")',
    "+SUM(A1)",
    "@cmd",
    "'=1+1",
    "'",
    '"',
    '""',
    "a,b",
    "a;b",
    "\t1",
    "\r",
    "\n",
    "line\nbreak",
    "\u202e\u200b",
    "\ufeff",
    "💥",
    "é",
    "NULL",
    "'; DROP TABLE collection_collectionentry; --",
    "#1",
    "collision",
    "practice-collision",
    "x" * 2100,
]
COLUMN_NAMES = [
    *csv_io.HEADER,
    *csv_io.ALIASES,
    "Quantity",
    " game ",
    "=game",
    "'=game",
    "bogus",
    "",
]

cells = st.sampled_from(NASTY) | st.text(max_size=12)


@pytest.fixture
def cards(practice):
    """Load the practice sets once per test function; return their cards."""
    for game in GAMES:
        practice(game)
    return list(
        Card.objects.filter(card_set__game__slug__in=GAMES)
        .select_related("card_set__game")
        .order_by("pk")
    )


@st.composite
def good_row(draw, cards):
    """Return a row dict that reads cleanly (any spelling of each choice)."""
    card = draw(st.sampled_from(cards))
    quantity = draw(st.integers(0, 5))
    graded = draw(st.booleans()) and draw(st.booleans())
    how = draw(st.sampled_from(["ref", "ref+name", "name"]))
    row = {
        "game": card.card_set.game.slug if how != "name" else "",
        "set": card.card_set.slug if how != "name" else "",
        "number": draw(st.sampled_from([card.key, f"#{card.key}"]))
        if how != "name"
        else "",
        "name": card.name if how != "ref" else "",
        "quantity": str(quantity),
        "condition": draw(st.sampled_from(CONDITIONS)),
        "finish": draw(st.sampled_from(FINISHES)),
        "language": draw(st.sampled_from(LANGUAGES)),
        "grading_company": draw(st.sampled_from(COMPANIES)) if graded else "",
        "grade": draw(st.sampled_from(GRADES)) if graded else "",
        "wanted": str(draw(st.integers(0, 3))),
        "for_trade": str(draw(st.integers(0, quantity))),
        "notes": draw(st.sampled_from(["", "from a trade", "=1+2", "a, b"])),
    }
    return row


@st.composite
def csv_files(draw, cards):
    """Return the bytes of a CSV file: good rows, mutated rows, junk, bad bytes."""
    columns = list(csv_io.HEADER)
    if draw(st.integers(0, 3)) == 0:
        columns = draw(st.lists(st.sampled_from(COLUMN_NAMES), min_size=1, max_size=8))
    delimiter = draw(st.sampled_from([",", ",", ",", ";", "\t"]))
    rows = []
    for _ in range(draw(st.integers(0, 6))):
        row = draw(good_row(cards))
        if draw(st.integers(0, 2)) == 0:
            for _ in range(draw(st.integers(1, 3))):
                row[draw(st.sampled_from(csv_io.HEADER))] = draw(cells)
        values = [row.get(csv_io.ALIASES.get(c, c).strip(), "") for c in columns]
        if draw(st.integers(0, 9)) == 0:
            values += draw(st.lists(cells, min_size=1, max_size=2))
        rows.append(values)
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n")
    if draw(st.integers(0, 9)):
        writer.writerow(columns)
    writer.writerows(rows)
    text = out.getvalue()
    if draw(st.integers(0, 9)) == 0:
        # Hand-made junk: broken quoting, stray lines.
        text += draw(st.sampled_from(['"unclosed,1\n', "a,b,c\n", "\n\n", ",,,,\n"]))
        text += draw(st.text(max_size=30))
    data = text.encode("utf-8", "surrogatepass")
    if draw(st.booleans()):
        data = b"\xef\xbb\xbf" + data
    damage = draw(st.integers(0, 14))
    if damage == 0:
        at = draw(st.integers(0, len(data)))
        bad = draw(st.sampled_from([b"\xff", b"\xe9", b"\xc3", b"\x00"]))
        data = data[:at] + bad + data[at:]
    elif damage == 1:
        data = text.encode("utf-16")
    elif damage == 2:
        data = draw(st.binary(max_size=60))
    return data


@pytest.fixture
def one_game_cards(practice):
    """Load one practice set: each CSV read indexes every visible card."""
    practice("collision")
    return list(Card.objects.select_related("card_set__game").order_by("pk"))


def snapshot(user):
    """Return every entry of ``user`` field by field, in a stable order."""
    return list(
        CollectionEntry.objects.filter(user=user)
        .order_by("pk")
        .values_list(
            "pk",
            "card_id",
            "quantity",
            "condition",
            "finish",
            "language",
            "grading_company",
            "grade",
            "wanted_quantity",
            "trade_quantity",
            "notes",
        )
    )


def state(user) -> dict:
    """Return {variant key: counts and notes} of ``user``'s collection."""
    return {
        services._entry_key(e): services._counts(e)
        for e in CollectionEntry.objects.filter(user=user)
    }


def expected_after(before: dict, changes: list[dict]) -> dict:
    """Return the collection a preview says applying will leave."""
    after = dict(before)
    for change in changes:
        key = tuple(change["key"])
        if change["action"] == "delete":
            after.pop(key)
        else:
            after[key] = change["after"]
    return after


def seed_collection(user, cards, picks):
    """Give ``user`` a few entries so imports update and replace, not only create."""
    entries = []
    for index, quantity, graded in picks:
        entry = CollectionEntry(
            user=user, card=cards[index], quantity=quantity, wanted_quantity=1
        )
        if graded:
            entry.grading_company, entry.grade = "psa", Decimal("9.5")
        entries.append(entry)
    CollectionEntry.objects.bulk_create(entries)


class Rollback(Exception):
    """Raised to roll an example's savepoint back."""


def in_savepoint(check):
    try:
        with transaction.atomic():
            check()
            raise Rollback
    except Rollback:
        pass


seeds = st.lists(
    st.tuples(st.integers(0, 9), st.integers(0, 4), st.booleans()),
    max_size=3,
    unique_by=lambda t: (t[0], t[2]),
)


def check_through_the_pages(client, user, raw, mode):
    """Upload, preview and apply ``raw``; check the pages against the database."""
    before = snapshot(user)
    before_state = state(user)
    upload = SimpleUploadedFile("fuzz.csv", raw, "text/csv")
    response = client.post(
        "/collection/import/", {"kind": "file", "mode": mode, "file": upload}
    )
    assert response.status_code in (200, 302)
    if response.status_code == 200:
        context = response.context
        assert context["problems"] or context["file_form"].errors, "it says why"
        assert snapshot(user) == before
        assert not ImportPreview.objects.filter(user=user).exists()
        return
    preview = ImportPreview.objects.get(user=user)
    assert response["Location"] == preview.get_absolute_url()
    assert snapshot(user) == before, "the preview writes no entry"
    assert client.get(response["Location"]).status_code == 200
    applied = client.post(response["Location"], {"action": "apply"})
    assert applied.status_code == 302
    if ImportPreview.objects.filter(pk=preview.pk).exists():
        # Refused at apply time (a rule broken by adding): nothing written.
        assert applied["Location"] == preview.get_absolute_url()
        assert snapshot(user) == before
    else:
        assert applied["Location"] == "/collection/entries/"
        assert state(user) == expected_after(before_state, preview.changes)


def check_through_the_service(user, raw, mode):
    """Read, prepare and apply ``raw``; the result is what the preview said."""
    before = snapshot(user)
    before_state = state(user)
    result = csv_io.read_csv(raw, user=user)
    assert snapshot(user) == before, "reading writes nothing"
    if result.problems:
        assert result.rows == []
        assert all(isinstance(p, str) and p for p in result.problems)
        return
    preview = services.collection_import_prepare(
        user=user, rows=result.rows, mode=mode, source="fuzz"
    )
    try:
        counts = services.collection_import_apply(user=user, preview=preview)
    except ValidationError as exc:
        assert exc.messages
        assert snapshot(user) == before
        return
    assert state(user) == expected_after(before_state, preview.changes)
    by_action = {"create": 0, "update": 0, "delete": 0}
    for change in preview.changes:
        by_action[change["action"]] += 1
    assert counts == {
        "created": by_action["create"],
        "updated": by_action["update"],
        "deleted": by_action["delete"],
    }


@pytest.mark.django_db
@given(
    data=st.data(),
    picks=seeds,
    mode=st.sampled_from(["add", "replace"]),
    via_pages=st.sampled_from([True, False, False]),
)
def test_a_fuzzed_csv_imports_whole_or_not_at_all(
    client, user, cards, data, picks, mode, via_pages
):
    client.force_login(user)

    def check():
        seed_collection(user, cards, picks)
        raw = data.draw(csv_files(cards))
        if via_pages:
            check_through_the_pages(client, user, raw, mode)
        else:
            check_through_the_service(user, raw, mode)

    in_savepoint(check)


safe_notes = (
    st.text(
        st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00"),
        max_size=20,
    )
    .map(str.strip)
    .filter(lambda s: "\x00" not in s)
)


@st.composite
def collections(draw, cards):
    """Return entry field dicts for a collection (distinct variants)."""
    entries = {}
    for _ in range(draw(st.integers(1, 6))):
        card = draw(st.sampled_from(cards))
        graded = draw(st.booleans())
        quantity = draw(st.integers(0, csv_io.MAX_COPIES))
        fields = {
            "card": card,
            "condition": draw(st.sampled_from(Condition.values)),
            "finish": draw(st.sampled_from(Finish.values)),
            "language": draw(st.sampled_from(Language.values)),
            "grading_company": draw(st.sampled_from(GradingCompany.values))
            if graded
            else "",
            "grade": Decimal(draw(st.integers(2, 20))) / 2 if graded else None,
            "quantity": quantity,
            "wanted_quantity": draw(st.integers(0, 3)),
            "trade_quantity": draw(st.integers(0, min(quantity, 3))),
            "notes": draw(safe_notes),
        }
        if fields["quantity"] == fields["wanted_quantity"] == 0 and not fields["notes"]:
            fields["quantity"] = 1
        key = (card.pk, *(fields[k] for k in ("condition", "finish", "language")))
        key += (fields["grading_company"], grade_key(fields["grade"]))
        entries[key] = fields
    return list(entries.values())


def export_text(user) -> bytes:
    out = io.StringIO()
    csv_io.write_csv(CollectionEntry.objects.of(user).with_related(), out)
    return out.getvalue().encode("utf-8")


@pytest.mark.django_db
@given(data=st.data())
def test_reimporting_an_export_leaves_the_collection_as_it_was(
    client, user, one_game_cards, data
):
    cards = one_game_cards
    client.force_login(user)

    def check():
        CollectionEntry.objects.bulk_create(
            CollectionEntry(user=user, **fields)
            for fields in data.draw(collections(cards))
        )
        before = snapshot(user)
        raw = export_text(user)
        if data.draw(st.sampled_from([True, False, False]), label="via the page"):
            exported = client.get("/collection/export.csv")
            assert exported.status_code == 200
            assert exported.content == raw
        result = csv_io.read_csv(raw, user=user)
        assert result.problems == []
        # Replacing with the export changes nothing...
        assert services.import_plan(user=user, rows=result.rows, mode="replace") == []
        # ...and adding it to an emptied collection gives the same collection back.
        before_state = state(user)
        CollectionEntry.objects.filter(user=user).delete()
        preview = services.collection_import_prepare(
            user=user, rows=result.rows, mode="add", source="export"
        )
        services.collection_import_apply(user=user, preview=preview)
        assert state(user) == before_state
        assert len(snapshot(user)) == len(before)

    in_savepoint(check)


# -- Regressions found by the fuzzers above -----------------------------------


@pytest.mark.django_db
def test_importing_a_row_with_notes_alone_creates_its_entry(user, cards):
    raw = b"game,set,number,quantity,notes\ncollision,practice-collision,1,0,0\n"
    result = csv_io.read_csv(raw, user=user)
    preview = services.collection_import_prepare(
        user=user, rows=result.rows, mode="add"
    )
    assert services.collection_import_apply(user=user, preview=preview) == {
        "created": 1,
        "updated": 0,
        "deleted": 0,
    }
    assert list(
        CollectionEntry.objects.filter(user=user).values_list(
            "card__key", "quantity", "wanted_quantity", "notes"
        )
    ) == [("1", 0, 0, "0")]


@pytest.mark.parametrize("notes", ["=1+1", "'=", "''+x", "'plain", "-"])
@pytest.mark.django_db
def test_notes_starting_with_quote_marks_survive_export_and_import(user, cards, notes):
    CollectionEntry.objects.create(user=user, card=cards[0], quantity=1, notes=notes)
    result = csv_io.read_csv(export_text(user), user=user)
    assert [row["notes"] for row in result.rows] == [notes]
