"""Bot levels named for people, and the strength table behind the help pages."""

import json
import re
from argparse import Namespace
from html import unescape

import pytest

from cards.games import GAMES
from decks.engine.bots import BOT_NAMES, LEVEL_NAMES, OFFERED
from decks.engine.strength import SEES_HANDS, measured, wilson_interval
from tools.bench import bots as bench_bots
from tools.bench.bots import setup_name, setups, table_row

CELLS = re.compile(
    r'<th colspan="4" scope="colgroup">(.*?)</th>'
    r"|<tr><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td><td>(\d+)</td></tr>"
)


def _table_rows(html: str) -> list[tuple]:
    """Return the strength table's rows, each with the set-up heading above it."""
    table = html.split('<table class="bot-strength">', 1)[1].split("</table>", 1)[0]
    rows, setup = [], None
    for heading, *cells in CELLS.findall(table):
        if heading:
            setup = unescape(heading)
        else:
            rows.append((setup, *map(unescape, cells)))
    return rows


@pytest.mark.django_db
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_help_page_shows_exactly_the_tables_level_names_and_figures(client, game):
    expected = [
        (
            row["setup"],
            LEVEL_NAMES[row["a"]],
            LEVEL_NAMES[row["b"]],
            f"{row['rate']:.1%} ({row['interval'][0]:.1%}–{row['interval'][1]:.1%})",
            str(row["games"]),
        )
        for row in measured()["rows"]
        if row["game"] == game and row["a"] in OFFERED and row["b"] in OFFERED
    ]
    html = client.get(f"/play/help/{game}/").content.decode()
    assert expected
    assert _table_rows(html) == expected


def test_every_set_up_has_each_level_measured_against_the_weaker_ones():
    pairs = {("greedy", "random"), ("search", "greedy"), ("search", "random")}
    found = {(r["game"], r["setup"], r["a"], r["b"]) for r in measured()["rows"]}
    for slug, options, players in setups():
        name = setup_name(slug, options, players)
        assert {(a, b) for g, s, a, b in found if (g, s) == (slug, name)} >= pairs


def test_every_set_up_measures_the_search_bot_against_its_sees_the_hands_ceiling():
    measured_setups = {
        (r["game"], r["setup"]) for r in measured()["rows"] if r["a"] == SEES_HANDS
    }
    assert measured_setups == {
        (slug, setup_name(slug, options, players))
        for slug, options, players in setups()
    }


def test_every_row_names_a_command_that_replays_it_and_an_interval_around_its_rate():
    for row in measured()["rows"]:
        assert row["command"].startswith(
            f"python -m tools.bench bots --game {row['game']}"
        )
        assert (
            f"--pairing {row['pairing']} --games {row['games']} --seed {row['seed']}"
            in row["command"]
        )
        assert row["interval"][0] <= row["rate"] <= row["interval"][1]


def test_the_offered_levels_are_beginner_casual_and_strong_and_every_bot_has_a_level():
    assert [LEVEL_NAMES[name] for name in OFFERED] == ["Beginner", "Casual", "Strong"]
    assert set(LEVEL_NAMES) == set(BOT_NAMES)


def test_the_set_up_names_say_the_players_and_the_options_switched_on():
    assert setup_name("collision", {}, 2) == "2 players"
    assert (
        setup_name("collision", {"advanced": True}, 2)
        == "2 players, Advanced game (card text on)"
    )
    assert setup_name("collide-o", {"players": 3}, 3) == "3 players"


def test_writing_replaces_the_row_of_the_same_match_and_keeps_the_others(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(bench_bots, "TABLE", tmp_path / "strength.json")
    args = Namespace(search="search", seed=3)

    def match(a, b, wins):
        interval = [round(x, 4) for x in wilson_interval(wins, 4)]
        return {"a": a, "b": b, "games": 4, "wins": wins, "draws": 0,
                "rate": wins / 4, "interval": interval}  # fmt: skip

    basic = table_row(
        "collision", {}, 2, "search-greedy", match("search", "greedy", 1), args
    )
    greedy = table_row(
        "collision", {}, 2, "greedy-random", match("greedy", "random", 4), args
    )
    bench_bots.write_table([basic, greedy])
    again = table_row(
        "collision", {}, 2, "search-greedy", match("search", "greedy", 3), args
    )
    bench_bots.write_table([again])
    rows = json.loads((tmp_path / "strength.json").read_text())["rows"]
    assert rows == [greedy, again]
    assert again["command"] == (
        "python -m tools.bench bots --game collision --pairing search-greedy"
        " --games 4 --seed 3"
    )
