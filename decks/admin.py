"""Admin for decks: entries inline, versions read-only."""

from django.contrib import admin

from .models import Deck, DeckEntry, DeckVersion


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
