"""Read-only serializers of games, sets and cards."""

import functools
from collections import OrderedDict
from threading import Lock

from django.db import connections
from rest_framework import serializers

from ..choices import SetKind
from ..games import COMMON_FIELDS, GAMES
from ..models import Card, CardSet, GameRecord

# What every card answers with: its id and the columns every game's cards have;
# the columns of its game follow (``printed_fields``).
COMMON_CARD_FIELDS = ("id", *COMMON_FIELDS)
# The games' own columns, each declared in its game's ``printed`` fields.
GAME_CARD_FIELDS = tuple(dict.fromkeys(f for g in GAMES.values() for f in g.fields))
CARD_FIELDS = COMMON_CARD_FIELDS + GAME_CARD_FIELDS
GAME_FIELD_NOTE = (
    "Only on the cards whose game and card type print it (every column of its "
    "game when the card type is unknown)."
)


def printed_fields(game: str, card_type: str | None) -> tuple[str, ...]:
    """Return the game columns a card of this game and type answers with."""
    spec = GAMES.get(game)
    return () if spec is None else _printed_fields(spec.slug, card_type)


@functools.cache
def _printed_fields(game: str, card_type: str | None) -> tuple[str, ...]:
    spec = GAMES[game]
    kind = spec.kind(card_type)
    if kind is None:
        return spec.fields
    return tuple(f for f in kind.fields if f in spec.fields)


def _datetime(value):
    """Format a datetime as DRF's DateTimeField does (ISO 8601, Z for UTC)."""
    text = value.isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


class GameSerializer(serializers.ModelSerializer):
    class Meta:
        model = GameRecord
        fields = ["slug", "name", "publisher", "year"]


class CardSetSerializer(serializers.ModelSerializer):
    game = serializers.CharField(source="game.slug", read_only=True)
    card_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = CardSet
        fields = [
            "id",
            "game",
            "slug",
            "name",
            "kind",
            "is_official",
            "year",
            "source",
            "notes",
            "card_count",
        ]


class CardSerializer(serializers.ModelSerializer):
    """A card with its game and set; unknown values are null (see not_printed).

    Besides the common fields, a card answers with the fields its game and card
    type print, not every game's columns; a card of unknown type answers with all
    of its game's.
    """

    game = serializers.CharField(source="card_set.game.slug", read_only=True)
    set = serializers.CharField(source="card_set.slug", read_only=True)
    set_name = serializers.CharField(source="card_set.name", read_only=True)
    set_kind = serializers.CharField(source="card_set.kind", read_only=True)
    page_url = serializers.SerializerMethodField()
    image_url = serializers.SerializerMethodField()

    class Meta:
        model = Card
        fields = [
            *CARD_FIELDS[:1],
            "game",
            "set",
            "set_name",
            "set_kind",
            *CARD_FIELDS[1:],
            "created_at",
            "updated_at",
            "page_url",
            "image_url",
        ]
        # The game columns are left out of the read-only (hence always present)
        # fields so the schema does not promise them on every card; the viewset
        # takes no writes.
        read_only_fields = [f for f in fields if f not in GAME_CARD_FIELDS]
        extra_kwargs = {
            name: {"required": False, "help_text": GAME_FIELD_NOTE}
            for name in GAME_CARD_FIELDS
        }

    def get_page_url(self, card) -> str:
        return f"/cards/{card.pk}/"

    def get_image_url(self, card) -> str:
        return f"/cards/{card.pk}/image.png"

    def to_representation(self, card):
        # The generic field-by-field path costs more than the database query on a
        # page of 50; this builds the same dict directly (a test keeps them equal).
        card_set = card.card_set
        row = {name: getattr(card, name) for name in CARD_FIELDS[1:]}
        row.update(
            id=card.pk,
            card_set__game__slug=card_set.game.slug,
            card_set__slug=card_set.slug,
            card_set__name=card_set.name,
            card_set__kind=card_set.kind,
            created_at=card.created_at,
            updated_at=card.updated_at,
        )
        return represent_row(row)


# What the list endpoint reads with .values(): no model instances are built.
VALUE_FIELDS = (
    *CARD_FIELDS,
    "card_set__game__slug",
    "card_set__slug",
    "card_set__name",
    "card_set__kind",
    "card_set__is_public",  # not shown: whether RepresentedCards may keep the row
    "created_at",
    "updated_at",
)


def represent_row(row: dict) -> dict:
    """Return the API form of a card read as a dict of VALUE_FIELDS."""
    pk = row["id"]
    data = {
        "id": pk,
        "game": row["card_set__game__slug"],
        "set": row["card_set__slug"],
        "set_name": row["card_set__name"],
        "set_kind": row["card_set__kind"],
    }
    for name in COMMON_CARD_FIELDS[1:]:
        data[name] = row[name]
    for name in printed_fields(row["card_set__game__slug"], row["card_type"]):
        data[name] = row[name]
    created, updated = row["created_at"], row["updated_at"]
    data["created_at"] = _datetime(created) if created else None
    data["updated_at"] = _datetime(updated) if updated else None
    data["page_url"] = f"/cards/{pk}/"
    data["image_url"] = f"/cards/{pk}/image.png"
    return data


class RowReader:
    """Read cards by id as dicts of VALUE_FIELDS, with SQL compiled once per count.

    The query (three tables, sixty columns) cost more to compile than to run;
    its SQL depends only on how many ids it is given, so the ORM compiles it
    once per count and connection, and each page reuses it with the ORM's own
    value converters.
    """

    def __init__(self, size: int = 64):
        self.size, self.plans, self.lock = size, OrderedDict(), Lock()

    def _plan(self, using: str, count: int):
        connection = connections[using]
        key = (using, count, id(connection))
        with self.lock:
            plan = self.plans.get(key)
            if plan is not None:
                self.plans.move_to_end(key)
                return plan
        query = (
            Card.objects.using(using)
            .order_by()
            .filter(pk__in=list(range(1, count + 1)))
            .values_list(*VALUE_FIELDS)
            .query
        )
        compiler = query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        if len(params) != count:
            raise RuntimeError("The card rows query takes only the ids.")
        converters = compiler.get_converters([col for col, _, _ in compiler.select])
        plan = (sql, compiler, converters)
        with self.lock:
            self.plans[key] = plan
            while len(self.plans) > self.size:
                self.plans.popitem(last=False)
        return plan

    def read(self, ids: list[int], *, using: str = "default") -> list[dict]:
        """Return the cards ``ids`` as dicts of VALUE_FIELDS, in that order."""
        if not ids:
            return []
        sql, compiler, converters = self._plan(using, len(ids))
        with connections[using].cursor() as cursor:
            cursor.execute(sql, list(ids))
            rows = cursor.fetchall()
        if converters:
            rows = compiler.apply_converters(rows, converters)
        by_id = {row[0]: dict(zip(VALUE_FIELDS, row, strict=True)) for row in rows}
        return [by_id[pk] for pk in ids if pk in by_id]


class RepresentedCards:
    """The API form of cards by id, kept per worker for one card list version.

    A listing with a filter never asked before still shows cards already
    shown: their rows are taken from here, and only the others are read.
    """

    def __init__(self, size: int = 5000):
        self.size, self.version, self.rows, self.lock = size, None, {}, Lock()

    def get(self, ids: list[int], *, version, using: str = "default") -> list[dict]:
        """Return the API form of the cards ``ids``, in that order."""
        with self.lock:
            if version is None or version != self.version:
                kept = {}
            else:
                kept = {pk: self.rows[pk] for pk in ids if pk in self.rows}
        missing = [pk for pk in ids if pk not in kept]
        if missing:
            rows = card_rows.read(missing, using=using)
            read = {row["id"]: represent_row(row) for row in rows}
            kept.update(read)
            # A private custom card changes under its owner's version only, so
            # it is read every time rather than kept under the shared one.
            read = {
                row["id"]: read[row["id"]]
                for row in rows
                if row["card_set__kind"] != SetKind.CUSTOM or row["card_set__is_public"]
            }
            if version is not None:
                with self.lock:
                    if version != self.version:
                        self.version, self.rows = version, {}
                    if len(self.rows) + len(read) > self.size:
                        self.rows = {}
                    self.rows.update(read)
        return [kept[pk] for pk in ids if pk in kept]

    def clear(self) -> None:
        with self.lock:
            self.version, self.rows = None, {}


represented_cards = RepresentedCards()


card_rows = RowReader()
