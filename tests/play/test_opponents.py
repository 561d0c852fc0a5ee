"""Opponents worth playing: presets, a random deck drawn by the seed, public and own
decks; forced moves played for the player."""

import pytest

from decks.engine import engine_for
from decks.play.adapter import entries_to_engine
from decks.play.models import Playtest
from decks.play.opponents import random_entries
from decks.play.services import load_state, playtest_create, playtest_undo
from decks.presets import preset_decks
from decks.rules import is_legal, validate_deck

pytestmark = pytest.mark.django_db


def _names(deck):
    return sorted(c["name"] for cards in deck.values() for c in cards)


def test_a_game_with_no_opponent_named_faces_the_first_preset_not_a_mirror(
    user, deck_for
):
    deck = deck_for("collision")
    pt = playtest_create(owner=user, deck=deck, opponent="greedy", seed=3)
    first = preset_decks("collision")[0]
    assert pt.seats[1]["name"] == f"{first.name} (preset, {first.style})"
    assert pt.seats[1]["deck"] is None
    assert _names(pt.decks[1]) == _names(first.deck())
    assert _names(pt.decks[1]) != _names(pt.decks[0])


@pytest.mark.parametrize("game", ["collision", "metal-fusion", "bakugan"])
def test_every_preset_can_be_chosen_and_plays_with_the_sites_own_cards(
    user, deck_for, game
):
    deck = deck_for(game)
    for preset in preset_decks(game):
        if preset.official:
            continue  # official sets are not loaded in these tests
        pt = playtest_create(
            owner=user, deck=deck, opponent_decks=[f"preset:{preset.slug}"], seed=1
        )
        assert _names(pt.decks[1]) == _names(preset.deck())
        card_ids = {c["id"] for cards in pt.decks[1].values() for c in cards}
        assert all(isinstance(i, int) for i in card_ids)


def test_the_random_deck_is_legal_and_the_same_seed_draws_the_same_deck(user, deck_for):
    deck = deck_for("collision")
    a = random_entries("collision", 11)
    assert is_legal(validate_deck("collision", a))
    assert entries_to_engine(a) == entries_to_engine(random_entries("collision", 11))
    assert entries_to_engine(a) != entries_to_engine(random_entries("collision", 12))
    pt = playtest_create(owner=user, deck=deck, opponent_decks=["random"], seed=11)
    assert pt.seats[1]["name"] == "Random deck (seed 11)"


def test_a_public_deck_of_someone_else_may_be_the_opponent_a_private_one_not(
    user, other_user, deck_for
):
    deck = deck_for("bakugan")
    public = deck_for("bakugan", variant=1, owner=other_user, is_public=True)
    private = deck_for("bakugan", variant=2, owner=other_user)
    pt = playtest_create(owner=user, deck=deck, opponent_decks=[f"deck:{public.pk}"])
    assert (pt.seats[1]["deck"], pt.seats[1]["name"]) == (public.pk, public.name)
    from decks.play.adapter import PlaytestError

    with pytest.raises(PlaytestError) as error:
        playtest_create(owner=user, deck=deck, opponent_decks=[f"deck:{private.pk}"])
    assert error.value.code == "bad_opponent"
    assert Playtest.objects.count() == 1


def test_the_start_page_offers_presets_a_random_deck_and_decks(
    client, user, other_user, deck_for
):
    deck = deck_for("metal-fusion")
    mine = deck_for("metal-fusion", variant=1, name="My other deck")
    deck_for("metal-fusion", variant=2, owner=other_user, is_public=True, name="Theirs")
    client.force_login(user)
    html = client.get(f"/play/new/?deck={deck.pk}").content.decode()
    for preset in preset_decks("metal-fusion"):
        assert f'value="preset:{preset.slug}"' in html
    assert 'value="random"' in html and 'value="mirror"' in html
    assert f'value="deck:{mine.pk}"' in html
    assert "Theirs (" in html
    assert '<optgroup label="Preset decks">' in html


def test_the_start_form_plays_the_chosen_preset(client, user, deck_for):
    deck = deck_for("bakugan")
    slug = preset_decks("bakugan")[1].slug
    client.force_login(user)
    client.post(
        "/play/new/",
        {"deck": deck.pk, "opponent": "greedy", "opponent_deck": f"preset:{slug}"},
    )
    pt = Playtest.objects.get()
    assert pt.seats[1]["name"].startswith(preset_decks("bakugan")[1].name)


def test_forced_moves_are_played_for_the_player_and_undone_with_the_last_choice(
    user, deck_for
):
    deck = deck_for("bakugan")
    pt = playtest_create(owner=user, deck=deck, seed=4, autoplay=True)
    game = engine_for("bakugan")
    state = load_state(pt)
    # The player is asked only where there is a real choice.
    assert len(game.legal_actions(state)) > 1 or game.is_over(state)
    forced = [s for s in pt.steps if s[0] == 0 and not s[2]]
    assert pt.seats[0]["auto"] is True
    # Play on until a forced move of the player's has been made for them.
    while not forced and not game.is_over(state):
        from decks.play.services import playtest_act

        pt = playtest_act(
            playtest_id=pt.pk,
            user=user,
            action=game.legal_actions(state)[0].text,
            version=pt.version,
        )
        state = load_state(pt)
        forced = [s for s in pt.steps if s[0] == 0 and not s[2]]
    assert forced, "no forced move of the player's came up"
    last_choice = max(i for i, s in enumerate(pt.steps) if s[2])
    pt = playtest_undo(playtest_id=pt.pk, user=user)
    assert len(pt.log) == last_choice


def test_without_autoplay_the_player_clicks_even_a_forced_move(user, deck_for):
    deck = deck_for("metal-fusion")
    pt = playtest_create(owner=user, deck=deck, seed=4)
    state = load_state(pt)
    game = engine_for("metal-fusion")
    assert not game.is_over(state)
    assert len(game.legal_actions(state)) == 1


def test_the_metal_fusion_start_page_says_identical_line_ups_never_end(
    client, user, deck_for
):
    from cards.games import GAMES

    client.force_login(user)
    html = client.get(f"/play/new/?deck={deck_for('metal-fusion').pk}").content.decode()
    assert GAMES["metal-fusion"].mirror_note in html
    other = client.get(f"/play/new/?deck={deck_for('bakugan').pk}").content.decode()
    assert 'id="mirror-note"' not in other


def test_the_collide_o_start_page_sets_up_one_pack_for_two_to_five(
    client, user, deck_for
):
    client.force_login(user)
    html = client.get(f"/play/new/?deck={deck_for('collide-o').pk}").content.decode()
    assert "one pack for the whole table" in html and "(2 to 5)" in html
    assert 'name="opponent_deck"' not in html


@pytest.mark.parametrize(
    "game, value, expected",
    [("collision", "cut", "cut"), ("collision", "1", 1), ("bakugan", "0", 0)],
)
def test_the_start_form_chooses_who_goes_first(
    client, user, deck_for, game, value, expected
):
    deck = deck_for(game)
    client.force_login(user)
    html = client.get(f"/play/new/?deck={deck.pk}").content.decode()
    assert '<select name="first">' in html
    client.post("/play/new/", {"deck": deck.pk, "opponent": "greedy", "first": value})
    pt = Playtest.objects.get()
    assert pt.options["first"] == expected
    state = load_state(pt)
    said = " ".join(state.events)
    if expected == "cut":
        assert "cut" in said.lower()
    else:
        assert f"Player {expected + 1} goes first" in said


def test_a_game_without_a_first_player_option_offers_none(client, user, deck_for):
    client.force_login(user)
    html = client.get(f"/play/new/?deck={deck_for('metal-fusion').pk}").content.decode()
    assert '<select name="first">' not in html
