"""Every URL of the site in its class, and one owner's objects of every kind.

Shared by the isolation matrix (``test_isolation.py``), the hostile inputs and
the pages that must not show another user's rows.
"""

import hashlib

from django.contrib.auth import get_user_model
from django.db import connection
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
from decks.models import Deck, DeckEntry, DeckVersion
from decks.play.doctor import doctor_start
from decks.play.models import DeckDoctor, DeckReport, GameReview, Playtest
from decks.play.reports import deck_report_start
from decks.play.services import playtest_create, playtest_share
from decks.table.companion.models import TableGame
from decks.table.companion.services import table_game_create
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
    "play:now",
    "play:now-game",
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
    "table:index",
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
    "play:review-shared",
    "play:starter-copy",
    "community:submissions",
    "community:suggest-new",
    "community:suggest",
    "community:transcribe",
    "community:transcribe-preview",
    "community:reading-withdraw",
    "community:custom-sets",
    "community:census",
    "community:census-count",
    "decks:official-pack",
    "collection-entry-list",
    "playtest-list",
    "report-list",
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
    "play:report-cancel",
    "play:doctor",
    "play:doctor-cancel",
    "play:doctor-apply",
    "play:hint",
    "play:hint-act",
    "play:hints",
    "play:review-new",
    "play:review",
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
    "report-detail",
    "report-cancel",
    "submission-detail",
    "table:deck-proxies",
    "table:deck-proxies-pdf",
    "table:deck-list",
    "table:companion",
    "table:companion-act",
    "table:companion-undo",
    "table:companion-share",
    "table:companion-delete",
}


MODERATOR = {
    "community:review",
    "community:disputes",
    "community:account",
    "community:account-roll-back",
    "community:submission-accept",
    "community:submission-reject",
    "community:import",
    "community:import-preview",
    "community:census-compare",
    "community:census-settle",
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
            self.review = GameReview.objects.create(
                owner=owner,
                playtest=self.playtest,
                game="collision",
                key=SECRET,
                log=[],
                moves=1,
            )
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
            "decks:official-pack": {},
            "play:help": {"game": "collision"},
            "play:now-game": {"game": "collision"},
            "play:starter-copy": {"game": "collision", "slug": "spin-drain"},
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
            "community:account": {"username": self.owner.get_username()},
            "community:account-roll-back": {"username": self.owner.get_username()},
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
            "play:report-cancel": {"pk": self.report.pk},
            "play:doctor": {"pk": self.doctor.pk},
            "play:doctor-cancel": {"pk": self.doctor.pk},
            "play:doctor-apply": {"pk": self.doctor.pk, "index": 1},
            "play:review": {"pk": self.review.pk},
            "play:review-shared": {"token": self.playtest.share_token},
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
            "report-detail": {"pk": self.report.pk},
            "report-cancel": {"pk": self.report.pk},
            "submission-detail": {"pk": self.submission.pk},
            "community:submission-accept": {"pk": self.submission.pk},
            "community:submission-reject": {"pk": self.submission.pk},
            "community:import-preview": {"token": "no-such-token"},
            "community:census-settle": {"pk": 999999},
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
            "table:companion-share": {"pk": self.table_game.pk},
            "table:companion-delete": {"pk": self.table_game.pk},
            "table:companion-shared": {"token": self.table_game.share_token},
        }
        if name.startswith("table:deck-"):
            return {"pk": self.deck.pk}
        if name in table:
            return table[name]
        if name.startswith("decks:") and name not in ("decks:list", "decks:create"):
            return {"pk": self.deck.pk}
        if name.startswith("play:") and name not in (
            "play:now",
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
