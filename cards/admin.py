"""Admin for games, sets and cards."""

from django.contrib import admin

from .models import Card, CardSet, Game


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "publisher", "year", "sort_order"]
    search_fields = ["name", "slug"]


@admin.register(CardSet)
class CardSetAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "slug", "kind", "owner", "is_public", "year"]
    list_filter = ["game", "kind", "is_public"]
    search_fields = ["name", "slug"]
    list_select_related = ["game", "owner"]
    raw_id_fields = ["owner"]


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = [
        "printed_number",
        "number",
        "name",
        "card_type",
        "card_set",
        "verification",
    ]
    list_display_links = ["printed_number", "name"]
    list_filter = [
        "card_set__game",
        "card_set__kind",
        "card_type",
        "verification",
        "distribution",
    ]
    search_fields = ["name", "key", "printed_number", "text", "code"]
    list_select_related = ["card_set", "card_set__game"]
    raw_id_fields = ["card_set"]
    readonly_fields = ["created_at", "updated_at"]
    ordering = ["card_set__game__sort_order", "card_set", "number", "key"]
