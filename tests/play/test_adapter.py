"""The one adapter from database decks to engine decks, and who calls it."""

import pytest

from decks.engine import engine_for
from decks.engine.core import EngineError
from decks.play.adapter import deck_entries, engine_decks
from decks.play.models import Playtest
from decks.play.services import PlaytestError, playtest_create
from decks.play.simulation import DeckSpecError, engine_decks_from_specs

pytestmark = pytest.mark.django_db


def blank_cards_deck(user):
    """Return a 61-card Collision deck, legal, whose fifteen Actions lack play data."""
    from cards.models import Card
    from decks.services import deck_create

    blade = Card.objects.filter(card_set__kind="practice", card_type="blade").first()
    unknown = [
        Card.objects.create(
            card_set=blade.card_set,
            key=f"x{i}",
            number=900 + i,
            source="test",
            name=None,
        )
        for i in range(15)
    ]
    entries = [{"card": blade.pk, "quantity": 1, "zone": "blade"}] + [
        {"card": c.pk, "quantity": 4, "zone": "deck"} for c in unknown
    ]
    deck = deck_create(owner=user, game="collision", name="Unknowns", entries=entries)
    return deck, unknown


def test_a_bad_option_is_the_engines_refusal_word_for_word(user, deck_for):
    deck = deck_for("collision")
    decks = engine_decks("collision", [deck, deck], players=2)
    with pytest.raises(EngineError) as engine_refusal:
        engine_for("collision").new_game(decks, {"advanced": "yes"}, 1)
    with pytest.raises(PlaytestError) as refusal:
        playtest_create(owner=user, deck=deck, options={"advanced": "yes"}, seed=1)
    assert refusal.value.code == "bad_options" == engine_refusal.value.code
    assert refusal.value.message == engine_refusal.value.message
    assert Playtest.objects.count() == 0


def test_a_deck_at_two_seats_is_two_equal_copies(deck_for):
    deck = deck_for("metal-fusion")
    first, second = engine_decks("metal-fusion", [deck], players=2, seats=[0, 0])
    assert first == second
    assert first is not second
    assert first["deck"][0] is not second["deck"][0]


def test_engine_decks_hold_one_card_dict_per_copy(deck_for):
    deck = deck_for("collision")
    (built,) = engine_decks("collision", [deck], players=2)
    entries = deck_entries(deck)
    for zone in ("blade", "deck"):
        expected = sorted(
            e.card_id for e in entries if e.zone == zone for _ in range(e.quantity)
        )
        assert sorted(card["id"] for card in built[zone]) == expected


def test_a_shared_pack_is_checked_for_the_players_at_the_table(user, deck_for):
    deck = deck_for("collide-o")
    size = sum(e.quantity for e in deck.entries.all())
    players = (size - 1) // 5 + 1  # one seat more than the pack can deal
    with pytest.raises(PlaytestError) as refusal:
        engine_decks("collide-o", [deck], players=players)
    assert refusal.value.code == "illegal_deck"
    assert refusal.value.message == (
        f"The deck {deck.name!r} is not legal: A Collide-O! pack for {players} "
        f"players needs at least {1 + 5 * players} cards: the centre card and five "
        f"for each player (rules: Set-Up). This pack has {size}."
    )


def test_simulation_refuses_an_illegal_deck_as_the_playtest_does(user, practice):
    from cards.models import Card
    from decks.services import deck_create

    practice("collision")
    blade = Card.objects.filter(card_set__kind="practice", card_type="blade").first()
    deck = deck_create(
        owner=user,
        game="collision",
        name="Just a Blade",
        entries=[{"card": blade.pk, "quantity": 1, "zone": "blade"}],
    )
    with pytest.raises(DeckSpecError) as simulation_refusal:
        engine_decks_from_specs("collision", [str(deck.pk)], players=2)
    with pytest.raises(PlaytestError) as playtest_refusal:
        playtest_create(owner=user, deck=deck)
    assert str(simulation_refusal.value) == playtest_refusal.value.message
    assert str(simulation_refusal.value).startswith(
        "The deck 'Just a Blade' is not legal: A Collision deck needs at least 60 "
    )


def test_simulation_seats_repeat_the_last_deck(practice):
    practice("bakugan")
    decks = engine_decks_from_specs("bakugan", ["sample:0", "sample:1"], players=4)
    assert len(decks) == 4
    assert decks[2] == decks[3] == decks[1] != decks[0]


def test_the_start_page_names_the_cards_that_block_play(client, user, practice):
    practice("collision")
    deck, unknown = blank_cards_deck(user)
    client.force_login(user)
    response = client.get(f"/play/new/?deck={deck.pk}")
    assert response.status_code == 200
    html = response.content.decode()
    for card in unknown:
        assert f'<a href="/cards/{card.pk}/">' in html
