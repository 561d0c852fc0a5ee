"""Admin for decks: entries inline, versions read-only.

Decks and their entries are saved through ``decks.services``, as the pages and
the API save them, so every admin save checks the entries and keeps a version.
"""

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.forms.models import BaseInlineFormSet

from . import services
from .models import BudgetCharge, Deck, DeckEntry, DeckVersion
from .play.models import (
    DeckDoctor,
    DeckDoctorCandidate,
    DeckReport,
    DeckReportChunk,
    GameReview,
    Playtest,
    PlaytestMatch,
)
from .table.companion.models import TableGame


class DeckEntryFormSet(BaseInlineFormSet):
    """The deck's entries, checked together as the deck service checks them."""

    def entries(self) -> list[dict]:
        """Return the entries the formset leaves, as the deck service takes them."""
        return [
            {
                "card": form.cleaned_data["card"].pk,
                "zone": form.cleaned_data["zone"],
                "quantity": form.cleaned_data["quantity"],
            }
            for form in self.forms
            if form.cleaned_data and not form.cleaned_data.get("DELETE")
        ]

    def clean(self):
        super().clean()
        deck = self.instance
        if any(self.errors) or deck.game_id is None or deck.owner_id is None:
            return
        try:
            services.deck_entries_check(deck=deck, entries=self.entries())
        except ValidationError as error:
            raise ValidationError(error.messages) from error

    def add_fields(self, form, index):
        super().add_fields(form, index)
        # The page sends back the values it showed, so ``changed_data`` says
        # what this page changed, not what differs from the row as it is now.
        for field in form.fields.values():
            field.show_hidden_initial = True

    def changes(self) -> tuple[dict[int, dict], list[dict], list[int]]:
        """Return (changed entries by id, added entries, deleted entry ids)."""
        changed, added, deleted = {}, [], []
        for form in self.forms:
            if not form.has_changed() or not form.cleaned_data:
                continue
            data = form.cleaned_data
            if data.get("DELETE"):
                if form.instance.pk is not None:
                    deleted.append(form.instance.pk)
                continue
            row = {
                "card": data["card"].pk,
                "zone": data["zone"],
                "quantity": data["quantity"],
            }
            if form.instance.pk is None:
                added.append(row)
            else:
                names = {"card", "zone", "quantity"} & set(form.changed_data)
                changed[form.instance.pk] = {n: row[n] for n in names}
        return changed, added, deleted

    def save(self, commit=True):
        """Leave the writing to ``DeckAdmin.save_related``; note what changes."""
        self.new_objects, self.changed_objects, self.deleted_objects = [], [], []
        for form in self.forms:
            if not form.has_changed() or not form.cleaned_data:
                continue
            if form.cleaned_data.get("DELETE"):
                if form.instance.pk is not None:
                    self.deleted_objects.append(form.instance)
            elif form.instance.pk is None:
                self.new_objects.append(form.instance)
            else:
                self.changed_objects.append((form.instance, form.changed_data))
        return self.new_objects + [obj for obj, _ in self.changed_objects]


class DeckEntryInline(admin.TabularInline):
    model = DeckEntry
    formset = DeckEntryFormSet
    raw_id_fields = ["card", "copy"]
    extra = 0


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "owner", "is_public", "updated_at"]
    list_filter = ["game", "is_public"]
    search_fields = ["name", "owner__username"]
    raw_id_fields = ["owner"]
    inlines = [DeckEntryInline]

    def save_model(self, request, obj, form, change):
        """Save nothing yet: the deck and its entries are saved together below."""

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        for field in form.base_fields.values():
            field.show_hidden_initial = True  # changed_data: what this page changed
        return form

    def save_related(self, request, form, formsets, change):
        """Save the deck and its entries through the service: one new version.

        A change applies only what this page changed to the deck as it is now.
        """
        entry_formset = next(
            (f for f in formsets if isinstance(f, DeckEntryFormSet)), None
        )
        if entry_formset is not None:
            entry_formset.save()
        if not change:
            entries = entry_formset.entries() if entry_formset is not None else None
            services.deck_save(deck=form.instance, entries=entries)
        else:
            fields = {name: form.cleaned_data[name] for name in form.changed_data}
            changed, added, deleted = (
                entry_formset.changes() if entry_formset is not None else ({}, [], [])
            )
            services.deck_apply_changes(
                deck=form.instance,
                fields=fields,
                changed=changed,
                added=added,
                deleted=deleted,
            )
        form.save_m2m()

    def delete_model(self, request, obj):
        services.deck_delete(deck=obj)

    def delete_queryset(self, request, queryset):
        for deck in queryset:
            services.deck_delete(deck=deck)


@admin.register(DeckVersion)
class DeckVersionAdmin(admin.ModelAdmin):
    list_display = ["deck", "number", "name", "created_at"]
    readonly_fields = ["deck", "number", "name", "notes", "entries", "created_at"]

    def has_add_permission(self, request):
        return False


class DeckEntryAdminForm(forms.ModelForm):
    """An entry on its own; the card must be one the deck's owner can see."""

    class Meta:
        model = DeckEntry
        fields = ["deck", "card", "zone", "quantity"]

    def clean(self):
        cleaned = super().clean()
        deck = cleaned.get("deck") or getattr(self.instance, "deck", None)
        card = cleaned.get("card")
        if deck is not None and card is not None:
            services.deck_card_check(deck=deck, card=card)
        return cleaned


@admin.register(DeckEntry)
class DeckEntryAdmin(admin.ModelAdmin):
    form = DeckEntryAdminForm
    list_display = ["deck", "card", "zone", "quantity"]
    list_filter = ["zone", "deck__game"]
    search_fields = ["deck__name", "card__name"]
    raw_id_fields = ["deck", "card"]

    def get_readonly_fields(self, request, obj=None):
        # An entry stays in its deck: a move would change two decks' versions.
        return ["deck"] if obj is not None else []

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        for field in form.base_fields.values():
            field.show_hidden_initial = True  # changed_data: what this page changed
        return form

    def save_model(self, request, obj, form, change):
        if not change:
            services.deck_entry_save(entry=obj)
            return
        # Only what this page changed, onto the entry as it is now.
        services.deck_entry_change(
            entry=obj,
            **{n: getattr(obj, n) for n in form.changed_data if n != "deck"},
        )

    def delete_model(self, request, obj):
        services.deck_entry_delete(entry=obj)

    def delete_queryset(self, request, queryset):
        for entry in queryset.select_related("deck"):
            services.deck_entry_delete(entry=entry)


@admin.register(Playtest)
class PlaytestAdmin(admin.ModelAdmin):
    """Stored games are records of play: readable here, changed only by playing."""

    list_display = [
        "pk",
        "game",
        "owner",
        "version",
        "over",
        "winner",
        "match",
        "match_game",
        "updated_at",
    ]
    list_filter = ["game", "over"]
    search_fields = ["owner__username", "deck__name"]
    readonly_fields = [f.name for f in Playtest._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(PlaytestMatch)
class PlaytestMatchAdmin(admin.ModelAdmin):
    """Matches are records of play: their games are the score, changed only by playing."""

    list_display = ["pk", "game", "owner", "games", "updated_at"]
    list_filter = ["game"]
    search_fields = ["owner__username"]
    readonly_fields = [f.name for f in PlaytestMatch._meta.fields]

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


@admin.register(TableGame)
class TableGameAdmin(admin.ModelAdmin):
    """Table companion games are records of a physical game: readable here only."""

    list_display = ["pk", "name", "game", "owner", "version", "updated_at"]
    list_filter = ["game"]
    search_fields = ["name", "owner__username"]
    readonly_fields = [f.name for f in TableGame._meta.fields]

    def has_add_permission(self, request):
        return False


class _ReadOnly(admin.ModelAdmin):
    """Worker records (report slices, deck doctor runs): readable here only."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(DeckReportChunk)
class DeckReportChunkAdmin(_ReadOnly):
    list_display = ["pk", "report", "index", "first", "games", "done"]
    list_filter = ["done"]
    search_fields = ["report__deck__name"]


@admin.register(DeckDoctor)
class DeckDoctorAdmin(_ReadOnly):
    list_display = ["pk", "deck", "owner", "status", "created_at"]
    list_filter = ["status"]
    search_fields = ["deck__name", "owner__username"]


@admin.register(DeckDoctorCandidate)
class DeckDoctorCandidateAdmin(_ReadOnly):
    list_display = ["pk", "doctor", "index", "zone", "card_out", "card_in", "games"]
    list_select_related = ["card_out", "card_in"]
    search_fields = ["doctor__deck__name"]


@admin.register(GameReview)
class GameReviewAdmin(_ReadOnly):
    """The coach's reviews of stored games (``decks.play.coach``)."""

    list_display = ["pk", "playtest", "owner", "status", "created_at"]
    list_filter = ["status"]
    search_fields = ["owner__username"]


@admin.register(BudgetCharge)
class BudgetChargeAdmin(_ReadOnly):
    """Work charged to a user's or an address's budget (``decks.budgets``)."""

    list_display = ["kind", "user", "ip_address", "amount", "created_at"]
    list_filter = ["kind"]
    search_fields = ["user__username", "ip_address"]
