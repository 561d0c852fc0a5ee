"""Every file a command, a page or a test reads is inside the project."""

import re
from pathlib import Path

from django.conf import settings

from cards.management.commands import convert_bakugan_csv

ROOT = Path(settings.BASE_DIR)
# The reference folder beside the project, by a relative or an absolute path.
OUTSIDE = re.compile(
    r"""\.\./shared|/work/shared|parents?(\[\d+\])?\s*/\s*["']shared"""
)
# These name such a path as the input of the code that hides it.
ALLOWED = {"test_self_contained.py", "test_labels.py"}


def test_no_code_names_a_path_outside_the_project():
    found = []
    for folder in ("cards", "collection", "decks", "cardsite", "tools", "tests"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.name in ALLOWED:
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if OUTSIDE.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


def test_the_bakugan_source_list_and_its_readme_are_in_the_project():
    folder = ROOT / convert_bakugan_csv.DEFAULT_CSV
    assert (folder / convert_bakugan_csv.CSV_NAME).is_file()
    assert (folder / "README.md").is_file()
    assert folder.resolve().is_relative_to(ROOT.resolve())
