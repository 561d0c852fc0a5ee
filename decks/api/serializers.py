"""Deck serializers: shapes only; the rules live in services and ``decks.rules``."""

from rest_framework import serializers

from cards.choices import GameSlug
from cards.community.readings import entries_as_read
from cards.safejson import MAX_INT

from ..choices import MAX_ENTRIES, MAX_QUANTITY, Zone
from ..models import Deck, DeckEntry
from ..rules import is_legal, validate_deck
from ..selectors import hide_private


class EntrySerializer(serializers.Serializer):
    card = serializers.IntegerField(min_value=1, max_value=MAX_INT)
    quantity = serializers.IntegerField(min_value=1, max_value=MAX_QUANTITY)
    zone = serializers.ChoiceField(choices=Zone.choices)
    # A figure slot's typed G-Power, or the id of the owner's copy it names;
    # the rule is the deck service's (decks.models.slot_problem).
    g_power = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=MAX_INT
    )
    copy = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=MAX_INT
    )


class EntryReadSerializer(serializers.ModelSerializer):
    card = serializers.IntegerField(source="card_id")
    name = serializers.CharField(source="card.display_name")
    set_kind = serializers.CharField(source="card.card_set.kind")
    # What the slot plays with (its named copy's value as it is now); the copy
    # itself is the owner's collection entry and is not shown to readers.
    g_power = serializers.IntegerField(source="play_g_power", allow_null=True)

    class Meta:
        model = DeckEntry
        fields = ["card", "name", "set_kind", "quantity", "zone", "g_power"]


class ProblemSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    cards = serializers.ListField(child=serializers.IntegerField())
    level = serializers.ChoiceField(choices=["error", "warning"])


class DeckListSerializer(serializers.ModelSerializer):
    game = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    owner = serializers.CharField(source="owner.get_username", read_only=True)
    public = serializers.BooleanField(source="is_public")
    card_count = serializers.IntegerField(read_only=True, default=0)

    class Meta:
        model = Deck
        fields = ["id", "game", "name", "owner", "public", "card_count", "updated_at"]


class DeckSerializer(serializers.ModelSerializer):
    game = serializers.ChoiceField(choices=GameSlug.choices, source="game.slug")
    owner = serializers.CharField(source="owner.get_username", read_only=True)
    public = serializers.BooleanField(source="is_public", default=False)
    notes = serializers.CharField(
        allow_blank=True, required=False, default="", max_length=10000
    )
    # Written as {card, quantity, zone}; read back richer in to_representation.
    entries = EntrySerializer(
        many=True, required=False, write_only=True, max_length=MAX_ENTRIES
    )
    legal = serializers.SerializerMethodField()
    problems = serializers.SerializerMethodField()

    class Meta:
        model = Deck
        fields = [
            "id",
            "game",
            "name",
            "notes",
            "public",
            "owner",
            "entries",
            "legal",
            "problems",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["created_at", "updated_at"]

    def _reader(self):
        request = self.context.get("request")
        return request.user if request is not None else None

    def _shown(self, deck):
        """Return the deck's entries and problems as the reader may see them."""
        cache = getattr(self, "_shown_cache", {})
        if deck.pk not in cache:
            entries = entries_as_read(
                self._reader(),
                deck.entries.select_related(
                    "card__card_set__game", "copy", "deck"
                ).order_by("zone", "card_id"),
            )
            problems = validate_deck(deck.game.slug, entries)
            cache[deck.pk] = hide_private(entries, problems, self._reader())
            self._shown_cache = cache
        return cache[deck.pk]

    def _problems(self, deck):
        return self._shown(deck)[1]

    def get_legal(self, deck) -> bool:
        return is_legal(self._problems(deck))

    @staticmethod
    def _problem_dicts(problems):
        return [p.as_dict() for p in problems]

    def get_problems(self, deck) -> list[dict]:
        return ProblemSerializer(
            self._problem_dicts(self._problems(deck)), many=True
        ).data

    def to_representation(self, deck):
        data = super().to_representation(deck)
        data["entries"] = EntryReadSerializer(self._shown(deck)[0], many=True).data
        return data
