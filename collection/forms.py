"""Forms of the collection pages (the rules live in the model and the services)."""

from django import forms

from cards.choices import GameSlug

from .choices import CardStatus, ImportMode
from .csv_io import MAX_BYTES
from .models import CollectionEntry


class EntryForm(forms.ModelForm):
    class Meta:
        model = CollectionEntry
        fields = [
            "quantity",
            "condition",
            "finish",
            "language",
            "grading_company",
            "grade",
            "g_power",
            "wanted_quantity",
            "trade_quantity",
            "notes",
        ]
        labels = {
            "wanted_quantity": "Wanted",
            "trade_quantity": "For trade",
            "g_power": "G-Power of this copy (Bakugan figures)",
        }
        widgets = {"notes": forms.Textarea(attrs={"rows": 3})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The page sends back the values it showed, so ``changed_data`` names
        # the fields this person changed, not those changed since by others.
        for field in self.fields.values():
            field.show_hidden_initial = True


class ImportFileForm(forms.Form):
    file = forms.FileField(
        label="CSV file",
        help_text=f"UTF-8 CSV, at most {MAX_BYTES // (1024 * 1024)} MB.",
    )
    mode = forms.ChoiceField(choices=ImportMode.choices, initial=ImportMode.ADD)


class BulkAddForm(forms.Form):
    text = forms.CharField(
        label="Cards to add",
        widget=forms.Textarea(
            attrs={"rows": 8, "placeholder": "3 Dragoon\n2x #96\nDragoon x2"}
        ),
        max_length=100_000,
    )
    game = forms.ChoiceField(
        choices=[("", "Any game")] + GameSlug.choices,
        required=False,
        help_text="Needed to add cards by number (#96).",
    )
    set = forms.CharField(
        required=False, max_length=60, help_text="Set slug, when the game has several."
    )


class StatusForm(forms.Form):
    status = forms.ChoiceField(
        choices=CardStatus.choices, required=False, initial=CardStatus.OWNED
    )
