"""The card list API's kept answers: always what a fresh computation would give."""

import pytest

from cards.api import cache
from cards.history import card_save
from cards.models import Card, CardSet
from tests.factories import C, make_card, make_set

pytestmark = pytest.mark.django_db

URL = "/api/cards/?page_size=5"
JSON = {"HTTP_ACCEPT": "application/json"}


def uncached(client, url=URL, **headers):
    """Return the answer computed afresh (nothing kept by this process)."""
    cache.worker_caches_clear()
    return client.get(url, **{**JSON, **headers})


def test_a_kept_answer_is_byte_for_byte_the_computed_one(client):
    make_card(C, title="Dragoon", number=1)
    first = uncached(client)
    kept = client.get(URL, **JSON)
    assert kept.status_code == 200
    assert kept.content == first.content
    assert kept["Content-Type"] == first["Content-Type"]
    assert kept["ETag"] == first["ETag"]


def test_a_card_saved_shows_in_the_kept_list_at_once(client, user):
    card = make_card(C, title="Dragoon", number=1)
    before = client.get(URL, **JSON)
    assert client.get(URL, **JSON).content == before.content  # now kept
    card.title = card.name = "Dranzer"
    card_save(card=card, user=user, source="test")
    after = client.get(URL, **JSON)
    assert [row["name"] for row in after.json()["results"]] == ["Dranzer"]
    assert after.content == uncached(client).content
    assert after["ETag"] != before["ETag"]


@pytest.mark.parametrize(
    "write",
    [
        lambda card: Card.objects.filter(pk=card.pk).update(name="Renamed"),
        lambda card: CardSet.objects.filter(pk=card.card_set_id).update(name="Re"),
        lambda card: card.delete(),
        lambda card: make_card(C, card_set=card.card_set, title="New", number=2),
        lambda card: Card.objects.bulk_create(
            [Card(card_set=card.card_set, key="bulk", name="Bulk")]
        ),
    ],
    ids=["update", "set update", "delete", "create", "bulk_create"],
)
def test_every_kind_of_write_refreshes_the_kept_list(client, write):
    card = make_card(C, title="Dragoon", number=1)
    kept = client.get(URL, **JSON)
    assert client.get(URL, **JSON).content == kept.content
    write(card)
    after = client.get(URL, **JSON)
    assert after.content != kept.content
    assert after.content == uncached(client).content


def test_an_unchanged_list_revalidates_as_not_modified(client):
    make_card(C, title="Dragoon")
    etag = client.get(URL, **JSON)["ETag"]
    assert client.get(URL, HTTP_IF_NONE_MATCH=etag, **JSON).status_code == 304
    make_card(C, title="Dranzer")
    fresh = client.get(URL, HTTP_IF_NONE_MATCH=etag, **JSON)
    assert fresh.status_code == 200
    assert fresh.json()["count"] == 2


def test_kept_answers_are_per_viewer(client, user, other_user):
    private = make_set(C, "custom", owner=user, is_public=False)
    card = make_card(C, card_set=private, title="Homebrew")
    url = "/api/cards/?kind=custom"
    client.force_login(user)
    assert [r["id"] for r in client.get(url, **JSON).json()["results"]] == [card.pk]
    client.force_login(other_user)
    assert client.get(url, **JSON).json()["results"] == []
    client.logout()
    assert client.get(url, **JSON).json()["results"] == []


def test_parameter_order_does_not_change_the_answer(client):
    make_card(C, title="Dragoon", number=3)
    one = client.get("/api/cards/?number_min=1&page_size=5", **JSON)
    two = client.get("/api/cards/?page_size=5&number_min=1", **JSON)
    assert one.content == two.content
