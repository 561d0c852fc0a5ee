"""Preset decks: several per game, of different styles, legal, playable by the engine."""

import pytest

from cards.games import GAMES
from decks.engine import engine_for
from decks.engine.simulate import run_games
from decks.presets import preset, preset_decks
from decks.rules import is_legal, validate_deck

SLUGS = sorted(GAMES)


@pytest.mark.parametrize("slug", SLUGS)
def test_every_game_has_several_presets_of_different_styles(slug):
    presets = preset_decks(slug)
    assert len(presets) >= 3
    assert len({p.style for p in presets}) == len(presets)
    assert len({p.slug for p in presets}) == len(presets)
    assert all(p.name and p.description for p in presets)


@pytest.mark.parametrize("slug", SLUGS)
def test_every_preset_is_legal_and_every_card_playable(slug):
    game = engine_for(slug)
    for p in preset_decks(slug):
        players = min(GAMES[slug].seat_counts)
        assert is_legal(validate_deck(slug, p.entries, players=players)), p.name
        for cards in p.deck().values():
            for card in cards:
                assert game.card_problems(card) == [], (p.name, card["label"])


@pytest.mark.parametrize("slug", SLUGS)
def test_presets_play_whole_games_in_the_batch_simulator(slug):
    game = engine_for(slug)
    presets = preset_decks(slug)
    if GAMES[slug].shared_pack:
        decks, options = [presets[0].deck()], {"players": 3}
    else:
        decks, options = [presets[0].deck(), presets[1].deck()], {}
    summary = run_games(game, decks, options, games=3, seed=5)
    assert sum(summary["wins"]) + summary["draws"] == 3


def test_a_deck_is_fresh_each_time_so_seats_share_no_card_dicts():
    first = preset_decks(SLUGS[0])[0]
    a, b = first.deck(), first.deck()
    zone = next(iter(a))
    assert a == b
    assert a[zone][0] is not b[zone][0]


def test_a_preset_is_found_by_its_slug_and_an_unknown_one_refused():
    some = preset_decks(SLUGS[0])[1]
    assert preset(SLUGS[0], some.slug) == some
    with pytest.raises(KeyError):
        preset(SLUGS[0], "no-such-preset")
