"""The engine package is pure Python: it never imports Django."""

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "decks" / "engine"


def test_engine_modules_import_nothing_from_django():
    offenders = []
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            offenders += [
                f"{path.name}: {n}"
                for n in names
                if n.split(".")[0]
                in ("django", "rest_framework", "cards", "collection", "cardsite")
                and not (n == "cards.games" or n.startswith("cards.games."))
            ]
    assert offenders == []


def test_engine_package_lists_all_four_games():
    from decks.engine import MODULES

    assert sorted(MODULES) == ["bakugan", "collide-o", "collision", "metal-fusion"]
