"""Each game's knowledge lives in its own modules: nothing else names a game's slug."""

import ast
import re
from pathlib import Path

from cards.games import GAMES

ROOT = Path(__file__).resolve().parents[2]
CODE_DIRS = ("cards", "cardsite", "collection", "decks", "templates", "static", "tools")
ALTERNATIVES = "|".join(re.escape(slug) for slug in GAMES)
URL_RE = re.compile(f"/({ALTERNATIVES})/")
QUOTED_RE = re.compile(f"""["']({ALTERNATIVES})["']|/({ALTERNATIVES})/""")


def per_game_files() -> set[Path]:
    """Return the files that are one game's own: its modules and its templates."""
    files = set()
    for game in GAMES.values():
        for package in ("cards/games", "decks/rules", "decks/engine"):
            files.add(ROOT / package / f"{game.module}.py")
        for template in (
            game.board_template,
            game.help_template,
            game.companion_template,
        ):
            files.add(ROOT / "templates" / template)
        files.update((ROOT / "templates" / "cards" / "games" / game.slug).rglob("*"))
    return files


def python_literals(path: Path) -> list[tuple[int, str]]:
    """Return the string constants of a Python file that are a slug or hold a game URL."""
    tree = ast.parse(path.read_text(), filename=str(path))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and (node.value in GAMES or URL_RE.search(node.value))
    ]


def template_literals(path: Path) -> list[tuple[int, str]]:
    """Return the lines of a template or stylesheet that name a slug in quotes or a URL."""
    found = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if QUOTED_RE.search(line):
            found.append((number, line.strip()[:120]))
    return found


def offenders() -> list[str]:
    own = per_game_files()
    result = []
    for folder in CODE_DIRS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path in own or "migrations" in path.parts or not path.is_file():
                continue
            if path.suffix == ".py":
                hits = python_literals(path)
            elif path.suffix in (".html", ".txt", ".css", ".js"):
                hits = template_literals(path)
            else:
                continue
            rel = path.relative_to(ROOT)
            result += [f"{rel}:{line}: {text!r}" for line, text in hits]
    return result


def test_no_file_outside_a_games_own_modules_names_its_slug():
    assert offenders() == []


def test_the_measure_finds_a_slug_literal(tmp_path):
    code = tmp_path / "x.py"
    code.write_text(
        '"""A docstring naming collision is fine."""\nif g == "bakugan": pass\n'
    )
    page = tmp_path / "x.html"
    page.write_text('<a href="/games/collide-o/">x</a>\n{% if s == "collision" %}')
    assert python_literals(code) == [(2, "bakugan")]
    assert [n for n, _ in template_literals(page)] == [1, 2]


def test_the_palette_is_the_only_place_a_game_colour_is_written():
    """CSS, SVG and the Pillow faces read ``PALETTE``; nobody writes its values again."""
    from cards.games.spec import PALETTE

    spec = ROOT / "cards" / "games" / "spec.py"
    values = {value.lower() for value in PALETTE.values()}
    values |= {"#e8b400"}  # the yellow that once differed
    found = []
    for folder in CODE_DIRS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path == spec or path.suffix not in (".py", ".html", ".css", ".js"):
                continue
            text = path.read_text().lower()
            found += [
                f"{path.relative_to(ROOT)}: {v}"
                for v in sorted(values)
                if re.search(re.escape(v) + r"\b", text)
            ]
    assert found == []
