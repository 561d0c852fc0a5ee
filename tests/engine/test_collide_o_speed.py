"""Collide-O!'s fast paths hold to their plain definitions (issue 21, item 4).

``scores_after`` (the greedy bot's lookahead) reads most scores from the state
before the action (``_scores_read``) and plays the rest out; it must give
exactly the scores of ``search.scores_after_reference`` (a copy per action,
``apply``, ``score``) and leave the state as it was.
"""

from __future__ import annotations

import json

import pytest

from decks.engine import collide_o as co
from decks.engine.bots import make_bot
from decks.engine.core import copy_state
from decks.engine.search import scores_after_reference
from tests.engine.scenarios import made_up_pack


def _positions(players, challenges, seed, pack_size=90, bots=("greedy", "random")):
    """Yield every decision of a game (state, its legal actions), then play on."""
    pack = made_up_pack(pack_size, seed)
    options = {"players": players, "challenges": challenges}
    state = co.new_game([{"pack": pack}], options, seed)
    seat_bots = [make_bot(bots[s % len(bots)], seed * 31 + s) for s in range(players)]
    while not co.is_over(state):
        actions = co.legal_actions(state)
        yield state, actions
        state = co.apply(state, seat_bots[state.seat].choose(co, state), inplace=True)


def _saved(state) -> str:
    return json.dumps(co.to_json(state), sort_keys=True)


@pytest.mark.parametrize("players", [2, 3, 5])
@pytest.mark.parametrize("challenges", [False, True])
@pytest.mark.parametrize("pack", ["full", "small"])
def test_scores_after_equals_the_plain_definition_for_every_seat(
    players, challenges, pack
):
    # A small pack (a few cards over the minimum) reaches the lone card, the
    # set-aside pile and the end of the game within a few rounds.
    pack_size = 90 if pack == "full" else co.pack_minimum(players) + 4
    # With challenges every score is played out (the reference twice): fewer games.
    seeds = (2 if challenges else 4) if pack == "full" else 12
    checked = 0
    for seed in range(seeds):
        for state, actions in _positions(players, challenges, seed, pack_size):
            before = _saved(state)
            for player in range(players):
                expected = scores_after_reference(co, state, actions, player)
                assert co.scores_after(state, actions, player) == expected
            assert _saved(state) == before
            checked += 1
    assert checked > 40


def test_scores_after_reads_most_scores_without_playing_the_actions_out():
    read = asked = 0
    for players in (2, 3, 5):
        for seed in range(3):
            for state, actions in _positions(players, False, seed):
                values = co._scores_read(state, actions, state.seat)
                asked += len(actions)
                read += 0 if values is None else sum(v is not None for v in values)
    assert read / asked > 0.9


def test_a_play_after_which_nobody_can_play_is_read_after_the_line_is_cleared():
    cleared = 0
    for players in (2, 3):
        for seed in range(6):
            for state, actions in _positions(players, False, seed):
                values = co._scores_read(state, actions, state.seat)
                for index, action in enumerate(actions):
                    after = co.apply(state, action)
                    new = after.events[len(state.events) :]
                    if values is None or not any(
                        e.startswith("Nobody can play: ") for e in new
                    ):
                        continue
                    if any(e.startswith("Nobody can play on the lone") for e in new):
                        assert values[index] is None  # O8: played out instead
                        continue
                    if values[index] is not None:  # None: a win may follow (O5)
                        assert values[index] == co.score(after, state.seat)
                        cleared += 1
    assert cleared > 20


def test_scores_after_plays_out_an_action_not_taken_from_legal_actions():
    state, actions = next(
        (state, actions)
        for state, actions in _positions(2, False, 3)
        if len(state.line) > 2 and len(actions) > 1
    )
    assert None not in co._scores_read(state, actions, state.seat)
    made = co.parse_action(actions[0].text)  # equal to a legal action, not the same
    assert co._scores_read(state, [made], state.seat) is None
    assert co.scores_after(state, [made], state.seat) == scores_after_reference(
        co, state, [made], state.seat
    )
    foreign = co.Play(state.hands[1][0], 0)  # the other seat's card
    assert co._scores_read(state, [foreign], state.seat) is None
    with pytest.raises(co.EngineError) as refused:
        co.scores_after(state, [foreign], state.seat)
    assert refused.value.code == "not_your_turn"


def _whole(state) -> tuple:
    """Return everything a state holds that play can change, derived parts too."""
    return (
        _saved(state),
        list(state.events),
        [action.text for action in state.choices or ()],
        state.ends,
        state.left_fit,
        state.right_fit,
        state.dirty,
    )


@pytest.mark.parametrize("players", [2, 3, 5])
@pytest.mark.parametrize("pack", ["full", "small"])
def test_the_short_way_of_apply_equals_the_whole_way_for_every_legal_action(
    players, pack
):
    pack_size = 90 if pack == "full" else co.pack_minimum(players) + 4
    checked = 0
    for seed in range(3 if pack == "full" else 12):
        for state, actions in _positions(players, False, seed, pack_size):
            assert state.plain
            for action in actions:
                short = co._apply_plain(copy_state(state), action)
                whole = co.apply_reference(state, action)
                assert _whole(short) == _whole(whole)
                checked += 1
    assert checked > 300


def test_apply_takes_the_short_way_only_without_challenges():
    for challenges in (False, True):
        state, _ = next(_positions(3, challenges, 1))
        assert state.plain is not challenges
        loaded = co.from_json(json.loads(json.dumps(co.to_json(state))))
        assert loaded.plain is not challenges
