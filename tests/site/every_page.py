"""Every page of the site for a signed-in moderator with objects of every game.

The browser sweep (overflow, accessibility) and the words sweep walk this list.
"""

from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import Group
from django.db import transaction
from django.test import Client
from django.urls import reverse

from cards.community.services import MODERATORS_GROUP
from cards.data import card_data_load, card_data_parse
from cards.games import GAMES
from cards.models import Card, CardSet
from decks.play.services import playtest_create
from tests.site.isolation import Scenario, url_names

FIXTURES = Path(settings.BASE_DIR) / "fixtures"
# Pages that name a game's objects: visited for every game, not only the one the
# isolation scenario builds.
PER_GAME = (
    "cards:game",
    "cards:set",
    "cards:card",
    "decks:game",
    "decks:detail",
    "play:detail",
    "play:help",
    "community:help-wanted",
    "community:help-wanted-set",
    "community:suggest-new",
    "collection:missing",
)


def _load_every_card_file():
    for path in sorted(FIXTURES.glob("*.json")):
        card_data_load(data=card_data_parse(text=path.read_text()), source_label="t")


def _game_urls(owner, deck_for) -> list[str]:
    urls = []
    for slug in GAMES:
        deck = deck_for(slug, name=f"{slug} deck")
        playtest = playtest_create(owner=owner, deck=deck, seed=1)
        with_cards = Card.objects.values("card_set")
        sets = CardSet.objects.filter(
            game__slug=slug, owner=None, pk__in=with_cards
        ).order_by("kind", "sort_order")
        for card_set in (sets.filter(kind="official").first(), sets.last()):
            if card_set is None:
                continue
            card = Card.objects.filter(card_set=card_set).order_by("number").first()
            kwargs = {
                "cards:game": {"game": slug},
                "cards:set": {"game": slug, "set": card_set.slug},
                "cards:card": {"pk": card.pk},
                "decks:game": {"game": slug},
                "decks:detail": {"pk": deck.pk},
                "play:detail": {"pk": playtest.pk},
                "play:help": {"game": slug},
                "community:help-wanted": {"game": slug},
                "community:help-wanted-set": {"game": slug, "set": card_set.slug},
                "community:suggest-new": {"game": slug},
                "collection:missing": {"game": slug, "set": card_set.slug},
            }
            urls += [reverse(name, kwargs=kwargs[name]) for name in PER_GAME]
        urls.append(reverse("play:new") + f"?deck={deck.pk}")
    return urls


def every_page(owner, deck_for) -> tuple[Client, list[str]]:
    """Return (the owner's client, every URL that answers them a whole HTML page)."""
    owner.groups.add(Group.objects.get(name=MODERATORS_GROUP))
    with transaction.atomic():
        scenario = Scenario(owner, deck_for)
    _load_every_card_file()
    urls = [scenario.url(name) for name in url_names() if ":" in name or "-" in name]
    urls += _game_urls(owner, deck_for)
    client = Client()
    client.force_login(owner)
    found = []
    for url in dict.fromkeys(urls):
        response = client.get(url)
        # Whole pages only: htmx partials (the deck finder's results) are checked
        # inside the page that shows them.
        if (
            response.status_code == 200
            and not response.streaming
            and response.content[:15].lower() == b"<!doctype html>"
        ):
            found.append(url)
    return client, found
