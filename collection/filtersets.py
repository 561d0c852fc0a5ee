"""The collection entry FilterSet, shared by the entries page and the API."""

import django_filters as filters
from django.db.models import Q

from cards.choices import GameSlug
from cards.community.readings import search_as_read
from cards.filtersets import CardFilterSet, WholeNumberFilter
from cards.models import Card
from cards.safejson import MAX_INT
from cards.search import parse_query

from .choices import Condition, Finish, GradingCompany, Language
from .models import CollectionEntry


def card_search(text: str):
    """Return (Q over Card, warnings) for the site's search language."""
    query = parse_query(text)
    return query.q, list(query.warnings)


def card_filterset_class():
    """Return the checklist's CardFilterSet."""
    return CardFilterSet


class CollectionEntryFilterSet(filters.FilterSet):
    q = filters.CharFilter(method="filter_q", label="Search cards")
    game = filters.ChoiceFilter(
        field_name="card__card_set__game__slug", choices=GameSlug.choices, label="Game"
    )
    set = filters.CharFilter(
        field_name="card__card_set__slug",
        label="Set",
        help_text="The set's short name, as its page's address writes it.",
    )
    card = WholeNumberFilter(
        field_name="card_id",
        min_value=1,
        max_value=MAX_INT,
        label="Card",
        help_text="The number in the card page's address.",
    )
    condition = filters.MultipleChoiceFilter(
        choices=Condition.choices, label="Condition"
    )
    finish = filters.ChoiceFilter(choices=Finish.choices, label="Finish")
    language = filters.ChoiceFilter(choices=Language.choices, label="Language")
    grading_company = filters.ChoiceFilter(
        choices=GradingCompany.choices, label="Grading company"
    )
    graded = filters.BooleanFilter(
        field_name="grade", lookup_expr="isnull", exclude=True, label="Graded"
    )
    owned = filters.BooleanFilter(
        method="filter_positive", field_name="quantity", label="Owned"
    )
    wanted = filters.BooleanFilter(
        method="filter_positive", field_name="wanted_quantity", label="Wanted"
    )
    for_trade = filters.BooleanFilter(
        method="filter_positive", field_name="trade_quantity", label="For trade"
    )

    class Meta:
        model = CollectionEntry
        fields = []

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.warnings = []

    def filter_q(self, queryset, name, value):
        if not value.strip():
            return queryset
        q, warnings = card_search(value)
        self.warnings.extend(warnings)
        reader = getattr(self.request, "user", None)
        cards = search_as_read(reader, Card.objects.all(), q)
        return queryset.filter(card__in=cards.values("pk"))

    def filter_positive(self, queryset, name, value):
        if value is None:
            return queryset
        positive = Q(**{f"{name}__gt": 0})
        return queryset.filter(positive) if value else queryset.exclude(positive)
