"""Convert the Bakugan Gate and Ability card lists into the card data file.

The lists (copied into ``fixtures/sources/bakugan/``, see its README) are
machine-transcribed and unchecked; their README names the known problems,
which this conversion follows:

- the 1-48d gate grids copied from 1-48c and the 1-48ah gate grids copied
  from the second 1-48q block (rows noted ``SUSPECT``) are withheld as
  unknown and the cards marked disputed;
- 22/48b's unreadable grid is withheld (``UNVERIFIED``);
- a gate's blank bonus is unknown (a gate prints all six); an ability's blank
  bonus is "not printed" (ruling E4); a printed 0 stays 0;
- the two 1-48q blocks that print the same numbers are two sets;
- a card whose printed number differs from its place (30/48ah Wind Blade
  prints 29/48ah) keeps its place as its key and its printed number as
  printed;
- every conflict note of the source is written into the card's source.

Each card's effect comes from ``effects.json`` (this site's own encoding in
the vocabulary of ``cards/effects.py``); a card it does not cover keeps no
steps and shows as "not encoded".

A row that breaks a rule is reported by file, row and field, and nothing is
written.
"""

import csv
import io
import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from cards.data import card_data_dumps, card_data_normalise
from cards.effects import EffectError, parse_effects
from cards.games import bakugan

DEFAULT_CSV = Path("fixtures") / "sources" / bakugan.GAME.slug
CSV_NAME = "gen1_battle_brawlers_cards.csv"
LATER_CSV_NAME = "later_series_cards.csv"
EFFECTS_NAME = "effects.json"
REPOSITORY = "WonderAliceUwU/bakugan-companion-app"
REPOSITORY_PATH = "assets/images/cards/cards.json"
LATER_PATH = "assets/images/cards/cards_expansion.json"
COMMIT = "2e416714b9f95f77561eb1dfaa3535346df66a5b"
SOURCE = (
    f"{REPOSITORY}, {REPOSITORY_PATH} at commit {COMMIT} (built from bakugan.wiki), "
    f"copied into {DEFAULT_CSV / CSV_NAME}; machine-transcribed, unchecked."
)
LATER_SOURCE = (
    f"{REPOSITORY}, {LATER_PATH} at commit {COMMIT} (built from bakugan.wiki with "
    f"automated help), copied into {DEFAULT_CSV / LATER_CSV_NAME}; "
    "machine-transcribed, unchecked."
)
SERIES = ("1-48", "1-15a", "1-48b", "1-48c", "1-48d")
# (series, block) -> set slug; the order is the sets' order.
LATER_SERIES = (
    ("1-48e", ""),
    ("1-18f", ""),
    ("1-18h", ""),
    ("1-48i", ""),
    ("1-18L", ""),
    ("1-48n", ""),
    ("1-48q", "1"),
    ("1-48q", "2"),
    ("1-48ah", ""),
)
ATTRIBUTES = bakugan.ATTRIBUTES
CLASSES = {"gate": bakugan.GATE_CLASSES, "ability": bakugan.ABILITY_COLOURS}
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
    "1-48q-1": (
        "The first of two 48-card blocks the source lists as 1-48q, printing "
        "the same numbers as the second (set 1-48q-2)."
    ),
    "1-48q-2": (
        "The second of two 48-card blocks the source lists as 1-48q, printing "
        "the same numbers as the first (set 1-48q-1)."
    ),
    "1-48ah": (
        "In the source, the bonus grids of gates 1-7, 9, 12, 14, 15, 18, 23 and "
        "24 are identical, slot for slot, to the gate of the same number in the "
        "second 1-48q block, which looks like a copy error: they are recorded "
        "as unknown and the cards marked disputed. The source reaches into the "
        "New Vestroia era."
    ),
}
COMMON_NOTE = (
    "Gate and Ability cards only: rarity, the highlighted gate bonus and card "
    "text are not in the source. Every value is unchecked against the cards."
)
SUSPECT_REASON = {
    "1-48d": "in the source every 1-48d gate grid equals the 1-48c grid of the "
    "same number, a probable copy error.",
    "1-48ah": "in the source this grid equals the gate of the same number in the "
    "second 1-48q block, a probable copy error.",
}


class RowError(ValueError):
    """Rows that break a rule: ``problems`` lists "file row N field: why"."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))


def set_slug(series: str, block: str = "") -> str:
    """Return the slug of the set a source row belongs to."""
    return f"{series}-{block}" if block else series


def effect_key(slug: str, key: str) -> str:
    """Return the key of a card in ``effects.json``: "set slug key"."""
    return f"{slug} {key}"


def convert(
    text: str, later_text: str | None = None, effects: dict | None = None
) -> dict:
    """Return the card data file for the gen1 CSV ``text`` (and the later list).

    Raise RowError naming every bad row and field; nothing is returned then.
    """
    effects = effects or {}
    sets, problems = {}, []
    order = 0
    for series in SERIES:
        order += 1
        sets[series] = _set(series, f"Battle Brawlers series {series}", SOURCE, order)
    if later_text is not None:
        for series, block in LATER_SERIES:
            order += 1
            slug = set_slug(series, block)
            name = f"Battle Brawlers series {series}"
            if block:
                name += f" (block {block})"
            sets[slug] = _set(slug, name, LATER_SOURCE, order)
    _rows(text, CSV_NAME, SOURCE, sets, problems, later=False)
    if later_text is not None:
        _rows(later_text, LATER_CSV_NAME, LATER_SOURCE, sets, problems, later=True)
    for card_set in sets.values():
        for card in card_set["cards"]:
            entry = effects.get(effect_key(card_set["slug"], card["key"]))
            if entry is None:
                continue
            try:
                parse_effects(entry.get("steps"))
            except EffectError as error:
                problems.append(
                    f"{EFFECTS_NAME} {effect_key(card_set['slug'], card['key'])} "
                    f"steps: {error}"
                )
                continue
            card["effects"] = entry.get("steps") or []
            if entry.get("timing"):
                card["timing"] = entry["timing"]
    if problems:
        raise RowError(problems)
    return card_data_normalise(
        data={"game": bakugan.GAME.slug, "sets": list(sets.values())}
    )


def _set(slug: str, name: str, source: str, order: int) -> dict:
    return {
        "slug": slug,
        "name": name,
        "kind": "official",
        "year": "",
        "source": source,
        "notes": " ".join(filter(None, (SET_NOTES.get(slug), COMMON_NOTE))),
        "sort_order": order,
        "cards": [],
    }


def _rows(text, file_name, source, sets, problems, *, later: bool) -> None:
    reader = csv.DictReader(io.StringIO(text))
    seen = set()
    for row_number, row in enumerate(reader, start=2):  # row 1 is the header
        where = f"{file_name} row {row_number}"
        bad = _row_problems(row, later)
        if bad:
            problems += [f"{where} {field}: {why}" for field, why in bad]
            continue
        slug = set_slug(row["series"], row.get("block", "") if later else "")
        if slug not in sets:
            problems.append(f"{where} series: unknown series {slug!r}.")
            continue
        if (slug, row["set_number"]) in seen:
            problems.append(
                f"{where} set_number: {row['set_number']} appears twice in {slug}."
            )
            continue
        seen.add((slug, row["set_number"]))
        sets[slug]["cards"].append(_card(row, source, row["series"]))


def _row_problems(row: dict, later: bool) -> list[tuple[str, str]]:
    if None in row or any(v is None for v in row.values()):
        return [("row", "the row does not have one value per column.")]
    bad = []
    if not row["number"].isdigit() or not 1 <= int(row["number"]) <= 48:
        bad.append(("number", f"{row['number']!r} is not a position from 1 to 48."))
    if not row["name"].strip():
        bad.append(("name", "the name is empty."))
    kind = row["card_type"]
    if kind not in CLASSES:
        bad.append(("card_type", f"{kind!r} is neither gate nor ability."))
    elif row["card_class"] not in CLASSES[kind]:
        bad.append(
            (
                "card_class",
                f"{row['card_class']!r} is not a {kind} class: "
                + ", ".join(CLASSES[kind])
                + ".",
            )
        )
    for attribute in ATTRIBUTES:
        value = row[attribute].strip()
        if value and not value.lstrip("-").isdigit():
            bad.append((attribute, f"{value!r} is not a whole number."))
        elif value and not -9999 <= int(value) <= 9999:
            bad.append((attribute, f"{value} is out of range."))
    if later and row.get("block") not in ("", "1", "2"):
        bad.append(("block", f"{row['block']!r} is not empty, 1 or 2."))
    return bad


def _human(note: str) -> str:
    """Return the source's note; its snake_case labels read as words."""
    if " " in note:
        return note
    return "; ".join(part.strip().replace("_", " ") for part in note.split(";"))


def _card(row: dict, source: str, series: str) -> dict:
    note = row["note"].strip()
    kind = row["card_type"]
    printed = (row.get("printed_set_number") or "").strip()
    card = {
        "key": row["set_number"],
        "number": int(row["number"]),
        "printed_number": printed or row["set_number"],
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
        withheld = "Bonus grid recorded as unknown: " + SUSPECT_REASON.get(
            series, "the source marks it as a probable copy error."
        )
        card["verification"] = "disputed"
    elif note.startswith("UNVERIFIED"):
        withheld = "Bonus grid recorded as unknown: the source could not read it."
    missing = []
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
            missing.append(attribute.capitalize())
    parts = [source]
    if withheld:
        parts.append(withheld)
    if missing:
        parts.append(
            "The source gives no bonus for " + ", ".join(missing) + ": unknown."
        )
    if printed and printed != row["set_number"]:
        parts.append(
            f"Printed number {printed}; listed here as {row['set_number']}, its "
            "place in the series."
        )
    if note:
        parts.append(f"Source note: {_human(note)}.")
    card["source"] = " ".join(parts)
    return card


def read_sources(root: Path) -> tuple[str, str, dict]:
    """Return the two card lists and the effect encodings under ``root``."""
    folder = root / DEFAULT_CSV
    effects_path = folder / EFFECTS_NAME
    effects = (
        json.loads(effects_path.read_text(encoding="utf-8"))
        if effects_path.exists()
        else {}
    )
    return (
        (folder / CSV_NAME).read_text(encoding="utf-8"),
        (folder / LATER_CSV_NAME).read_text(encoding="utf-8"),
        effects.get("cards", {}),
    )


FIGURES_NAME = "figure_variants.csv"
FIGURES_SOURCE = (
    "ProfLeonDias/Bakugan-Database (bakugandb.com), battle-brawlers.html at commit "
    f"f5502580b8d562a405ff6eb1aeeebadc1cd4d28d, copied into {DEFAULT_CSV / FIGURES_NAME}; "
    "facts only, unchecked."
)
FIGURE_NOTE = (
    "Figure variants as the source lists them. A figure's G-Power is printed on "
    "each copy and differs between copies of one variant, so it is recorded on "
    "a collection entry (the copy), never here."
)


def _slug(text: str) -> str:
    out = "".join(c.lower() if c.isalnum() else "-" for c in text)
    return "-".join(filter(None, out.split("-")))


def convert_figures(text: str) -> dict:
    """Return the figure data file: one set per release line, a card per variant.

    Raise RowError naming every bad row and field.
    """
    sets, problems, seen = {}, [], set()
    attributes = {a.capitalize(): a for a in ATTRIBUTES}
    for row_number, row in enumerate(csv.DictReader(io.StringIO(text)), start=2):
        where = f"{FIGURES_NAME} row {row_number}"
        if None in row or any(v is None for v in row.values()):
            problems.append(f"{where} row: the row does not have one value per column.")
            continue
        mould = row["mold_number"].strip()
        attribute = row["attribute"].strip()
        if mould and not mould.isdigit():
            problems.append(f"{where} mold_number: {mould!r} is not a number.")
        if attribute not in attributes and attribute != "Clear":
            problems.append(f"{where} attribute: {attribute!r} is not an attribute.")
        if not row["variant_name"].strip():
            problems.append(f"{where} variant_name: the name is empty.")
        line = row["release_line"].strip() if mould else "Unreleased"
        slug = "figures-" + _slug(line)
        key = _slug(row["variant_name"])
        if (slug, key) in seen:
            problems.append(f"{where} variant_name: {row['variant_name']!r} twice.")
        seen.add((slug, key))
        if problems and problems[-1].startswith(where):
            continue
        card_set = sets.setdefault(
            slug,
            {
                "slug": slug,
                "name": f"Bakugan figures: {line}",
                "kind": "official",
                "year": "",
                "source": FIGURES_SOURCE,
                "notes": FIGURE_NOTE
                + (
                    " The source lists these under Unreleased Bakugan (no mould number)."
                    if not mould
                    else ""
                ),
                "sort_order": 100 + len(sets),
                "cards": [],
            },
        )
        parts = [FIGURES_SOURCE]
        if row["first_released"].strip():
            parts.append(f"First released: {row['first_released'].strip()}.")
        parts.append(
            f"Species: {row['species'].strip()}; mould {row['mold'] or 'unknown'}."
        )
        if attribute not in attributes:
            parts.append(
                f"Attribute: {attribute} (none of the six), recorded as unknown."
            )
        card_set["cards"].append(
            {
                "key": key,
                "number": int(mould) if mould else None,
                "printed_number": "",
                "name": row["variant_name"].strip(),
                "card_type": bakugan.FIGURE,
                "attribute": attributes.get(attribute),
                "g_power": None,
                "not_printed": [],
                "verification": "unverified",
                "source": " ".join(parts),
            }
        )
    if problems:
        raise RowError(problems)
    return card_data_normalise(
        data={"game": bakugan.GAME.slug, "sets": list(sets.values())}
    )


class Command(BaseCommand):
    help = (
        "Convert the Bakugan card lists (and the effect encodings) into "
        "fixtures/bakugan.json. A bad row is reported and nothing is written."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--csv",
            dest="csv_path",
            help=f"The gen1 CSV (default {DEFAULT_CSV / CSV_NAME}).",
        )
        parser.add_argument(
            "--later-csv",
            dest="later_path",
            help=f"The later series CSV (default {DEFAULT_CSV / LATER_CSV_NAME}).",
        )
        parser.add_argument(
            "-o", "--output", help="Output file (default fixtures/bakugan.json)."
        )

    def handle(self, *args, csv_path, later_path, output, **options):
        root = Path(settings.BASE_DIR)
        text, later_text, effects = read_sources(root)
        if csv_path:
            text = Path(csv_path).read_text(encoding="utf-8")
        if later_path:
            later_text = Path(later_path).read_text(encoding="utf-8")
        target = Path(output) if output else root / "fixtures" / "bakugan.json"
        try:
            data = convert(text, later_text, effects)
        except RowError as error:
            for problem in error.problems:
                self.stderr.write(problem)
            raise CommandError(
                f"{len(error.problems)} problem(s); nothing was written."
            ) from None
        try:
            figures = convert_figures(
                (root / DEFAULT_CSV / FIGURES_NAME).read_text(encoding="utf-8")
            )
        except RowError as error:
            for problem in error.problems:
                self.stderr.write(problem)
            raise CommandError(
                f"{len(error.problems)} problem(s); nothing was written."
            ) from None
        target.write_text(card_data_dumps(data), encoding="utf-8")
        count = sum(len(s["cards"]) for s in data["sets"])
        self.stdout.write(f"{target}: {count} cards in {len(data['sets'])} sets")
        if not output:
            figures_path = root / "fixtures" / "bakugan-figures.json"
            figures_path.write_text(card_data_dumps(figures), encoding="utf-8")
            count = sum(len(s["cards"]) for s in figures["sets"])
            self.stdout.write(
                f"{figures_path}: {count} figures in {len(figures['sets'])} sets"
            )
