"""Forms of the deck pages (the rules live in services and ``decks.rules``)."""

from django import forms

from cards.models import GameRecord
from cards.safejson import MAX_INT

from .choices import MAX_QUANTITY, Zone
from .models import Deck


class DeckForm(forms.ModelForm):
    game = forms.ModelChoiceField(
        queryset=GameRecord.objects.all(), to_field_name="slug"
    )

    class Meta:
        model = Deck
        fields = ["game", "name", "notes", "is_public"]
        labels = {"is_public": "Public (anyone can read it)"}


class DeckSettingsForm(forms.ModelForm):
    class Meta:
        model = Deck
        fields = ["name", "notes", "is_public"]
        labels = {"is_public": "Public (anyone can read it)"}


class EntryForm(forms.Form):
    card = forms.IntegerField(min_value=1, max_value=MAX_INT)
    zone = forms.ChoiceField(choices=Zone.choices, required=False)
    quantity = forms.IntegerField(min_value=1, max_value=MAX_QUANTITY, initial=1)
    # The figure slot the copies go to or come from (decks.models.DeckEntry).
    g_power = forms.IntegerField(required=False, min_value=0, max_value=MAX_INT)


class SlotForm(forms.Form):
    """One copy of a figure: which owned copy plays it, or a typed G-Power."""

    copy = forms.IntegerField(required=False, min_value=1, max_value=MAX_INT)
    g_power = forms.IntegerField(
        required=False, min_value=0, max_value=MAX_INT, label="G-Power"
    )


class ImportForm(forms.Form):
    text = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 16, "cols": 60}),
        max_length=50000,
        help_text="One card a line: 4 Name, 4x Name, Name x4 or 2 #96; "
        "zone headings like Blade: or # Line-up.",
    )
