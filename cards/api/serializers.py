"""Read-only serializers of games, sets and cards."""

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
        data = {
            "id": card.pk,
            "game": card_set.game.slug,
            "set": card_set.slug,
            "set_name": card_set.name,
            "set_kind": card_set.kind,
        }
        for name in CARD_FIELDS[1:]:
            data[name] = getattr(card, name)
        data["created_at"] = _datetime(card.created_at) if card.created_at else None
        data["updated_at"] = _datetime(card.updated_at) if card.updated_at else None
        data["page_url"] = self.get_page_url(card)
        data["image_url"] = self.get_image_url(card)
        return data
