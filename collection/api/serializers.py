"""Serializers of the collection API (shapes only; the rules are in the model)."""

from rest_framework import serializers

from cards.models import Card

from ..models import CollectionEntry


class VisibleCardField(serializers.PrimaryKeyRelatedField):
    """A card id the requesting user may see."""

    def get_queryset(self):
        request = self.context.get("request")
        return Card.objects.visible_to(getattr(request, "user", None))


class CollectionEntrySerializer(serializers.ModelSerializer):
    card = VisibleCardField()
    # Any whole number reaches the model, whose rule (the game's copy_check)
    # gives the one message a figure's G-Power gets everywhere.
    g_power = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=32767
    )
    card_name = serializers.CharField(source="card.display_name", read_only=True)
    game = serializers.CharField(source="card.card_set.game.slug", read_only=True)
    set = serializers.CharField(source="card.card_set.slug", read_only=True)
    number = serializers.CharField(source="card.key", read_only=True)

    class Meta:
        model = CollectionEntry
        fields = [
            "id",
            "card",
            "card_name",
            "game",
            "set",
            "number",
            "quantity",
            "condition",
            "finish",
            "language",
            "grading_company",
            "grade",
            "wanted_quantity",
            "trade_quantity",
            "g_power",
            "notes",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["id", "created_at", "updated_at"]
        # Uniqueness and cross-field rules are the model's, checked by the service.
        validators = []
