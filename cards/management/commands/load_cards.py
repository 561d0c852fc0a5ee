"""Load card data files (default: every fixtures/*.json), all or nothing.

A load changes only what each file changed since it was last loaded; a field
corrected since keeps its value, and each file value that disagrees with one is
listed as disputed.
"""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from cards.data import CardDataError, card_data_load, card_data_parse


def repository_name(path: Path) -> str:
    """Return how history names a data file: its path in the repository, or its name.

    Never a server path: a file inside the project is named from its root
    (``fixtures/collision.json``), any other file by its name alone.
    """
    try:
        return path.resolve().relative_to(Path(settings.BASE_DIR).resolve()).as_posix()
    except ValueError:
        return path.name


class Command(BaseCommand):
    help = (
        "Load card data files; with no files, every fixtures/*.json. Any problem "
        "in any file loads nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="*", help="JSON card data files.")

    def handle(self, *args, files, **options):
        paths = [Path(f) for f in files] or sorted(
            (Path(settings.BASE_DIR) / "fixtures").glob("*.json")
        )
        if not paths:
            raise CommandError("No card data files to load.")
        lines, problems = [], []
        with transaction.atomic():
            for path in paths:
                try:
                    data = card_data_parse(text=path.read_text(encoding="utf-8"))
                    result = card_data_load(
                        data=data, source_label=repository_name(path)
                    )
                except OSError as error:
                    problems.append(f"{path}: {error}")
                except CardDataError as error:
                    problems += [f"{path}: {problem}" for problem in error.problems]
                else:
                    disputed = (
                        f", {len(result.disputes)} disputed" if result.disputes else ""
                    )
                    lines.append(
                        f"{path}: {result.created} created, {result.updated} updated, "
                        f"{result.unchanged} unchanged{disputed}"
                    )
                    lines += [f"{path}: disputed: {d}" for d in result.disputes]
            if problems:
                transaction.set_rollback(True)
        if problems:
            for problem in problems:
                self.stderr.write(problem)
            raise CommandError(f"{len(problems)} problem(s); nothing was loaded.")
        for line in lines:
            self.stdout.write(line)
