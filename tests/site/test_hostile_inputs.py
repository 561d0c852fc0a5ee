"""No input answers 500: each value the probe found, then a sweep of every endpoint.

The named tests send the values that answered 500 and assert the exact refusal
and that nothing changed. The sweep sends hostile values (huge, negative and
5,000-digit numbers, lone surrogates, deep nesting, NUL bytes, long strings) to
every query parameter, form field and JSON field of every URL, the URLs drawn
from the resolver (as the isolation matrix draws them) and the API's fields
from its OpenAPI schema, and asserts that no answer is a server error.
"""

import json
import re
from urllib.parse import quote

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from cards import safejson
from cards.community.services import (
    custom_card_create,
    custom_set_create,
    moderators_group,
)
from cards.models import Card, CardSubmission
from collection.csv_io import read_csv
from collection.models import CollectionEntry, ImportPreview
from collection.services import (
    PreviewGone,
    collection_import_apply,
    collection_import_prepare,
)
from decks.models import Deck
from decks.play.models import DeckReport
from decks.samples import sample_deck
from decks.services import deck_add_card
from tests.site.isolation import CLASSES, Scenario, snapshot, url_names
from tests.utils import full_strength

HUGE = str(10**30)
DEEP = "[" * 5000 + "]" * 5000
DIGITS = "9" * 5000
SURROGATE = '"\\ud800"'

FORM = "application/x-www-form-urlencoded"
JSON_WRITES = (
    "/api/collection/",
    "/api/decks/",
    "/api/playtests/",
    "/api/submissions/",
)


@pytest.fixture(scope="module")
def scenario(module_rows):
    """Return one owner's objects of every kind, made once for the whole module."""
    with module_rows():
        # Not alice: tests of this module that ask for ``user`` make her.
        owner = get_user_model().objects.create_user(
            "olga", "olga@example.com", "correct-horse-battery-4"
        )
        return Scenario(
            owner,
            lambda game, **kw: sample_deck(owner=owner, game_slug=game, **kw),
        )


@pytest.fixture
def owner(client, scenario):
    client.raise_request_exception = False
    client.force_login(scenario.owner)
    return client


def post_json(client, url, body: str):
    return client.post(url, body, content_type="application/json")


# -- Numbers the database cannot hold ----------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("value", [HUGE, "-" + HUGE])
def test_a_huge_card_id_in_the_api_filter_answers_400(owner, value):
    response = owner.get("/api/collection/", {"card": value})
    assert response.status_code == 400
    assert list(response.json()) == ["card"]


@pytest.mark.django_db
@pytest.mark.parametrize("value", [HUGE, "-" + HUGE, "-5"])
def test_a_huge_or_negative_card_id_on_the_entries_page_shows_no_entries(
    owner, scenario, value
):
    response = owner.get(reverse("collection:entries"), {"card": value})
    assert response.status_code == 200
    assert list(response.context["page"]) == []


@pytest.mark.django_db
@pytest.mark.parametrize("card", [10**30, -3])
def test_a_huge_or_negative_card_id_in_deck_entries_answers_400(owner, card):
    before = Deck.objects.count()
    body = {
        "game": "collision",
        "name": "x",
        "entries": [{"card": card, "quantity": 1, "zone": "deck"}],
    }
    response = post_json(owner, "/api/decks/", json.dumps(body))
    assert response.status_code == 400
    assert Deck.objects.count() == before


@pytest.mark.django_db
def test_a_huge_card_id_in_the_deck_page_form_is_a_form_error(owner, scenario):
    before = scenario.deck.entries.count()
    response = owner.post(
        reverse("decks:add", kwargs={"pk": scenario.deck.pk}),
        {"card": HUGE, "quantity": 1},
    )
    assert response.status_code < 500
    assert scenario.deck.entries.count() == before


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [HUGE, "-1"])
def test_a_huge_or_negative_report_seed_is_refused_with_a_message(
    owner, scenario, seed
):
    before = DeckReport.objects.count()
    response = owner.post(
        reverse("play:report-new"),
        {"deck": scenario.deck.pk, "games": 2, "bot": "random", "seed": seed},
        follow=True,
    )
    assert response.status_code == 200
    assert DeckReport.objects.count() == before
    assert "The seed is a whole number from 0 to 2^53." in [
        str(m) for m in response.context["messages"]
    ]


@pytest.mark.django_db
def test_a_huge_deck_id_on_the_report_form_answers_404(owner):
    assert owner.post(reverse("play:report-new"), {"deck": HUGE}).status_code == 404


# -- JSON bodies --------------------------------------------------------------


def json_writes(scenario):
    pk = scenario.playtest.pk
    return (
        *JSON_WRITES,
        f"/api/playtests/{pk}/actions/",
        f"/api/playtests/{pk}/undo/",
        f"/api/playtests/{pk}/next/",
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body, message",
    [
        (DEEP, "JSON nested deeper than 32 levels."),
        ("[" * 40 + "]" * 40, "JSON nested deeper than 32 levels."),
        ('{"card": ' + DIGITS + "}", "A number in the JSON is too large."),
        ('{"card": 1e999}', "A number in the JSON is too large."),
        ('{"name": ' + SURROGATE + "}", "The JSON holds a lone surrogate (not text)."),
        (
            '{"game": "collision", "name": "\\udfff"}',
            "The JSON holds a lone surrogate (not text).",
        ),
    ],
    ids=["deep", "forty-deep", "digits", "infinite", "surrogate", "surrogate-echoed"],
)
def test_every_json_write_refuses_unsafe_json_with_a_400(
    owner, scenario, body, message
):
    before = snapshot()
    for url in json_writes(scenario):
        response = post_json(owner, url, body)
        assert response.status_code == 400, url
        assert response.json() == {"detail": f"JSON parse error - {message}"}, url
    assert snapshot() == before


def test_the_decoder_keeps_ordinary_json():
    text = '{"a": [1, -2, 3.5, "é", null, true], "b": {"c": 9223372036854775807}}'
    assert safejson.loads(text) == json.loads(text)


@pytest.mark.django_db
@pytest.mark.parametrize("value", [DEEP, "[" * 40 + "]" * 40, DIGITS, '["\\ud800"]'])
def test_unsafe_json_in_the_custom_card_form_is_a_form_error(owner, scenario, value):
    url = reverse("community:custom-card-new", kwargs={"pk": scenario.custom_set.pk})
    before = Card.objects.count()
    response = owner.post(
        url,
        {"title": "x", "card_type": "action", "effects": value, "not_printed": value},
    )
    assert response.status_code == 200
    assert response.context["form"].errors["effects"] == ["Enter a valid JSON."]
    assert Card.objects.count() == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    "value", [DEEP, DIGITS, '{"rarity": ' + DIGITS + "}", '{"title": "\\ud800"}']
)
def test_unsafe_json_in_submission_fields_answers_400(owner, scenario, value):
    before = CardSubmission.objects.count()
    response = owner.post(
        "/api/submissions/",
        {"game": "collision", "card": scenario.card.pk, "fields": value, "source": "x"},
    )
    assert response.status_code == 400
    assert response.json()["fields"] == ["Give the fields as a JSON object."]
    assert CardSubmission.objects.count() == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    "text, message",
    [
        (DEEP, "JSON nested deeper than 32 levels."),
        ('{"format": ' + DIGITS + "}", "A number in the JSON is too large."),
        (SURROGATE, "The JSON holds a lone surrogate (not text)."),
    ],
    ids=["deep", "digits", "surrogate"],
)
def test_unsafe_json_in_the_moderator_import_is_a_problem_listed(
    owner, scenario, text, message
):
    scenario.owner.groups.add(moderators_group())
    response = owner.post(
        reverse("community:import"),
        {"file": SimpleUploadedFile("cards.json", text.encode())},
    )
    assert response.status_code == 200
    assert response.context["problems"] == [f"file: Not valid JSON: {message}"]


# -- Redirects, clones, double applies ----------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("target", ["abc", "//evil.example/", "https://evil.example/"])
def test_the_widget_redirects_only_to_a_path_on_this_site(owner, scenario, target):
    response = owner.post(
        reverse("collection:widget_change", kwargs={"card_id": scenario.card.pk}),
        {"change": "owned+1", "next": target},
    )
    assert response.status_code == 302
    assert response["Location"] == scenario.card.get_absolute_url()


@pytest.mark.django_db
def test_the_widget_follows_a_path_on_this_site(owner, scenario):
    response = owner.post(
        reverse("collection:widget_change", kwargs={"card_id": scenario.card.pk}),
        {"change": "owned+1", "next": "/collection/"},
    )
    assert response["Location"] == "/collection/"


@pytest.mark.django_db
def test_cloning_a_deck_with_a_card_the_cloner_cannot_see_is_refused(
    client, user, other_user, deck_for
):
    deck = deck_for("collision", name="Public", is_public=True)
    private = custom_set_create(user=user, game="collision", name="Mine")
    card = custom_card_create(
        user=user, card_set=private, fields={"title": "Secret", "card_type": "action"}
    )
    deck_add_card(deck=deck, card=card)
    client.raise_request_exception = False
    client.force_login(other_user)
    response = client.post(reverse("decks:clone", kwargs={"pk": deck.pk}), follow=True)
    assert response.status_code == 200
    assert Deck.objects.filter(owner=other_user).count() == 0
    assert [str(m) for m in response.context["messages"]] == [
        "This deck holds a private custom card you cannot see, so it cannot be copied."
    ]


@pytest.mark.django_db
def test_a_second_apply_of_one_import_preview_finds_it_gone(user, practice):
    practice("collision")
    card = Card.objects.filter(card_set__kind="practice").order_by("pk").first()
    text = f"game,set,number,quantity\ncollision,{card.card_set.slug},{card.key},1\n"
    rows = read_csv(text.encode(), user=user).rows
    preview = collection_import_prepare(user=user, rows=rows, mode="add")
    other_tab = ImportPreview.objects.get(pk=preview.pk)
    collection_import_apply(user=user, preview=preview)
    with pytest.raises(PreviewGone):
        collection_import_apply(user=user, preview=other_tab)
    assert CollectionEntry.objects.get(user=user, card=card).quantity == 1


@pytest.mark.django_db
def test_a_double_click_on_apply_answers_a_message_and_imports_once(
    client, user, other_user, practice
):
    practice("collision")
    card = Card.objects.filter(card_set__kind="practice").order_by("pk").first()
    text = f"game,set,number,quantity\ncollision,{card.card_set.slug},{card.key},1\n"
    preview = collection_import_prepare(
        user=user, rows=read_csv(text.encode(), user=user).rows, mode="add"
    )
    url = preview.get_absolute_url()
    client.force_login(user)
    assert client.post(url).status_code == 302
    second = client.post(url, follow=True)
    assert second.status_code == 200
    assert "This import was already applied or discarded." in second.content.decode()
    assert CollectionEntry.objects.get(user=user, card=card).quantity == 1
    # Another user's preview stays not found, applied or not.
    theirs = collection_import_prepare(
        user=other_user, rows=read_csv(text.encode(), user=other_user).rows, mode="add"
    )
    assert client.get(theirs.get_absolute_url()).status_code == 404
    assert client.post(theirs.get_absolute_url()).status_code == 404


# -- The sweep -----------------------------------------------------------------


def hostile_values() -> list:
    """Return the hostile values, a few by default and all of them under CI."""
    few = [HUGE, "-1", "\x00", "\ud800"]
    more = [
        "-" + HUGE,
        DIGITS,
        "x" * 100_000,
        DEEP,
        "1e999",
        "NaN",
        "../../etc/passwd",
        "' OR 1=1 --",
    ]
    return few + more if full_strength() else few


def json_values() -> list:
    """Return hostile JSON values for a field: numbers, nesting, strings, shapes."""
    few = [10**30, -1, "\x00", {"a": [[[]]]}]
    more = [-(10**30), "x" * 100_000, [], None, True, 1.5, "\ud800"]
    return few + more if full_strength() else few


def form_fields(html: str) -> set[str]:
    """Return the names of the form fields in a page."""
    return set(re.findall(r'<(?:input|select|textarea)[^>]*\sname="([^"]+)"', html))


def schema_fields(schema: dict) -> dict[str, set[str]]:
    """Return, by API path pattern, the query parameters and body fields it documents."""
    found = {}

    def props(node):
        if "$ref" in node:
            node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[-1]]
        return set(node.get("properties", {}))

    for path, methods in schema["paths"].items():
        names = found.setdefault(path, set())
        for operation in methods.values():
            if not isinstance(operation, dict):
                continue
            names.update(p["name"] for p in operation.get("parameters", []))
            for content in operation.get("requestBody", {}).get("content", {}).values():
                names.update(props(content["schema"]))
    return found


def sweep_targets(client, scenario):
    """Return (url, field names) for every classified URL, fields from page and schema."""
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    by_pattern = [
        (re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$"), names)
        for path, names in schema_fields(schema).items()
    ]
    names = {n for group in CLASSES.values() for n in group} & set(url_names())
    targets = []
    # Deletions go last, so that the rows they remove serve every other URL first.
    for name in sorted(names - {"logout"}, key=lambda n: ("delete" in n, n)):
        url = scenario.url(name)
        fields = {"q", "page", "next", "card", "deck", "seed", "sort"}
        for pattern, api_fields in by_pattern:
            if pattern.match(url):
                fields |= api_fields
        response = client.get(url)
        if response.get("Content-Type", "").startswith("text/html"):
            fields |= form_fields(response.content.decode())
        fields.discard("csrfmiddlewaretoken")
        targets.append((url, sorted(fields)))
    return targets


def field_groups(fields: list[str]) -> list[list[str]]:
    """Return the fields to fill per request: all at once.

    One field at a time took about 7 minutes with only the four default values, too
    long for CI twice over; CI sends every hostile value instead (about 3x the
    default run).
    """
    return [fields]


def send(client, url: str, fields: list[str], value, failures: list) -> None:
    """Send ``value`` in ``fields`` by query, form and (for the API) JSON; note 5xx."""
    # Percent-encoded by hand: a lone surrogate travels as its raw bytes.
    if isinstance(value, str):
        query = "&".join(
            f"{quote(f)}={quote(value, errors='surrogatepass')}" for f in fields
        )
        responses = [
            client.get(f"{url}?{query}"),
            client.post(url, query, content_type=FORM),
        ]
    else:
        body = json.dumps(dict.fromkeys(fields, value))
        responses = [
            client.post(url, body, content_type="application/json"),
            client.patch(url, body, content_type="application/json"),
        ]
    for response in responses:
        if response.status_code >= 500:
            method = response.request["REQUEST_METHOD"]
            failures.append((method, url, fields, repr(value)[:30]))


@pytest.mark.django_db
def test_no_hostile_value_in_any_field_of_any_endpoint_answers_a_server_error(
    scenario, practice
):
    scenario.owner.groups.add(moderators_group())
    client = Client(raise_request_exception=False)
    client.force_login(scenario.owner)
    failures = []
    for url, fields in sweep_targets(client, scenario):
        for group in field_groups(fields):
            for value in hostile_values():
                send(client, url, group, value, failures)
            if url.startswith("/api/"):
                for value in json_values():
                    send(client, url, group, value, failures)
    assert failures == []
