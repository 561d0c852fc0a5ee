"""Admin for games, sets and cards; a card saved here is saved as every card is."""

from django import forms
from django.contrib import admin

from .history import card_save, card_values
from .models import (
    Card,
    CardListVersion,
    CardSet,
    CardWord,
    GameRecord,
    OwnerCardListVersion,
)


@admin.register(GameRecord)
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


class CardAdminForm(forms.ModelForm):
    """A card as the admin edits it: an empty text box means unknown (null).

    The admin builds the form's Meta (model and fields) from ``CardAdmin``.
    """

    def clean(self):
        cleaned = super().clean()
        # Before the model's checks run, so "not printed" fields read as empty.
        for field in Card._meta.concrete_fields:
            if field.null and cleaned.get(field.name) == "":
                cleaned[field.name] = None
        return cleaned


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    form = CardAdminForm
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

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        for field in form.base_fields.values():
            field.show_hidden_initial = True  # changed_data: what this page changed
        return form

    def save_model(self, request, obj, form, change):
        """Save the card through ``card_save``, which records its history row.

        A change writes only the fields this page changed onto the card as it is
        now (read under its row lock), so an edit made meanwhile is kept.
        """
        source = f"Edited in the admin by {request.user.get_username()}"
        if not change:
            card_save(card=obj, user=request.user, source=source)
            return
        current = Card.objects.select_for_update().get(pk=obj.pk)
        old = card_values(current)
        for name in form.changed_data:
            setattr(current, name, getattr(obj, name))
        card_save(card=current, user=request.user, source=source, old=old)


@admin.register(CardListVersion)
class CardListVersionAdmin(admin.ModelAdmin):
    """The card list's version (cards/api/cache.py): shown, never edited by hand."""

    list_display = ["value"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(OwnerCardListVersion)
class OwnerCardListVersionAdmin(CardListVersionAdmin):
    """Each user's own card list version: shown, never edited by hand."""

    list_display = ["owner", "value"]


@admin.register(CardWord)
class CardWordAdmin(admin.ModelAdmin):
    """The word search index (cards/words.py): kept by card saves, never by hand."""

    list_display = ["word", "field", "card"]
    list_select_related = ["card"]
    search_fields = ["word"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
