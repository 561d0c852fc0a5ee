"""The engine contract, checked for every game by one harness.

Random playouts over many seeds check at every step: cards are conserved (each
game's own count), every legal action parses from its text and applies, a
refused action leaves the state unchanged, the JSON round trip and the replay
of the log equal the state (the replay with its event text, which the saved
form leaves out), the marked copy equals a deep copy, and each seat's view is the typed envelope and
names nothing that seat cannot see. Determinism holds with the global
``random`` disturbed. The per-game files keep the scripted rulings.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import fields, is_dataclass

import pytest

from decks.engine import engine_for
from decks.engine.bots import make_bot
from decks.engine.core import (
    CHANCE,
    EngineError,
    Rng,
    View,
    copy_state,
    plain,
    replay,
    resolve_chance,
    saved_names,
    seed_state,
)
from tests.engine.scenarios import (
    CASES,
    SETUPS,
)

# --- collision -------------------------------------------------------------------


# --- metal fusion ----------------------------------------------------------------


# --- collide-o! ------------------------------------------------------------------


# --- bakugan ---------------------------------------------------------------------


def pairs(data) -> set:
    """Return every (key, value) of the dicts nested in ``data``."""
    found = set()
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, (int, str)):
                found.add((key, value))
            found |= pairs(value)
    elif isinstance(data, list):
        for item in data:
            found |= pairs(item)
    return found


# What ``typed`` does with a value, by the value's type: the same for every value
# of a type, so decided once (isinstance and is_dataclass were half the time of
# a Bakugan playout's checks).
_LEAF, _SEQUENCE, _RNG, _RECORD, _CLASS = range(5)
_KINDS: dict[type, int] = {}


def _kind(cls: type) -> int:
    if issubclass(cls, (list, tuple)):
        kind = _SEQUENCE
    elif issubclass(cls, Rng):
        kind = _RNG
    elif issubclass(cls, type):
        kind = _CLASS
    elif is_dataclass(cls):
        kind = _RECORD
    else:
        kind = _LEAF
    _KINDS[cls] = kind
    return kind


def typed(value):
    """Return ``value`` with each list, tuple, Rng and record named by its type."""
    cls = type(value)
    kind = _KINDS.get(cls)
    if kind is None:
        kind = _kind(cls)
    if kind == _LEAF:
        return value
    if kind == _SEQUENCE:
        return (cls.__name__, [typed(item) for item in value])
    if kind == _RNG:
        return ("Rng", value.state)
    if kind == _RECORD:
        return (cls.__name__, typed([getattr(value, n) for n in saved_names(cls)]))
    if is_dataclass(value):  # a record's class, which no saved state holds
        raise TypeError(f"a record class in the state: {value!r}")
    return value


def check_view(game, state, seat, secrets):
    """Check the envelope of one seat's view and that it hides what it must."""
    view = game.view(state, seat)
    assert isinstance(view, View)
    acting = None if game.is_over(state) else game.to_act(state)
    assert (view.game, view.you, view.over) == (game.SLUG, seat, game.is_over(state))
    assert (view.winner, view.to_act) == (game.winner(state), acting)
    assert view.legal_actions == (
        [a.text for a in game.legal_actions(state)] if acting == seat else []
    )
    assert view.turn == game.length(state)
    assert len(view.seats) == game.player_count(state)
    assert all(isinstance(line, str) for line in view.events)
    assert set(view.board).isdisjoint(
        {"game", "you", "to_act", "legal_actions", "over", "winner", "seats"}
    )
    data = view.to_json()
    assert json.loads(json.dumps(data)) == data
    shown = pairs(view.seats) | pairs({k: v for k, v in view.board.items()})
    assert shown & secrets == set()


def check_step(game, case, state, replica, rng, viewed):
    """Check every contract invariant of ``state``, leaving it unchanged."""
    case.conserved(state)
    data = game.to_json(state)
    over = game.is_over(state)
    if over or len(state.log) % 10 == 0:
        # Through text now and then: the saved form is JSON, not just dicts.
        assert json.loads(json.dumps(data)) == data
    loaded = game.from_json(data)
    assert game.to_json(loaded) == data
    for name in saved_names(type(state)):  # lists, tuples and Rngs as they were
        assert typed(getattr(loaded, name)) == typed(getattr(state, name)), name
    assert game.to_json(replica) == data
    if viewed or game.is_over(state):
        for seat in range(game.player_count(state)):
            check_view(game, state, seat, case.secrets(state, seat))
    if game.is_over(state):
        assert game.legal_actions(state) == []
        return
    legal = game.legal_actions(state)
    assert legal and len(set(legal)) == len(legal)
    assert game.legal_actions(state) == legal  # deterministic
    for action in legal:
        assert game.parse_action(action.text) == action
        game.apply(state, action)
    for action in case.refused(state, rng):
        if action not in legal:
            with pytest.raises(EngineError):
                game.apply(state, action)
    assert game.to_json(state) == data


def playout(game, case, decks, options, seed, viewed):
    """Play one random game, checking the contract after every action."""
    state = game.new_game(decks, options, seed)
    replica = game.new_game(decks, options, seed)
    bots = [make_bot("random", seed * 10 + s) for s in range(5)]
    rng, chance = Rng(seed_state(seed, 99)), Rng(seed_state(seed, 9))
    check_step(game, case, state, replica, rng, viewed)
    while not game.is_over(state):
        seat = game.to_act(state)
        if seat == CHANCE:
            action = resolve_chance(game, state, chance)
        else:
            action = bots[seat].choose(game, state)
        state = game.apply(state, action, inplace=True)
        replica = game.apply(replica, game.parse_action(state.log[-1]), inplace=True)
        check_step(game, case, state, replica, rng, viewed)
    final = replay(game, decks, options, seed, state.log)
    assert game.to_json(final) == game.to_json(state)
    # The event text is left out of the saved form: the replay gives it back.
    assert "events" not in game.to_json(state)
    assert final.events == state.events != []
    return state


@pytest.mark.parametrize(("slug", "players", "options"), SETUPS)
def test_random_playouts_keep_the_contract_at_every_step(slug, players, options):
    case, game = CASES[slug], engine_for(slug)
    for seed in range(case.seeds):
        decks = case.decks(players, seed)
        state = playout(game, case, decks, options, seed, seed < case.viewed)
        assert game.is_over(state)
        assert game.length(state) <= game.TURN_CAP


@pytest.mark.parametrize("slug", CASES)
def test_the_same_seed_plays_the_same_game_with_the_global_random_disturbed(slug):
    case, game = CASES[slug], engine_for(slug)
    players, options = case.setups[-1]
    results = []
    for disturbance in (1, 2):
        random.seed(disturbance)
        random.random()
        state = game.new_game(case.decks(players, 3), options, 3)
        bots = [make_bot("greedy" if s % 2 else "random", 3 + s) for s in range(5)]
        chance = Rng(seed_state(3, 9))
        while not game.is_over(state):
            seat = game.to_act(state)
            action = (
                resolve_chance(game, state, chance)
                if seat == CHANCE
                else bots[seat].choose(game, state)
            )
            state = game.apply(state, action, inplace=True)
        results.append(game.to_json(state))
    assert results[0] == results[1]
    assert len(results[0]["log"]) > 5


@pytest.mark.parametrize("slug", CASES)
def test_a_saved_game_of_another_kind_or_version_is_refused(slug):
    game = engine_for(slug)
    case = CASES[slug]
    players, options = case.setups[0]
    data = game.to_json(game.new_game(case.decks(players, 0), options, 0))
    for stamp, message in (
        ({"game": "chess"}, f"This is not a saved {game.GAME.short_name} game."),
        ({"schema": 99}, "Unknown saved-game schema 99."),
        (
            {"version": "0.0"},
            f"This saved game was made by engine version '0.0'; this is "
            f"{game.VERSION}.",
        ),
    ):
        with pytest.raises(EngineError) as refused:
            game.from_json({**data, **stamp})
        assert (refused.value.code, refused.value.message) == ("bad_state", message)


@pytest.mark.parametrize("slug", CASES)
def test_unknown_options_are_refused_naming_the_option(slug):
    game = engine_for(slug)
    case = CASES[slug]
    players, options = case.setups[0]
    with pytest.raises(EngineError) as refused:
        game.new_game(case.decks(players, 0), {**options, "colour": "red"}, 0)
    assert (refused.value.code, refused.value.message) == (
        "bad_options",
        f"{game.GAME.short_name} has no option 'colour'.",
    )


@pytest.mark.parametrize("slug", CASES)
def test_name_slug_and_seat_counts_come_from_the_registry(slug):
    from cards.games import GAMES

    game = engine_for(slug)
    assert (game.SLUG, game.NAME) == (slug, GAMES[slug].name)
    assert (game.MIN_PLAYERS, game.MAX_PLAYERS) == (
        GAMES[slug].min_players,
        GAMES[slug].max_players,
    )


def containers(value, found: dict) -> dict:
    """Return ``found`` with every list, dict, Rng and record in ``value``, by id."""
    if isinstance(value, (list, dict, Rng)) or is_dataclass(value):
        found[id(value)] = value
    items = value.values() if isinstance(value, dict) else value
    if isinstance(value, (list, tuple, dict)):
        for item in items:
            containers(item, found)
    elif is_dataclass(value):
        for f in fields(value):
            containers(getattr(value, f.name), found)
    return found


def check_copy(state):
    """Check ``copy_state`` field by field against a deep copy of ``state``."""
    kept = [getattr(state, f.name) for f in fields(state) if is_shared(f)]
    # The shared tables kept out of the deep copy too: they are the slow part.
    copied = copy_state(state)
    deep = copy.deepcopy(state, {id(value): value for value in kept})
    for f in fields(state):
        shape, name = f.metadata.get("shape", "shared"), f.name
        mine = getattr(copied, name)
        if shape == "fresh":
            assert mine == f.default, name
            continue
        if is_shared(f):
            assert mine is getattr(state, name), name
            continue
        assert plain({name: mine}) == plain({name: getattr(deep, name)}), name
        if shape in ("shared", "frozen"):  # unmarked: immutable values only
            assert containers(mine, {}) == {}, name
        else:
            shared = containers(mine, {}).keys() & containers(getattr(state, name), {})
            assert shared == set(), name
    return copied, deep


def is_shared(f) -> bool:
    """Return whether copies share the field's value: read-only tables, by design."""
    unmarked = f.metadata.get("shape", "shared") == "shared"
    return unmarked and (f.metadata.get("derived") or f.name in ("options", "decks"))


@pytest.mark.parametrize("slug", CASES)
def test_the_marked_copy_equals_a_deep_copy_and_shares_nothing_it_may_change(slug):
    case, game = CASES[slug], engine_for(slug)
    for seed, (players, options) in enumerate(case.setups):
        state = game.new_game(case.decks(players, seed), options, seed)
        bots = [make_bot("random", seed * 10 + s) for s in range(5)]
        chance = Rng(seed_state(seed, 9))
        while not game.is_over(state):
            copied, deep = check_copy(state)
            before = game.to_json(state)
            seat = game.to_act(state)
            if seat == CHANCE:
                action = resolve_chance(game, state, chance)
            else:
                action = bots[seat].choose(game, state)
            # Played on, the copy stays the deep copy's twin; the original is left.
            game.apply(copied, action, inplace=True)
            game.apply(deep, action, inplace=True)
            assert game.to_json(copied) == game.to_json(deep)
            assert game.to_json(state) == before
            state = game.apply(state, action, inplace=True)
