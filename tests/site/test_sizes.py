"""No module over 1,500 lines and no function over 100 lines outside tests and migrations."""

import ast
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODULE_LINES = 1500
FUNCTION_LINES = 100


def oversized(path: Path) -> list[str]:
    """Return what in ``path`` is over the limits, as "what: lines" strings."""
    text = path.read_text()
    found = []
    if text.count("\n") > MODULE_LINES:
        found.append(f"module: {text.count(chr(10))}")
    for node in ast.walk(ast.parse(text, filename=str(path))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            if length > FUNCTION_LINES:
                found.append(f"{node.name}: {length}")
    return found


def project_modules() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True
    ).stdout.split()
    return [
        ROOT / name
        for name in listed
        if not name.startswith("tests/") and "/migrations/" not in name
    ]


def test_no_module_or_function_outside_tests_is_over_its_limit():
    modules = project_modules()
    assert len(modules) > 100  # the listing found the tree
    found = {
        str(path.relative_to(ROOT)): hits
        for path in modules
        if path.exists() and (hits := oversized(path))
    }
    assert found == {}


def test_the_measure_finds_a_long_function_and_a_long_module(tmp_path):
    body = "\n".join(f"    x = {i}" for i in range(100))
    sample = tmp_path / "long.py"
    sample.write_text(f"def long():\n{body}\n\n\ndef short():\n    pass\n")
    assert oversized(sample) == ["long: 101"]
    sample.write_text("x = 1\n" * 1501)
    assert oversized(sample) == ["module: 1501"]
