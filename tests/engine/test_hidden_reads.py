"""``strength.hidden_reads``: how often the greedy bot's look ahead reads what its seat cannot see."""

from io import StringIO

from django.core.management import call_command

from decks.engine import get_game
from decks.engine.strength import hidden_reads
from decks.presets import preset_decks


def _presets(slug):
    return [p.deck() for p in preset_decks(slug)]


def test_a_game_with_nothing_hidden_but_its_generator_never_changes_greedy():
    found = hidden_reads(get_game("bakugan"), _presets("bakugan"), {}, 3)
    assert found["choices"] > 10
    assert found["changed"] == 0 and found["rate"] == 0.0


def test_the_counts_add_up_and_replay_for_a_seed():
    game = get_game("collide-o")
    options = {"players": 3}
    found = hidden_reads(game, _presets("collide-o"), options, 3, seed=5)
    assert 0 <= found["changed"] <= found["choices"]
    assert found["rate"] == round(found["changed"] / found["choices"], 4)
    assert hidden_reads(game, _presets("collide-o"), options, 3, seed=5) == found


def test_bench_bots_prints_the_hidden_reads_of_each_setup():
    out = StringIO()
    call_command("bench_bots", "--hidden", "1", "--game", "bakugan", stdout=out)
    assert "greedy's best moves changed by a new deal in 0 of" in out.getvalue()
