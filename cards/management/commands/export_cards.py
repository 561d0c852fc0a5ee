"""Export one game's official and practice sets as JSON or CSV."""

from pathlib import Path

from django.core.management.base import BaseCommand

from cards.data import (
    FILE_KINDS,
    card_data_dumps,
    card_data_export,
    card_data_export_csv,
)
from cards.games import GAMES


class Command(BaseCommand):
    help = "Export a game's card data (JSON by default) to a file or stdout."

    def add_arguments(self, parser):
        parser.add_argument("--game", required=True, choices=sorted(GAMES))
        parser.add_argument("--kind", choices=FILE_KINDS)
        parser.add_argument("--format", choices=("json", "csv"), default="json")
        parser.add_argument("-o", "--output", help="File to write (default stdout).")

    def handle(self, *args, game, kind, format, output, **options):
        if format == "csv":
            text = card_data_export_csv(game=game, kind=kind)
        else:
            text = card_data_dumps(card_data_export(game=game, kind=kind))
        if output:
            Path(output).write_text(text, encoding="utf-8")
        else:
            self.stdout.write(text, ending="")
