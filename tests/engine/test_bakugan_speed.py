"""Bakugan's speed work holds to the play recorded before it (issue 21, item 4).

``digests`` plays whole games and hashes each one (its log, saved form and event
text): random games driven by the plain draws of one generator per game, and
greedy games played by the greedy bot (so the greedy lookahead, ``scores_after``
where the engine has it, must choose exactly as before). Chance steps are
resolved with the game's own ``resolve_chance``. The golden file was recorded
with the engine as it was before the speed work.

The decks: the contract's decks (``test_contract.CASES``), the practice sample
decks the benchmark plays (``bakugan-speed-decks.json``, as the playtest adapter
builds them), and decks of official gate and ability cards with their encoded
effects (``fixtures/bakugan.json``), so the effect families are played too.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

import pytest

from decks.engine import bakugan as bk
from decks.engine.bots import make_bot
from decks.engine.core import CHANCE, EngineError, Rng, resolve_chance, seed_state
from tests.engine.scenarios import ALL_ACTIONS, CASES, FIGURES, figure

GOLDEN = Path(__file__).parent / "golden"
DIGESTS = GOLDEN / "bakugan-speed-digests.json"
SAMPLE_DECKS = GOLDEN / "bakugan-speed-decks.json"
FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "bakugan.json"
RANDOM_GAMES = 40
GREEDY_GAMES = 8


@cache
def _official() -> tuple[list, list]:
    """Return the official gates (every bonus printed) and abilities with effects."""
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    cards = [c for s in data["sets"] for c in s["cards"] if c.get("effects")]
    gates = [
        c
        for c in cards
        if c["card_type"] == "gate"
        and all(c[f"bonus_{a}"] is not None for a in bk.ATTRIBUTES)
    ]
    abilities = [c for c in cards if c["card_type"] == "ability"]
    return gates, abilities


def effect_decks(players: int) -> list[dict]:
    """Return one deck per seat of official effect cards, a different pick per seat."""
    gates, abilities = _official()
    decks = []
    for seat in range(players):
        base = seat * 100
        decks.append(
            {
                "bakugan": [
                    figure(*f, ident=base + i) for i, f in enumerate(FIGURES[seat])
                ],
                "gate": [
                    {**gates[(seat * 29 + k * 11) % len(gates)], "id": base + 10 + k}
                    for k in range(3)
                ],
                "ability": [
                    {
                        **abilities[(seat * 23 + k * 13) % len(abilities)],
                        "id": base + 20 + k,
                    }
                    for k in range(3)
                ],
            }
        )
    return decks


def deck_sets() -> dict:
    """Return {name: (players, decks)} for every deck set the digests play."""
    samples = json.loads(SAMPLE_DECKS.read_text(encoding="utf-8"))
    sets = {}
    for players in (2, 4):
        sets[f"contract {players}"] = (players, CASES["bakugan"].decks(players, 0))
        sets[f"sample {players}"] = (players, samples[str(players)])
        sets[f"effects {players}"] = (players, effect_decks(players))
    return sets


def _play(state, choose, chance):
    while not bk.is_over(state):
        if bk.to_act(state) == CHANCE:
            action = resolve_chance(bk, state, chance)
        else:
            action = choose(state)
        state = bk.apply(state, action, inplace=True)
    return state


def digests() -> dict:
    """Return the digest of each deck set's random and greedy games per seed."""
    found = {}
    for name, (players, decks) in deck_sets().items():
        options = {"players": players}
        for seed in (11, 12):
            for bots, games in (("random", RANDOM_GAMES), ("greedy", GREEDY_GAMES)):
                digest = hashlib.sha256()
                for i in range(games):
                    state = bk.new_game(decks, options, seed + i)
                    chance = Rng(seed_state(seed + i, 7))
                    if bots == "random":
                        rng = Rng(seed_state(seed + i, 5))
                        choose = lambda s, rng=rng: rng.choice_reference(  # noqa: E731
                            bk.legal_actions(s)
                        )
                    else:
                        seats = [
                            make_bot("greedy", seed * 31 + p) for p in range(players)
                        ]
                        choose = lambda s, seats=seats: seats[  # noqa: E731
                            bk.to_act(s)
                        ].choose(bk, s)
                    state = _play(state, choose, chance)
                    played = [state.log, bk.to_json(state), state.events]
                    digest.update(json.dumps(played, sort_keys=True).encode())
                found[f"{name} {bots} {seed}"] = digest.hexdigest()
    return found


def test_bakugan_games_play_as_recorded_before_the_speed_work():
    assert digests() == json.loads(DIGESTS.read_text(encoding="utf-8"))


if __name__ == "__main__":  # record: python -m tests.engine.test_bakugan_speed
    DIGESTS.write_text(json.dumps(digests(), indent=1, sort_keys=True) + "\n")


# --- the fast paths against their plain references ---------------------------


def _positions(players: int, seed: int, games: int = 2):
    """Yield the positions of random games (chance resolved by the odds) of each deck set."""
    for name, (seats, decks) in deck_sets().items():
        if seats != players:
            continue
        for i in range(games):
            state = bk.new_game(decks, {"players": players}, seed + i)
            rng, chance = Rng(seed_state(seed + i, 5)), Rng(seed_state(seed + i, 7))
            while not bk.is_over(state):
                yield name, state
                if bk.to_act(state) == CHANCE:
                    action = resolve_chance(bk, state, chance)
                else:
                    action = rng.choice(bk.legal_actions(state))
                state = bk.apply(state, action, inplace=True)
            yield name, state


def _outcome(move, state, action):
    """Return what ``move`` makes of ``action``: the saved form and event text, or the refusal."""
    try:
        after = move(state, action)
    except EngineError as error:
        return ("refused", error.code, error.message)
    return (json.dumps(bk.to_json(after), sort_keys=True), after.events)


@pytest.mark.parametrize("players", (2, 4))
def test_apply_does_exactly_what_apply_reference_does(players):
    """Every legal action and a sample of others: the same state, events or refusal."""
    junk = Rng(99)
    for _name, state in _positions(players, 31, 2 if players == 2 else 1):
        before = json.dumps(bk.to_json(state), sort_keys=True)
        actions = bk.legal_actions(state) if not bk.is_over(state) else []
        actions += [junk.choice(ALL_ACTIONS) for _ in range(3)]
        actions.append(bk.Action("pass", junk.below(players)))
        for action in actions:
            assert _outcome(bk.apply, state, action) == _outcome(
                bk.apply_reference, state, action
            )
        assert json.dumps(bk.to_json(state), sort_keys=True) == before


@pytest.mark.parametrize("players", (2, 4))
def test_prospects_equal_the_reference_and_scores_after_the_plain_lookahead(players):
    from decks.engine.search import scores_after_reference

    for _name, state in _positions(players, 57):
        for seat in range(players):
            assert bk._prospects(state, seat) == bk._prospects_reference(state, seat)
        if bk.is_over(state) or bk.to_act(state) == CHANCE:
            continue
        actions = bk.legal_actions(state)
        before = json.dumps(bk.to_json(state), sort_keys=True), list(state.events)
        for seat in range(players):
            assert bk.scores_after(state, actions, seat) == scores_after_reference(
                bk, state, actions, seat
            )
        assert (json.dumps(bk.to_json(state), sort_keys=True), state.events) == before


@pytest.mark.parametrize("players", (2, 4))
def test_the_remembered_roll_outcomes_equal_the_plain_list(players):
    for _name, state in _positions(players, 83):
        assert bk.chance_outcomes(state) == bk._chance_outcomes_reference(state)
    state = bk.new_game(CASES["bakugan"].decks(2, 0), {"land_probability": 0.25}, 3)
    state.phase, state.field_gates = "roll", [0, 3]
    assert bk.chance_outcomes(state) == [
        (bk.MISS, 0.75),
        (bk.Action("land", -1, 0), 0.125),
        (bk.Action("land", -1, 3), 0.125),
    ]


def test_scores_after_a_finished_game_refuses_as_the_plain_lookahead_does():
    from decks.engine.search import scores_after_reference

    *_, (_name, over) = _positions(2, 5, 1)
    assert bk.is_over(over)
    refusals = []
    for scores in (bk.scores_after, lambda *a: scores_after_reference(bk, *a)):
        with pytest.raises(EngineError) as error:
            scores(over, [bk.Action("pass", 0)], 0)
        refusals.append((error.value.code, error.value.message))
    assert refusals[0] == refusals[1] == ("game_over", "The game is over.")


@pytest.mark.parametrize("players", (2, 4))
def test_the_written_gate_names_and_window_orders_equal_the_plain_ones(players):
    for _name, (seats, decks) in deck_sets().items():
        if seats != players:
            continue
        state = bk.new_game(decks, {"players": players}, 1)
        for code in range(3 * players):
            for card in (-1, 0, 1, 2):  # -1: a place not filled yet
                state.gate_card[code] = card
                assert bk._gname(state, code) == bk._gname_reference(state, code)
        for turn in range(players):
            state.turn_player = turn
            assert bk._WINDOW_ORDERS[players][turn] == bk._window_order(state)


def test_prospects_of_a_state_no_game_reaches_fall_back_to_the_reference():
    state = bk.new_game(CASES["bakugan"].decks(2, 0), {"first": 0}, 3)
    for _ in range(2):
        state = bk.apply(state, bk.Action("place", state.queue[0], 0))
    state.used[0] = [0]  # Bakugan 1 both ready to roll and used: never in play
    for player in (0, 1):
        assert bk._prospects(state, player) == bk._prospects_reference(state, player)


# --- forced moves in one call (bots.play_out's play_forced hook) --------------


def _seen(state) -> tuple:
    return json.dumps(bk.to_json(state), sort_keys=True), list(state.events), state.log


@pytest.mark.parametrize("players", (2, 4))
def test_play_forced_equals_the_plain_forced_moves_at_every_state(players):
    """At every state of random games, ``play_forced`` plays what the reference does."""
    from decks.engine.bots import play_forced_reference

    checked = 0
    for _name, state in _positions(players, 61):
        fast, plain = bk.copy_state(state), bk.copy_state(state)
        made = bk.play_forced(fast)
        assert made == play_forced_reference(bk, plain)
        assert _seen(fast) == _seen(plain)
        checked += sum(made)
    assert checked > 0


def test_play_forced_plays_a_table_game_roll_as_the_reference():
    """With ``table`` the rolling player enters the outcome: never forced while gates lie."""
    from decks.engine.bots import play_forced_reference

    options = {"players": 2, "table": True}
    for seed in (3, 4):
        state = bk.new_game(CASES["bakugan"].decks(2, 0), options, seed)
        rng = Rng(seed_state(seed, 5))
        while not bk.is_over(state):
            fast, plain = bk.copy_state(state), bk.copy_state(state)
            assert bk.play_forced(fast) == play_forced_reference(bk, plain)
            assert _seen(fast) == _seen(plain)
            state = bk.apply(state, rng.choice(bk.legal_actions(state)), inplace=True)
        assert bk.play_forced(state) == [0, 0]


@pytest.mark.parametrize("players", (2, 4))
@pytest.mark.parametrize("kinds", (("random",), ("greedy", "random")))
def test_bakugan_play_out_plays_the_games_of_the_plain_loop(players, kinds):
    """Whole games through ``play_out`` and ``play_out_reference``: log, saved form,
    events and every bot's generator the same."""
    from decks.engine.bots import play_out, play_out_reference

    for name, (seats, decks) in deck_sets().items():
        if seats != players:
            continue
        for seed in (7, 8):
            played = []
            for loop in (play_out, play_out_reference):
                state = bk.new_game(decks, {"players": players}, seed)
                bots = [
                    make_bot(kinds[min(s, len(kinds) - 1)], seed * 31 + s)
                    for s in range(players)
                ]
                state = loop(bk, state, bots, Rng(seed_state(seed, 7)))
                played.append((_seen(state), [bot.rng.state for bot in bots]))
            assert played[0] == played[1], name
