"""The isolation matrix: every URL is classified, and owner-only ones stay the owner's.

The list of endpoints comes from the URL resolver (and, for the API, is checked
against the OpenAPI schema). Each one is public, the signed-in user's own space
(``self``: no object id, it shows or changes only the requester's rows),
owner-only (``owner``: it names an object of one user), moderator-only, or
reached by an unguessable share token. Owner-only endpoints are requested
anonymously, by another user and by the owner with every method; the first two
must be refused with the exact code recorded in ``isolation_codes.json`` (404,
403, 405, or a redirect to log in) and change nothing.
Every unsafe request without a CSRF token is refused.
"""

import json
import os
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from decks.samples import sample_deck
from tests.conftest import make_alice
from tests.site.isolation import (
    CLASSES,
    MODERATOR,
    OWNER,
    PUBLIC,
    SECRET,
    SELF,
    TOKEN,
    Scenario,
    snapshot,
    url_names,
)

METHODS = ("get", "post", "put", "patch", "delete")
# What the owner's GET answers where it is not 200: actions taken by POST only,
# the hand (outside htmx it sends the reader to the deck page), and scans, named
# here by an id that does not exist.
OWNER_GET = {
    **dict.fromkeys(
        (
            "collection:entry_delete",
            "decks:add",
            "decks:clone",
            "decks:delete",
            "decks:remove",
            "decks:slot",
            "decks:wishlist",
            "play:act",
            "play:branch",
            "play:share",
            "play:undo",
            "play:next",
            "play:report-cancel",
            "play:doctor-cancel",
            "play:doctor-apply",
            "play:hint",
            "play:hint-act",
            "play:hints",
            "play:review-new",
            "playtest-actions",
            "playtest-undo",
            "playtest-next-game",
            "report-cancel",
            "table:companion-act",
            "table:companion-undo",
            "table:companion-share",
            "table:companion-delete",
        ),
        405,
    ),
    "decks:hand": 302,
    "community:scan": 404,
    "community:scan-thumb": 404,
}


def test_every_url_is_classified_once():
    names = url_names()
    classified = [n for group in CLASSES.values() for n in group]
    assert len(classified) == len(set(classified)), "a name is in two classes"
    assert sorted(set(names) - set(classified)) == []
    assert sorted(set(classified) - set(names)) == []


def test_every_api_path_in_the_schema_resolves_to_a_classified_endpoint(client):
    from django.urls import resolve

    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    classified = {n for group in CLASSES.values() for n in group}
    for path in schema["paths"]:
        concrete = re.sub(r"\{[^}]+\}", "1", path)
        match = resolve(concrete)
        name = ":".join(x for x in (match.namespace, match.url_name) if x)
        assert name in classified, path


def request(client, method, url):
    return getattr(client, method)(
        url,
        data={} if method == "get" else "{}",
        content_type=None if method == "get" else "application/json",
    )


# The exact answer of every refused request, by endpoint, who asks and method:
# 302 (to the log-in page), 403, 404 or 405. Regenerate it with
# ISOLATION_RECORD=1 after a deliberate change, and read the diff.
CODES_FILE = Path(__file__).with_name("isolation_codes.json")
RECORD = os.environ.get("ISOLATION_RECORD") == "1"
CODES = json.loads(CODES_FILE.read_text()) if CODES_FILE.exists() else {}
REFUSALS = {302, 403, 404, 405}


def refused(response, name: str, who: str, method: str) -> bool:
    """Return whether the answer refuses, with the exact code recorded for it."""
    code = response.status_code
    if code == 302 and not response["Location"].startswith("/accounts/login/"):
        return False
    key = f"{name} {who} {method}"
    if RECORD:
        CODES[key] = code
        CODES_FILE.write_text(json.dumps(dict(sorted(CODES.items())), indent=1) + "\n")
    return code in REFUSALS and CODES.get(key) == code


@pytest.fixture(scope="module")
def scenario(module_rows):
    """Return one owner's objects of every kind, made once for the whole module."""
    with module_rows():
        owner = make_alice(get_user_model())
        return Scenario(
            owner,
            lambda game, **kw: sample_deck(owner=owner, game_slug=game, **kw),
        )


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(OWNER))
def test_owner_only_endpoints_refuse_others_and_change_nothing(
    client, scenario, other_user, name
):
    url = scenario.url(name)
    for who in ("anonymous", "other"):
        client.logout()
        if who == "other":
            client.force_login(other_user)
        # Taken after signing in, which stamps the user's last_login.
        before = snapshot()
        for method in METHODS:
            response = request(client, method, url)
            assert refused(response, name, who, method), (
                who,
                method,
                url,
                response.status_code,
            )
            assert snapshot() == before, (who, method, url)
    client.force_login(scenario.owner)
    for method in METHODS:
        response = request(client, method, url)
        assert response.status_code < 500, (method, url)
        if method == "get":
            expected = OWNER_GET.get(name, 200)
            assert response.status_code == expected, (url, response.status_code)


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(MODERATOR))
def test_moderator_endpoints_refuse_anonymous_and_ordinary_users(
    client, scenario, other_user, name
):
    url = scenario.url(name)
    for who in ("anonymous", "owner", "other"):
        client.logout()
        if who != "anonymous":
            client.force_login(scenario.owner if who == "owner" else other_user)
        before = snapshot()
        for method in METHODS:
            response = request(client, method, url)
            assert refused(response, name, who, method), (
                who,
                method,
                url,
                response.status_code,
            )
            assert snapshot() == before, (who, method, url)


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(SELF))
def test_self_endpoints_refuse_anonymous_and_never_show_another_users_rows(
    client, scenario, other_user, name
):
    url = scenario.url(name)
    before = snapshot()
    for method in METHODS:
        response = request(client, method, url)
        assert refused(response, name, "anonymous", method), (
            method,
            url,
            response.status_code,
        )
        assert snapshot() == before
    client.force_login(other_user)
    response = client.get(url)
    assert response.status_code < 500
    assert SECRET.encode() not in response.content, url


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(PUBLIC | TOKEN))
def test_public_and_token_endpoints_answer_anyone_without_a_server_error(
    client, scenario, name
):
    response = client.get(scenario.url(name))
    assert response.status_code < 500
    if name in TOKEN:
        assert response.status_code == 200
    else:
        body = (
            b"".join(response.streaming_content)
            if response.streaming
            else response.content
        )
        assert SECRET.encode() not in body, "a public page shows a private row"


@pytest.mark.django_db
def test_a_wrong_share_token_answers_404(client, scenario):
    assert (
        client.get(reverse("collection:shared", kwargs={"token": "x" * 32})).status_code
        == 404
    )
    assert (
        client.get(reverse("play:shared", kwargs={"token": "x" * 32})).status_code
        == 404
    )


@pytest.mark.django_db
def test_every_unsafe_request_without_a_csrf_token_is_refused(scenario):
    client = Client(enforce_csrf_checks=True)
    client.force_login(scenario.owner)
    before = snapshot()
    for name in sorted(n for group in CLASSES.values() for n in group):
        url = scenario.url(name)
        for method in ("post", "put", "patch", "delete"):
            response = request(client, method, url)
            assert response.status_code == 403, (method, url, response.status_code)
    assert snapshot() == before
