"""The README is a short index; the documentation it points at names real commands."""

import re
from pathlib import Path

from tools.bench import BENCHMARKS, STANDARD

ROOT = Path(__file__).resolve().parents[2]
DOCS = ("architecture", "games", "search", "api", "performance", "bots")
DOCS += ("deployment", "contributing", "features")


def _texts() -> dict[Path, str]:
    paths = [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
    return {path: path.read_text(encoding="utf-8") for path in paths}


def test_the_readme_is_at_most_12_kb_and_starts_with_the_two_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.encode()) <= 12 * 1024
    headings = re.findall(r"^## (.+)$", text, re.M)
    assert headings[0] == "The two commands"
    assert "make run" in text and "make test" in text


def test_the_readme_links_every_document_of_docs():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in DOCS:
        assert (ROOT / "docs" / f"{name}.md").is_file(), name
        assert f"(docs/{name}.md)" in text, name


def test_every_benchmark_the_docs_name_exists():
    named = set()
    for text in _texts().values():
        named |= set(re.findall(r"-m tools\.bench (?:--\w+ )*([a-z][a-z-]*)\b", text))
        named |= set(re.findall(r'make bench ARGS="([a-z][a-z-]*)', text))
    assert named, "the docs name no benchmark"
    assert named <= {STANDARD, *BENCHMARKS}, named - {STANDARD, *BENCHMARKS}


def test_no_document_names_a_removed_bench_command():
    for path, text in _texts().items():
        assert not re.search(r"manage\.py bench|\bbench_[a-z]+\b", text), path
