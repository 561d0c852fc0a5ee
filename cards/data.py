"""Card data files: parse, validate, diff, load and export whole sets.

The primary format is versioned JSON, one file per game (``fixtures/README.md``
describes it); CSV carries the cards of existing sets, one row per card. A field
absent from a card record is null (unknown); export writes every field of the
game explicitly, in a stable order, so export then load is lossless.

A load changes only what the file changed since it was last loaded: each card
keeps what its file said (``Card.file_values``), and a field edited since (a
moderator-accepted correction, say) keeps its edited value. A file that then
changes such a field is reported as a dispute, recorded in the card's history
and its verification, never applied.
"""

import csv
import io
import json
from dataclasses import dataclass, field

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models, transaction

from . import safejson
from .choices import SetKind, Verification
from .games import COMMON_FIELDS, GAMES
from .history import CARD_DATA_FIELDS, card_history_row
from .models import Card, CardSet, GameRecord
from .models import CardChange as CardChangeRow
from .signals import card_refreshes_deferred

FORMAT = "cardsite-card-data"
VERSION = 1
SET_FIELDS = ("slug", "name", "kind", "year", "icon", "source", "notes", "sort_order")
REQUIRED_SET_FIELDS = ("slug", "name", "kind")
# Custom sets belong to a user and never travel as data files.
FILE_KINDS = (SetKind.OFFICIAL.value, SetKind.PRACTICE.value)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a data file, located by set, card and field."""

    message: str
    field: str | None = None
    set_slug: str | None = None
    set_index: int | None = None
    key: str | None = None
    index: int | None = None

    @property
    def where(self) -> str:
        if self.set_slug is None and self.set_index is None:
            return "file"
        place = self.set_slug or f"set[{self.set_index}]"
        if self.key is not None:
            return f"{place}/{self.key}"
        if self.index is not None:
            return f"{place}/card[{self.index}]"
        return place

    def __str__(self) -> str:
        if self.field:
            return f"{self.where} {self.field}: {self.message}"
        return f"{self.where}: {self.message}"


class CardDataError(ValidationError):
    """A data file that cannot be loaded; ``problems`` lists every reason."""

    def __init__(self, problems: list[Problem], source_label: str = ""):
        self.problems = list(problems)
        self.source_label = source_label
        prefix = f"{source_label}: " if source_label else ""
        super().__init__([f"{prefix}{p}" for p in self.problems], code="card_data")


@dataclass
class CardData:
    """A parsed data file: its game and its set records (plain dicts)."""

    game: str
    sets: list[dict]
    version: int = VERSION


@dataclass(frozen=True)
class FieldChange:
    field: str
    old: object
    new: object


@dataclass(frozen=True)
class Dispute:
    """A field the file changed that was edited since: the edit is kept."""

    set_slug: str
    key: str
    field: str
    kept: object
    file: object

    def __str__(self) -> str:
        return (
            f"{self.set_slug}/{self.key} {self.field}: kept the reviewed value "
            f"{_short(self.kept)}; the file says {_short(self.file)}"
        )


def _short(value) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:59] + "…"


@dataclass(frozen=True)
class CardChange:
    """A new or changed record; ``key`` is None for the set's own fields."""

    set_slug: str
    key: str | None
    created: bool
    changes: tuple[FieldChange, ...] = ()
    disputes: tuple[Dispute, ...] = ()


@dataclass(frozen=True)
class LoadResult:
    created: int
    updated: int
    unchanged: int
    sets_created: int = 0
    sets_updated: int = 0
    disputes: tuple[Dispute, ...] = ()


@dataclass
class _PlannedCard:
    card: Card
    change: CardChange | None
    # The file's values changed while the card's did not.
    file_values_changed: bool = False


@dataclass
class _Plan:
    problems: list[Problem] = field(default_factory=list)
    sets: list[tuple[CardSet, CardChange | None]] = field(default_factory=list)
    cards: list[_PlannedCard] = field(default_factory=list)


# --- fields ------------------------------------------------------------------


# Written after a card's play fields, in this order.
TRAILING_FIELDS = (
    "text", "lore", "source", "verification", "distribution", "not_printed", "effects"
)  # fmt: skip


def card_fields(game: str) -> tuple[str, ...]:
    """Return the card fields a file of ``game`` carries, in their stable order."""
    used = set(COMMON_FIELDS) | set(GAMES[game].fields)
    head = [f for f in CARD_DATA_FIELDS if f in used and f not in TRAILING_FIELDS]
    return (*head, *TRAILING_FIELDS)


def _model_field(model, name: str) -> models.Field:
    return model._meta.get_field(name)


def _expected_type(model_field: models.Field) -> type:
    if isinstance(model_field, models.JSONField):
        return list
    if isinstance(model_field, models.IntegerField):
        return int
    return str


def _default(model_field: models.Field):
    if model_field.null:
        return None
    if model_field.has_default():
        return model_field.get_default()
    return _expected_type(model_field)()


def _type_problem(model_field: models.Field, value) -> str | None:
    """Return why ``value`` cannot go in ``model_field`` (None when it can)."""
    if value is None:
        if model_field.null:
            return None
        return "may not be null; leave the field out for its default."
    expected = _expected_type(model_field)
    if expected is int and (isinstance(value, bool) or not isinstance(value, int)):
        return f"must be a whole number, not {json.dumps(value)}."
    if expected is not int and not isinstance(value, expected):
        noun = "a list" if expected is list else "text"
        return f"must be {noun}, not {json.dumps(value)}."
    return None


# Effect steps are written in one key order: PostgreSQL's jsonb keeps no order of
# its own, so a load and export there must still give back the same file.
EFFECT_KEY_ORDER = ("op", "timing", "amount", "target", "turn", "attribute")


def _sorted_keys(value):
    """Return ``value`` with the keys of every dict in it in sorted order."""
    if isinstance(value, dict):
        return {k: _sorted_keys(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted_keys(item) for item in value]
    return value


def _canonical_step(step):
    if not isinstance(step, dict):
        return step
    known = [k for k in EFFECT_KEY_ORDER if k in step]
    # A step's own keys in the known order; what they hold (conditions such as
    # an "if" of a Bakugan card) with sorted keys, as jsonb keeps no order.
    return {k: _sorted_keys(step[k]) for k in known + sorted(set(step) - set(known))}


def _canonical(name: str, value):
    if name == "effects" and isinstance(value, list):
        return [_canonical_step(step) for step in value]
    return value


def _values(instance, names) -> dict:
    return {name: _canonical(name, getattr(instance, name)) for name in names}


def _record(values: dict, names, model) -> dict:
    return {
        name: _canonical(name, values[name])
        if name in values
        else _default(_model_field(model, name))
        for name in names
    }


def _card_sort_key(record: dict):
    number = record.get("number")
    return (number is None, number or 0, str(record.get("key")))


def _set_sort_key(record: dict):
    return (str(record.get("kind")), record.get("sort_order") or 0, record["slug"])


def card_data_normalise(*, data: dict) -> dict:
    """Return ``data`` with every field written out, in the export's order."""
    game = data["game"]
    names = card_fields(game)
    sets = []
    for raw in data["sets"]:
        record = _record(raw, SET_FIELDS, CardSet)
        cards = [_record(card, names, Card) for card in raw.get("cards", [])]
        record["cards"] = sorted(cards, key=_card_sort_key)
        sets.append(record)
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game,
        "sets": sorted(sets, key=_set_sort_key),
    }


def card_data_dumps(data: dict) -> str:
    """Return the stable JSON text of a data file."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


# --- parse -------------------------------------------------------------------


def card_data_parse(*, text: str) -> CardData:
    """Return the data file in ``text``; raise CardDataError on a structure error."""
    try:
        raw = safejson.loads(text)
    except json.JSONDecodeError as error:
        message = str(error).rstrip(".")
        raise CardDataError([Problem(f"Not valid JSON: {message}.")]) from error
    problems = []
    if not isinstance(raw, dict):
        raise CardDataError([Problem("The file must hold one JSON object.")])
    if raw.get("format") != FORMAT:
        problems.append(Problem(f'"format" must be "{FORMAT}".', field="format"))
    version = raw.get("version")
    if version != VERSION:
        problems.append(
            Problem(
                f"Unsupported version {json.dumps(version)}; this site reads "
                f"version {VERSION}.",
                field="version",
            )
        )
    game = raw.get("game")
    if not isinstance(game, str):
        problems.append(Problem('"game" must name the game.', field="game"))
    extra = sorted(set(raw) - {"format", "version", "game", "sets"})
    problems += [Problem("Unknown field.", field=name) for name in extra]
    sets = raw.get("sets")
    if not isinstance(sets, list):
        problems.append(Problem('"sets" must be a list of sets.', field="sets"))
        sets = []
    for set_index, card_set in enumerate(sets):
        if not isinstance(card_set, dict):
            problems.append(Problem("A set must be an object.", set_index=set_index))
            continue
        slug = card_set.get("slug") if isinstance(card_set.get("slug"), str) else None
        where = {"set_slug": slug, "set_index": set_index}
        cards = card_set.get("cards", [])
        if not isinstance(cards, list):
            problems.append(Problem("Must be a list of cards.", "cards", **where))
            continue
        for index, card in enumerate(cards):
            if not isinstance(card, dict):
                problems.append(
                    Problem("A card must be an object.", index=index, **where)
                )
    if problems:
        raise CardDataError(problems)
    return CardData(game=game, sets=sets, version=version)


# --- validate ----------------------------------------------------------------


def _clean_problems(error: ValidationError, where: dict) -> list[Problem]:
    problems = []
    for name, messages in error.message_dict.items():
        name = None if name == NON_FIELD_ERRORS else name
        problems += [Problem(message, name, **where) for message in messages]
    return problems


def _assign(instance, raw: dict, names, where: dict) -> list[Problem]:
    problems = []
    for name in names:
        model_field = _model_field(type(instance), name)
        value = raw.get(name, _default(model_field))
        problem = _type_problem(model_field, value)
        if problem:
            problems.append(Problem(problem, name, **where))
            value = _default(model_field)
        setattr(instance, name, value)
    return problems


def _change(
    set_slug, key, old: dict | None, new: dict, disputes=()
) -> CardChange | None:
    if old is None:
        return CardChange(set_slug, key, created=True)
    changes = tuple(
        FieldChange(name, old[name], new[name])
        for name in new
        if old[name] != new[name]
    )
    if not changes and not disputes:
        return None
    return CardChange(set_slug, key, False, changes, tuple(disputes))


_UNKNOWN = object()


def _reviewed_fields(card_set: CardSet) -> dict[int, dict[str, object]]:
    """Return, per card of ``card_set``, the fields last changed by submissions.

    Cards loaded before ``file_values`` was kept have no record of what their
    file said; for them, accepted corrections in the history mark the field,
    and the value before the first of them is what the file said.
    """
    reviewed: dict[int, dict[str, object]] = {}
    rows = (
        CardChangeRow.objects.filter(card__card_set=card_set)
        .order_by("created_at", "pk")
        .values_list("card_id", "submission_id", "changes")
    )
    for card_id, submission_id, changes in rows:
        fields = reviewed.setdefault(card_id, {})
        for change in changes:
            if submission_id is None:
                fields.pop(change["field"], None)
            else:
                fields.setdefault(change["field"], change["old"])
    return reviewed


def _keep_edits(card: Card, current: dict, file_says: dict, reviewed) -> list:
    """Put back on ``card`` each value edited since the file last said otherwise.

    ``reviewed()`` gives ``_reviewed_fields`` of the card's set. Return the
    disputes: fields the file changed although they were edited.
    """
    disputes = []
    for name, new in file_says.items():
        if new == current[name]:
            continue
        said = card.file_values.get(name, _UNKNOWN)
        if said is _UNKNOWN:
            said = reviewed().get(card.pk, {}).get(name, _UNKNOWN)
            edited = said is not _UNKNOWN
        else:
            edited = current[name] != _canonical(name, said)
        if not edited:
            continue  # the file's change applies
        setattr(card, name, current[name])
        if new != _canonical(name, said):
            disputes.append(
                Dispute(card.card_set.slug, card.key, name, current[name], new)
            )
    if any(d.field != "verification" for d in disputes):
        card.verification = Verification.DISPUTED
    return disputes


def _plan(data: CardData, game: str | None) -> _Plan:
    plan = _Plan()
    add = plan.problems.append
    if game is not None and data.game != game:
        add(Problem(f'This file is for "{data.game}", not "{game}".', "game"))
    if data.game not in GAMES:
        add(Problem(f'Unknown game "{data.game}".', "game"))
        return plan
    game_row = GameRecord.objects.filter(slug=data.game).first()
    if game_row is None:
        add(Problem(f'The game "{data.game}" is not in the database.', "game"))
        return plan
    seen_sets = set()
    for set_index, raw_set in enumerate(data.sets):
        slug = raw_set.get("slug") if isinstance(raw_set.get("slug"), str) else None
        where = {"set_slug": slug, "set_index": set_index}
        for name in sorted(set(raw_set) - set(SET_FIELDS) - {"cards"}):
            add(Problem("Unknown field.", name, **where))
        for name in REQUIRED_SET_FIELDS:
            if name not in raw_set:
                add(Problem("This field is required.", name, **where))
        if slug is not None and slug in seen_sets:
            add(Problem("This set appears twice in the file.", "slug", **where))
        seen_sets.add(slug)
        existing = (
            CardSet.objects.filter(game=game_row, slug=slug).first() if slug else None
        )
        card_set = existing or CardSet(game=game_row)
        old = _values(existing, SET_FIELDS) if existing else None
        plan.problems += _assign(card_set, raw_set, SET_FIELDS, where)
        if card_set.kind not in FILE_KINDS:
            add(
                Problem("Data files carry official and practice sets.", "kind", **where)
            )
        try:
            card_set.full_clean(validate_unique=False, validate_constraints=False)
        except ValidationError as error:
            plan.problems += _clean_problems(error, where)
        plan.sets.append(
            (card_set, _change(slug, None, old, _values(card_set, SET_FIELDS)))
        )
        in_db = {card.key: card for card in existing.cards.all()} if existing else {}
        plan.problems += _plan_cards(plan, raw_set.get("cards", []), card_set, in_db)
    return plan


def _plan_cards(plan: _Plan, records, card_set, in_db: dict) -> list[Problem]:
    problems = []
    seen = set()
    slug = card_set.slug
    found = []

    def reviewed() -> dict[int, set[str]]:
        if not found:
            found.append(_reviewed_fields(card_set))
        return found[0]

    for index, raw in enumerate(records):
        key = raw.get("key") if isinstance(raw.get("key"), str) else None
        where = {"set_slug": slug, "key": key, "index": index}
        for name in sorted(set(raw) - set(CARD_DATA_FIELDS)):
            problems.append(Problem("Unknown field.", name, **where))
        if key is not None and key in seen:
            problems.append(
                Problem("This key appears twice in the set.", "key", **where)
            )
        seen.add(key)
        existing = in_db.get(key)
        card = existing or Card(card_set=card_set)
        old = _values(existing, CARD_DATA_FIELDS) if existing else None
        problems += _assign(card, raw, CARD_DATA_FIELDS, where)
        file_says = _values(card, CARD_DATA_FIELDS)
        disputes = []
        if existing is not None:
            disputes = _keep_edits(card, old, file_says, reviewed)
        file_values_changed = card.file_values != file_says
        card.file_values = file_says
        exclude = ["card_set"] if card_set.pk is None else None
        try:
            card.full_clean(
                exclude=exclude, validate_unique=False, validate_constraints=False
            )
        except ValidationError as error:
            problems += _clean_problems(error, where)
        new = _values(card, CARD_DATA_FIELDS)
        change = _change(slug, key, old, new, disputes)
        plan.cards.append(_PlannedCard(card, change, file_values_changed))
    return problems


def card_data_validate(*, data: CardData, game: str | None = None) -> list[Problem]:
    """Return every problem that would stop ``data`` from loading."""
    return _plan(data, game).problems


def card_data_diff(*, data: CardData, game: str | None = None) -> list[CardChange]:
    """Return the new and changed sets and cards that loading ``data`` would make."""
    plan = _plan(data, game)
    if plan.problems:
        raise CardDataError(plan.problems)
    changes = [change for _, change in plan.sets]
    changes += [planned.change for planned in plan.cards]
    return [change for change in changes if change is not None]


# --- load --------------------------------------------------------------------


@transaction.atomic
def card_data_load(
    *, data: CardData, source_label: str = "", game: str | None = None, user=None
) -> LoadResult:
    """Upsert the sets and cards of ``data``; load nothing if anything is wrong.

    Only what the file changed since it was last loaded is applied; a field
    edited since keeps its value and is returned as a dispute. Each new,
    changed or disputed card gets one history row naming ``source_label``.
    """
    plan = _plan(data, game)
    if plan.problems:
        raise CardDataError(plan.problems, source_label)
    # The card-save receivers' refreshes (totals, card list version, search
    # words) run once for the file, not once per card.
    with card_refreshes_deferred():
        return _apply(plan, source_label, user)


def _apply(plan: _Plan, source_label: str, user) -> LoadResult:
    sets_created = sets_updated = 0
    for card_set, change in plan.sets:
        if change is not None:
            sets_created += change.created
            sets_updated += not change.created
            card_set.save()
    created = updated = unchanged = 0
    history, disputes = [], []
    for planned in plan.cards:
        card, change = planned.card, planned.change
        if change is None or not (change.created or change.changes):
            unchanged += 1
            if planned.file_values_changed:
                Card.objects.filter(pk=card.pk).update(file_values=card.file_values)
        else:
            created += change.created
            updated += not change.created
            card.save()
        if change is not None:
            disputes += change.disputes
            history.append(_history_row(card, change, source_label, user))
    CardChangeRow.objects.bulk_create([row for row in history if row is not None])
    return LoadResult(
        created, updated, unchanged, sets_created, sets_updated, tuple(disputes)
    )


def _history_row(card: Card, change: CardChange, source_label: str, user):
    # The plan kept the changed fields only; the rest are as the card is now.
    old = None
    if not change.created:
        old = {name: getattr(card, name) for name in CARD_DATA_FIELDS}
        old.update({c.field: c.old for c in change.changes})
    source = source_label or "Data file"
    if change.disputes:
        disputed = "; ".join(
            f"{d.field} (kept {_short(d.kept)}, the file says {_short(d.file)})"
            for d in change.disputes
        )
        source = f"{source} disagrees with reviewed values, not applied: {disputed}"
    return card_history_row(
        card=card, user=user, source=source, old=old, unchanged=bool(change.disputes)
    )


# --- export ------------------------------------------------------------------


def _export_sets(game: str, kind: str | None):
    sets = CardSet.objects.filter(game__slug=game, kind__in=FILE_KINDS)
    if kind is not None:
        sets = sets.filter(kind=kind)
    return sets.prefetch_related("cards")


def card_data_export(*, game: str, kind: str | None = None) -> dict:
    """Return the data file of ``game``'s official and practice sets."""
    names = card_fields(game)
    sets = []
    for card_set in _export_sets(game, kind):
        record = _values(card_set, SET_FIELDS)
        record["cards"] = [_values(card, names) for card in card_set.cards.all()]
        sets.append(record)
    return card_data_normalise(data={"game": game, "sets": sets})


# --- CSV ---------------------------------------------------------------------


def card_data_export_csv(*, game: str, kind: str | None = None) -> str:
    """Return one CSV row per card: set_slug, then the game's card fields."""
    data = card_data_export(game=game, kind=kind)
    names = card_fields(game)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("set_slug", *names))
    for card_set in data["sets"]:
        for card in card_set["cards"]:
            writer.writerow((card_set["slug"], *(_csv_cell(card[n]) for n in names)))
    return out.getvalue()


def _csv_cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _csv_value(model_field: models.Field, cell: str):
    expected = _expected_type(model_field)
    if cell == "":
        return None if model_field.null else _default(model_field)
    if expected is int:
        try:
            return int(cell)
        except ValueError:
            return cell  # reported as a wrong type by validation
    if expected is list:
        try:
            return safejson.loads(cell)
        except json.JSONDecodeError:
            return cell
    return cell


def card_data_parse_csv(*, game: str, text: str) -> CardData:
    """Return the cards in CSV ``text`` as data for sets already in the database."""
    reader = csv.DictReader(io.StringIO(text))
    columns = reader.fieldnames or []
    problems = [
        Problem("Unknown column.", name)
        for name in columns
        if name != "set_slug" and name not in CARD_DATA_FIELDS
    ]
    if "set_slug" not in columns:
        problems.append(Problem("The set_slug column is missing.", "set_slug"))
    if problems:
        raise CardDataError(problems)
    sets: dict[str, dict] = {}
    for row in reader:
        slug = row.pop("set_slug")
        if slug not in sets:
            card_set = CardSet.objects.filter(game__slug=game, slug=slug).first()
            if card_set is None:
                problems.append(
                    Problem(
                        "No such set; load it from a JSON file first.",
                        "set_slug",
                        set_slug=slug,
                    )
                )
                sets[slug] = {"slug": slug, "cards": []}
            else:
                sets[slug] = {**_values(card_set, SET_FIELDS), "cards": []}
        sets[slug]["cards"].append(
            {
                name: _csv_value(_model_field(Card, name), cell)
                for name, cell in row.items()
            }
        )
    if problems:
        raise CardDataError(problems)
    return CardData(game=game, sets=list(sets.values()))
