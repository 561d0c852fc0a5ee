"""Collection CSV import and export, and the bulk-add text box."""

from decimal import Decimal

import pytest

from cards.models import Card, CardSet
from collection import csv_io, services
from collection.models import CollectionEntry, ImportPreview
from tests.factories import make_card, make_set

HEADER = "game,set,number,quantity\n"


def _read(text, user, encoding="utf-8"):
    data = text.encode(encoding) if isinstance(text, str) else text
    return csv_io.read_csv(data, user=user)


def _upload(client, data: bytes, mode="add", name="mine.csv"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return client.post(
        "/collection/import/",
        {
            "kind": "file",
            "mode": mode,
            "file": SimpleUploadedFile(name, data, "text/csv"),
        },
    )


def _snapshot(user):
    return sorted(
        CollectionEntry.objects.filter(user=user).values_list(
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


# -- Bad files: the exact report, and nothing written -------------------------


@pytest.mark.django_db
def test_wrong_encoding_is_reported_with_its_line(client, user, cards):
    client.force_login(user)
    data = (
        HEADER + "collision,base,1,2\n"
    ).encode() + b"collision,base,2,1,Dr\xe9nzer\n"
    response = _upload(client, data)
    assert response.status_code == 200
    assert _read(data, user).problems == [
        "Line 3: the file is not UTF-8 text (byte 0xE9 cannot be read). Save it as "
        '"CSV UTF-8" and upload it again.'
    ]
    assert "not UTF-8 text" in response.content.decode()
    assert CollectionEntry.objects.count() == 0
    assert ImportPreview.objects.count() == 0


@pytest.mark.django_db
def test_unknown_card_is_reported_with_its_line(client, user, cards):
    client.force_login(user)
    data = (HEADER + "collision,base,1,2\ncollision,base,999,1\n").encode()
    assert _read(data, user).problems == [
        "Line 3: no card number '999' in collision / base."
    ]
    response = _upload(client, data)
    assert "Line 3: no card number" in response.content.decode()
    assert CollectionEntry.objects.count() == 0
    assert ImportPreview.objects.count() == 0


@pytest.mark.django_db
def test_negative_quantity_is_reported_with_its_line(client, user, cards):
    client.force_login(user)
    data = (HEADER + "collision,base,1,-2\n").encode()
    assert _read(data, user).problems == [
        "Line 2: quantity must be a whole number 0 or more, not -2."
    ]
    _upload(client, data)
    assert CollectionEntry.objects.count() == 0
    assert ImportPreview.objects.count() == 0


@pytest.mark.django_db
def test_missing_column_is_reported(client, user, cards):
    client.force_login(user)
    data = b"game,set,number\ncollision,base,1\n"
    assert _read(data, user).problems == [
        "Line 1: missing column(s): quantity. A file needs quantity, and either "
        "game, set and number, or name."
    ]
    _upload(client, data)
    assert CollectionEntry.objects.count() == 0


@pytest.mark.django_db
def test_fifty_thousand_rows_are_refused_with_a_message(client, user, cards):
    client.force_login(user)
    data = (HEADER + "collision,base,1,1\n" * 50_000).encode()
    expected = (
        "The file has more than 10,000 rows; the limit is 10,000 per import. "
        "Split it into smaller files."
    )
    assert _read(data, user).problems == [expected]
    response = _upload(client, data)
    assert response.status_code == 200
    assert expected in response.content.decode()
    assert CollectionEntry.objects.count() == 0
    assert ImportPreview.objects.count() == 0


@pytest.mark.django_db
def test_ten_thousand_rows_are_imported(client, user, cards):
    client.force_login(user)
    rows = ["collision,base,1,1", "collision,base,2,1", "bakugan,1-48,7,1"] * 3333
    data = (HEADER + "\n".join(rows) + "\n").encode()
    response = _upload(client, data)
    assert response.status_code == 302
    preview = ImportPreview.objects.get(user=user)
    client.post(preview.get_absolute_url(), {"action": "apply"})
    assert dict(
        CollectionEntry.objects.filter(user=user).values_list("card__key", "quantity")
    ) == {"1": 3333, "2": 3333, "7": 3333}


@pytest.mark.django_db
def test_every_problem_is_listed_and_nothing_is_written(client, user, cards):
    client.force_login(user)
    data = (
        b"game,set,number,name,quantity,for_trade,grade\n"
        b"collision,base,1,,2,3,\n"
        b",,,Dragoon,1,,\n"
        b",,,Nobody,1,,\n"
        b"collision,base,2,,1,,9\n"
        b"collision,base,96,,x,,\n"
    )
    assert _read(data, user).problems == [
        "Line 2: for_trade: You cannot offer more copies for trade than you own.",
        "Line 3: the name 'Dragoon' matches 2 cards (Dragoon (collision / base #1); "
        "Dragoon (bakugan / 1-48 #7)); add game, set and number columns to say which.",
        "Line 4: no card is named 'Nobody'.",
        "Line 5: grading_company: A grade needs the grading company that gave it.",
        "Line 6: quantity must be a whole number 0 or more, not 'x'.",
    ]
    _upload(client, data)
    assert CollectionEntry.objects.count() == 0


# -- What a file may look like ------------------------------------------------


@pytest.mark.django_db
def test_header_in_any_order_with_bom_quotes_and_semicolons(user, cards):
    text = (
        "\ufeffQuantity;Name;Game;Condition\n"
        '2;"Tyson, Eager Champion";collision;LP\n'
        "1;Dranzer;Beyblade Collision;near mint\n"
    )
    result = _read(text, user)
    assert result.problems == []
    assert sorted(
        (r["card_id"], r["quantity"], r["condition"]) for r in result.rows
    ) == [
        (cards.dranzer.pk, 1, "near-mint"),
        (cards.tyson.pk, 2, "lightly-played"),
    ]


@pytest.mark.django_db
def test_cards_are_matched_by_printed_number(user, cards):
    result = _read(HEADER + "collision,Base Set,#96,1\n", user)
    assert [r["card_id"] for r in result.rows] == [cards.tyson.pk]


@pytest.mark.django_db
def test_tab_separated_file_is_read(user, cards):
    result = _read("game\tset\tnumber\tquantity\ncollision\tbase\t2\t4\n", user)
    assert [(r["card_id"], r["quantity"]) for r in result.rows] == [
        (cards.dranzer.pk, 4)
    ]


@pytest.mark.django_db
def test_the_same_variant_twice_adds_up(user, cards):
    result = _read(HEADER + "collision,base,1,2\ncollision,base,1,3\n", user)
    assert [(r["card_id"], r["quantity"]) for r in result.rows] == [
        (cards.dragoon.pk, 5)
    ]


def test_formulas_are_neutralised_and_restored():
    for cell in ["=SUM(A1)", "+1", "-2", "@me", "\tx", "\rx"]:
        assert csv_io.neutralise(cell) == "'" + cell
        assert csv_io.unneutralise(csv_io.neutralise(cell)) == cell
    assert csv_io.neutralise("plain") == "plain"
    assert csv_io.unneutralise("'quoted") == "'quoted"


@pytest.mark.django_db
def test_export_neutralises_formula_cells(client, user, cards):
    services.collection_entry_create(
        user=user, card=cards.dragoon, quantity=1, notes="=HYPERLINK(1)"
    )
    client.force_login(user)
    body = client.get("/collection/export.csv").content.decode("utf-8")
    assert body.startswith("\ufeffgame,set,number,name,quantity,condition,finish,")
    assert ",'=HYPERLINK(1)\r\n" in body


@pytest.mark.django_db
def test_export_neutralises_a_full_width_equals_sign_like_an_equals_sign(
    client, user, cards
):
    services.collection_entry_create(
        user=user, card=cards.dragoon, quantity=1, notes="\uff1dHYPERLINK(1)"
    )
    client.force_login(user)
    body = client.get("/collection/export.csv").content.decode("utf-8")
    assert ",'\uff1dHYPERLINK(1)\r\n" in body
    assert csv_io.unneutralise("'\uff1dHYPERLINK(1)") == "\uff1dHYPERLINK(1)"


# -- Preview, apply, round trip ------------------------------------------------


def _collection(user, cards):
    services.collection_entry_create(
        user=user,
        card=cards.dragoon,
        quantity=3,
        trade_quantity=1,
        notes="=1+1, from a pack",
    )
    services.collection_entry_create(
        user=user, card=cards.dragoon, quantity=1, finish="foil", language="de"
    )
    services.collection_entry_create(
        user=user,
        card=cards.tyson,
        quantity=1,
        condition="mint",
        grading_company="psa",
        grade=Decimal("9.5"),
    )
    services.collection_entry_create(
        user=user,
        card=cards.tyson,
        quantity=1,
        grading_company="bgs",
        grade=Decimal("10"),
    )
    services.collection_entry_create(user=user, card=cards.kai, wanted_quantity=2)
    services.collection_entry_create(
        user=user, card=cards.unknown, quantity=2, condition="poor"
    )
    services.collection_entry_create(user=user, card=cards.practice_dragoon, quantity=1)
    services.collection_entry_create(
        user=user, card=cards.gate_dragoon, quantity=5, trade_quantity=5
    )


@pytest.mark.django_db
def test_export_then_import_gives_back_the_same_collection(client, user, cards):
    _collection(user, cards)
    before = _snapshot(user)
    client.force_login(user)
    exported = client.get("/collection/export.csv").content
    CollectionEntry.objects.filter(user=user).delete()
    response = _upload(client, exported)
    assert response.status_code == 302
    preview = ImportPreview.objects.get(user=user)
    assert [c["action"] for c in preview.changes] == ["create"] * 8
    assert _snapshot(user) == []
    response = client.post(preview.get_absolute_url(), {"action": "apply"})
    assert response.status_code == 302
    assert _snapshot(user) == before
    assert ImportPreview.objects.count() == 0


@pytest.mark.django_db
def test_replacing_with_its_own_export_changes_nothing(client, user, cards):
    _collection(user, cards)
    before = _snapshot(user)
    client.force_login(user)
    _upload(client, client.get("/collection/export.csv").content, mode="replace")
    assert ImportPreview.objects.get(user=user).changes == []
    assert _snapshot(user) == before


@pytest.mark.django_db
def test_preview_shows_changes_before_anything_is_written(client, user, cards):
    services.collection_entry_create(user=user, card=cards.dragoon, quantity=1)
    services.collection_entry_create(user=user, card=cards.kai, quantity=1)
    client.force_login(user)
    _upload(
        client,
        (HEADER + "collision,base,1,2\ncollision,base,2,1\n").encode(),
        mode="replace",
    )
    preview = ImportPreview.objects.get(user=user)
    page = client.get(preview.get_absolute_url())
    assert page.status_code == 200
    assert page.context["summary"] == {"create": 1, "update": 1, "delete": 1}
    assert _snapshot(user)[0][1] == 1
    client.post(preview.get_absolute_url(), {"action": "apply"})
    assert dict(
        CollectionEntry.objects.filter(user=user).values_list("card__key", "quantity")
    ) == {"1": 2, "2": 1}


@pytest.mark.django_db
def test_add_mode_adds_to_existing_quantities(client, user, cards):
    services.collection_entry_create(user=user, card=cards.dragoon, quantity=1)
    client.force_login(user)
    _upload(client, (HEADER + "collision,base,1,2\n").encode())
    client.post(ImportPreview.objects.get().get_absolute_url(), {"action": "apply"})
    assert CollectionEntry.objects.get(user=user).quantity == 3


@pytest.mark.django_db
def test_a_preview_made_stale_is_not_applied(client, user, cards):
    client.force_login(user)
    _upload(client, (HEADER + "collision,base,1,2\n").encode(), mode="replace")
    preview = ImportPreview.objects.get(user=user)
    services.collection_entry_create(user=user, card=cards.kai, quantity=1)
    response = client.post(preview.get_absolute_url(), {"action": "apply"})
    assert response.status_code == 302
    assert response["Location"] == preview.get_absolute_url()
    assert list(CollectionEntry.objects.values_list("card__key", flat=True)) == ["97"]
    preview.refresh_from_db()
    assert [c["action"] for c in preview.changes] == ["create", "delete"]


@pytest.mark.django_db
def test_a_failure_while_applying_writes_nothing(client, user, cards, monkeypatch):
    client.force_login(user)
    _upload(client, (HEADER + "collision,base,1,2\ncollision,base,2,1\n").encode())
    preview = ImportPreview.objects.get(user=user)

    def fail(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(CollectionEntry.objects, "bulk_update", fail)
    services.collection_entry_create(user=user, card=cards.kai, quantity=1)
    preview = services.collection_import_prepare(
        user=user, rows=preview.rows, mode="replace"
    )
    with pytest.raises(RuntimeError):
        services.collection_import_apply(user=user, preview=preview)
    assert list(CollectionEntry.objects.values_list("card__key", "quantity")) == [
        ("97", 1)
    ]


@pytest.mark.django_db
def test_discarding_a_preview_changes_nothing(client, user, cards):
    client.force_login(user)
    _upload(client, (HEADER + "collision,base,1,2\n").encode())
    preview = ImportPreview.objects.get(user=user)
    client.post(preview.get_absolute_url(), {"action": "discard"})
    assert ImportPreview.objects.count() == 0
    assert CollectionEntry.objects.count() == 0


# -- Bulk add ------------------------------------------------------------------


@pytest.mark.django_db
def test_bulk_lines_in_three_forms(user, cards):
    result = csv_io.read_bulk_text(
        "3 Dranzer\n2x #96\nKai, Cool Leader x2\nTyson, Eager Champion\n",
        user=user,
        game="collision",
        card_set="base",
    )
    assert result.problems == []
    assert sorted((r["card_id"], r["quantity"]) for r in result.rows) == sorted(
        [(cards.dranzer.pk, 3), (cards.tyson.pk, 3), (cards.kai.pk, 2)]
    )


@pytest.mark.django_db
def test_bulk_add_reports_ambiguous_and_unknown_lines(user, cards):
    result = csv_io.read_bulk_text("3 Dragoon\n#96\n1 Nobody\n", user=user)
    assert result.problems == [
        "Line 1: the name 'Dragoon' matches 2 cards (Dragoon (collision / base #1); "
        "Dragoon (bakugan / 1-48 #7)); add game, set and number columns to say which.",
        "Line 2: choose a game to add cards by number (#96).",
        "Line 3: no card is named 'Nobody'.",
    ]


@pytest.mark.django_db
def test_bulk_add_goes_through_the_preview(client, user, cards):
    client.force_login(user)
    response = client.post(
        "/collection/import/",
        {"kind": "bulk", "text": "Dragoon x2", "game": "collision", "set": ""},
    )
    assert response.status_code == 302
    assert CollectionEntry.objects.count() == 0
    client.post(ImportPreview.objects.get().get_absolute_url(), {"action": "apply"})
    assert CollectionEntry.objects.get().quantity == 2


@pytest.mark.django_db
def test_csv_help_lists_every_column(client):
    body = client.get("/collection/csv/").content.decode()
    for name in csv_io.HEADER:
        assert f"<code>{name}</code>" in body


@pytest.mark.django_db
def test_a_count_beyond_the_limit_is_reported(user, cards):
    assert _read(HEADER + "collision,base,1,1000000\n", user).problems == [
        "Line 2: quantity must be at most 999,999, not 1,000,000."
    ]


@pytest.mark.django_db
def test_adding_past_the_limit_is_refused_at_apply_and_writes_nothing(
    client, user, cards
):
    services.collection_entry_create(user=user, card=cards.dragoon, quantity=999_999)
    services.collection_entry_create(user=user, card=cards.kai, quantity=1)
    client.force_login(user)
    _upload(client, (HEADER + "collision,base,97,1\ncollision,base,1,1\n").encode())
    preview = ImportPreview.objects.get(user=user)
    response = client.post(preview.get_absolute_url(), {"action": "apply"}, follow=True)
    assert "Nothing was imported" in response.content.decode()
    assert dict(CollectionEntry.objects.values_list("card__key", "quantity")) == {
        "1": 999_999,
        "97": 1,
    }


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b"", "The file is empty."),
        (HEADER.encode(), "The file has a header but no rows."),
        (b"game,set,number,quantity,colour\n", "Line 1: unknown column(s): colour."),
        (
            b"\x00\x01binary",
            "The file contains NUL bytes; it does not look like a CSV file.",
        ),
    ],
)
def test_odd_files_are_reported_not_crashed_on(client, user, cards, data, problem):
    client.force_login(user)
    response = _upload(client, data)
    assert response.status_code == 200
    assert _read(data, user).problems[0].startswith(problem)
    assert CollectionEntry.objects.count() == 0


@pytest.mark.django_db
def test_bulk_number_with_a_game_means_its_printed_set_though_a_practice_set_exists(
    user, cards
):
    assert Card.objects.filter(card_set=cards.practice).exists()
    result = csv_io.read_bulk_text("2x #96\n", user=user, game="collision")
    assert result.problems == []
    assert [(r["card_id"], r["quantity"]) for r in result.rows] == [(cards.tyson.pk, 2)]


@pytest.mark.django_db
def test_bulk_number_in_a_game_of_several_printed_sets_names_the_sets_accepted(
    user, cards
):
    make_set("bakugan", slug="1-48b", name="Series 1b")
    make_card("bakugan", card_set=CardSet.objects.get(slug="1-48b"), key="3")
    result = csv_io.read_bulk_text("#3\n", user=user, game="bakugan")
    assert result.problems == [
        "Line 1: choose a set to add cards by number (#3): 1-48, 1-48b."
    ]


@pytest.mark.django_db
def test_the_bulk_add_form_shows_the_set_names_it_accepts(client, user, cards):
    client.force_login(user)
    text = client.get("/collection/import/").content.decode()
    assert "<code>base</code> (Base Set)" in text
    assert "<code>practice</code> (Practice, " in text
