"""Collection CSV files and the bulk-add text box: reading, checking, writing.

Reading never writes: it turns a file into checked rows (one per card variant)
and a list of problems, each with its line number and reason. The services
then preview and apply the rows. The columns are listed in ``COLUMNS`` and on
the help page (``collection/csv_help.html``).
"""

import csv
import io
import re
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.db.models import Q

from cards.choices import SetKind
from cards.lookup import folded_match
from cards.models import Card, CardSet, GameRecord

from .choices import Condition, Finish, GradingCompany, Language
from .models import MAX_COPIES, CollectionEntry, grade_key

MAX_ROWS = 10_000
MAX_BYTES = 5 * 1024 * 1024
MAX_PROBLEMS = 200
NOTES_MAX = CollectionEntry._meta.get_field("notes").max_length

# (column, required, what it holds) in export order; also rendered on the help page.
COLUMNS = [
    (
        "game",
        "with set and number",
        "Game slug or name: collision, metal-fusion, collide-o, bakugan.",
    ),
    ("set", "with game and number", "Set slug or name."),
    (
        "number",
        "with game and set",
        "The card's number in its set, as printed (e.g. 96 or 9/48c).",
    ),
    (
        "name",
        "when game, set or number is missing",
        "The card's exact name; ignored when game, set and number find the card.",
    ),
    ("quantity", "yes", "Copies owned: a whole number, 0 or more; empty means 0."),
    (
        "condition",
        "no",
        "Mint, Near Mint, Lightly Played, Played, Heavily Played or Poor (or M, NM, LP, PL, HP, PO); empty means Near Mint.",
    ),
    ("finish", "no", "normal or foil; empty means normal."),
    (
        "language",
        "no",
        "Language code or name (en, de, fr, it, es, nl, pt, ja, ko, zh, other); empty means English.",
    ),
    (
        "grading_company",
        "no",
        "PSA, BGS, CGC, SGC or Other, for a graded card; empty when ungraded.",
    ),
    ("grade", "no", "1 to 10 in half steps, for a graded card; empty when ungraded."),
    ("wanted", "no", "How many more copies of this variant you want; empty means 0."),
    (
        "for_trade",
        "no",
        "How many of the owned copies are for trade (at most quantity); empty means 0.",
    ),
    (
        "g_power",
        "no",
        "A Bakugan figure's G-Power as printed on this copy: a multiple of 10 from "
        "10 to 1,000; empty when not recorded (and for every other card).",
    ),
    ("notes", "no", "Free text."),
]
HEADER = [name for name, _, _ in COLUMNS]
ALIASES = {
    "qty": "quantity",
    "owned": "quantity",
    "count": "quantity",
    "card_number": "number",
    "no": "number",
    "key": "number",
    "printed_number": "number",
    "card_name": "name",
    "card_set": "set",
    "set_name": "set",
    "grading": "grading_company",
    "company": "grading_company",
    "grader": "grading_company",
    "wanted_quantity": "wanted",
    "wishlist": "wanted",
    "trade": "for_trade",
    "trade_quantity": "for_trade",
    "for_trade_quantity": "for_trade",
    "note": "notes",
    "lang": "language",
    "gpower": "g_power",
    "g": "g_power",
}
CONDITION_ABBREVIATIONS = {
    "m": "mint",
    "nm": "near-mint",
    "lp": "lightly-played",
    "pl": "played",
    "mp": "played",
    "hp": "heavily-played",
    "po": "poor",
    "pr": "poor",
}
FIELD_COLUMNS = {"wanted_quantity": "wanted", "trade_quantity": "for_trade"}
# Spreadsheets in East Asian locales also start a formula with the full-width
# forms of these signs (U+FF1D, U+FF0B, U+FF0D, U+FF20).
FORMULA_STARTS = (
    "=",
    "+",
    "-",
    "@",
    "\t",
    "\r",
    "\uff1d",
    "\uff0b",
    "\uff0d",
    "\uff20",
)


@dataclass
class ReadResult:
    rows: list[dict] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    truncated: bool = False

    def problem(self, line: int | None, message: str) -> None:
        if len(self.problems) >= MAX_PROBLEMS:
            self.truncated = True
            return
        self.problems.append(f"Line {line}: {message}" if line else message)


def _formula_like(text: str) -> bool:
    # Quotes already in front are counted, so that "'=x" written out as
    # "''=x" reads back as "'=x", not as "=x".
    return text.lstrip("'").startswith(FORMULA_STARTS)


def neutralise(value) -> str:
    """Return a cell a spreadsheet will not run as a formula."""
    text = "" if value is None else str(value)
    return "'" + text if _formula_like(text) else text


def unneutralise(text: str) -> str:
    """Undo ``neutralise`` on a cell read back."""
    if text.startswith("'") and _formula_like(text[1:]):
        return text[1:]
    return text


def _norm(text: str) -> str:
    return re.sub(r"[\s\-]+", "_", text.strip().lower())


def _choice_lookup(choices, extra: dict | None = None) -> dict[str, str]:
    """Return every accepted spelling of a choice (value, label, abbreviation)."""
    lookup = dict(extra or {})
    for value, label in choices:
        for spelling in (value, label.lower(), _norm(label).replace("_", "-")):
            lookup[spelling] = value
    return lookup


CHOICE_COLUMNS = [
    # (column, accepted spellings, choices for the message, default)
    (
        "condition",
        _choice_lookup(Condition.choices, CONDITION_ABBREVIATIONS),
        Condition.choices,
        Condition.NEAR_MINT,
    ),
    ("finish", _choice_lookup(Finish.choices), Finish.choices, Finish.NORMAL),
    ("language", _choice_lookup(Language.choices), Language.choices, Language.ENGLISH),
    (
        "grading_company",
        _choice_lookup(GradingCompany.choices),
        GradingCompany.choices,
        "",
    ),
]


class CardIndex:
    """The games, sets and cards some rows name, of those a user may see.

    ``load(rows)`` reads only what the rows mention, in a fixed number of
    queries whatever the size of the card table; matching then runs in memory.
    Names, set names and numbers match with case and surrounding spaces ignored.
    """

    def __init__(self, user):
        self.user = user
        self.games = {}
        for slug, name in GameRecord.objects.values_list("slug", "name"):
            self.games[slug.lower()] = slug
            self.games[name.lower()] = slug
        self.sets = {}
        self.set_ids = {}
        self.by_number = {}
        self.by_name = {}
        self._game_sets = {}

    def load(self, rows) -> None:
        """Read the sets and cards that ``rows`` (dicts of cells) name."""
        set_texts, numbers, names = defaultdict(set), set(), set()
        for cells in rows:
            game = self.game(cells.get("game", ""))
            set_text = cells.get("set", "").strip().lower()
            if game and set_text:
                set_texts[game].add(set_text)
            number = cells.get("number", "").strip().lstrip("#").lower()
            if number:
                numbers.add(number)
            name = cells.get("name", "").strip().lower()
            if name:
                names.add(name)
        self._load_sets(set_texts)
        self._load_numbers(numbers)
        self._load_names(names)

    def _load_sets(self, set_texts: dict[str, set[str]]) -> None:
        texts = set().union(*set_texts.values()) if set_texts else set()
        if not texts:
            return
        sets = (
            CardSet.objects.visible_to(self.user)
            .filter(game__slug__in=set_texts)
            .select_related("game")
            .only("pk", "slug", "name", "game__slug")
        )
        for card_set in folded_match(sets, ("slug", "name"), texts):
            pk, game, slug, name = (
                card_set.pk,
                card_set.game.slug,
                card_set.slug,
                card_set.name,
            )
            self.set_ids[(game, slug)] = pk
            for text in (slug.lower(), name.strip().lower()):
                if text in set_texts[game]:
                    self.sets.setdefault((game, text), slug)

    def _load_numbers(self, numbers: set[str]) -> None:
        if not numbers or not self.set_ids:
            return
        set_ids = set(self.set_ids.values())
        cards = _visible_cards(self.user).filter(card_set_id__in=set_ids)
        # Narrowed in the id query too: every set numbers its cards from 1.
        for card in folded_match(
            cards, ("key", "printed_number"), numbers, narrow=Q(card_set_id__in=set_ids)
        ):
            card_set = card.card_set
            for number in {card.key.lower(), (card.printed_number or "").lower()}:
                if number in numbers:
                    self.by_number.setdefault(
                        (card_set.game.slug, card_set.slug, number), card
                    )

    def _load_names(self, names: set[str]) -> None:
        if not names:
            return
        cards = _visible_cards(self.user)
        for card in folded_match(cards, ("name",), names):
            self.by_name.setdefault(card.name.strip().lower(), []).append(card)

    def game(self, text: str) -> str | None:
        return self.games.get(text.strip().lower())

    def card_set(self, game: str, text: str) -> str | None:
        return self.sets.get((game, text.strip().lower()))

    def _sets_of(self, game: str) -> list[tuple[str, str]]:
        """Return (slug, kind) of the sets of ``game`` with a card the user may see."""
        if game not in self._game_sets:
            self._game_sets[game] = sorted(
                set(
                    _visible_cards(self.user)
                    .filter(card_set__game__slug=game)
                    .order_by()
                    .values_list("card_set__slug", "card_set__kind")
                    .distinct()
                )
            )
        return self._game_sets[game]

    def set_names(self, game: str) -> list[str]:
        """Return every set slug of ``game`` a line may name."""
        return [slug for slug, _kind in self._sets_of(game)]

    def official_sets(self, game: str) -> list[str]:
        """Return the slugs of ``game``'s official (printed) sets."""
        return [slug for slug, kind in self._sets_of(game) if kind == SetKind.OFFICIAL]

    def by_ref(self, game: str, card_set: str, number: str):
        return self.by_number.get((game, card_set, number.strip().lstrip("#").lower()))

    def named(self, name: str, game: str | None = None, card_set: str | None = None):
        found = self.by_name.get(name.strip().lower(), [])
        if game:
            found = [c for c in found if c.card_set.game.slug == game]
        if card_set:
            found = [c for c in found if c.card_set.slug == card_set]
        return found


def _visible_cards(user):
    return Card.objects.visible_to(user).select_related("card_set", "card_set__game")


def label(card) -> str:
    card_set = card.card_set
    number = card.printed_number or card.key
    return f"{card.display_name} ({card_set.game.slug} / {card_set.slug} #{number})"


def decode(data: bytes, result: ReadResult) -> str | None:
    """Return the file's text, or None with the problem reported."""
    if len(data) > MAX_BYTES:
        result.problem(
            None,
            f"The file is {len(data):,} bytes; the limit is {MAX_BYTES:,} bytes. "
            "Split it into smaller files.",
        )
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        result.problem(
            line,
            f"the file is not UTF-8 text (byte 0x{data[exc.start]:02X} cannot be read). "
            'Save it as "CSV UTF-8" and upload it again.',
        )
        return None


def sniff_delimiter(text: str) -> str:
    """Return the delimiter of the header line: comma, semicolon or tab."""
    header = text.split("\n", 1)[0]
    try:
        return csv.Sniffer().sniff(header, delimiters=",;\t").delimiter
    except csv.Error:
        counts = {d: header.count(d) for d in ",;\t"}
        return max(counts, key=counts.get) if any(counts.values()) else ","


def _count(value: str, column: str, line: int, result: ReadResult) -> int | None:
    value = value.strip()
    if value == "":
        return 0
    if not re.fullmatch(r"[+-]?\d{1,9}", value):
        result.problem(
            line, f"{column} must be a whole number 0 or more, not {value!r}."
        )
        return None
    number = int(value)
    if number < 0:
        result.problem(
            line, f"{column} must be a whole number 0 or more, not {number}."
        )
        return None
    if number > MAX_COPIES:
        result.problem(
            line, f"{column} must be at most {MAX_COPIES:,}, not {number:,}."
        )
        return None
    return number


def _match_card(cells: dict, line: int, index: CardIndex, result: ReadResult):
    game_text = cells.get("game", "").strip()
    set_text = cells.get("set", "").strip()
    number = cells.get("number", "").strip()
    name = cells.get("name", "").strip()
    game = index.game(game_text) if game_text else None
    if game_text and game is None:
        result.problem(line, f"unknown game {game_text!r}.")
        return None
    card_set = index.card_set(game, set_text) if game and set_text else None
    if set_text and game and card_set is None:
        result.problem(line, f"unknown set {set_text!r} in {game}.")
        return None
    if game and card_set and number:
        card = index.by_ref(game, card_set, number)
        if card is None:
            result.problem(line, f"no card number {number!r} in {game} / {card_set}.")
        return card
    if not name:
        result.problem(
            line, "the card is not identified: give game, set and number, or its name."
        )
        return None
    found = index.named(name, game, card_set)
    if not found:
        result.problem(line, f"no card is named {name!r}.")
        return None
    if len(found) > 1:
        shown = "; ".join(label(c) for c in found[:5])
        more = f" and {len(found) - 5} more" if len(found) > 5 else ""
        result.problem(
            line,
            f"the name {name!r} matches {len(found)} cards ({shown}{more}); "
            "add game, set and number columns to say which.",
        )
        return None
    return found[0]


def _row(cells: dict, line: int, index: CardIndex, result: ReadResult) -> dict | None:
    before = len(result.problems)
    card = _match_card(cells, line, index, result)
    counts = {
        "quantity": _count(cells.get("quantity", ""), "quantity", line, result),
        "wanted_quantity": _count(cells.get("wanted", ""), "wanted", line, result),
        "trade_quantity": _count(cells.get("for_trade", ""), "for_trade", line, result),
    }
    variant = {}
    for column, spellings, choices, default in CHOICE_COLUMNS:
        text = cells.get(column, "").strip()
        value = spellings.get(text.lower()) if text else default
        if value is None:
            allowed = ", ".join(label for _, label in choices)
            result.problem(line, f"{column} {text!r} is not one of: {allowed}.")
        variant[column] = value
    grade_text = cells.get("grade", "").strip()
    grade = None
    if grade_text:
        try:
            grade = Decimal(grade_text.replace(",", "."))
            if not grade.is_finite():
                raise InvalidOperation
            if grade == grade.quantize(Decimal("0.1")):
                grade = grade.quantize(Decimal("0.1"))
        except InvalidOperation:
            result.problem(
                line, f"grade must be a number from 1 to 10, not {grade_text!r}."
            )
    g_text = cells.get("g_power", "").strip()
    g_power = None
    if g_text:
        if re.fullmatch(r"\d{1,6}", g_text):
            g_power = int(g_text)
        else:
            result.problem(line, f"g_power must be a whole number, not {g_text!r}.")
    notes = cells.get("notes", "").strip()
    if len(result.problems) > before or card is None:
        return None
    if len(notes) > NOTES_MAX:
        result.problem(line, f"notes are longer than {NOTES_MAX:,} characters.")
        return None
    entry = CollectionEntry(
        card=card, grade=grade, g_power=g_power, notes=notes, **variant, **counts
    )
    try:
        # Every cell was parsed against its field above; the model's clean()
        # adds the rules between fields (for trade within owned, grading).
        entry.clean()
    except ValidationError as exc:
        for name, errors in exc.message_dict.items():
            for message in errors:
                column = FIELD_COLUMNS.get(name, name)
                result.problem(line, f"{column}: {message}")
        return None
    return {
        "line": line,
        "card_id": card.pk,
        "label": label(card),
        **variant,
        "grade": grade_key(entry.grade),
        "g_power": g_power,
        **counts,
        "notes": notes,
    }


def _merge(rows: list[dict]) -> list[dict]:
    """Add up rows of the same card variant (a file may list a variant twice)."""
    merged = {}
    for row in rows:
        key = (
            row["card_id"],
            row["condition"],
            row["finish"],
            row["language"],
            row["grading_company"],
            row["grade"],
            row["g_power"],
        )
        if key not in merged:
            merged[key] = dict(row)
            continue
        into = merged[key]
        for name in ("quantity", "wanted_quantity", "trade_quantity"):
            into[name] += row[name]
        if row["notes"] and row["notes"] not in into["notes"]:
            into["notes"] = "; ".join(filter(None, [into["notes"], row["notes"]]))
    return list(merged.values())


TOO_MANY_ROWS = (
    f"The file has more than {MAX_ROWS:,} rows; the limit is {MAX_ROWS:,} per "
    "import. Split it into smaller files."
)


def _too_many_rows(text: str, delimiter: str) -> bool:
    """Count the data rows before checking any, so an oversized file is refused fast."""
    records = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    count = -1  # the header
    try:
        for record in records:
            if any(cell.strip() for cell in record):
                count += 1
                if count > MAX_ROWS:
                    return True
    except csv.Error:
        return False  # reported with its line by the full read
    return False


def read_csv(data: bytes, *, user) -> ReadResult:
    """Read and check a collection CSV file."""
    result = ReadResult()
    text = decode(data, result)
    if text is None:
        return result
    if "\x00" in text:
        result.problem(
            None, "The file contains NUL bytes; it does not look like a CSV file."
        )
        return result
    if not text.strip():
        result.problem(None, "The file is empty.")
        return result
    delimiter = sniff_delimiter(text)
    if _too_many_rows(text, delimiter):
        result.problem(None, TOO_MANY_ROWS)
        return result
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        header = next(reader)
    except csv.Error as exc:
        result.problem(1, f"the header cannot be read as CSV ({exc}).")
        return result
    columns = _columns(header, result)
    if result.problems:
        return result
    index = CardIndex(user)
    # Read every record first, so the index loads only the cards they name.
    records = _records(reader, columns)
    if records is None:
        result.rows = []
        result.problems = []
        result.problem(None, TOO_MANY_ROWS)
        return result
    index.load(cells for _, cells, _ in records if cells is not None)
    rows = []
    for start, cells, trouble in records:
        if isinstance(trouble, csv.Error):
            result.problem(start, f"cannot be read as CSV ({trouble}).")
        elif cells is None:
            result.problem(
                start, f"{trouble} cells, but the header has {len(columns)}."
            )
        else:
            row = _row(cells, start, index, result)
            if row is not None:
                rows.append(row)
    if not result.problems and not rows:
        result.problem(None, "The file has a header but no rows.")
    result.rows = [] if result.problems else _merge(rows)
    return result


def _columns(header: list[str], result: ReadResult) -> list[str]:
    """Return the header's column names; report unknown, doubled and missing ones."""
    columns = []
    for raw in header:
        name = _norm(unneutralise(raw))
        columns.append(ALIASES.get(name, name))
    unknown = [
        raw
        for raw, name in zip(header, columns, strict=True)
        if name and name not in HEADER
    ]
    if unknown:
        result.problem(
            1,
            "unknown column(s): "
            + ", ".join(unknown)
            + ". The columns are: "
            + ", ".join(HEADER)
            + ".",
        )
    duplicated = sorted({c for c in columns if c and columns.count(c) > 1})
    if duplicated:
        result.problem(1, "column(s) given twice: " + ", ".join(duplicated) + ".")
    missing = []
    if "quantity" not in columns:
        missing.append("quantity")
    if "name" not in columns:
        missing += [c for c in ("game", "set", "number") if c not in columns]
    if missing:
        result.problem(
            1,
            "missing column(s): " + ", ".join(missing) + ". A file needs quantity, "
            "and either game, set and number, or name.",
        )
    return columns


def _records(reader, columns: list[str]) -> list[tuple] | None:
    """Return the non-blank records as (line, cells, trouble); None past ``MAX_ROWS``.

    ``trouble`` is the cell count of a row longer than the header (its cells
    None), or the CSV error that ended the read.
    """
    records = []
    line = 1
    count = 0
    try:
        for record in reader:
            start = line + 1
            line = reader.line_num
            if not any(cell.strip() for cell in record):
                continue
            count += 1
            if count > MAX_ROWS:
                return None
            if len(record) > len(columns):
                records.append((start, None, len(record)))
                continue
            cells = {
                c: unneutralise(v) for c, v in zip(columns, record, strict=False) if c
            }
            records.append((start, cells, None))
    except csv.Error as exc:
        records.append((line + 1, None, exc))
    return records


BULK_LINE = [
    re.compile(r"^(?P<qty>\d+)\s*[x×]?\s+(?P<ref>.+)$"),
    re.compile(r"^(?P<qty>\d+)[x×](?P<ref>\S.*)$"),
    re.compile(r"^(?P<ref>.+?)\s*[x×]\s*(?P<qty>\d+)$"),
]
BULK_MAX_LINES = 1000


def read_bulk_text(
    text: str, *, user, game: str = "", card_set: str = ""
) -> ReadResult:
    """Read bulk-add lines such as "3 Dragoon", "2x #96" or "Dragoon x2"."""
    result = ReadResult()
    lines = text.splitlines()
    if len(lines) > BULK_MAX_LINES:
        result.problem(None, f"Add at most {BULK_MAX_LINES:,} lines at a time.")
        return result
    index = CardIndex(user)
    # Every line is read first, so the index loads only the cards they name.
    pending = []
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("//"):
            continue
        qty, ref = 1, line
        for pattern in BULK_LINE:
            match = pattern.match(line)
            if match:
                qty, ref = int(match["qty"]), match["ref"].strip()
                break
        if qty < 1 or qty > 9999:
            pending.append(
                (number, f"the number of copies must be 1 to 9999, not {qty}.")
            )
            continue
        cells = {"quantity": str(qty), "game": game, "set": card_set}
        if ref.startswith("#"):
            if not game:
                pending.append(
                    (number, f"choose a game to add cards by number ({ref}).")
                )
                continue
            if not card_set:
                # A number means the printed set: practice and custom sets are
                # chosen by name.
                sets = index.official_sets(game) or index.set_names(game)
                if len(sets) != 1:
                    pending.append(
                        (
                            number,
                            f"choose a set to add cards by number ({ref}): "
                            + ", ".join(index.set_names(game))
                            + ".",
                        )
                    )
                    continue
                cells["set"] = sets[0]
            cells["number"] = ref
        else:
            cells["name"] = ref
        pending.append((number, cells))
    index.load(cells for _, cells in pending if isinstance(cells, dict))
    rows = []
    for number, cells in pending:
        if isinstance(cells, str):
            result.problem(number, cells)
            continue
        row = _row(cells, number, index, result)
        if row is not None:
            rows.append(row)
    if not result.problems and not rows:
        result.problem(None, "Nothing to add: write one card per line.")
    result.rows = [] if result.problems else _merge(rows)
    return result


def write_csv(entries, out) -> None:
    """Write ``entries`` as a collection CSV (UTF-8 with a byte-order mark) to ``out``."""
    out.write("\ufeff")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(HEADER)
    for entry in entries:
        card = entry.card
        writer.writerow(
            neutralise(value)
            for value in (
                card.card_set.game.slug,
                card.card_set.slug,
                card.key,
                card.name or "",
                entry.quantity,
                entry.get_condition_display(),
                entry.finish,
                entry.language,
                entry.grading_company,
                "" if entry.grade is None else entry.grade,
                entry.wanted_quantity,
                entry.trade_quantity,
                "" if entry.g_power is None else entry.g_power,
                entry.notes,
            )
        )
