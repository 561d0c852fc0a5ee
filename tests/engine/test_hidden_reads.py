"""The measurements that watch each choice: ``strength.hidden_reads`` and ``choice_times``."""

import re
from io import StringIO

from decks.engine import engine_for
from decks.engine.strength import hidden_reads
from decks.presets import preset_decks
from tools.bench import main


def _presets(slug):
    return [p.deck() for p in preset_decks(slug)]


def test_a_game_with_nothing_hidden_but_its_generator_never_changes_greedy():
    found = hidden_reads(engine_for("bakugan"), _presets("bakugan"), {}, 3)
    assert found["choices"] > 10
    assert found["changed"] == 0 and found["rate"] == 0.0


def test_the_counts_add_up_and_replay_for_a_seed():
    game = engine_for("collide-o")
    options = {"players": 3}
    found = hidden_reads(game, _presets("collide-o"), options, 3, seed=5)
    assert 0 <= found["changed"] <= found["choices"]
    assert found["rate"] == round(found["changed"] / found["choices"], 4)
    assert hidden_reads(game, _presets("collide-o"), options, 3, seed=5) == found


def test_bench_bots_prints_the_hidden_reads_of_each_setup():
    out = StringIO()
    main(["bots", "--hidden", "1", "--game", "bakugan"], out=out)
    line = next(x for x in out.getvalue().splitlines() if x.startswith("bakugan"))
    assert "greedy's best moves changed by a new deal" in line
    assert re.search(r"deal\s+0 of \d+ \(0\.0%\)", line), line


def test_choice_times_times_each_real_choice_of_the_bot_measured():
    from decks.engine.bots import make_bot
    from decks.engine.strength import choice_times

    game = engine_for("collision")
    decks = _presets("collision")
    setups = [[decks[0], decks[1]]]
    times = choice_times(game, setups, {}, "random", 2, seed=3)
    expected = 0
    for i in range(2):  # the same games, the measured seat's choices counted
        state = game.new_game(setups[0], {}, 3 + i)
        bots = [
            make_bot("random" if s == i % 2 else "greedy", (3 + i) * 31 + s)
            for s in range(2)
        ]
        while not game.is_over(state):
            seat = game.to_act(state)
            expected += seat == i % 2 and len(game.legal_actions(state)) > 1
            state = game.apply(state, bots[seat].choose(game, state), inplace=True)
    assert expected > 0 and len(times) == expected
    assert all(t >= 0 for t in times)
