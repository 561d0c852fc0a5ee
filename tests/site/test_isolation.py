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

import hashlib
import json
import os
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from cards.community.services import (
    card_submission_create,
    custom_card_create,
    custom_set_create,
)
from cards.models import Card, CardChange, CardSet, CardSubmission
from collection.models import CollectionEntry, ImportPreview, ShareLink
from collection.services import (
    collection_import_prepare,
    share_link_enable,
)
from decks.companion.models import TableGame
from decks.companion.services import table_game_create
from decks.models import Deck, DeckEntry, DeckVersion
from decks.playtest.doctor import doctor_start
from decks.playtest.models import DeckDoctor, DeckReport, Playtest
from decks.playtest.reports import deck_report_start
from decks.playtest.services import playtest_create, playtest_share
from tests.factories import make_entry

PUBLIC = {
    "cards:home",
    "cards:search",
    "cards:search_help",
    "cards:palette",
    "cards:game",
    "cards:set",
    "cards:card",
    "cards:card-image",
    "login",
    "signup",
    "logout",
    "password_reset",
    "password_reset_done",
    "password_reset_confirm",
    "password_reset_complete",
    "decks:list",
    "decks:game",
    "play:help",
    "community:history",
    "community:help-wanted-index",
    "community:help-wanted",
    "community:help-wanted-set",
    "community:contributor",
    "api-ping",
    "api-schema",
    "api-docs",
    "api-index",
    "community",
    "favicon",
    "game-list",
    "game-detail",
    "cardset-list",
    "cardset-detail",
    "card-list",
    "card-detail",
    "card-history",
    "collection:csv_help",
    "deck-list",
    "table:mats",
    "table:mat",
    "table:set-proxies",
    "table:set-proxies-pdf",
    "table:card-proxies",
    "table:card-proxies-pdf",
}
SELF = {
    "password_change",
    "password_change_done",
    "collection:home",
    "collection:entries",
    "collection:entry_add",
    "collection:widget_change",
    "collection:missing",
    "collection:species_missing",
    "collection:import",
    "collection:export",
    "collection:sharing",
    "decks:create",
    "decks:from-collection",
    "play:list",
    "play:new",
    "play:report-new",
    "play:doctor-new",
    "community:submissions",
    "community:suggest-new",
    "community:suggest",
    "community:transcribe",
    "community:transcribe-preview",
    "community:reading-withdraw",
    "community:custom-sets",
    "collection-entry-list",
    "playtest-list",
    "submission-list",
    "table:companion-new",
}
OWNER = {
    "collection:entry_edit",
    "collection:entry_delete",
    "collection:import_preview",
    "decks:detail",
    "decks:search",
    "decks:add",
    "decks:remove",
    "decks:slot",
    "decks:settings",
    "decks:delete",
    "decks:clone",
    "decks:import",
    "decks:export",
    "decks:versions",
    "decks:version",
    "decks:hand",
    "decks:wishlist",
    "play:detail",
    "play:act",
    "play:undo",
    "play:next",
    "play:branch",
    "play:share",
    "play:report",
    "play:doctor",
    "play:doctor-cancel",
    "play:doctor-apply",
    "community:submission",
    "community:scan",
    "community:scan-thumb",
    "community:custom-set",
    "community:custom-card-new",
    "community:custom-card-edit",
    "collection-entry-detail",
    "deck-detail",
    "playtest-detail",
    "playtest-actions",
    "playtest-undo",
    "playtest-next-game",
    "submission-detail",
    "table:deck-proxies",
    "table:deck-proxies-pdf",
    "table:deck-list",
    "table:companion",
    "table:companion-act",
    "table:companion-undo",
}
MODERATOR = {
    "community:review",
    "community:disputes",
    "community:submission-accept",
    "community:submission-reject",
    "community:import",
    "community:import-preview",
    "submission-accept",
    "submission-reject",
}
TOKEN = {"collection:shared", "play:shared", "table:companion-shared"}
CLASSES = {
    "public": PUBLIC,
    "self": SELF,
    "owner": OWNER,
    "moderator": MODERATOR,
    "token": TOKEN,
}
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
            "play:doctor-cancel",
            "play:doctor-apply",
            "playtest-actions",
            "playtest-undo",
            "playtest-next-game",
            "table:companion-act",
            "table:companion-undo",
        ),
        405,
    ),
    "decks:hand": 302,
    "community:scan": 404,
    "community:scan-thumb": 404,
}
SECRET = "owner-secret-marker-7f3a"


def url_names():
    """Return {name: route} for every URL pattern except the admin and format-suffix twins."""
    found = {}

    def walk(resolver, prefix="", namespace=None):
        for p in resolver.url_patterns:
            if isinstance(p, URLResolver):
                ns = ":".join(x for x in (namespace, p.namespace) if x) or None
                walk(p, prefix + str(p.pattern), ns)
            elif isinstance(p, URLPattern):
                route = prefix + str(p.pattern)
                if route.startswith("admin/") or "(?P<format>" in route:
                    continue
                name = ":".join(x for x in (namespace, p.name) if x) if p.name else None
                found.setdefault(name or route, route)

    walk(get_resolver())
    return found


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


class Scenario:
    """One owner's objects of every kind, and the URL keyword arguments that name them."""

    def __init__(self, owner, deck_for):
        self.owner = owner
        deck = deck_for("collision", name=f"Deck {SECRET}")
        self.card = (
            Card.objects.filter(card_set__kind="practice").order_by("pk").first()
        )
        self.entry = make_entry(owner, self.card, quantity=2, notes=SECRET)
        self.preview = collection_import_prepare(
            user=owner, rows=[], mode="add", source=SECRET
        )
        self.share = share_link_enable(user=owner, kind="collection")
        self.deck = deck
        self.version = deck.versions.order_by("number").first().number
        self.playtest = playtest_share(
            playtest=playtest_create(owner=owner, deck=deck, seed=1), on=True
        )
        from django.db import transaction

        with transaction.atomic():
            self.report = deck_report_start(
                owner=owner, deck=deck, games=2, bot="random"
            )
            self.doctor = doctor_start(owner=owner, deck=deck, games=20, bot="random")
        self.custom_set = custom_set_create(
            user=owner, game="collision", name=f"Set {SECRET}"
        )
        self.custom_card = custom_card_create(
            user=owner,
            card_set=self.custom_set,
            fields={"title": "Homebrew", "card_type": "action"},
        )
        self.submission = card_submission_create(
            user=owner,
            game="collision",
            card=self.card,
            fields={"rarity": "rare"},
            source=SECRET,
        )
        self.table_game = table_game_create(
            owner=owner,
            game_slug="collision",
            name=f"Table {SECRET}",
            setup={"strength": [6, 6]},
        )

    def kwargs(self, name):
        c, s = self.card, self.card.card_set
        table = {
            "cards:game": {"game": "collision"},
            "cards:set": {"game": "collision", "set": s.slug},
            "cards:card": {"pk": c.pk},
            "cards:card-image": {"pk": c.pk},
            "password_reset_confirm": {"uidb64": "x", "token": "y"},
            "decks:game": {"game": "collision"},
            "decks:from-collection": {"game": "bakugan"},
            "play:help": {"game": "collision"},
            "community:history": {"pk": c.pk},
            "community:help-wanted": {"game": "collision"},
            "community:help-wanted-set": {"game": "collision", "set": s.slug},
            "game-detail": {"slug": "collision"},
            "cardset-detail": {"pk": s.pk},
            "card-detail": {"pk": c.pk},
            "card-history": {"pk": c.pk},
            "collection:entry_add": {"card_id": c.pk},
            "collection:widget_change": {"card_id": c.pk},
            "collection:missing": {"game": "collision", "set": s.slug},
            "collection:species_missing": {"game": "bakugan", "species": "1"},
            "community:suggest-new": {"game": "collision"},
            "community:suggest": {"pk": c.pk},
            "community:transcribe": {"pk": c.pk},
            "community:contributor": {"username": self.owner.get_username()},
            "community:transcribe-preview": {"pk": c.pk},
            "community:reading-withdraw": {"pk": c.pk},
            "collection:entry_edit": {"pk": self.entry.pk},
            "collection:entry_delete": {"pk": self.entry.pk},
            "collection:import_preview": {"token": self.preview.token},
            "decks:version": {"pk": self.deck.pk, "number": self.version},
            "decks:slot": {
                "pk": self.deck.pk,
                "entry": self.deck.entries.order_by("pk").first().pk,
            },
            "play:report": {"pk": self.report.pk},
            "play:doctor": {"pk": self.doctor.pk},
            "play:doctor-cancel": {"pk": self.doctor.pk},
            "play:doctor-apply": {"pk": self.doctor.pk, "index": 1},
            "community:submission": {"pk": self.submission.pk},
            "community:scan": {"pk": 999999},
            "community:scan-thumb": {"pk": 999999},
            "community:custom-set": {"pk": self.custom_set.pk},
            "community:custom-card-new": {"pk": self.custom_set.pk},
            "community:custom-card-edit": {"pk": self.custom_card.pk},
            "collection-entry-detail": {"pk": self.entry.pk},
            "deck-detail": {"pk": self.deck.pk},
            "playtest-detail": {"pk": self.playtest.pk},
            "playtest-actions": {"pk": self.playtest.pk},
            "playtest-undo": {"pk": self.playtest.pk},
            "playtest-next-game": {"pk": self.playtest.pk},
            "submission-detail": {"pk": self.submission.pk},
            "community:submission-accept": {"pk": self.submission.pk},
            "community:submission-reject": {"pk": self.submission.pk},
            "community:import-preview": {"token": "no-such-token"},
            "submission-accept": {"pk": self.submission.pk},
            "submission-reject": {"pk": self.submission.pk},
            "collection:shared": {"token": self.share.token},
            "play:shared": {"token": self.playtest.share_token},
            "table:mat": {"game": "collision", "mat": "player"},
            "table:set-proxies": {"game": "collision", "set": s.slug},
            "table:set-proxies-pdf": {"game": "collision", "set": s.slug},
            "table:companion": {"pk": self.table_game.pk},
            "table:companion-act": {"pk": self.table_game.pk},
            "table:companion-undo": {"pk": self.table_game.pk},
            "table:companion-shared": {"token": self.table_game.share_token},
        }
        if name.startswith("table:deck-"):
            return {"pk": self.deck.pk}
        if name in table:
            return table[name]
        if name.startswith("decks:") and name not in ("decks:list", "decks:create"):
            return {"pk": self.deck.pk}
        if name.startswith("play:") and name not in (
            "play:list",
            "play:new",
            "play:report-new",
            "play:doctor-new",
        ):
            return {"pk": self.playtest.pk}
        return {}

    def url(self, name):
        return reverse(name, kwargs=self.kwargs(name))


def snapshot() -> str:
    """Return a digest of every row a request could change."""
    models = (
        CollectionEntry,
        ImportPreview,
        ShareLink,
        Deck,
        DeckEntry,
        DeckVersion,
        Playtest,
        DeckReport,
        TableGame,
        DeckDoctor,
        CardSubmission,
        CardChange,
        CardSet,
        Card,
        get_user_model(),
    )
    # Raw rows, every column: through the ORM this took most of the test's time.
    digest = hashlib.sha256()
    with connection.cursor() as cursor:
        for model in models:
            table = connection.ops.quote_name(model._meta.db_table)
            cursor.execute(f"SELECT * FROM {table} ORDER BY 1")
            digest.update(repr((model.__name__, cursor.fetchall())).encode())
    return digest.hexdigest()


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


@pytest.fixture
def scenario(user, deck_for):
    return Scenario(user, deck_for)


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
