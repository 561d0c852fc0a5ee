"""The site at work for a game it was never edited for (run by ``test_fifth_game``).

Collected only with CARDSITE_EXTRA_GAMES=tests.fifth_game.game set, in its own
process: the rest of the suite never sees a fifth game.
"""

from pathlib import Path

import pytest
from django.core.management import call_command

from cards.data import card_data_load, card_data_parse
from cards.models import Card, GameRecord
from decks.models import Deck
from decks.play.models import Playtest
from decks.samples import sample_deck

SLUG = "tally-ho"
PRACTICE = Path(__file__).with_name("practice-tally-ho.json")
CHECKLIST = f"/games/{SLUG}/sets/practice-{SLUG}/"


@pytest.fixture
def cards(db):
    """Load the made-up game's practice set; return its cards by number."""
    GameRecord.objects.ensure_all()
    card_data_load(data=card_data_parse(text=PRACTICE.read_text()), source_label="t")
    return {c.number: c for c in Card.objects.filter(card_set__game__slug=SLUG)}


def test_the_game_page_and_the_checklist_list_its_cards(client, cards):
    assert client.get(f"/games/{SLUG}/").status_code == 200
    response = client.get(CHECKLIST)
    assert response.status_code == 200
    html = response.content.decode()
    assert all(card.name in html for card in cards.values())


def test_a_card_page_shows_its_printed_fields_and_its_face_draws(client, cards):
    card = cards[1]  # Ace Tally: red, tally 6
    response = client.get(f"/cards/{card.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<th scope="row">Tally</th><td>6' in html
    assert '<th scope="row">Colour</th><td>Red' in html
    face = client.get(f"/cards/{card.pk}/image.png")
    assert (face.status_code, face["Content-Type"]) == (200, "image/png")
    assert (
        b"".join(face.streaming_content if face.streaming else [face.content])[:8]
        == b"\x89PNG\r\n\x1a\n"
    )


def test_search_finds_a_card_by_name_and_by_its_field_key(client, cards):
    by_name = client.get("/api/cards/", {"q": "Kestrel"}).json()["results"]
    assert [c["name"] for c in by_name] == ["Kestrel Tally"]
    # The tallies of 9 are card 7 only (tally = 1 + 5n mod 9).
    by_key = client.get("/api/cards/", {"q": f"game:{SLUG} gpower>=9"}).json()
    assert [c["name"] for c in by_key["results"]] == ["Gale Tally"]
    # The search page leaves practice cards out unless asked for them.
    query = {"q": f"game:{SLUG} colour:blue", "kind": ["official", "practice"]}
    html = client.get("/search/", query).content.decode()
    assert html.count('class="card-row') == 6
    assert "Bramble Tally" in html and "Ace Tally" not in html
    # The key stats column falls back to the game's declared page fields.
    assert '<span class="key-stat" title="Tally">2</span>' in html


def test_the_api_lists_the_games_cards_with_their_fields(client, cards):
    body = client.get("/api/cards/", {"game": SLUG, "page_size": 50}).json()
    assert body["count"] == 12
    ace = client.get(f"/api/cards/{cards[1].pk}/").json()
    assert (ace["name"], ace["colour"], ace["g_power"], ace["card_type"]) == (
        "Ace Tally",
        "red",
        6,
        "tally",
    )


def test_the_deck_builder_applies_the_games_rules(client, user, cards):
    client.force_login(user)
    response = client.post("/decks/new/", {"game": SLUG, "name": "Tallies"})
    assert response.status_code == 302
    deck = Deck.objects.get(owner=user)
    add = f"/decks/{deck.pk}/add/"
    client.post(add, {"card": cards[1].pk, "zone": "deck", "quantity": 3})
    html = client.get(f"/decks/{deck.pk}/").content.decode()
    assert "Not legal yet" in html
    assert "A Tally Ho deck has exactly 10 cards. This deck has 3." in html
    assert "Ace Tally: at most 2 copies of a card; this deck has 3." in html
    remove = {"card": cards[1].pk, "zone": "deck", "quantity": 2}
    client.post(f"/decks/{deck.pk}/remove/", remove)
    for number in range(2, 11):
        client.post(add, {"card": cards[number].pk, "zone": "deck", "quantity": 1})
    deck.refresh_from_db()
    assert sum(e.quantity for e in deck.entries.all()) == 10
    html = client.get(f"/decks/{deck.pk}/").content.decode()
    assert "Legal deck" in html


@pytest.fixture
def deck(user, cards):
    return sample_deck(owner=user, game_slug=SLUG, variant=0)


def test_a_playtest_against_the_random_bot_plays_to_the_end(client, user, deck):
    client.force_login(user)
    response = client.post(
        "/play/new/", {"deck": deck.pk, "opponent": "random", "players": 2, "seed": 5}
    )
    pt = Playtest.objects.get()
    assert response["Location"] == f"/play/{pt.pk}/"
    board = client.get(f"/play/{pt.pk}/").content.decode()
    assert 'class="table-parts"' in board  # the generic board
    assert "Points" in board
    body = client.get(f"/api/playtests/{pt.pk}/").json()
    while not body["over"]:
        response = client.post(
            f"/api/playtests/{pt.pk}/actions/",
            {"action": body["legal_actions"][0]["id"], "version": body["version"]},
            content_type="application/json",
        )
        assert response.status_code == 200, response.content
        body = response.json()
    # Ten cards each, one a trick: ten tricks, twenty plays in the log.
    assert len(body["log"]) == 20
    assert client.get(f"/play/{pt.pk}/").status_code == 200
    assert client.get(f"/play/help/{SLUG}/").status_code == 200


def test_the_transcribe_page_asks_for_the_games_printed_fields(client, user, cards):
    client.force_login(user)
    response = client.get(f"/community/cards/{cards[1].pk}/transcribe/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="g_power"' in html and 'name="colour"' in html
    # The card type is offered as the game's own kinds, not column choices.
    assert 'value="tally"' in html


def test_registering_the_game_needs_no_migration(db):
    # --check exits non-zero when the models (choices built from the registry
    # among them) differ from the migrations.
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


def test_the_engine_hides_the_other_hand_and_replays_from_its_seed():
    from decks.engine import engine_for
    from decks.engine.core import replay

    engine = engine_for(SLUG)
    # Tallies 1 to 9 and a 1 against ten 9s: the 9 ties, every other trick is lost.
    decks = [
        {"deck": [{"id": i, "name": f"C{i}", "g_power": 1 + i % 9} for i in range(10)]},
        {"deck": [{"id": 100 + i, "name": "Nine", "g_power": 9} for i in range(10)]},
    ]
    state = engine.new_game(decks, {}, seed=3)
    seats = engine.view(state, 0).seats
    assert (len(seats[0]["hand"]), seats[1]["hand"]) == (3, 3)
    log = []
    while not engine.is_over(state):
        action = engine.legal_actions(state)[-1]
        log.append(action.text)
        state = engine.apply(state, action)
    assert len(log) == 20
    assert (state.points, engine.winner(state)) == ([0, 9], 1)
    again = replay(engine, decks, {}, 3, log)
    assert engine.to_json(again) == engine.to_json(state)
