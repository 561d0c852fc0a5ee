"""Each game's knowledge lives in its own modules: nothing else names a game's slug,
imports a game's module by name or branches on a game under a neutral name."""

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
            files.update((ROOT / package / game.module).rglob("*.py"))
        for template in (
            game.board_template[0],
            game.help_template[0],
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


# Games' behaviour once chosen by neutral names (a card face, a deck tool, the table
# companion's way of counting): a comparison with one of them is a per-game branch
# under another name. "cards", "sections" and "colours" are left out: they are also
# shared words (a board row of cards, a mat place, the colour bars).
NEUTRAL_NAMES = {
    "battle_edge", "stat_rows", "bonus_grid",  # Game.face
    "odds", "power", "gate_table", "coverage",  # Game.deck_tools
    "spin", "gates",  # the companion's Keeper.kind
}  # fmt: skip
SUBJECTS = {"kind", "face", "deck_tools", "keeper"}
NEUTRAL_RE = re.compile(
    r"\b(?:{})\s*(?:==|!=|in)\s*[\"'](?:{})[\"']".format(
        "|".join(SUBJECTS), "|".join(sorted(NEUTRAL_NAMES))
    )
)
# The registry lists its entries. A file named for a game (convert_bakugan_csv.py)
# is that game's tool, and so is Bakugan's effect count.
REGISTRY = ROOT / "cards" / "games" / "__init__.py"
OWN_TOOLS = {
    ROOT / "cards" / "management" / "commands" / "effect_coverage.py": "bakugan"
}


def game_modules(game) -> tuple[str, ...]:
    """Return the dotted names of a game's own modules: entry, rules, engine."""
    return (f"cards.games.{game.module}", game.rules_path, game.engine_path)


def owners(path: Path) -> set[str]:
    """Return the slugs of the games a file belongs to (none for a shared file)."""
    if path == REGISTRY:
        return set(GAMES)
    found = {OWN_TOOLS[path]} if path in OWN_TOOLS else set()
    own = path in per_game_files()
    for slug, game in GAMES.items():
        named = {game.module, slug} & ({path.stem} | set(path.parts))
        tool = re.search(f"(^|_){game.module}(_|$)", path.stem) is not None
        package = ROOT / "decks" / "engine" / game.module
        if (own and named) or tool or package in path.parents:
            found.add(slug)
    return found


def _imported(node: ast.AST, package: str) -> list[str]:
    """Return the dotted modules an import statement names (relative ones resolved)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = node.module or ""
    if node.level:
        parts = package.split(".")[: len(package.split(".")) - node.level + 1]
        base = ".".join([*parts, base] if base else parts)
    return [base, *(f"{base}.{alias.name}" for alias in node.names)]


def python_offences(path: Path, package: str, own=frozenset()) -> list[tuple[int, str]]:
    """Return a Python file's per-game imports and per-game branches.

    ``package`` is the file's package (for relative imports); ``own`` the slugs of
    the games whose modules the file may import.
    """
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    modules = {
        name
        for slug, game in GAMES.items()
        if slug not in own
        for name in game_modules(game)
    }
    # A module's ``__name__`` names its game when the module is a game's.
    game_names = {game.module for game in GAMES.values()} | {
        alias.asname or alias.name.rpartition(".")[2]
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
        if any(m.rpartition(".")[2] == alias.name.rpartition(".")[2] for m in modules)
    }
    fstrings = {
        id(n)
        for j in ast.walk(tree)
        if isinstance(j, ast.JoinedStr)
        for n in ast.walk(j)
    }
    for node in ast.walk(tree):
        for name in _imported(node, package):
            if any(name == m or name.startswith(m + ".") for m in modules):
                found.append((node.lineno, f"imports {name}"))
                break
        if isinstance(node, ast.Compare) and any(
            isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)) for op in node.ops
        ):
            sides = [node.left, *node.comparators]
            words = {
                s.value
                for s in sides
                if isinstance(s, ast.Constant) and s.value in NEUTRAL_NAMES
            }
            subjects = {
                getattr(s, "id", None) or getattr(s, "attr", None) for s in sides
            }
            if words and subjects & SUBJECTS:
                found.append((node.lineno, f"branches on {sorted(words)[0]!r}"))
        if (
            isinstance(node, ast.Attribute)
            and node.attr == "__name__"
            and getattr(node.value, "id", None) in game_names
        ):
            found.append((node.lineno, f"names a game by {node.value.id}.__name__"))
        if (
            isinstance(node, ast.Name)
            and node.id == "__name__"
            and id(node) in fstrings
        ):
            found.append((node.lineno, "builds a module path from __name__"))
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
                hits += [
                    (n, line.strip()[:120])
                    for n, line in enumerate(path.read_text().splitlines(), 1)
                    if NEUTRAL_RE.search(line)
                ]
            else:
                continue
            rel = path.relative_to(ROOT)
            result += [f"{rel}:{line}: {text!r}" for line, text in hits]
    return result


def test_no_file_outside_a_games_own_modules_names_its_slug():
    assert offenders() == []


def per_game_offenders() -> list[str]:
    """Return every per-game import or branch outside the game's own files."""
    result = []
    for folder in CODE_DIRS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            rel = path.relative_to(ROOT)
            package = ".".join(rel.with_suffix("").parts[:-1])
            if path.name == "__init__.py":
                package = ".".join(rel.parts[:-1])
            hits = python_offences(path, package, owners(path))
            result += [f"{rel}:{line}: {text}" for line, text in hits]
    return result


def test_no_file_outside_a_games_own_imports_its_modules_or_branches_on_it():
    assert per_game_offenders() == []


def test_the_measure_finds_per_game_imports_branches_and_name_tricks(tmp_path):
    code = tmp_path / "x.py"
    code.write_text(
        "from cards.games import bakugan\n"
        "import decks.engine.collision\n"
        "from ..rules.metal_fusion import GAME\n"
        "from ..engine import collide_o\n"
        'if keeper.kind == "power": pass\n'
        'if face != "stat_rows": pass\n'
        "name = collision.__name__\n"
        'path = f"{__name__}.{module}"\n'
        "from cards.games import GAMES, spec\n"
        'if row.kind == "cards" or type(x).__name__ or part.__name__: pass\n'
    )
    assert sorted(python_offences(code, "decks.play")) == [
        (1, "imports cards.games.bakugan"),
        (2, "imports decks.engine.collision"),
        (3, "imports decks.rules.metal_fusion"),
        (4, "imports decks.engine.collide_o"),
        (5, "branches on 'power'"),
        (6, "branches on 'stat_rows'"),
        (7, "names a game by collision.__name__"),
        (8, "builds a module path from __name__"),
    ]
    # A game's own files may import its own modules.
    mf = GAMES["metal-fusion"].slug
    assert (3, "imports decks.rules.metal_fusion") not in python_offences(
        code, "decks.table.companion", {mf}
    )
    page = tmp_path / "x.html"
    page.write_text('{% if kind == "spin" %}\n{% if row.kind == "cards" %}\n')
    assert [
        bool(NEUTRAL_RE.search(line)) for line in page.read_text().splitlines()
    ] == [
        True,
        False,
    ]


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
