"""Forms of the community pages: proposals, review, custom sets, data-file imports.

The forms only collect values; every rule is checked by the services in
``cards.community.services`` (``Card.full_clean`` on the card as it would be saved).
"""

from django import forms
from django.core.exceptions import ValidationError

from .. import safejson
from ..choices import Verification
from ..models import Card, CardSet
from . import scans
from .services import (
    MAX_IMPORT_BYTES,
    SUBMITTABLE_KINDS,
    field_label,
    submission_fields,
)

# Fields a custom card's owner does not choose: the site sets them.
CUSTOM_FIXED = ("distribution",)


def _card_field(name: str) -> forms.Field:
    model_field = Card._meta.get_field(name)
    field = model_field.formfield(required=False)
    field.label = field_label(name)
    if model_field.help_text:
        field.help_text = model_field.help_text
    if isinstance(field, forms.JSONField):
        field.decoder = safejson.SafeJSONDecoder
        # An empty box means an empty list for these list fields.
        field.widget = forms.Textarea(attrs={"rows": 2})
    return field


class CardFieldsForm(forms.Form):
    """The fields of one game's cards, blank meaning unknown."""

    def __init__(self, *args, game: str, card: Card | None = None, exclude=(), **kw):
        super().__init__(*args, **kw)
        self.game = game
        self.card = card
        self.card_field_names = [f for f in submission_fields(game) if f not in exclude]
        for name in self.card_field_names:
            self.fields[name] = _card_field(name)
            if card is not None:
                self.fields[name].initial = getattr(card, name)

    def card_values(self, *, changed_only: bool) -> dict:
        """Return the entered card values (only those changed from the card's)."""
        values = {}
        for name in self.card_field_names:
            value = self.cleaned_data.get(name)
            model_field = Card._meta.get_field(name)
            if value is None and not model_field.null:
                value = model_field.get_default()
            if value in ("", None) and model_field.null:
                value = None
            if changed_only and self.card is not None:
                if getattr(self.card, name) == value:
                    continue
            values[name] = value
        return values

    def add_service_errors(self, error: ValidationError) -> None:
        """Show a service's ValidationError on the fields it names."""
        if not hasattr(error, "error_dict"):
            self.add_error(None, error)
            return
        for name, errors in error.error_dict.items():
            self.add_error(name if name in self.fields else None, errors)


class SubmissionForm(CardFieldsForm):
    """Propose a new card or a correction, with a source note and a scan."""

    def __init__(self, *args, game: str, card: Card | None = None, **kw):
        super().__init__(*args, game=game, card=card, **kw)
        if card is None:
            self.fields["set"] = forms.ModelChoiceField(
                queryset=CardSet.objects.filter(
                    game__slug=game, kind__in=SUBMITTABLE_KINDS
                ),
                to_field_name="slug",
                label="Set",
                help_text="The set the new card belongs to.",
            )
            self.order_fields(["set"])
        self.fields["source"].label = "Card data source"
        self.fields["source_note"] = forms.CharField(
            label="Where do these values come from?",
            help_text="My own copy, a scan, a rulebook page ...",
            widget=forms.Textarea(attrs={"rows": 2}),
            max_length=2000,
        )
        self.fields["scan"] = forms.FileField(
            required=False,
            label="Scan or photo of the card (optional)",
            help_text=(
                f"PNG, JPEG or WebP, up to {scans.MAX_BYTES // 1_048_576} MB and "
                f"{scans.LIMIT_TEXT}. It is shown on the card "
                "page once a moderator accepts it."
            ),
            widget=forms.ClearableFileInput(
                attrs={"accept": "image/png,image/jpeg,image/webp"}
            ),
        )

    def proposal(self) -> dict:
        """Return the proposed fields (with the set's slug for a new card)."""
        values = self.card_values(changed_only=True)
        if self.card is None:
            values = {k: v for k, v in values.items() if v not in (None, "", [])}
            values["set"] = self.cleaned_data["set"].slug
        return values


class CustomCardForm(CardFieldsForm):
    """One custom card's fields."""

    def __init__(self, *args, game: str, card: Card | None = None, **kw):
        super().__init__(*args, game=game, card=card, exclude=CUSTOM_FIXED, **kw)
        self.fields["key"].required = False
        self.fields["key"].help_text = "Leave empty for the next free number."
        self.fields["source"].required = False


class CustomSetForm(forms.Form):
    """A custom set's name and who may see it."""

    name = forms.CharField(max_length=120)
    is_public = forms.BooleanField(
        required=False,
        label="Anyone may see this set",
        help_text="Private sets are seen by you alone.",
    )
    notes = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 2}), max_length=2000
    )


class AcceptForm(forms.Form):
    verification = forms.ChoiceField(
        choices=Verification.choices,
        initial=Verification.UNVERIFIED,
        help_text="Verified: you checked the values against the source.",
    )
    note = forms.CharField(
        required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )


class RejectForm(forms.Form):
    reason = forms.CharField(max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))


class DataImportForm(forms.Form):
    file = forms.FileField(
        label="Card data file (JSON)",
        help_text="The format of fixtures/README.md: one game, whole sets.",
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_IMPORT_BYTES:
            raise ValidationError(
                f"The file is over {MAX_IMPORT_BYTES // 1_048_576} MB.",
                code="too_large",
            )
        try:
            return upload.read().decode("utf-8")
        except UnicodeDecodeError:
            raise ValidationError(
                "The file is not UTF-8 text.", code="not_text"
            ) from None
