"""A write only its owner sees drops only that owner's kept card list answers."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cards.api import cache
from cards.history import card_save
from cards.models import Card, CardListVersion, CardSet, OwnerCardListVersion
from cards.signals import card_refreshes_deferred
from tests.factories import C, build_card, make_card, make_set

pytestmark = pytest.mark.django_db

URL = "/api/cards/?page_size=5"
JSON = {"HTTP_ACCEPT": "application/json"}
CARDS_TABLE = connection.ops.quote_name(Card._meta.db_table)


def listed(client, url=URL):
    """Return (names listed, whether the cards were read) of one request."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, **JSON)
    assert response.status_code == 200
    read = any(CARDS_TABLE in query["sql"] for query in queries.captured_queries)
    return [row["name"] for row in response.json()["results"]], read


def as_user(client, user, url=URL):
    client.force_login(user)
    return listed(client, url)


@pytest.fixture
def two_lists(client, user, other_user):
    """A public card and a private card of ``user``; both users' lists kept."""
    make_card(C, title="Dragoon", number=1)
    private = make_set(C, "custom", owner=user, is_public=False)
    card = make_card(C, card_set=private, title="Homebrew", number=1)
    cache.worker_caches_clear()
    assert as_user(client, user) == (["Homebrew", "Dragoon"], True)
    assert as_user(client, other_user) == (["Dragoon"], True)
    client.logout()
    assert listed(client) == (["Dragoon"], True)
    return card


def test_a_private_change_shows_to_its_owner_and_keeps_the_others(
    client, user, other_user, two_lists
):
    card = two_lists
    card.title = card.name = "Homebrew II"
    card_save(card=card, user=user, source="test")
    assert as_user(client, other_user) == (["Dragoon"], False)
    client.logout()
    assert listed(client) == (["Dragoon"], False)
    assert as_user(client, user) == (["Homebrew II", "Dragoon"], True)
    assert as_user(client, user) == (["Homebrew II", "Dragoon"], False)


def test_a_private_change_keeps_the_others_etag_and_moves_the_owners(
    client, user, other_user, two_lists
):
    client.force_login(other_user)
    theirs = client.get(URL, **JSON)["ETag"]
    client.force_login(user)
    own = client.get(URL, **JSON)["ETag"]
    make_card(C, card_set=two_lists.card_set, title="Homebrew Two", number=2)
    client.force_login(other_user)
    assert client.get(URL, HTTP_IF_NONE_MATCH=theirs, **JSON).status_code == 304
    client.force_login(user)
    fresh = client.get(URL, HTTP_IF_NONE_MATCH=own, **JSON)
    assert fresh.status_code == 200
    assert fresh.json()["count"] == 3


def test_a_public_change_drops_every_kept_answer(client, user, other_user, two_lists):
    make_card(C, title="Dranzer", number=2)
    assert as_user(client, other_user) == (["Dragoon", "Dranzer"], True)
    assert as_user(client, user) == (["Homebrew", "Dragoon", "Dranzer"], True)
    client.logout()
    assert listed(client) == (["Dragoon", "Dranzer"], True)


@pytest.mark.parametrize("is_public", [True, False])
def test_a_set_changing_who_sees_it_drops_every_kept_answer(
    client, user, other_user, is_public
):
    make_card(C, title="Dragoon", number=1)
    homebrew = make_set(C, "custom", owner=user, is_public=is_public)
    make_card(C, card_set=homebrew, title="Homebrew", number=1)
    shown = ["Homebrew", "Dragoon"]
    cache.worker_caches_clear()
    assert as_user(client, other_user) == (shown if is_public else ["Dragoon"], True)
    homebrew.is_public = not is_public
    homebrew.save()
    assert as_user(client, other_user) == (["Dragoon"] if is_public else shown, True)


def test_a_new_private_set_is_not_shown_to_a_user_who_saw_every_set(
    client, user, other_user
):
    make_card(C, title="Dragoon", number=1)
    cache.worker_caches_clear()
    assert as_user(client, other_user) == (["Dragoon"], True)
    hidden = make_set(C, "custom", owner=user, is_public=False)
    make_card(C, card_set=hidden, title="Homebrew", number=1)
    assert as_user(client, other_user, URL + "&q=") == (["Dragoon"], True)


def test_a_card_moved_out_of_a_public_set_drops_every_kept_answer(
    client, user, other_user, two_lists
):
    public = Card.objects.get(name="Dragoon")
    public.card_set = two_lists.card_set
    public.number = 2
    public.save()
    # An empty listing reads only the sets' totals: no card at all.
    assert as_user(client, other_user)[0] == []


def versions(user) -> tuple[int, int]:
    return CardListVersion.objects.current_for(user)


def test_private_writes_move_only_the_owners_version(user, other_user):
    private = make_set(C, "custom", owner=user, is_public=False)
    shared, own = versions(user)
    card = make_card(C, card_set=private, title="Homebrew")
    card.name = "Homebrew II"
    card.save()
    private.name = "Renamed"
    private.save()
    card.delete()
    assert versions(user)[0] == shared
    assert versions(user)[1] not in (own, 0)
    assert OwnerCardListVersion.objects.filter(pk=other_user.pk).count() == 0


def test_a_deferred_block_moves_the_owners_or_the_shared_version(user):
    private = make_set(C, "custom", owner=user, is_public=False)
    shared, own = versions(user)
    with card_refreshes_deferred():
        build_card(C, card_set=private, name="Waiting Card").save()
    after = versions(user)
    assert after[0] == shared and after[1] != own
    with card_refreshes_deferred():
        build_card(C, card_set=private, name="Other Card", key="other").save()
        make_card(C, title="Dragoon")
    assert versions(user)[0] == shared + 1


def test_a_stale_copy_making_a_set_private_again_moves_the_shared_version(user):
    private = make_set(C, "custom", owner=user, is_public=False)
    stale = CardSet.objects.get(pk=private.pk)
    private.is_public = True
    private.save()
    shared = versions(user)[0]
    stale.name = "Renamed"
    stale.save()  # writes is_public=False back: others no longer see the set
    assert versions(user)[0] == shared + 1
