"""The one FilterSet of decks, shared by the deck list page and the API."""

import django_filters as filters
from django.db.models import Q
from django_filters.widgets import BooleanWidget

from cards.choices import GameSlug

from .models import Deck


class DeckFilterSet(filters.FilterSet):
    game = filters.ChoiceFilter(field_name="game__slug", choices=GameSlug.choices)
    # Accepts 1/0 as well as true/false (?public=1).
    public = filters.BooleanFilter(
        field_name="is_public", label="Public", widget=BooleanWidget
    )
    q = filters.CharFilter(method="filter_q", label="Search", max_length=120)
    owner = filters.CharFilter(field_name="owner__username", max_length=150)

    class Meta:
        model = Deck
        fields = ["game", "public", "q", "owner"]

    def filter_q(self, queryset, name, value):
        value = value.strip()
        if not value:
            return queryset
        return queryset.filter(Q(name__icontains=value) | Q(notes__icontains=value))
