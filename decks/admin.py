"""Admin for decks: entries inline, versions read-only."""

from django.contrib import admin

from .models import Deck, DeckEntry, DeckVersion
from .playtest.models import DeckReport, Playtest


class DeckEntryInline(admin.TabularInline):
    model = DeckEntry
    raw_id_fields = ["card"]
    extra = 0


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "owner", "is_public", "updated_at"]
    list_filter = ["game", "is_public"]
    search_fields = ["name", "owner__username"]
    raw_id_fields = ["owner"]
    inlines = [DeckEntryInline]


@admin.register(DeckVersion)
class DeckVersionAdmin(admin.ModelAdmin):
    list_display = ["deck", "number", "name", "created_at"]
    readonly_fields = ["deck", "number", "name", "notes", "entries", "created_at"]

    def has_add_permission(self, request):
        return False


@admin.register(DeckEntry)
class DeckEntryAdmin(admin.ModelAdmin):
    list_display = ["deck", "card", "zone", "quantity"]
    list_filter = ["zone", "deck__game"]
    search_fields = ["deck__name", "card__name"]
    raw_id_fields = ["deck", "card"]


@admin.register(Playtest)
class PlaytestAdmin(admin.ModelAdmin):
    """Stored games are records of play: readable here, changed only by playing."""

    list_display = ["pk", "game", "owner", "version", "over", "winner", "updated_at"]
    list_filter = ["game", "over"]
    search_fields = ["owner__username", "deck__name"]
    readonly_fields = [f.name for f in Playtest._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(DeckReport)
class DeckReportAdmin(admin.ModelAdmin):
    list_display = [
        "pk",
        "deck",
        "owner",
        "games",
        "bot",
        "status",
        "done_games",
        "created_at",
    ]
    list_filter = ["game", "status", "bot"]
    search_fields = ["deck__name", "owner__username"]
    readonly_fields = [f.name for f in DeckReport._meta.fields]

    def has_add_permission(self, request):
        return False
