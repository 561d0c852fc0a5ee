"""Every collection URL and API endpoint, tried anonymously and as another user."""

import pytest
from rest_framework.test import APIClient

from collection import services
from collection.models import CollectionEntry, ImportPreview, ShareLink


@pytest.fixture
def owned(user, cards):
    """Give alice an entry, a pending import and a share link; return the ids."""
    entry = services.collection_entry_create(
        user=user, card=cards.dragoon, quantity=3, notes="mine"
    )
    preview = services.collection_import_prepare(
        user=user,
        rows=[
            {
                "card_id": cards.kai.pk,
                "condition": "near-mint",
                "finish": "normal",
                "language": "en",
                "grading_company": "",
                "grade": None,
                "quantity": 1,
                "wanted_quantity": 0,
                "trade_quantity": 0,
                "notes": "",
                "line": 2,
                "label": "Kai",
            }
        ],
        mode="add",
    )
    services.share_link_enable(user=user, kind="collection")
    return {"entry": entry.pk, "token": preview.token, "card": cards.dragoon.pk}


def _state():
    return (
        sorted(
            CollectionEntry.objects.values_list(
                "user_id", "card_id", "quantity", "notes"
            )
        ),
        sorted(ImportPreview.objects.values_list("user_id", "token")),
        sorted(ShareLink.objects.values_list("user_id", "kind", "token")),
    )


PAGES = [
    "/collection/",
    "/collection/entries/",
    "/collection/entries/add/{card}/",
    "/collection/entries/{entry}/",
    "/collection/sets/collision/base/missing/",
    "/collection/import/",
    "/collection/import/{token}/",
    "/collection/export.csv",
    "/collection/sharing/",
]
WRITES = [
    (
        "/collection/entries/add/{card}/",
        {
            "quantity": 1,
            "condition": "mint",
            "finish": "normal",
            "language": "en",
            "wanted_quantity": 0,
            "trade_quantity": 0,
        },
    ),
    (
        "/collection/entries/{entry}/",
        {
            "quantity": 9,
            "condition": "near-mint",
            "finish": "normal",
            "language": "en",
            "wanted_quantity": 0,
            "trade_quantity": 0,
        },
    ),
    ("/collection/entries/{entry}/delete/", {}),
    ("/collection/cards/{card}/change/", {"change": "owned+1"}),
    ("/collection/import/", {"kind": "bulk", "text": "Dranzer", "game": "collision"}),
    ("/collection/import/{token}/", {"action": "apply"}),
    ("/collection/import/{token}/", {"action": "discard"}),
    ("/collection/sharing/", {"kind": "collection", "action": "off"}),
]
# Writes naming one of alice's objects; the rest act on the requester's own collection.
OWNED_WRITES = [w for w in WRITES if "{entry}" in w[0] or "{token}" in w[0]]


@pytest.mark.django_db
@pytest.mark.parametrize("url", PAGES)
def test_anonymous_page_visit_is_sent_to_log_in(client, owned, url):
    before = _state()
    path = url.format(**owned)
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")
    assert _state() == before


@pytest.mark.django_db
@pytest.mark.parametrize(("url", "data"), WRITES)
def test_anonymous_write_is_404_and_changes_nothing(client, owned, url, data):
    before = _state()
    assert client.post(url.format(**owned), data).status_code == 404
    assert _state() == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url", ["/collection/entries/{entry}/", "/collection/import/{token}/"]
)
def test_another_users_page_is_404(client, other_user, owned, url):
    client.force_login(other_user)
    assert client.get(url.format(**owned)).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize(("url", "data"), OWNED_WRITES)
def test_another_users_write_is_404_and_changes_nothing(
    client, other_user, owned, url, data
):
    client.force_login(other_user)
    before = _state()
    assert client.post(url.format(**owned), data).status_code == 404
    assert _state() == before


@pytest.mark.django_db
def test_another_users_lists_hold_only_their_own_rows(client, other_user, owned, cards):
    client.force_login(other_user)
    assert list(client.get("/collection/entries/").context["page"]) == []
    assert list(client.get("/collection/", {"status": "owned"}).context["page"]) == []
    assert client.get("/collection/").context["totals"]["copies"] == 0
    export = client.get("/collection/export.csv").content.decode()
    assert export.count("\r\n") == 1
    assert "mine" not in export


@pytest.mark.django_db
def test_another_users_sharing_post_leaves_alices_link(client, other_user, owned):
    client.force_login(other_user)
    before = _state()
    client.post("/collection/sharing/", {"kind": "collection", "action": "off"})
    assert _state() == before


API_CALLS = [
    ("get", "/api/collection/", None),
    ("post", "/api/collection/", {"card": "{card}", "quantity": 1}),
    ("get", "/api/collection/{entry}/", None),
    ("put", "/api/collection/{entry}/", {"card": "{card}", "quantity": 7}),
    ("patch", "/api/collection/{entry}/", {"quantity": 7}),
    ("delete", "/api/collection/{entry}/", None),
]


def _call(client, method, url, data, owned):
    if data is not None:
        data = {
            k: int(v.format(**owned)) if isinstance(v, str) else v
            for k, v in data.items()
        }
    return getattr(client, method)(url.format(**owned), data, format="json")


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "url", "data"), API_CALLS)
def test_anonymous_api_call_is_404_and_changes_nothing(owned, method, url, data):
    before = _state()
    response = _call(APIClient(), method, url, data, owned)
    assert response.status_code == 404
    assert _state() == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "url", "data"), [c for c in API_CALLS if "{entry}" in c[1]]
)
def test_another_users_api_call_is_404_and_changes_nothing(
    other_user, owned, method, url, data
):
    client = APIClient()
    client.force_authenticate(other_user)
    before = _state()
    response = _call(client, method, url, data, owned)
    assert response.status_code == 404
    assert _state() == before


@pytest.mark.django_db
def test_another_users_api_list_holds_only_their_rows(other_user, owned):
    client = APIClient()
    client.force_authenticate(other_user)
    assert client.get("/api/collection/").json()["count"] == 0
