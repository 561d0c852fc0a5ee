"""Admin of community card data: submissions, scans, history, data imports, and
the roll-back of an account's card changes (an action on users).

Imported from ``CardsConfig.ready()``. Cards themselves are saved by the Card
admin (``cards/admin.py``) through ``cards.history.card_save``.
"""

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import PermissionDenied, ValidationError

from ..models import (
    CardChange,
    CardDataImport,
    CardSubmission,
    Census,
    CensusCount,
    FieldVerification,
    Scan,
)
from . import moderation
from . import services as community


class ScanInline(admin.TabularInline):
    model = Scan
    fk_name = "submission"
    extra = 0
    can_delete = False
    fields = ("image", "image_format", "width", "height", "size_bytes", "status")
    readonly_fields = fields


@admin.register(CardSubmission)
class CardSubmissionAdmin(admin.ModelAdmin):
    list_display = ("pk", "game", "card", "is_new", "submitter", "status", "created_at")
    list_filter = ("status", "game", "is_new")
    search_fields = ("source", "submitter__username")
    readonly_fields = (
        "submitter",
        "game",
        "card",
        "card_set",
        "is_new",
        "fields",
        "source",
        "status",
        "reviewer",
        "reviewed_at",
        "verification",
        "created_at",
    )
    inlines = [ScanInline]
    actions = ["accept_unverified", "reject_selected"]

    @admin.action(description="Accept selected (verification: unverified)")
    def accept_unverified(self, request, queryset):
        self._review(request, queryset, accept=True)

    @admin.action(description="Reject selected (reason: rejected in the admin)")
    def reject_selected(self, request, queryset):
        self._review(request, queryset, accept=False)

    def _review(self, request, queryset, *, accept: bool):
        done = 0
        for submission in queryset:
            try:
                if accept:
                    community.card_submission_accept(
                        submission=submission, moderator=request.user
                    )
                else:
                    community.card_submission_reject(
                        submission=submission,
                        moderator=request.user,
                        reason="Rejected in the admin.",
                    )
            except (ValidationError, PermissionDenied) as error:
                self.message_user(
                    request, f"#{submission.pk}: {error}", level=messages.ERROR
                )
            else:
                done += 1
        self.message_user(request, f"Reviewed {done} submissions.")


@admin.register(CardChange)
class CardChangeAdmin(admin.ModelAdmin):
    list_display = ("card", "user", "created", "source", "created_at")
    list_filter = ("created",)
    search_fields = ("source",)
    raw_id_fields = ("card", "user", "submission")

    # History is a record: it is never edited by hand.
    def has_change_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request):
        return False


@admin.register(Scan)
class ScanAdmin(admin.ModelAdmin):
    list_display = ("pk", "card", "uploader", "status", "image_format", "created_at")
    list_filter = ("status", "image_format")
    raw_id_fields = ("card", "submission", "uploader")
    readonly_fields = ("image", "thumbnail", "image_format", "width", "height",
                       "size_bytes")  # fmt: skip


@admin.register(CardDataImport)
class CardDataImportAdmin(admin.ModelAdmin):
    list_display = ("label", "user", "created_at")
    readonly_fields = ("user", "token", "label", "text", "created_at")


@admin.register(FieldVerification)
class FieldVerificationAdmin(admin.ModelAdmin):
    """Confirmed and disputed card fields: set by readings, settled by acceptance."""

    list_display = ("card", "field", "level", "updated_at")
    list_filter = ("level",)
    search_fields = ("field",)
    raw_id_fields = ("card",)
    readonly_fields = ("card", "field", "level", "value", "readings", "created_at",
                       "updated_at")  # fmt: skip

    # Readings and a moderator's acceptance write these, never a hand edit.
    def has_change_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request):
        return False


class CensusCountInline(admin.TabularInline):
    model = CensusCount
    extra = 0
    can_delete = False
    fields = ("section_1", "section_2", "section_3", "count")
    readonly_fields = fields


class ReadOnly:
    """A collector's own count: changed on the census page, never by hand here."""

    def has_change_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Census)
class CensusAdmin(ReadOnly, admin.ModelAdmin):
    """Collide-O! pack censuses; moderators settle them on the census compare page."""

    list_display = ("pk", "owner", "updated_at")
    search_fields = ("owner__username",)
    readonly_fields = ("owner", "card_set", "created_at", "updated_at")
    inlines = (CensusCountInline,)


@admin.register(CensusCount)
class CensusCountAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("census", "section_1", "section_2", "section_3", "count")
    search_fields = ("census__owner__username",)
    readonly_fields = ("census", "section_1", "section_2", "section_3", "count")


User = get_user_model()
if admin.site.is_registered(User):
    admin.site.unregister(User)


@admin.register(User)
class AccountAdmin(UserAdmin):
    """Django's user admin with the moderators' roll-back of an account's changes."""

    actions = ["roll_back_accounts"]

    @admin.action(description="Roll back every card change of the selected accounts")
    def roll_back_accounts(self, request, queryset):
        for account in queryset:
            try:
                result = moderation.account_roll_back(
                    moderator=request.user, account=account
                )
            except PermissionDenied as error:
                self.message_user(request, str(error), level=messages.ERROR)
                return
            self.message_user(
                request,
                f"Rolled back {account.get_username()}: {len(result.restored)} "
                f"fields restored, {len(result.kept)} kept, "
                f"{result.confirmations_removed} confirmations removed, "
                f"{result.rejected} waiting submissions rejected.",
            )
