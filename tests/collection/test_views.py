"""My collection, the one-click widget, missing cards, sharing and graded population."""

from decimal import Decimal

import pytest
from django.db import connection
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext

from collection import selectors, services
from collection.models import CollectionEntry, ShareLink
from tests.html_forms import form_values


def _widget(client, card, change):
    return client.post(
        f"/collection/cards/{card.pk}/change/",
        {"change": change},
        HTTP_HX_REQUEST="true",
    )


@pytest.mark.django_db
def test_widget_adds_and_removes_copies_and_answers_with_itself(client, user, cards):
    client.force_login(user)
    response = _widget(client, cards.dragoon, "owned+1")
    assert response.status_code == 200
    body = response.content.decode()
    assert 'class="owned-widget is-owned"' in body
    assert '<span class="ow-count" title="Copies owned">1</span>' in body
    _widget(client, cards.dragoon, "owned+1")
    _widget(client, cards.dragoon, "owned-1")
    assert CollectionEntry.objects.get(user=user, card=cards.dragoon).quantity == 1


@pytest.mark.django_db
def test_widget_marks_a_card_wanted(client, user, cards):
    client.force_login(user)
    body = _widget(client, cards.tyson, "wanted+1").content.decode()
    assert '<span class="ow-count" title="Copies wanted">1</span>' in body
    assert CollectionEntry.objects.get(user=user, card=cards.tyson).wanted_quantity == 1


@pytest.mark.django_db
def test_widget_reports_removing_a_copy_not_owned(client, user, cards):
    client.force_login(user)
    body = _widget(client, cards.dragoon, "owned-1").content.decode()
    assert "There are no copies of this card to remove." in body
    assert CollectionEntry.objects.count() == 0


@pytest.mark.django_db
def test_widget_without_javascript_redirects_back(client, user, cards):
    client.force_login(user)
    response = client.post(
        f"/collection/cards/{cards.dragoon.pk}/change/",
        {"change": "owned+1", "next": "/games/collision/"},
    )
    assert response.status_code == 302
    assert response["Location"] == "/games/collision/"
    evil = client.post(
        f"/collection/cards/{cards.dragoon.pk}/change/",
        {"change": "owned+1", "next": "https://evil.example/"},
    )
    assert evil["Location"] == cards.dragoon.get_absolute_url()


def _render_widget(card, user):
    request = RequestFactory().get("/games/collision/")
    request.user = user
    return render_to_string(
        "collection/_owned_widget.html", {"card": card, "user": user}, request=request
    )


@pytest.mark.django_db
def test_anonymous_users_see_a_log_in_link(cards):
    from django.contrib.auth.models import AnonymousUser

    body = _render_widget(cards.dragoon, AnonymousUser())
    assert "Log in to track" in body
    assert 'owned-widget"' not in body


@pytest.mark.django_db
def test_annotated_cards_render_widgets_without_queries(user, cards):
    services.collection_change_quantity(user=user, card=cards.dragoon, owned_delta=2)
    page = selectors.annotate_cards([cards.dragoon, cards.dranzer, cards.tyson], user)
    with CaptureQueriesContext(connection) as queries:
        bodies = [_render_widget(card, user) for card in page]
    assert len(queries) == 0
    assert '<span class="ow-count" title="Copies owned">2</span>' in bodies[0]
    assert '<span class="ow-count" title="Copies owned">0</span>' in bodies[1]


@pytest.mark.django_db
def test_annotating_a_page_takes_one_query(user, cards):
    with CaptureQueriesContext(connection) as queries:
        selectors.annotate_cards([cards.dragoon, cards.dranzer, cards.tyson], user)
    assert len(queries) == 1


@pytest.mark.django_db
def test_my_collection_shows_owned_cards_and_totals(client, user, cards):
    services.collection_entry_create(
        user=user, card=cards.dragoon, quantity=2, trade_quantity=1
    )
    services.collection_entry_create(
        user=user, card=cards.dragoon, quantity=1, finish="foil"
    )
    services.collection_entry_create(user=user, card=cards.kai, wanted_quantity=3)
    client.force_login(user)
    response = client.get("/collection/")
    assert response.status_code == 200
    assert [c.pk for c in response.context["page"]] == [cards.dragoon.pk]
    assert response.context["totals"] == {
        "cards": 1,
        "copies": 3,
        "wanted": 3,
        "for_trade": 1,
        "graded": 0,
    }


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("status", "expected"),
    [
        ("owned", ["dragoon", "tyson"]),
        ("wanted", ["kai"]),
        ("for-trade", ["tyson"]),
    ],
)
def test_my_collection_status_filter(client, user, cards, status, expected):
    services.collection_entry_create(user=user, card=cards.dragoon, quantity=1)
    services.collection_entry_create(
        user=user, card=cards.tyson, quantity=2, trade_quantity=1
    )
    services.collection_entry_create(user=user, card=cards.kai, wanted_quantity=1)
    client.force_login(user)
    page = client.get("/collection/", {"status": status}).context["page"]
    assert [c.pk for c in page] == [getattr(cards, name).pk for name in expected]


@pytest.mark.django_db
def test_my_collection_missing_uses_the_checklist_filters(client, user, cards):
    services.collection_entry_create(user=user, card=cards.dragoon, quantity=1)
    client.force_login(user)
    page = client.get(
        "/collection/", {"status": "missing", "game": "collision", "set": "base"}
    ).context["page"]
    assert [c.pk for c in page] == [
        cards.dranzer.pk,
        cards.tyson.pk,
        cards.kai.pk,
        cards.unknown.pk,
    ]


@pytest.mark.django_db
def test_my_collection_search_language(client, user, cards):
    services.collection_entry_create(user=user, card=cards.dragoon, quantity=1)
    services.collection_entry_create(user=user, card=cards.dranzer, quantity=1)
    client.force_login(user)
    page = client.get("/collection/", {"q": "Dranzer"}).context["page"]
    assert [c.pk for c in page] == [cards.dranzer.pk]


@pytest.mark.django_db
def test_completion_counts_official_sets_only_per_set_and_rarity(client, user, cards):
    services.collection_entry_create(user=user, card=cards.dragoon, quantity=4)
    services.collection_entry_create(user=user, card=cards.tyson, quantity=1)
    services.collection_entry_create(user=user, card=cards.practice_dragoon, quantity=1)
    services.collection_entry_create(user=user, card=cards.kai, wanted_quantity=1)
    completion = {row["set"].slug: row for row in selectors.set_completion(user=user)}
    assert set(completion) == {"base", "1-48"}
    base = completion["base"]
    assert (base["owned"], base["total"], base["percent"]) == (2, 5, 40.0)
    assert [(r["rarity"], r["owned"], r["total"]) for r in base["rarities"]] == [
        (None, 0, 1),
        ("rare", 1, 2),
        ("starter", 1, 2),
    ]
    client.force_login(user)
    body = client.get("/collection/").content.decode()
    assert '<progress max="5" value="2">40.0%</progress>' in body
    assert "Practice" not in [
        row["set"].name for row in selectors.set_completion(user=user)
    ]


@pytest.mark.django_db
def test_a_bakugan_set_s_rarity_is_not_printed_and_not_broken_down(client, user, cards):
    services.collection_entry_create(user=user, card=cards.gate_other, quantity=1)
    completion = {row["set"].slug: row for row in selectors.set_completion(user=user)}
    rows = completion["1-48"]["rarities"]
    assert [(r["rarity"], r["owned"], r["total"]) for r in rows] == [
        ("not printed", 1, 2)
    ]
    client.force_login(user)
    body = client.get("/collection/").content.decode()
    # Only the Collision set's cards print a rarity to break it down by.
    assert body.count("<summary>By rarity</summary>") == 1


@pytest.mark.django_db
def test_missing_cards_of_a_set_in_one_list(client, user, cards):
    services.collection_entry_create(user=user, card=cards.dragoon, quantity=1)
    services.collection_entry_create(user=user, card=cards.dranzer, wanted_quantity=1)
    client.force_login(user)
    response = client.get("/collection/sets/collision/base/missing/")
    assert [c.pk for c in response.context["cards"]] == [
        cards.dranzer.pk,
        cards.tyson.pk,
        cards.kai.pk,
        cards.unknown.pk,
    ]
    assert client.get("/collection/sets/collision/practice/missing/").status_code == 404


@pytest.mark.django_db
def test_entry_form_adds_a_graded_variant(client, user, cards):
    client.force_login(user)
    response = client.post(
        f"/collection/entries/add/{cards.tyson.pk}/",
        {
            "quantity": 1,
            "condition": "mint",
            "finish": "normal",
            "language": "en",
            "grading_company": "psa",
            "grade": "9.5",
            "wanted_quantity": 0,
            "trade_quantity": 0,
            "notes": "",
        },
    )
    assert response.status_code == 302
    entry = CollectionEntry.objects.get(user=user)
    assert (entry.grading_company, entry.grade) == ("psa", Decimal("9.5"))


@pytest.mark.django_db
def test_entry_form_shows_the_duplicate_message(client, user, cards):
    services.collection_entry_create(user=user, card=cards.tyson, quantity=1)
    client.force_login(user)
    response = client.post(
        f"/collection/entries/add/{cards.tyson.pk}/",
        {
            "quantity": 1,
            "condition": "near-mint",
            "finish": "normal",
            "language": "en",
            "grading_company": "",
            "grade": "",
            "wanted_quantity": 0,
            "trade_quantity": 0,
        },
    )
    assert response.status_code == 200
    assert "You already have an entry for this card" in response.content.decode()
    assert CollectionEntry.objects.count() == 1


@pytest.mark.django_db
def test_entry_form_keeps_a_copy_added_while_the_page_was_open(client, user, cards):
    entry = services.collection_entry_create(user=user, card=cards.tyson, quantity=1)
    client.force_login(user)
    page = client.get(f"/collection/entries/{entry.pk}/")
    shown = form_values(page.content.decode())
    assert (shown["quantity"], shown["initial-quantity"]) == ("1", "1")
    services.collection_change_quantity(user=user, card=cards.tyson, owned_delta=1)
    response = client.post(
        f"/collection/entries/{entry.pk}/", {**shown, "notes": "foil corner"}
    )
    assert response.status_code == 302
    entry.refresh_from_db()
    assert (entry.quantity, entry.notes) == (2, "foil corner")


@pytest.mark.django_db
def test_sharing_is_off_by_default_and_can_be_turned_on_and_off(client, user, cards):
    services.collection_entry_create(user=user, card=cards.dragoon, quantity=2)
    services.collection_entry_create(user=user, card=cards.kai, wanted_quantity=1)
    client.force_login(user)
    assert ShareLink.objects.count() == 0
    client.post("/collection/sharing/", {"kind": "wishlist", "action": "on"})
    link = ShareLink.objects.get(user=user, kind="wishlist")
    assert len(link.token) >= 32
    client.logout()
    response = client.get(f"/collection/shared/{link.token}/")
    assert response.status_code == 200
    assert [e.card_id for e in response.context["page"]] == [cards.kai.pk]
    client.force_login(user)
    client.post("/collection/sharing/", {"kind": "wishlist", "action": "off"})
    client.logout()
    assert client.get(f"/collection/shared/{link.token}/").status_code == 404


@pytest.mark.django_db
def test_shared_collection_and_tradelist(client, user, cards):
    services.collection_entry_create(
        user=user, card=cards.dragoon, quantity=2, trade_quantity=1
    )
    services.collection_entry_create(user=user, card=cards.tyson, quantity=1)
    services.collection_entry_create(user=user, card=cards.kai, wanted_quantity=1)
    collection = services.share_link_enable(user=user, kind="collection")
    trades = services.share_link_enable(user=user, kind="tradelist")
    assert [
        e.card_id for e in client.get(collection.get_absolute_url()).context["page"]
    ] == [cards.dragoon.pk, cards.tyson.pk]
    assert [
        e.card_id for e in client.get(trades.get_absolute_url()).context["page"]
    ] == [cards.dragoon.pk]
    assert client.get("/collection/shared/not-a-token/").status_code == 404


@pytest.mark.django_db
def test_graded_population_counts_copies_without_owners(user, other_user, cards):
    services.collection_entry_create(
        user=user,
        card=cards.tyson,
        quantity=2,
        grading_company="psa",
        grade=Decimal("9"),
    )
    services.collection_entry_create(
        user=other_user,
        card=cards.tyson,
        quantity=1,
        grading_company="psa",
        grade=Decimal("9"),
    )
    services.collection_entry_create(
        user=other_user,
        card=cards.tyson,
        quantity=1,
        grading_company="bgs",
        grade=Decimal("9.5"),
        condition="mint",
    )
    services.collection_entry_create(user=user, card=cards.tyson, quantity=5)
    assert [
        (r["company"], str(r["grade"]), r["copies"])
        for r in selectors.graded_population(card=cards.tyson)
    ] == [("bgs", "9.5", 1), ("psa", "9.0", 3)]
    body = render_to_string("collection/_graded_population.html", {"card": cards.tyson})
    assert "<td>PSA</td><td>9.0</td><td>3</td>" in body
    assert "alice" not in body and "mallory" not in body


@pytest.mark.django_db
def test_card_page_shows_the_graded_population(client, user, cards):
    services.collection_entry_create(
        user=user,
        card=cards.tyson,
        quantity=1,
        grading_company="cgc",
        grade=Decimal("8.5"),
    )
    body = client.get(cards.tyson.get_absolute_url()).content.decode()
    assert "Graded copies on this site" in body
    assert "<td>CGC</td><td>8.5</td><td>1</td>" in body
    assert "Log in to track" in body


@pytest.mark.django_db
def test_the_entries_page_with_no_filter_lists_every_entry(client, user, cards):
    entry = services.collection_entry_create(user=user, card=cards.tyson, quantity=2)
    client.force_login(user)
    page = client.get("/collection/entries/")
    assert page.status_code == 200
    assert list(page.context["page"]) == [entry]
