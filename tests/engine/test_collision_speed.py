"""Collision's fast paths hold to their plain definitions (issue 21, item 4).

``collision.scores_after`` values most moves without making them; these tests
hold it to ``search.scores_after_reference`` (make each move on a copy, then
``score``) at every decision of whole games, for every seat, in the basic and
the advanced game, with two to four players, with short decks (refills that
run a deck out and reshuffle), small spin piles (players going out) and games
near the turn cap, and check that valuing leaves the state as it was.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.engine import collision as game
from decks.engine.bots import make_bot
from decks.engine.core import EngineError, Rng, seed_state
from decks.engine.search import scores_after_reference
from tests.engine.scenarios import (
    COLOURS,
    EDGES,
    blade,
    practice_deck,
)
from tests.engine.scenarios import collision_card as card

# Text that asks for choices at every point of a turn: an Event's discard with
# more text queued behind it and the turn's end after it, a win-symbol discard
# before the sweep, a Character's passive discard at the turn's start.
DISCARD = {"op": "discard", "timing": "play", "target": "opponent"}
CHOOSY = (
    ("event", [DISCARD, {"op": "draw", "timing": "play", "amount": 2}]),
    ("event", [{**DISCARD, "amount": 2}]),
    ("action", [{**DISCARD, "timing": "win"}]),
    ("action", [{"op": "draw", "timing": "play", "amount": 3}, DISCARD]),
    ("character", [{**DISCARD, "timing": "passive", "turn": "your"}]),
    ("event", [{"op": "discard", "timing": "play", "target": "all"}]),
)
# Play-symbol text of every op that ``scores_after`` values without making it,
# at the spin cap, putting players out, discarding small hands, by turn limit.
GAIN = {"op": "gain_spin", "timing": "play"}
LOSE = {"op": "lose_spin", "timing": "play", "target": "opponent"}
TEXTY = (
    ("action", [{**GAIN, "amount": 2}]),
    ("action", [{**LOSE, "amount": 3}]),
    ("action", [{"op": "draw", "timing": "play", "amount": 2, "turn": "your"}]),
    ("action", [{"op": "discard", "timing": "play", "target": "self", "amount": 4}]),
    ("action", [{**LOSE, "turn": "opponent"}]),
    (
        "action",
        [
            {**GAIN, "turn": "your"},
            {"op": "draw", "timing": "play", "turn": "opponent"},
        ],
    ),
    ("action", [{**DISCARD, "amount": 3}]),
    ("action", [{**LOSE, "target": "each_opponent"}]),
    ("action", [{"op": "draw", "timing": "win", "amount": 2}]),
    ("action", [{**GAIN, "timing": "win", "amount": 3, "turn": "opponent"}]),
    ("action", [{**LOSE, "timing": "win", "target": "defender", "amount": 2}]),
    ("action", [{**LOSE, "timing": "win"}, {**GAIN, "timing": "win"}]),
    ("character", [{**LOSE, "timing": "passive", "turn": "opponent"}]),
    ("character", []),
    ("event", [{**GAIN, "turn": "opponent"}]),
)


def deck_of(tag, text, cards, spin, blade_text):
    """Return a practice deck of ``cards`` cards behind a Blade of ``spin``.

    Without ``blade_text`` the Blade has no passive text, so that a turn can
    end with no text in play (the practice Blade draws at every turn).
    """
    deck = practice_deck(tag, text=text)
    effects = deck["blade"][0]["effects"] if blade_text else []
    return {
        "blade": [blade(f"{tag}-blade", spin=spin, effects=effects)],
        "deck": deck["deck"][:cards],
    }


def choosy_deck(tag, short=False):
    """Return a practice deck with ``CHOOSY`` and ``TEXTY`` cards in front.

    Short: the first 16 of those cards alone behind a Blade of spin 3, so
    decks run out and text puts players out.
    """
    specials = [
        card(
            f"{tag}x{i}",
            kind,
            COLOURS[i % 4],
            EDGES[i % len(EDGES)],
            f"{tag} choosy {i}",
            effects=effects,
        )
        for i, (kind, effects) in enumerate((TEXTY + CHOOSY) * 2)
    ]
    deck = practice_deck(tag, text=True, specials=specials)
    if short:
        deck["blade"][0]["spin_strength"] = 3
        deck["deck"] = deck["deck"][:16]
    deck["blade"][0]["effects"] = []
    return deck


def decks_for(players, text, short, blade_text=True):
    if text == "choosy":
        return [choosy_deck(tag, short) for tag in "ABCD"[:players]]
    return [
        deck_of(
            tag,
            text,
            12 + 3 * seat if short else 59,
            2 + seat if short else 6,
            blade_text,
        )
        for seat, tag in enumerate("ABCD"[:players])
    ]


def snapshot(state):
    return (
        json.dumps(game.to_json(state), sort_keys=True),
        list(state.events),
        list(state.log),
    )


def check_every_seat(state, actions):
    """Assert scores_after equals the plain definition for each seat, state unchanged."""
    before = snapshot(state)
    for player in range(game.player_count(state)):
        fast = game.scores_after(state, actions, player)
        assert fast == scores_after_reference(game, state, actions, player)
    assert snapshot(state) == before


SETUPS = [
    pytest.param(players, advanced, text, short, blade_text, id=f"{players}p-{name}")
    for players, advanced, text, short, blade_text, name in (
        (2, False, False, False, False, "basic"),
        (2, False, True, True, True, "basic-short"),
        (3, False, False, True, False, "basic-short"),
        (2, True, True, False, True, "advanced"),
        (2, True, True, True, True, "advanced-short"),
        (3, True, True, False, True, "advanced"),
        (4, True, True, True, True, "advanced-short"),
        (2, True, False, False, False, "advanced-no-text"),
        (2, True, True, False, False, "advanced-quiet-blades"),
        (3, True, True, True, False, "advanced-quiet-blades-short"),
        (2, True, "choosy", False, False, "advanced-choices"),
        (3, True, "choosy", False, False, "advanced-choices"),
        (2, True, "choosy", True, False, "advanced-choices-short"),
        (3, True, "choosy", True, False, "advanced-choices-short"),
        (4, True, "choosy", True, False, "advanced-choices-short"),
    )
]


@pytest.mark.parametrize(("players", "advanced", "text", "short", "blade_text"), SETUPS)
@settings(max_examples=6, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    bots=st.sampled_from(("greedy", "random", "mixed")),
    near_cap=st.booleans(),
)
def test_scores_after_equals_the_plain_definition_at_every_decision(
    players, advanced, text, short, blade_text, seed, bots, near_cap
):
    state = game.new_game(
        decks_for(players, text, short, blade_text), {"advanced": advanced}, seed
    )
    if near_cap:
        state.turn = game.TURN_CAP - 4  # the cap draws the game during the lookahead
    kinds = {"greedy": "greedy", "random": "random"}
    seat_bots = [
        make_bot(kinds.get(bots, ("greedy", "random")[seat % 2]), seed * 7 + seat)
        for seat in range(players)
    ]
    while not game.is_over(state):
        actions = game.legal_actions(state)
        check_every_seat(state, actions)
        action = seat_bots[game.to_act(state)].choose(game, state)
        state = game.apply(state, action, inplace=True)


def test_scores_after_works_without_the_legal_action_cache():
    state = game.new_game(decks_for(2, False, False), {}, 5)
    actions = game.legal_actions(state)
    state.cached = None
    check_every_seat(state, actions)


def test_scores_after_refuses_what_apply_refuses():
    state = game.new_game(decks_for(2, False, False), {}, 3)
    rng = Rng(seed_state(3, 1))
    refused = 0
    for _ in range(40):
        action = game.Action(
            ("play", "stop", "nostop", "discard")[rng.below(4)],
            rng.below(len(state.cards)),
            rng.below(2),
        )
        if action in game.legal_actions(state):
            continue
        with pytest.raises(EngineError) as fast:
            game.scores_after(state, [action], 0)
        with pytest.raises(EngineError) as plain:
            scores_after_reference(game, state, [action], 0)
        assert (fast.value.code, fast.value.message) == (
            plain.value.code,
            plain.value.message,
        )
        refused += 1
    assert refused > 0


def test_scores_after_refuses_a_finished_game_as_apply_does():
    state = game.new_game(decks_for(2, False, False), {}, 3)
    actions = game.legal_actions(state)
    state.phase = "over"
    with pytest.raises(EngineError) as fast:
        game.scores_after(state, actions, 0)
    with pytest.raises(EngineError) as plain:
        scores_after_reference(game, state, actions, 0)
    assert fast.value.code == plain.value.code == "game_over"


def score_as_first_written(s, player):
    """The greedy heuristic as it stood before ``score`` was split into parts."""
    if s.phase == "over":
        if s.winner is None:
            return 0.0
        return 1000.0 if s.winner == player else -1000.0
    if s.out[player]:
        return -500.0
    cards = s.cards
    rivals = [len(s.spin[q]) for q in range(s.n) if q != player and not s.out[q]]
    value = 10.0 * len(s.spin[player]) - 10.0 * (sum(rivals) / len(rivals))
    hand = s.hand[player]
    value += 0.5 * len({cards[uid].colour for uid in hand}) + 0.2 * len(hand)
    value += 1.5 * len(s.characters[player])
    if s.battle == 1:
        if s.attacker == player:
            value += 4.0
        elif s.defender == player:
            value -= 4.0
    return value


@pytest.mark.parametrize(
    ("players", "advanced", "text"),
    [(2, False, False), (3, True, "choosy"), (4, True, True)],
)
def test_score_is_the_heuristic_as_first_written(players, advanced, text):
    for seed in range(4):
        state = game.new_game(
            decks_for(players, text, False, False), {"advanced": advanced}, seed
        )
        bot = make_bot("greedy", seed)
        while True:
            for player in range(players):
                assert game.score(state, player) == score_as_first_written(
                    state, player
                )
            if game.is_over(state):
                break
            state = game.apply(state, bot.choose(game, state), inplace=True)


# --- shortcuts of the turn flow, against the long way -------------------------


def _with_passive_text_looked_for(patch):
    """Plain: every game looks for passive text at each turn's start (``_begin_turn``)."""
    read = game._build
    patch.setattr(game, "_build", lambda decks: (*read(decks)[:3], True))


def _with_every_trim_looked_at(patch):
    """Plain: after every refill the trim looks at each hand (``_advance``)."""
    refill = game._refill
    patch.setattr(game, "_refill", lambda s: refill(s) or True)


PLAIN_FLOWS = {
    "passive text": _with_passive_text_looked_for,
    "trim": _with_every_trim_looked_at,
}
# Set-ups with and without passive text, with hands over five (refill choices).
FLOW_SETUPS = [
    (players, advanced, text, short, blade_text)
    for players, advanced, text, short, blade_text, _ in (
        (2, True, True, False, True, "passive Blades"),
        (2, True, True, False, False, "quiet Blades"),
        (3, True, True, True, False, "quiet Blades, short"),
        (2, True, "choosy", False, False, "choices"),
        (4, True, "choosy", True, False, "choices, short"),
        (2, False, False, False, False, "basic"),
    )
]


def _flow_games(seeds):
    """Play greedy against random over ``FLOW_SETUPS``; return what each game shows."""
    played = []
    for setup in FLOW_SETUPS:
        players, advanced, text, short, blade_text = setup
        decks = decks_for(players, text, short, blade_text)
        for seed in seeds:
            state = game.new_game(decks, {"advanced": advanced}, seed)
            seat_bots = [
                make_bot(("greedy", "random")[seat % 2], seed * 7 + seat)
                for seat in range(players)
            ]
            while not game.is_over(state):
                action = seat_bots[game.to_act(state)].choose(game, state)
                state = game.apply(state, action, inplace=True)
            played.append((state.passive_text, *snapshot(state)))
    return played


@pytest.mark.parametrize("plain", PLAIN_FLOWS)
def test_the_turn_flows_shortcuts_play_the_games_of_the_long_way(plain):
    """Skipping the passive-text look-up and the trim changes no game.

    A game none of whose cards has passive text skips looking for it at
    each turn's start (and ``scores_after`` asks nothing), and a refill that
    left no hand over five skips the trim's look at each hand.
    """
    seeds = range(6)
    fast = _flow_games(seeds)
    with pytest.MonkeyPatch.context() as patch:
        PLAIN_FLOWS[plain](patch)
        slow = _flow_games(seeds)
    assert [shown[1:] for shown in fast] == [shown[1:] for shown in slow]
    assert {shown[0] for shown in fast} == {True, False}  # both kinds were played
    trims = sum("down to five (C12)" in said for shown in fast for said in shown[2])
    assert trims > 0
