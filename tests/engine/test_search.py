"""The search bot: it never reads what its seat cannot see, replays exactly, and
always returns a legal action, in every game (preset decks, no database)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.games import GAMES
from decks.engine import engine_for
from decks.engine.bots import BOT_NAMES, make_bot, play_out
from decks.engine.core import CHANCE, Rng, replay, resolve_chance, seed_state
from decks.engine.search import SearchBot, outcome_shares
from decks.presets import preset_decks

SLUGS = sorted(GAMES)


def _setup(slug: str, seed: int, players: int = 2):
    """Return (game, decks, options) for a game of presets picked by ``seed``."""
    game = engine_for(slug)
    presets = preset_decks(slug)
    pick = random.Random(seed)
    if GAMES[slug].shared_pack:
        return game, [pick.choice(presets).deck()], {"players": players}
    return game, [pick.choice(presets).deck() for _ in range(players)], {}


def _shuffled_unseen(slug: str, state, seat: int, seed: int, hands: bool = True):
    """Return a copy of ``state`` with what ``seat`` cannot see shuffled at random.

    Written here from the rules of each game, apart from the engines'
    ``determinize``: hands of the other seats, deck orders, face-down spin,
    stacks and set-aside cards; the game's generator gets a new state. With
    ``hands`` false the other seats' hands stay as they are.
    """
    from decks.engine.core import copy_state

    s = copy_state(state)
    shuffle = random.Random(seed)

    def deal(zones):
        pool = [card for zone in zones for card in zone]
        shuffle.shuffle(pool)
        for zone in zones:
            size = len(zone)
            zone[:], pool = pool[:size], pool[size:]

    if slug == "collision":
        for p in range(s.n):
            deal([s.deck[p], s.spin[p]] + ([s.hand[p]] if p != seat and hands else []))
        if s.choice is not None and s.choice[0] == "pick":
            kind, chooser, subject, amount, hidden, uid = s.choice
            hidden = list(s.hand[subject])
            shuffle.shuffle(hidden)
            s.choice = (kind, chooser, subject, amount, tuple(hidden), uid)
        s.rng = Rng(shuffle.getrandbits(64))
        s.cached = None
    elif slug == "metal-fusion":
        for p in range(s.players):
            deal([s.deck[p]] + ([s.hand[p]] if p != seat and hands else []))
        s.rng = shuffle.getrandbits(64)
    elif slug == "collide-o":
        others = [s.hands[p] for p in range(s.players) if p != seat and hands]
        deal([*others, *s.stacks, s.set_aside])
        s.rng = shuffle.getrandbits(64)
        s.choices = None
    elif slug == "bakugan":
        s.rng = shuffle.getrandbits(64)
    else:  # a new game: say what it hides before it is tested
        raise AssertionError(f"No hidden-card shuffle written for {slug}.")
    return s


def _walk(game, state, steps: int, seed: int):
    """Play ``steps`` random moves (or until a choice of two or more is up)."""
    rng = Rng(seed_state(seed, 5))
    bot = make_bot("random", seed)
    for _ in range(steps):
        if game.is_over(state):
            break
        if game.to_act(state) == CHANCE:
            action = resolve_chance(game, state, rng)
        else:
            action = bot.choose(game, state)
        state = game.apply(state, action, inplace=True)
    while not game.is_over(state) and (
        game.to_act(state) == CHANCE or len(game.legal_actions(state)) < 2
    ):
        if game.to_act(state) == CHANCE:
            action = resolve_chance(game, state, rng)
        else:
            action = game.legal_actions(state)[0]
        state = game.apply(state, action, inplace=True)
    return state


@pytest.mark.parametrize("slug", SLUGS)
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 2**31),
    steps=st.integers(0, 60),
    other=st.integers(0, 2**31),
)
def test_shuffling_what_the_bot_cannot_see_does_not_change_its_choice(
    slug, seed, steps, other
):
    counts = [n for n in GAMES[slug].seat_counts if n <= 4]
    players = counts[seed % len(counts)]
    game, decks, options = _setup(slug, seed, players)
    state = _walk(game, game.new_game(decks, options, seed), steps, seed)
    if game.is_over(state):
        return
    seat = game.to_act(state)
    shuffled = _shuffled_unseen(slug, state, seat, other)
    # The shuffle touched nothing the seat may see ...
    assert game.view(shuffled, seat) == game.view(state, seat)
    # ... and the bot, with its own seed fixed, chooses the same.
    first = SearchBot(seed, "fast").choose(game, state)
    second = SearchBot(seed, "fast").choose(game, shuffled)
    assert first.text == second.text


def _play(slug: str, seed: int, bots: tuple[str, ...]):
    game, decks, options = _setup(slug, seed, players=len(bots))
    state = game.new_game(decks, options, seed)
    seat_bots = [make_bot(kind, seed * 31 + s) for s, kind in enumerate(bots)]
    chance = Rng(seed_state(seed, 7))
    log = []
    while not game.is_over(state):
        seat = game.to_act(state)
        if seat == CHANCE:
            action = resolve_chance(game, state, chance)
        else:
            legal = [a.text for a in game.legal_actions(state)]
            action = seat_bots[seat].choose(game, state)
            assert action.text in legal
        state = game.apply(state, action, inplace=True)
        log.append(action.text)
    return game, decks, options, state, log


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("seed", [3, 11])
def test_the_search_bot_always_returns_a_legal_action_and_replays_exactly(slug, seed):
    game, decks, options, state, log = _play(slug, seed, ("search:fast", "greedy"))
    again = _play(slug, seed, ("search:fast", "greedy"))
    assert again[4] == log
    assert game.to_json(replay(game, decks, options, seed, log)) == game.to_json(state)


def test_every_bot_name_makes_a_bot_and_unknown_names_are_refused():
    assert {make_bot(name, 1).name for name in BOT_NAMES} == set(BOT_NAMES)
    for bad in ("search:", "search:huge", "Search", "minimax"):
        with pytest.raises(ValueError):
            make_bot(bad, 1)


def test_a_search_game_plays_to_the_end_through_play_out():
    game, decks, options = _setup(SLUGS[0], 5)
    state = game.new_game(decks, options, 5)
    bots = [make_bot("search:fast", 1), make_bot("random", 2)]
    assert game.is_over(play_out(game, state, bots, Rng(3)))


def _finished(slug: str, players: int, found, tries: int = 400):
    """Return the first random-bot game of presets (seed 0, 1, ...) ``found`` accepts."""
    for seed in range(tries):
        game, decks, options = _setup(slug, seed, players)
        state = game.new_game(decks, options, seed)
        bots = [make_bot("random", seed * 31 + s) for s in range(players)]
        state = play_out(game, state, bots, Rng(seed_state(seed, 7)))
        if found(game, state):
            return game, state
    raise AssertionError("No such game among the seeds tried.")


def test_seats_tied_for_the_win_share_it_and_a_draw_is_shared_by_all():
    shared = next(slug for slug in SLUGS if GAMES[slug].shared_pack)
    game, state = _finished(shared, 3, lambda g, s: len(g.winners(s)) == 2)
    tied = game.winners(state)
    assert outcome_shares(game, state, 3) == [
        0.5 if seat in tied else 0.0 for seat in range(3)
    ]
    game, state = _finished(
        shared, 3, lambda g, s: g.is_over(s) and not g.winners(s), tries=2000
    )
    assert outcome_shares(game, state, 3) == [1 / 3] * 3


def test_a_won_game_gives_the_winner_the_whole_share():
    game, state = _finished(SLUGS[0], 2, lambda g, s: g.winner(s) is not None)
    winner = game.winner(state)
    assert outcome_shares(game, state, 2) == [float(s == winner) for s in range(2)]


def test_the_bakugan_score_counts_an_undecided_battle_for_the_battler_ahead():
    from decks.engine import bakugan as bk
    from decks.engine.core import copy_state

    seen = 0
    for seed in range(40):
        game, decks, options = _setup("bakugan", seed)
        state = game.new_game(decks, options, seed)
        bots = [make_bot("random", seed * 31 + s) for s in range(2)]
        chance = Rng(seed_state(seed, 7))
        while not game.is_over(state):
            battle = state.battle
            if battle is not None and not battle.decided:
                power, lower = bk._powers(state, battle)
                if power[0] != power[1] and not lower:
                    ahead = (
                        battle.attacker if power[0] > power[1] else battle.defender
                    ) // 3
                    without = copy_state(state)
                    without.battle = None
                    for seat, sign in ((ahead, 1), (1 - ahead, -1)):
                        gained = bk.score(state, seat) - bk.score(without, seat)
                        assert gained == pytest.approx(sign * bk.PROSPECT_BATTLE)
                    seen += 1
            seat = game.to_act(state)
            if seat == CHANCE:
                action = resolve_chance(game, state, chance)
            else:
                action = bots[seat].choose(game, state)
            state = game.apply(state, action, inplace=True)
    assert seen > 20


@pytest.mark.parametrize("slug", SLUGS)
def test_the_first_playout_tries_the_greedy_choice_of_its_own_world(slug):
    from decks.engine.search import Settings, determinized, greedy_choice

    game, decks, options = _setup(slug, 7)
    state = _walk(game, game.new_game(decks, options, 7), 9, 7)
    me = game.to_act(state)
    rng = Rng(seed_state(21, 303))  # what SearchBot(21) starts from
    world = determinized(game, state, me, rng)
    expected = greedy_choice(game, world, game.legal_actions(world), rng).text
    bot = SearchBot(21, settings=Settings(playouts=1))
    assert bot.visit_counts(game, state) == {expected: 1}


def test_collide_o_hand_prospects_equal_their_plain_reading():
    shared = next(slug for slug in SLUGS if GAMES[slug].shared_pack)
    game = engine_for(shared)
    checked = 0
    for seed in range(6):
        _, decks, options = _setup(shared, seed, 3)
        state = game.new_game(decks, options, seed)
        bots = [make_bot("greedy", seed * 31 + s) for s in range(3)]
        while not game.is_over(state):
            for seat in range(3):
                hand = state.hands[seat]
                left, right = state.left_fit[1], state.right_fit[1]
                fitting = sum(1 for card in hand if card in left or card in right)
                plain = (
                    game.PROSPECT_FIT * fitting
                    + game.PROSPECT_COLOURS
                    * sum(m.bit_count() for c in hand for m in state.read[c][0])
                    - game.PROSPECT_OPEN
                    * (len(left | right) - fitting)
                    / len(state.read)
                    if hand
                    else 0.0
                )
                assert game._hand_prospects(state, seat) == pytest.approx(plain)
                checked += 1
            action = bots[game.to_act(state)].choose(game, state)
            state = game.apply(state, action, inplace=True)
    assert checked > 300


class _CountedDeals:
    """A game module whose ``determinize`` counts its calls (the rest is the game's)."""

    def __init__(self, game):
        self._game = game
        self.deals = 0

    def __getattr__(self, name):
        return getattr(self._game, name)

    def determinize(self, state, player, rng):
        self.deals += 1
        return self._game.determinize(state, player, rng)


@pytest.mark.parametrize("slug", ["collision", "metal-fusion", "collide-o"])
def test_the_playouts_cycle_through_the_worlds_dealt_for_the_choice(slug):
    from decks.engine.search import Settings

    for seed in range(11, 100):  # a game with a choice left in it
        game, decks, options = _setup(slug, seed)
        state = _walk(game, game.new_game(decks, options, seed), 3, seed)
        if not game.is_over(state):
            break
    counted = _CountedDeals(game)
    visits = SearchBot(3, settings=Settings(playouts=40, worlds=8)).visit_counts(
        counted, state
    )
    assert counted.deals == 8
    assert sum(visits.values()) == 40
    # With a world per playout, as many worlds are dealt as there are playouts.
    counted.deals = 0
    SearchBot(3, settings=Settings(playouts=40, worlds=40)).visit_counts(counted, state)
    assert counted.deals == 40


@pytest.mark.parametrize(
    "device, name",
    [("SEES_ALL", "search (sees all)"), ("SEES_HANDS", "search (sees hands)")],
)
def test_the_measuring_bots_are_no_bots_a_player_can_pick(device, name):
    from decks.engine import strength

    measured = getattr(strength, device)
    assert measured not in BOT_NAMES
    with pytest.raises(ValueError):
        make_bot(measured, 1)
    bot = strength._bot(measured, 1)
    assert bot.name == name
    assert (bot.sees_all, bot.sees_hands) == (
        device == "SEES_ALL",
        device == "SEES_HANDS",
    )


def test_the_sees_all_bot_reads_what_the_honest_one_cannot():
    """Shuffling the hidden cards changes the sees-all bot's counts, never the honest one's."""
    game = engine_for("collision")
    moved = 0
    for seed in range(8):
        _, decks, options = _setup("collision", seed)
        state = _walk(game, game.new_game(decks, options, seed), 6, seed)
        seat = game.to_act(state)
        shuffled = _shuffled_unseen("collision", state, seat, seed + 100)
        honest = [
            SearchBot(seed, "fast").visit_counts(game, s) for s in (state, shuffled)
        ]
        assert honest[0] == honest[1]
        seeing = [
            SearchBot(seed, "fast", sees_all=True).visit_counts(game, s)
            for s in (state, shuffled)
        ]
        moved += seeing[0] != seeing[1]
    assert moved >= 4


@pytest.mark.parametrize("slug", ["collision", "collide-o", "metal-fusion"])
def test_the_sees_hands_bot_reads_the_others_hands_and_nothing_else(slug):
    """Shuffling the deck orders leaves its counts as they were; dealing the hands anew moves them."""
    game = engine_for(slug)
    moved = tried = 0
    for seed in range(40):
        _, decks, options = _setup(slug, seed)
        state = _walk(game, game.new_game(decks, options, seed), 6, seed)
        if game.is_over(state):
            continue
        tried += 1
        seat = game.to_act(state)

        def counts(s, seed=seed):
            return SearchBot(seed, "fast", sees_hands=True).visit_counts(game, s)

        seen = counts(state)
        decks_only = _shuffled_unseen(slug, state, seat, seed + 100, hands=False)
        assert counts(decks_only) == seen
        moved += counts(_shuffled_unseen(slug, state, seat, seed + 100)) != seen
        if tried == 8:
            break
    assert tried == 8 and moved >= 4


def test_bench_bots_measures_the_ceilings_only_when_asked():
    from io import StringIO

    from tools.bench import main

    asked, default = StringIO(), StringIO()
    common = ("--game", "metal-fusion", "--games", "2")
    main(
        [
            "bots",
            *("--pairing", "sees-all-greedy", "--pairing", "sees-hands-greedy"),
            *common,
        ],
        out=asked,
    )
    main(["bots", *common], out=default)
    assert "search:sees-all vs greedy" in asked.getvalue()
    assert "search:sees-hands vs greedy" in asked.getvalue()
    assert "sees-" not in default.getvalue()
    assert "search vs greedy" in default.getvalue()


def test_inside_the_tree_the_other_seats_make_the_greedy_move():
    """Bakugan hides nothing but its generator: where the bot's move leads straight
    to the other seat's choice, the tree holds only moves the greedy bot rates best
    there; weighed by UCB1 instead (``opponents="search"``) it tries others too."""
    from decks.engine.search import Settings, scores_after_reference

    game = engine_for("bakugan")
    checked = tried_others = 0
    for seed in range(40):
        _, decks, options = _setup("bakugan", seed)
        state = _walk(game, game.new_game(decks, options, seed), seed % 30, seed)
        if game.is_over(state):
            continue
        me = game.to_act(state)
        trees = {
            kind: SearchBot(seed, settings=Settings(48, opponents=kind)).tree(
                game, state
            )
            for kind in ("greedy", "search")
        }
        for action in game.legal_actions(state):
            after = game.apply(state, action)
            if game.is_over(after) or game.to_act(after) in (CHANCE, me):
                continue
            legal = game.legal_actions(after)
            if len(legal) < 2:
                continue
            values = scores_after_reference(game, after, legal, game.to_act(after))
            best = {
                a.text for a, v in zip(legal, values, strict=True) if v == max(values)
            }
            modelled = trees["greedy"].get(action.text)
            if modelled is not None and modelled.children:
                checked += 1
                assert set(modelled.children) <= best
            searched = trees["search"].get(action.text)
            if searched is not None:
                tried_others += bool(set(searched.children) - best)
    assert checked >= 3 and tried_others >= 1
