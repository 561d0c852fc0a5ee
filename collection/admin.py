"""Admin for collections; entries are saved and deleted through the services."""

from django.contrib import admin

from . import services
from .accounts import RateLimitedAdminAuthenticationForm
from .models import (
    AccountRequest,
    CollectionEntry,
    ImportPreview,
    LoginAttempt,
    ShareLink,
)

# The admin's log-in counts toward, and obeys, the same failed log-in limits.
admin.site.login_form = RateLimitedAdminAuthenticationForm


@admin.register(CollectionEntry)
class CollectionEntryAdmin(admin.ModelAdmin):
    list_display = [
        "user",
        "card",
        "quantity",
        "condition",
        "finish",
        "language",
        "grading_company",
        "grade",
        "wanted_quantity",
        "trade_quantity",
    ]
    list_filter = ["condition", "finish", "language", "grading_company"]
    search_fields = ["user__username", "card__name"]
    raw_id_fields = ["user", "card"]

    def get_readonly_fields(self, request, obj=None):
        # An entry's owner and card stay, as on the pages and in the API.
        return ["user", "card"] if obj is not None else []

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        if field is not None:
            # The page sends back the values it showed, so ``changed_data``
            # names the fields changed here, not those changed since by others.
            field.show_hidden_initial = True
        return field

    def save_model(self, request, obj, form, change):
        """Save the entry as the pages and the API do; a change writes its fields."""
        if not change:
            services.collection_entry_save(entry=obj)
            return
        changed = {name: form.cleaned_data[name] for name in form.changed_data}
        services.collection_entry_update(entry=obj, **changed)
        obj.refresh_from_db()

    def delete_model(self, request, obj):
        """Delete the entry as the pages and the API do."""
        services.collection_entry_delete(entry=obj)

    def delete_queryset(self, request, queryset):
        """Delete each selected entry through the service."""
        for entry in queryset:
            services.collection_entry_delete(entry=entry)


@admin.register(ShareLink)
class ShareLinkAdmin(admin.ModelAdmin):
    list_display = ["user", "kind", "created_at"]
    raw_id_fields = ["user"]


@admin.register(ImportPreview)
class ImportPreviewAdmin(admin.ModelAdmin):
    list_display = ["user", "mode", "source", "created_at"]
    exclude = ["rows", "changes"]
    raw_id_fields = ["user"]

    def delete_model(self, request, obj):
        """Discard the import as its owner's page does; the collection is unchanged."""
        services.collection_import_discard(user=obj.user, preview=obj)

    def delete_queryset(self, request, queryset):
        for preview in queryset.select_related("user"):
            services.collection_import_discard(user=preview.user, preview=preview)


@admin.register(LoginAttempt)
class LoginAttemptAdmin(admin.ModelAdmin):
    list_display = ["username", "ip_address", "created_at"]
    search_fields = ["username", "ip_address"]


@admin.register(AccountRequest)
class AccountRequestAdmin(admin.ModelAdmin):
    list_display = ["kind", "ip_address", "created_at"]
    list_filter = ["kind"]
    search_fields = ["ip_address"]
