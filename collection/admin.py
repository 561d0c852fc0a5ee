from django.contrib import admin

from .accounts import RateLimitedAdminAuthenticationForm
from .models import CollectionEntry, ImportPreview, LoginAttempt, ShareLink

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


@admin.register(ShareLink)
class ShareLinkAdmin(admin.ModelAdmin):
    list_display = ["user", "kind", "created_at"]
    raw_id_fields = ["user"]


@admin.register(ImportPreview)
class ImportPreviewAdmin(admin.ModelAdmin):
    list_display = ["user", "mode", "source", "created_at"]
    exclude = ["rows", "changes"]
    raw_id_fields = ["user"]


@admin.register(LoginAttempt)
class LoginAttemptAdmin(admin.ModelAdmin):
    list_display = ["username", "ip_address", "created_at"]
    search_fields = ["username", "ip_address"]
