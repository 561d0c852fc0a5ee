"""The card list's plain JSON path answers exactly what DRF's path answers.

A JSON page not kept yet is made without DRF's request and response layers
(cards/api/views.py, ``plain_list``); the browsable API and indented JSON still
go through DRF. Both read one listing: here each query is asked both ways and
compared with a listing built the plain ORM way (the filter set over
``Card.objects.visible_to``, sorted, sliced), for a visitor and for a user
with a private set.
"""

from urllib.parse import parse_qs, urlsplit

import pytest
from django.http import QueryDict

from cards.api import cache
from cards.filtersets import CardFilterSet, sort_cards
from cards.models import Card
from tests.factories import MF, C, make_card, make_set

pytestmark = pytest.mark.django_db

PLAIN = {"HTTP_ACCEPT": "application/json"}
DRF = {"HTTP_ACCEPT": "application/json; indent=2"}

QUERIES = [
    "",
    "page_size=3",
    "page_size=3&page=2",
    "page_size=3&page=last",
    "page_size=4&page=3",
    "page_size=500",
    "page_size=0",
    "page_size=abc",
    "number_min=2",
    "number_min=-7&page_size=2",
    "number_max=3&page_size=2&page=2",
    "game=collision",
    "game=metal-fusion",
    "kind=custom",
    "kind=official&kind=practice",
    "set=mine",
    "name=drag",
    "text=storm",
    "colour=red",
    "q=dragoon",
    "q=is%3Aofficial+-colour%3Ared",
    "q=colour%3Ared+order%3Aname",
    "q=order%3Aname+direction%3Adesc&page_size=3",
    "q=frobnicate%3A7",
    "q=nothing-matches-this",
    "sort=name",
    "sort=-number&page_size=4",
    "sort=bogus",
    "sort=name&number_min=2&page_size=2&page=2",
    "q=",
    "number_min=",
]


@pytest.fixture
def cards(user, other_user):
    base = make_set(C, "official", slug="base")
    practice = make_set(C, "practice", slug="drills")
    public = make_set(C, "custom", slug="shared", owner=other_user, is_public=True)
    hidden = make_set(C, "custom", slug="secret", owner=other_user, is_public=False)
    mine = make_set(C, "custom", slug="mine", owner=user, is_public=False)
    mf = make_set(MF, "official", slug="mf-base")
    for n in range(1, 7):
        make_card(
            C,
            card_set=base,
            key=str(n),
            number=n,
            card_type="action",
            title=f"Storm {n}" if n % 2 else f"Dragoon {n}",
            colour="red" if n % 3 else "blue",
        )
    for card_set, count in ((practice, 2), (public, 3), (hidden, 2), (mine, 3)):
        for n in range(1, count + 1):
            make_card(
                C, card_set=card_set, key=str(n), number=n, title=f"{card_set.slug} {n}"
            )
    for n in range(1, 4):
        make_card(MF, card_set=mf, key=str(n), number=n, name=f"Pegasus {n}")


def reference(query: str, user) -> tuple[int, list[int]]:
    """The count and page ids by the plain ORM: filter, sort, slice."""
    params = QueryDict(query)
    filterset = CardFilterSet(params, queryset=Card.objects.visible_to(user))
    assert filterset.is_valid()
    cards, _ = sort_cards(filterset.qs, params.get("sort") or filterset.search.order)
    ids = list(cards.values_list("pk", flat=True))
    try:
        size = min(max(int(params.get("page_size", 50)), 1), 200)
        if int(params.get("page_size", 50)) <= 0:
            size = 50
    except ValueError:
        size = 50
    pages = max(1, -(-len(ids) // size))
    page = params.get("page", "1")
    page = pages if page == "last" else int(page)
    return len(ids), ids[(page - 1) * size : page * size]


def both(client, query):
    cache.worker_caches_clear()
    plain = client.get(f"/api/cards/?{query}", **PLAIN)
    cache.worker_caches_clear()
    drf = client.get(f"/api/cards/?{query}", **DRF)
    return plain, drf


@pytest.mark.parametrize("who", ["visitor", "owner"])
@pytest.mark.parametrize("query", QUERIES)
def test_the_plain_path_answers_as_drf_and_the_orm_listing(
    client, cards, user, who, query
):
    if who == "owner":
        client.force_login(user)
    plain, drf = both(client, query)
    assert plain.status_code == drf.status_code == 200
    assert plain.json() == drf.json()
    for header in ("Allow", "Vary"):
        assert plain[header] == drf[header]
    assert plain["Content-Type"] == "application/json"
    count, ids = reference(query, plain.wsgi_request.user)
    data = plain.json()
    assert data["count"] == count
    assert [row["id"] for row in data["results"]] == ids
    if data["next"]:
        assert parse_qs(urlsplit(data["next"]).query)["page"]


@pytest.mark.parametrize(
    "query,status",
    [
        ("number_min=abc", 400),
        ("game=chess", 400),
        ("page=99", 404),
        ("page=abc", 404),
        ("page=0", 404),
    ],
)
def test_refusals_are_drfs_own(client, cards, query, status):
    plain, drf = both(client, query)
    assert plain.status_code == drf.status_code == status
    assert plain.json() == drf.json()


def test_a_media_type_drf_cannot_answer_is_still_refused(client, cards):
    cache.worker_caches_clear()
    response = client.get("/api/cards/", HTTP_ACCEPT="application/xml")
    assert response.status_code == 406


def test_the_private_sets_of_others_never_show(client, cards, user):
    client.force_login(user)
    cache.worker_caches_clear()
    sets = {
        row["set"]
        for row in client.get("/api/cards/?page_size=200", **PLAIN).json()["results"]
    }
    assert "mine" in sets and "shared" in sets and "secret" not in sets
    client.logout()
    sets = {
        row["set"]
        for row in client.get("/api/cards/?page_size=200", **PLAIN).json()["results"]
    }
    assert "mine" not in sets and "secret" not in sets
