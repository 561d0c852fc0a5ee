"""The engine package is pure Python: besides the standard library it imports
only the pure game registry (``cards.games``) and effect vocabulary
(``cards.effects``), and neither of those imports Django."""

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "decks" / "engine"
ALLOWED = {"cards.games", "cards.effects"}
PROJECT = ("cards", "collection", "decks", "cardsite", "django", "rest_framework")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def test_engine_modules_import_only_the_standard_library_and_the_pure_registry():
    offenders = []
    for path in sorted(ENGINE.rglob("*.py")):
        offenders += [
            f"{path.name}: {name}"
            for name in _imports(path)
            if name.split(".")[0] in PROJECT
            and not any(name == a or name.startswith(a + ".") for a in ALLOWED)
        ]
    assert offenders == []


def test_engine_and_the_pure_modules_it_imports_load_no_django():
    code = (
        "import json, sys\n"
        "import decks.engine\n"
        "from decks.engine import MODULES, engine_for\n"
        "for slug in MODULES: engine_for(slug)\n"
        "import cards.games, cards.effects\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in"
        f" {PROJECT!r})))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin"},
    )
    loaded = json.loads(result.stdout)
    assert [m for m in loaded if m.split(".")[0] in ("django", "rest_framework")] == []
    assert {m.split(".")[0] for m in loaded} <= {"cards", "decks"}
    assert [
        m
        for m in loaded
        if m.startswith("cards.")
        and not any(m == a or m.startswith(a + ".") for a in ALLOWED)
    ] == []


def test_engine_package_lists_all_four_games():
    from decks.engine import MODULES

    assert sorted(MODULES) == ["bakugan", "collide-o", "collision", "metal-fusion"]
