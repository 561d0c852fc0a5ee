"""A fifth game is a day's work: one defined only in this folder works site-wide.

``checks_fifth_game.py`` drives the site for the made-up game in ``game.py``;
it runs in a subprocess with the game registered, so no other test sees it.
"""

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CHECKS = HERE / "checks_fifth_game.py"


def _environment(tmp_path: Path) -> dict[str, str]:
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("PYTEST_", "DJANGO_SETTINGS"))
    }
    env["CARDSITE_EXTRA_GAMES"] = "tests.fifth_game.game"
    # Its own test database, so it never drops the one an xdist worker uses.
    env["SQLITE_TEST_PATH"] = str(tmp_path / "fifth-game.sqlite3")
    env["CARDSITE_TEST_DB_NAME"] = f"test_cardsite_fifth_game_{os.getpid()}"
    return env


def test_the_site_serves_a_game_defined_only_in_this_folder(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "pytest", str(CHECKS), "-p", "no:cacheprovider",
         "-p", "no:xdist", "-p", "no:randomly"],
        cwd=ROOT,
        env=_environment(tmp_path),
        capture_output=True,
        text=True,
        check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    summary = result.stdout.splitlines()[-1]
    assert summary.startswith("9 passed in "), result.stdout[-2000:]


def test_no_file_outside_this_folder_names_the_made_up_game():
    from tests.fifth_game.game import GAME

    words = (GAME.slug, GAME.module, GAME.name, GAME.engine, GAME.rules)
    patterns = [arg for word in words for arg in ("-e", word)]
    found = subprocess.run(
        ["git", "grep", "--untracked", "-I", "-i", "-w", "-l", *patterns, "--", ".",
         ":(exclude)tests/fifth_game"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )  # fmt: skip
    # git grep exits 1 when nothing matches, 2 or more on an error.
    assert (found.returncode, found.stdout) == (1, "")
