"""Every read path shows a reader their own readings, and nobody else.

``PATHS`` names every URL of the site (the test below fails when one is added
without a line here): either how its answer shows the reader's reading of a
card, or why it is not a read of cards for a person. Each path that reads is
opened by the reader, who must see the reading, and by another user and a
visitor, who must not; every other URL that answers a GET is opened by those
two as well, and must not show it either.
"""

from dataclasses import dataclass, field

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from cards.community import readings, transcribe
from cards.models import Card
from decks.play.adapter import PlaytestError
from decks.play.doctor import doctor_figures, doctor_start
from decks.play.models import DeckReport
from decks.play.reports import deck_report_start, run_deck_report
from decks.play.services import playtest_create, playtest_share
from decks.rules import to_lines
from decks.selectors import deck_entries
from decks.services import deck_set_entries
from decks.tools import sample_hand
from tests.community.conftest import make_dragoon
from tests.factories import C, make_card, make_entry, make_set
from tests.site.isolation import url_names
from tests.table.pdf import pages

READ_TITLE = "Dragon Storm"  # a blank card of the deck, read under a new title
OTHER_TITLE = "Storm Crest"  # a blank card read but not owned (the missing list)
READ_EDGE = "LS.E.L"  # Dragoon's edge as read
LABEL = "badge-reading"  # the "your reading" label


@dataclass
class World:
    reader: object
    other: object
    dragoon: Card
    blank: Card
    spare: Card
    deck: object
    entry: object
    playtest: object
    report: object
    reading: object
    action: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Shows:
    """A read path: GET ``kwargs(world)`` (+ ``query``); ``shows`` finds the reading."""

    kwargs: object = None
    query: str = ""
    marker: str = READ_TITLE
    kind: str = "text"  # text, pdf or image
    htmx: bool = False


@dataclass(frozen=True)
class Not:
    """Not a read of cards for a person; ``why`` says what it shows instead."""

    why: str
    kwargs: object = None  # a GET others may open: checked not to show the reading


def deck(w):
    return {"pk": w.deck.pk}


def blank(w):
    return {"pk": w.blank.pk}


OFFICIAL = {"game": "collision", "set": "base-read"}
SERVICES = "a service tested below through its function"
WRITE = "a write (POST only): answers with a redirect or the page it changes"
AUTH = "accounts and sign-in: no cards"
MODERATION = "moderation shows pending readings to moderators, who review them"
STATIC = "no card data"

PATHS = {
    # The catalogue and search.
    "cards:home": Not(STATIC, kwargs=lambda w: {}),
    "cards:search": Shows(lambda w: {}, query="q=dragon"),
    "cards:search_help": Not(STATIC),
    "cards:palette": Not(STATIC),
    "cards:game": Shows(lambda w: {"game": "collision"}, query="q=dragon"),
    "cards:set": Shows(lambda w: OFFICIAL),
    "cards:card": Shows(blank),
    "cards:card-image": Shows(blank, kind="image"),
    "card-list": Shows(lambda w: {}, query="q=dragon"),
    "card-detail": Shows(blank),
    "card-history": Not(
        "the card's reviewed history: stored changes only", kwargs=blank
    ),
    "community:history": Not(
        "the card's reviewed history: stored changes only", kwargs=blank
    ),
    "game-list": Not(STATIC),
    "game-detail": Not(STATIC),
    "cardset-list": Not(STATIC),
    "cardset-detail": Not(STATIC),
    # The collection.
    "collection:home": Shows(lambda w: {}, query="q=dragon"),
    "collection:entries": Shows(lambda w: {}),
    "collection:entry_edit": Shows(lambda w: {"pk": w.entry.pk}),
    "collection:entry_add": Shows(lambda w: {"card_id": w.blank.pk}),
    "collection:entry_delete": Not(WRITE),
    "collection:missing": Shows(lambda w: OFFICIAL, marker=OTHER_TITLE),
    "collection:species_missing": Not("Bakugan figures by species: no readings"),
    "collection:widget_change": Not(WRITE),
    "collection:import": Not("the import form"),
    "collection:import_preview": Not("an import's rows as the file names them"),
    "collection:export": Not(
        "a file to load again: stored names and numbers, which read back for anyone",
        kwargs=lambda w: {},
    ),
    "collection:csv_help": Not(STATIC),
    "collection:sharing": Not("the share settings: no cards"),
    "collection:shared": Not(
        "a collection shown to its visitors: the cards as they are for everyone"
    ),
    "collection-entry-list": Shows(lambda w: {}),
    "collection-entry-detail": Shows(lambda w: {"pk": w.entry.pk}),
    # Decks.
    "decks:list": Not("deck names only", kwargs=lambda w: {}),
    "decks:game": Not("deck names only", kwargs=lambda w: {"game": "collision"}),
    "decks:create": Not("the new deck form"),
    "decks:from-collection": Not(WRITE),
    "decks:detail": Shows(deck),
    "decks:search": Shows(deck, query="q=dragon"),
    "decks:hand": Shows(deck, query="seed={hand_seed}", htmx=True),
    "decks:versions": Shows(deck),
    "decks:version": Shows(lambda w: {"pk": w.deck.pk, "number": 2}),
    "decks:settings": Not("the deck's name and notes", kwargs=deck),
    "decks:export": Not(
        "a list to import again: stored names and numbers, which read back for anyone",
        kwargs=deck,
    ),
    "decks:import": Not("the import form"),
    "decks:add": Not(WRITE),
    "decks:remove": Not(WRITE),
    "decks:slot": Not(WRITE),
    "decks:delete": Not(WRITE),
    "decks:clone": Not(WRITE),
    "decks:wishlist": Not(WRITE),
    "deck-list": Not("deck names only"),
    "deck-detail": Shows(deck),
    # Play.
    "play:new": Shows(lambda w: {}, query="deck={deck}", marker='class="start-form"'),
    "play:detail": Shows(lambda w: {"pk": w.playtest.pk}, marker=LABEL),
    "play:shared": Shows(lambda w: {"token": w.playtest.share_token}, marker=LABEL),
    "play:report": Shows(lambda w: {"pk": w.report.pk}),
    "play:list": Not("the player's games and reports by deck name"),
    "play:help": Not(STATIC),
    "play:now": Not(STATIC, kwargs=lambda w: {}),
    "play:now-game": Not(
        "the starter decks' names and the bots", kwargs=lambda w: {"game": "collision"}
    ),
    "play:starter-copy": Not(WRITE),
    "play:report-new": Not(WRITE),
    "play:report-cancel": Not(WRITE),
    "report-list": Not("the owner's reports: deck names, progress and win rates"),
    "report-detail": Shows(lambda w: {"pk": w.report.pk}),
    "report-cancel": Not(WRITE),
    "play:doctor-new": Not(WRITE),
    "play:doctor": Not(SERVICES + " (doctor_figures names the swaps)"),
    "play:doctor-cancel": Not(WRITE),
    "play:doctor-apply": Not(WRITE + "; doctor_apply is tested below"),
    "play:act": Not(WRITE),
    "play:hint": Not(WRITE + " (the coach's estimates, by move name)"),
    "play:hint-act": Not(WRITE),
    "play:hints": Not(WRITE),
    "play:review-new": Not(WRITE),
    "play:review-shared": Not(WRITE),
    "play:review": Not("the coach's review: moves in the engine's words and chances"),
    "play:undo": Not(WRITE),
    "play:next": Not(WRITE),
    "play:branch": Not(WRITE),
    "play:share": Not(WRITE),
    "playtest-list": Not("the player's games by deck name"),
    "playtest-detail": Shows(lambda w: {"pk": w.playtest.pk}, marker=READ_EDGE),
    "playtest-actions": Not(WRITE),
    "playtest-undo": Not(WRITE),
    "playtest-next-game": Not(WRITE),
    # To the table.
    "table:deck-proxies": Shows(deck),
    "table:deck-proxies-pdf": Shows(deck, kind="pdf"),
    "table:deck-list": Shows(deck, kind="pdf"),
    "table:set-proxies": Shows(lambda w: OFFICIAL),
    "table:set-proxies-pdf": Shows(lambda w: OFFICIAL, kind="pdf", marker=READ_EDGE),
    "table:card-proxies": Shows(lambda w: {}, query="cards={blank}"),
    "table:card-proxies-pdf": Shows(lambda w: {}, query="cards={blank}", kind="pdf"),
    "table:mats": Not(STATIC),
    "table:index": Not(
        "what the table offers: set names and links", kwargs=lambda w: {}
    ),
    "table:mat": Not(STATIC),
    "table:companion-new": Not("the table companion keeps scores, not cards"),
    "table:companion": Not("the table companion keeps scores, not cards"),
    "table:companion-act": Not(WRITE),
    "table:companion-undo": Not(WRITE),
    "table:companion-share": Not(WRITE),
    "table:companion-delete": Not(WRITE),
    "table:companion-shared": Not("the table companion keeps scores, not cards"),
    # Readings, proposals, custom cards.
    "community:transcribe": Shows(blank),
    "community:census": Not("a Collide-O! pack census: section patterns, no reading"),
    "community:census-count": Not(WRITE),
    "community:census-compare": Not(MODERATION.replace("readings", "censuses")),
    "community:census-settle": Not(WRITE),
    "decks:official-pack": Not(WRITE),
    "community:transcribe-preview": Not("draws the values posted, not stored ones"),
    "community:reading-withdraw": Not(WRITE),
    "community:submissions": Shows(lambda w: {}),
    "community:submission": Shows(lambda w: {"pk": w.reading.pk}),
    "submission-list": Shows(lambda w: {}),
    "submission-detail": Shows(lambda w: {"pk": w.reading.pk}),
    "community:suggest": Not(
        "a proposal corrects the stored card, so its form starts from it"
    ),
    "community:suggest-new": Not("a form for a card the site lacks"),
    "community:help-wanted-index": Not(
        "what the site still needs: the values nobody has confirmed",
        kwargs=lambda w: {},
    ),
    "community:help-wanted": Not(
        "what the site still needs: the values nobody has confirmed",
        kwargs=lambda w: {"game": "collision"},
    ),
    "community:help-wanted-set": Not(
        "what the site still needs: the values nobody has confirmed",
        kwargs=lambda w: OFFICIAL,
    ),
    "community:contributor": Not(
        "a collector's reviewed contributions",
        kwargs=lambda w: {"username": w.reader.get_username()},
    ),
    "community": Not(STATIC),
    "community:custom-sets": Not("custom cards change through their owner"),
    "community:custom-set": Not("custom cards change through their owner"),
    "community:custom-card-new": Not("custom cards change through their owner"),
    "community:custom-card-edit": Not("custom cards change through their owner"),
    "community:scan": Not("an uploaded picture"),
    "community:scan-thumb": Not("an uploaded picture"),
    "community:review": Not(MODERATION),
    "community:disputes": Not(MODERATION),
    "community:account": Not(MODERATION),
    "community:account-roll-back": Not(MODERATION),
    "community:submission-accept": Not(MODERATION),
    "community:submission-reject": Not(MODERATION),
    "community:import": Not(MODERATION),
    "community:import-preview": Not(MODERATION),
    "submission-accept": Not(MODERATION),
    "submission-reject": Not(MODERATION),
    # The rest.
    "api-ping": Not(STATIC),
    "api-schema": Not(STATIC),
    "api-docs": Not(STATIC),
    "api-index": Not(STATIC),
    "favicon": Not(STATIC),
    "login": Not(AUTH),
    "logout": Not(AUTH),
    "signup": Not(AUTH),
    "password_change": Not(AUTH),
    "password_change_done": Not(AUTH),
    "password_reset": Not(AUTH),
    "password_reset_done": Not(AUTH),
    "password_reset_confirm": Not(AUTH),
    "password_reset_complete": Not(AUTH),
}


@pytest.fixture
def world(db, user, django_user_model, deck_for, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    other = django_user_model.objects.create_user(
        "bob", "bob@example.com", "correct-horse-battery-2"
    )
    official = make_set(C, slug="base-read", name="Base read", source="test")
    dragoon = make_dragoon(official)
    blank_card = make_card(C, card_set=official, key="1", number=1, source="slot")
    spare = make_card(C, card_set=official, key="2", number=2, source="slot")
    the_deck = deck_for(C, is_public=True)
    # The deck plays Dragoon as its Blade and the blank card for one action.
    entries = list(the_deck.entries.select_related("card"))
    action = next(e for e in entries if e.card.card_type == "action")
    rows = []
    for e in entries:
        card = e.card
        if e.zone == "blade":
            card = dragoon
        elif e.pk == action.pk:
            card = blank_card
        rows.append({"card": card.pk, "quantity": e.quantity, "zone": e.zone})
    copied = {
        "card_type": "action",
        "title": READ_TITLE,
        "colour": action.card.colour,
        "battle_edge": action.card.battle_edge,
        "symbol": action.card.symbol,
    }
    readings.card_reading_save(
        user=user, card=dragoon, fields={"battle_edge": READ_EDGE}
    )
    reading = readings.card_reading_save(user=user, card=blank_card, fields=copied)
    readings.card_reading_save(
        user=user, card=spare, fields={"card_type": "action", "title": OTHER_TITLE}
    )
    the_deck = deck_set_entries(deck=the_deck, entries=rows)
    entry = make_entry(user, blank_card, quantity=1)
    playtest = playtest_share(
        playtest=playtest_create(owner=user, deck=the_deck, opponent="random", seed=3),
        on=True,
    )
    with transaction.atomic():
        report = deck_report_start(owner=user, deck=the_deck, games=6, bot="random")
    run_deck_report.call(report.pk)
    return World(
        reader=user,
        other=other,
        dragoon=dragoon,
        blank=blank_card,
        spare=spare,
        deck=the_deck,
        entry=entry,
        playtest=playtest,
        report=DeckReport.objects.get(pk=report.pk),
        reading=reading,
        action=copied,
    )


def _url(name, path, w) -> str:
    url = reverse(name, kwargs=path.kwargs(w))
    query = getattr(path, "query", "")
    if query:
        url += "?" + query.format(
            deck=w.deck.pk, blank=w.blank.pk, hand_seed=_hand_seed(w)
        )
    return url


def _hand_seed(w) -> int:
    """Return the first seed whose sample hand draws the blank card."""
    lines = to_lines(readings.entries_as_read(w.reader, deck_entries(w.deck)))
    return next(
        seed
        for seed in range(100)
        if any(
            line.card.pk == w.blank.pk for line in sample_hand(C, lines, seed)["cards"]
        )
    )


def _get(client, url, path):
    headers = {"HTTP_HX_REQUEST": "true"} if getattr(path, "htmx", False) else {}
    response = client.get(url, **headers)
    if response.streaming:
        return response, b"".join(response.streaming_content)
    return response, response.content


def _shows(path: Shows, response, body: bytes, w) -> bool:
    if response.status_code != 200:
        return False
    if path.kind == "image":
        card = readings.cards_as_read(w.reader, [Card.objects.get(pk=w.blank.pk)])[0]
        return body == transcribe.face_png(card)
    if path.kind == "pdf":
        text = " ".join(page["text"] for page in pages(body))
        return path.marker in text
    return path.marker.encode() in body


def test_every_url_says_how_it_shows_a_reading_or_why_it_does_not():
    assert sorted(set(url_names()) - set(PATHS)) == []
    assert sorted(set(PATHS) - set(url_names())) == []


def test_every_read_path_shows_the_reader_their_reading_and_nobody_else(world):
    reader, other, visitor = Client(), Client(), Client()
    reader.force_login(world.reader)
    other.force_login(world.other)
    missed, leaked = [], []
    for name, path in sorted(PATHS.items()):
        if path.kwargs is None:
            continue
        url = _url(name, path, world)
        check = path if isinstance(path, Shows) else Shows(marker=READ_TITLE)
        if isinstance(path, Shows):
            response, body = _get(reader, url, path)
            if not _shows(path, response, body, world):
                missed.append((name, response.status_code))
        for who, client in (("another user", other), ("a visitor", visitor)):
            response, body = _get(client, url, path)
            if _shows(check, response, body, world):
                leaked.append((name, who))
            if check.kind == "text" and READ_EDGE.encode() in body:
                leaked.append((name, who, READ_EDGE))
    assert missed == [], missed
    assert leaked == [], leaked


def test_the_deck_doctor_plays_the_owners_reading_and_names_its_swaps(world):
    with transaction.atomic():
        doctor = doctor_start(
            owner=world.reader, deck=world.deck, games=20, bot="random"
        )
    candidates = list(doctor.candidates.select_related("card_out", "card_in"))
    blades = [
        card
        for c in candidates
        for card in c.deck["blade"]
        if card["id"] == world.dragoon.pk
    ]
    assert blades and {card["battle_edge"] for card in blades} == {READ_EDGE}
    out = [c for c in candidates[1:] if c.card_out_id == world.blank.pk]
    assert out
    rows = doctor_figures(doctor, [candidates[0], *out])["top"]
    assert {row["out"]["name"] for row in rows} == {READ_TITLE}
    with pytest.raises(PlaytestError) as refused:
        doctor_start(owner=world.other, deck=world.deck, games=20, bot="random")
    assert refused.value.code in ("not_owner", "blocked")


def test_a_report_plays_the_owners_reading(world):
    blades = world.report.decks[0]["blade"]
    assert [c["battle_edge"] for c in blades] == [READ_EDGE]
    names = {row["name"] for row in world.report.result["per_card"]}
    assert READ_TITLE in names
