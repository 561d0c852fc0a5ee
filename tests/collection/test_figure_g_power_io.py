"""A figure copy's G-Power in the collection CSV (export, import, round trip,
bad values by row and field, all or nothing) and in the collection API."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from collection import csv_io
from collection.models import CollectionEntry, ImportPreview
from tests.factories import B, make_card, make_entry, make_set

BAD = (
    "A figure's G-Power is printed as a multiple of 10 from 10 to 1,000; {} is not one."
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def figures():
    card_set = make_set(B, name="Figures", slug="figures-test")
    dragonoid = make_card(
        card_set=card_set,
        key="pyrus-dragonoid",
        name="Pyrus Dragonoid",
        card_type="bakugan",
        attribute="pyrus",
        source="figure tests",
    )
    gate = make_card(
        card_set=card_set,
        key="gate-1",
        name="Test Gate",
        card_type="gate",
        gate_class="gold",
        source="figure tests",
    )
    return dragonoid, gate


def _upload(client, text: str, mode="add"):
    return client.post(
        "/collection/import/",
        {
            "kind": "file",
            "mode": mode,
            "file": SimpleUploadedFile("mine.csv", text.encode(), "text/csv"),
        },
    )


def _copies(user):
    return sorted(
        CollectionEntry.objects.filter(user=user).values_list(
            "card_id", "condition", "g_power", "quantity"
        ),
        key=lambda r: (r[0], r[1], r[2] or 0),
    )


def test_export_then_import_keeps_each_copys_g_power(client, user, figures):
    dragonoid, gate = figures
    make_entry(user, dragonoid, quantity=2, g_power=350)
    make_entry(user, dragonoid, quantity=1, g_power=420)
    make_entry(user, dragonoid, quantity=1)
    make_entry(user, gate, quantity=1)
    before = _copies(user)
    client.force_login(user)
    exported = client.get("/collection/export.csv").content.decode("utf-8-sig")
    header, *rows = exported.splitlines()
    assert header.split(",")[-2:] == ["g_power", "notes"]
    assert sorted(r.split(",")[-2] for r in rows) == ["", "", "350", "420"]
    CollectionEntry.objects.filter(user=user).delete()
    assert _upload(client, exported).status_code == 302
    preview = ImportPreview.objects.get(user=user)
    client.post(preview.get_absolute_url(), {"action": "apply"})
    assert _copies(user) == before
    # Replacing with its own export changes nothing.
    _upload(client, exported, mode="replace")
    assert ImportPreview.objects.get(user=user).changes == []


def test_a_bad_g_power_is_reported_by_row_and_field_and_nothing_loads(
    client, user, figures
):
    text = (
        "game,set,number,quantity,g_power\n"
        "bakugan,figures-test,pyrus-dragonoid,1,350\n"
        "bakugan,figures-test,pyrus-dragonoid,1,355\n"
        "bakugan,figures-test,pyrus-dragonoid,1,strong\n"
        "bakugan,figures-test,gate-1,1,300\n"
        "bakugan,figures-test,pyrus-dragonoid,1,1010\n"
    )
    result = csv_io.read_csv(text.encode(), user=user)
    assert result.problems == [
        f"Line 3: g_power: {BAD.format(355)}",
        "Line 4: g_power must be a whole number, not 'strong'.",
        "Line 5: g_power: Only a Bakugan figure prints a G-Power on each copy.",
        f"Line 6: g_power: {BAD.format(1010)}",
    ]
    assert result.rows == []
    client.force_login(user)
    response = _upload(client, text)
    assert response.status_code == 200
    assert not ImportPreview.objects.exists()
    assert not CollectionEntry.objects.filter(user=user).exists()


def test_two_rows_of_one_g_power_add_up_and_other_values_stay_apart(user, figures):
    dragonoid, _ = figures
    text = (
        "game,set,number,quantity,g_power\n"
        "bakugan,figures-test,pyrus-dragonoid,1,350\n"
        "bakugan,figures-test,pyrus-dragonoid,2,350\n"
        "bakugan,figures-test,pyrus-dragonoid,1,\n"
    )
    result = csv_io.read_csv(text.encode(), user=user)
    assert sorted((r["g_power"] or 0, r["quantity"]) for r in result.rows) == [
        (0, 1),
        (350, 3),
    ]


@pytest.fixture
def api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_api_reads_and_writes_a_copys_g_power(api, user, figures):
    dragonoid, _ = figures
    response = api.post(
        "/api/collection/",
        {"card": dragonoid.pk, "quantity": 1, "g_power": 350},
        format="json",
    )
    assert response.status_code == 201
    entry = CollectionEntry.objects.get(user=user)
    assert entry.g_power == 350
    assert api.get(f"/api/collection/{entry.pk}/").json()["g_power"] == 350
    response = api.patch(
        f"/api/collection/{entry.pk}/", {"g_power": 380}, format="json"
    )
    assert response.status_code == 200 and response.json()["g_power"] == 380
    response = api.patch(
        f"/api/collection/{entry.pk}/", {"g_power": None}, format="json"
    )
    assert response.status_code == 200
    entry.refresh_from_db()
    assert entry.g_power is None


@pytest.mark.parametrize("g_power", [355, 5, 1010])
def test_the_api_refuses_a_g_power_never_printed_with_the_same_message(
    api, user, figures, g_power
):
    dragonoid, gate = figures
    response = api.post(
        "/api/collection/",
        {"card": dragonoid.pk, "quantity": 1, "g_power": g_power},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["g_power"] == [BAD.format(g_power)]
    entry = make_entry(user, dragonoid, quantity=1, g_power=300)
    response = api.patch(
        f"/api/collection/{entry.pk}/", {"g_power": g_power}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["g_power"] == [BAD.format(g_power)]
    entry.refresh_from_db()
    assert entry.g_power == 300
    response = api.post(
        "/api/collection/",
        {"card": gate.pk, "quantity": 1, "g_power": 300},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["g_power"] == [
        "Only a Bakugan figure prints a G-Power on each copy."
    ]
