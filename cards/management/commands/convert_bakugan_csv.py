"""Convert the shared Bakugan Gate and Ability card list into a card data file.

The list (copied into ``fixtures/sources/bakugan/``) is machine-transcribed and unchecked;
its README names the known problems, which this conversion follows: the
1-48d gate grids copied from 1-48c are withheld as unknown and "disputed",
22/48b's unreadable grid is withheld, an ability's blank bonus is "not
printed" (ruling E4) and a printed 0 stays 0.
"""

import csv
import io
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from cards.data import card_data_dumps, card_data_normalise
from cards.games import bakugan

DEFAULT_CSV = Path("fixtures") / "sources" / bakugan.GAME.slug
CSV_NAME = "gen1_battle_brawlers_cards.csv"
REPOSITORY = "WonderAliceUwU/bakugan-companion-app"
REPOSITORY_PATH = "assets/images/cards/cards.json"
COMMIT = "2e416714b9f95f77561eb1dfaa3535346df66a5b"
SOURCE = (
    f"{REPOSITORY}, {REPOSITORY_PATH} at commit {COMMIT} (built from bakugan.wiki), "
    f"copied into {DEFAULT_CSV / CSV_NAME}; machine-transcribed, unchecked."
)
SERIES = ("1-48", "1-15a", "1-48b", "1-48c", "1-48d")
ATTRIBUTES = ("pyrus", "aquos", "subterra", "haos", "darkus", "ventus")
SET_NOTES = {
    "1-48d": (
        "The source's bonus grids for gates 1-24 are identical, slot for slot, to "
        "those of 1-48c gates 1-24, which looks like a copy error: they are "
        "recorded as unknown and the cards marked disputed."
    ),
    "1-48b": (
        "22/48b G-Power Exchange: the source says its bonus grid was not "
        "readable, so the grid is recorded as unknown."
    ),
}
COMMON_NOTE = (
    "Gate and Ability cards only: rarity, the highlighted gate bonus and card "
    "text are not in the source. Every value is unchecked against the cards."
)


def convert(text: str) -> dict:
    """Return the card data file for the Bakugan CSV in ``text``."""
    sets = {
        series: {
            "slug": series,
            "name": f"Battle Brawlers series {series}",
            "kind": "official",
            "year": "",
            "source": SOURCE,
            "notes": " ".join(filter(None, (SET_NOTES.get(series), COMMON_NOTE))),
            "sort_order": order,
            "cards": [],
        }
        for order, series in enumerate(SERIES, start=1)
    }
    for row in csv.DictReader(io.StringIO(text)):
        sets[row["series"]]["cards"].append(_card(row))
    return card_data_normalise(
        data={"game": bakugan.GAME.slug, "sets": list(sets.values())}
    )


def _card(row: dict) -> dict:
    note = row["note"].strip()
    kind = row["card_type"]
    card = {
        "key": row["set_number"],
        "number": int(row["number"]),
        "printed_number": row["set_number"],
        "name": row["name"],
        "card_type": kind,
        "code": row["code"] or None,
        "verification": "unverified",
        "not_printed": [],
    }
    if kind == "gate":
        card["gate_class"] = row["card_class"]
    else:
        card["colour"] = row["card_class"]
    withheld = None
    if kind == "gate" and note.startswith("SUSPECT"):
        withheld = (
            "Bonus grid recorded as unknown: in the source every 1-48d gate grid "
            "equals the 1-48c grid of the same number, a probable copy error."
        )
        card["verification"] = "disputed"
    elif note.startswith("UNVERIFIED"):
        withheld = "Bonus grid recorded as unknown: the source could not read it."
    for attribute in ATTRIBUTES:
        name = f"bonus_{attribute}"
        value = row[attribute].strip()
        if withheld:
            card[name] = None
        elif value:
            card[name] = int(value)
        elif kind == "ability":
            card[name] = None
            card["not_printed"].append(name)
        else:
            card[name] = None
    parts = [SOURCE]
    if withheld:
        parts.append(withheld)
    if note:
        parts.append(f"Source note: {note}.")
    card["source"] = " ".join(parts)
    return card


class Command(BaseCommand):
    help = "Convert the Bakugan card list CSV into fixtures/bakugan.json."

    def add_arguments(self, parser):
        parser.add_argument(
            "--csv",
            dest="csv_path",
            help=f"The CSV (default {DEFAULT_CSV / CSV_NAME}).",
        )
        parser.add_argument(
            "-o", "--output", help="Output file (default fixtures/bakugan.json)."
        )

    def handle(self, *args, csv_path, output, **options):
        root = Path(settings.BASE_DIR)
        source = Path(csv_path) if csv_path else root / DEFAULT_CSV / CSV_NAME
        target = Path(output) if output else root / "fixtures" / "bakugan.json"
        data = convert(source.read_text(encoding="utf-8"))
        target.write_text(card_data_dumps(data), encoding="utf-8")
        count = sum(len(s["cards"]) for s in data["sets"])
        self.stdout.write(f"{target}: {count} cards in {len(data['sets'])} sets")
