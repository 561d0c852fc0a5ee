"""Read-only serializers of games, sets and cards."""

import json
from functools import lru_cache

from django.db import connections
from rest_framework import serializers

from ..models import Card, CardSet, Game

CARD_FIELDS = (
    "id",
    "key",
    "number",
    "printed_number",
    "name",
    "card_type",
    "colour",
    "rarity",
    "text",
    "lore",
    "code",
    "source",
    "verification",
    "distribution",
    "not_printed",
    "effects",
    "title",
    "subtitle",
    "battle_edge",
    "spin_strength",
    "symbol",
    "stat_red",
    "stat_blue",
    "stat_green",
    "stat_yellow",
    "emblem",
    "move_name",
    "move_kind",
    "move_red",
    "move_blue",
    "move_green",
    "move_yellow",
    "launcher",
    "boosters",
    "timing",
    "section_1",
    "section_2",
    "section_3",
    "attribute",
    "g_power",
    "gate_class",
    "bonus_pyrus",
    "bonus_aquos",
    "bonus_subterra",
    "bonus_haos",
    "bonus_darkus",
    "bonus_ventus",
)


def _datetime(value):
    """Format a datetime as DRF's DateTimeField does (ISO 8601, Z for UTC)."""
    text = value.isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


class GameSerializer(serializers.ModelSerializer):
    class Meta:
        model = Game
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
    """A card with its game and set; unknown values are null (see not_printed)."""

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
        read_only_fields = fields

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
    for name in CARD_FIELDS[1:]:
        data[name] = row[name]
    created, updated = row["created_at"], row["updated_at"]
    data["created_at"] = _datetime(created) if created else None
    data["updated_at"] = _datetime(updated) if updated else None
    data["page_url"] = f"/cards/{pk}/"
    data["image_url"] = f"/cards/{pk}/image.png"
    return data


JSON_COLUMNS = frozenset({"not_printed", "effects"})
DATETIME_COLUMNS = ("created_at", "updated_at")


def _sqlite_value(column: str, kind: str) -> str:
    if kind == "json":
        return f"json({column})"
    if kind == "datetime":
        # Django stores UTC as 'YYYY-MM-DD HH:MM:SS[.ffffff]', isoformat's shape.
        return f"replace({column}, ' ', 'T') || 'Z'"
    return column


def _postgresql_value(column: str, kind: str) -> str:
    if kind == "datetime":
        return (
            f"replace(to_char({column} AT TIME ZONE 'UTC', "
            "'YYYY-MM-DD\"T\"HH24:MI:SS.US'), '.000000', '') || 'Z'"
        )
    return column


# (object as text, most key/value pairs one call takes: the argument limits are
# 127 in SQLite and 100 in PostgreSQL; psycopg would decode a json value).
_OBJECT_SQL = {
    "sqlite": ("json_object({})", 60, _sqlite_value),
    "postgresql": ("json_build_object({})::text", 50, _postgresql_value),
}


@lru_cache(maxsize=256)
def card_json_sql(using: str, size: int) -> str | None:
    """Return SQL giving (id, JSON objects that join into represent_row's dict)."""
    # The database writes each row's JSON: converting ~60 values a row to Python
    # objects and back to text was most of the cost of a page.
    if connections[using].vendor not in _OBJECT_SQL:
        return None
    function, most, value = _OBJECT_SQL[connections[using].vendor]
    quote = connections[using].ops.quote_name

    def card(name):
        return f"c.{quote(Card._meta.get_field(name).column)}"

    pk = card("id")
    pairs = [
        ("id", pk),
        ("game", f"g.{quote('slug')}"),
        ("set", f"s.{quote('slug')}"),
        ("set_name", f"s.{quote('name')}"),
        ("set_kind", f"s.{quote('kind')}"),
        *(
            (name, value(card(name), "json" if name in JSON_COLUMNS else ""))
            for name in CARD_FIELDS[1:]
        ),
        *((name, value(card(name), "datetime")) for name in DATETIME_COLUMNS),
        ("page_url", f"'/cards/' || {pk} || '/'"),
        ("image_url", f"'/cards/' || {pk} || '/image.png'"),
    ]
    arguments = [f"'{key}', {sql}" for key, sql in pairs]
    objects = [
        function.format(", ".join(arguments[i : i + most]))
        for i in range(0, len(arguments), most)
    ]
    set_fk = quote(Card._meta.get_field("card_set").column)
    game_fk = quote(CardSet._meta.get_field("game").column)
    placeholders = ", ".join(["%s"] * size)
    return (
        f"SELECT {pk}, {', '.join(objects)} "
        f"FROM {quote(Card._meta.db_table)} c "
        f"INNER JOIN {quote(CardSet._meta.db_table)} s ON c.{set_fk} = s.{quote('id')} "
        f"INNER JOIN {quote(Game._meta.db_table)} g ON s.{game_fk} = g.{quote('id')} "
        f"WHERE {pk} IN ({placeholders})"
    )


def _join_objects(objects) -> str:
    """Return JSON objects' texts merged into one object's text."""
    if len(objects) == 1:
        return objects[0]
    return ",".join(text[1 if i else 0 : -1] for i, text in enumerate(objects)) + "}"


def card_rows_json(ids: list[int], *, using: str = "default") -> list[str]:
    """Return the API form of the cards ``ids``, in that order, as JSON texts."""
    if not ids:
        return []
    connection = connections[using]
    sql = card_json_sql(using, len(ids))
    if sql is None:
        rows = Card.objects.using(using).order_by().filter(pk__in=ids)
        texts = {
            row["id"]: json.dumps(
                represent_row(row), ensure_ascii=False, separators=(",", ":")
            )
            for row in rows.values(*VALUE_FIELDS)
        }
    else:
        with connection.cursor() as cursor:
            cursor.execute(sql, ids)
            texts = {row[0]: _join_objects(row[1:]) for row in cursor.fetchall()}
    return [texts[pk] for pk in ids]
