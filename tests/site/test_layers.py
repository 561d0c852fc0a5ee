"""The import contracts (.importlinter) hold: the apps and the engine run one way."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
CONTRACTS = (
    "The apps run one way: decks above collection above cards",
    "The engine imports no Django and no app but the pure game registry",
    "The game registry and the effect vocabulary import no Django and no other "
    "part of the site",
    "Inside cards, the model layer imports nothing above it",
)


def _lint(config: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(LINT_IMPORTS), str(config), "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_every_import_contract_is_kept():
    result = _lint(ROOT / ".importlinter")

    assert result.returncode == 0, result.stdout + result.stderr
    report = " ".join(result.stdout.split())  # long names wrap over two lines
    for name in CONTRACTS:
        assert f"{name} KEPT" in report
    assert f"Contracts: {len(CONTRACTS)} kept, 0 broken." in result.stdout


def test_a_broken_contract_fails_the_check(tmp_path):
    # The same runner on a contract the code breaks (cards above decks) must fail,
    # so a kept contract above means something.
    config = tmp_path / "contracts.ini"
    config.write_text(
        "[importlinter]\nroot_packages =\n    cards\n    decks\n\n"
        "[importlinter:contract:upside-down]\nname = Upside down\ntype = layers\n"
        "layers =\n    cards\n    decks\n"
    )

    result = _lint(config)

    assert result.returncode == 1
    assert "Upside down BROKEN" in result.stdout
    assert "decks is not allowed to import cards" in result.stdout
