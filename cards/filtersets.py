"""FilterSets over games, sets and cards, shared by the HTML pages and the API."""

import django_filters as filters
from django import forms
from django.core.validators import ProhibitNullCharactersValidator
from django.db.models import F, Q
from django.db.models.functions import Substr
from django.db.models.lookups import Exact

from . import search
from .choices import (
    COLOUR_LETTERS,
    PIECE_CODES,
    Attribute,
    CardType,
    Colour,
    GameSlug,
    GateClass,
    SetKind,
    Symbol,
    Verification,
)
from .games import GAMES
from .models import Card, CardSet, GameRecord

PIECE_CHOICES = [(name, name) for name in ("bare", "live", "strike", "empty")]
MF_COLOUR_CHOICES = [(c, c) for c in search.MF_COLOURS]
COLOUR_CHOICES = Colour.choices

# Sort keys the checklist, the API and the search's order: accept (one list).
SORT_KEYS = search.SORT_KEYS
DEFAULT_SORT = (
    "card_set__game__sort_order",
    "card_set__kind",
    "card_set__sort_order",
    "card_set__slug",
    "number",
    "key",
    "pk",
)


def sort_cards(queryset, value: str | None):
    """Return the queryset ordered by a whitelisted sort key, and a warning or None."""
    if not value:
        return queryset.order_by(*DEFAULT_SORT), None
    descending = value.startswith("-")
    key = value.lstrip("-")
    key = search.SORT_ALIASES.get(key, key)
    if key not in SORT_KEYS:
        allowed = ", ".join(SORT_KEYS)
        shown = value[:40]
        return (
            queryset.order_by(*DEFAULT_SORT),
            f"Ignored the sort “{shown}”: sort by one of {allowed} (- first for "
            "descending).",
        )
    # Unknown values last either way, the same on SQLite and PostgreSQL (whose
    # defaults differ): sorting by spin lists the cards with a spin first.
    ordering = [
        F(f).desc(nulls_last=True) if descending else F(f).asc(nulls_last=True)
        for f in SORT_KEYS[key]
    ]
    return queryset.order_by(*ordering), None


class WholeNumberFilter(filters.NumberFilter):
    """A whole-number filter bounded so no value can overflow a column."""

    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", -search.MAX_NUMBER)
        kwargs.setdefault("max_value", search.MAX_NUMBER)
        super().__init__(*args, **kwargs)


class SearchField(forms.CharField):
    """A text field that lets the search language report null bytes and length."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.validators = [
            v
            for v in self.validators
            if not isinstance(v, ProhibitNullCharactersValidator)
        ]


class SearchFilter(filters.CharFilter):
    field_class = SearchField


def _range(field: str, label: str):
    """Return (exact, min, max) number filters over ``field``."""
    return (
        WholeNumberFilter(field_name=field, label=label),
        WholeNumberFilter(
            field_name=field, lookup_expr="gte", label=f"{label} at least"
        ),
        WholeNumberFilter(
            field_name=field, lookup_expr="lte", label=f"{label} at most"
        ),
    )


def _count_filter(piece: str, lookup: str):
    code = PIECE_CODES[piece]

    def method(self, queryset, name, value):
        return queryset.filter(
            search._compare_q(lambda: search.piece_count(code), lookup, int(value))
        )

    return method


class GameFilterSet(filters.FilterSet):
    slug = filters.ChoiceFilter(choices=GameSlug.choices)

    class Meta:
        model = GameRecord
        fields = ["slug"]


class CardSetFilterSet(filters.FilterSet):
    game = filters.ChoiceFilter(field_name="game__slug", choices=GameSlug.choices)
    kind = filters.MultipleChoiceFilter(choices=SetKind.choices)
    slug = filters.CharFilter(max_length=60)

    class Meta:
        model = CardSet
        fields = ["game", "kind", "slug"]


# The printed field kinds that hold a whole number.
NUMBER_KINDS = ("number", "pips", "bonus")


def declared_ranges() -> dict[str, filters.Filter]:
    """Return the number filters of the games' declared fields, by name.

    A number field that names ``<word>_min`` or ``<word>_max`` among its
    ``filters`` gets all three over its column: ``<word>``, ``<word>_min`` and
    ``<word>_max``, labelled with its label.
    """
    made = {}
    for game in GAMES.values():
        for field in game.printed:
            if field.kind not in NUMBER_KINDS:
                continue
            for name in field.filters:
                word, _, end = name.rpartition("_")
                if end in ("min", "max") and word not in made:
                    exact, low, high = _range(field.name, field.label)
                    made.update({word: exact, f"{word}_min": low, f"{word}_max": high})
    return made


# The declared number filters, as a base whose filters the FilterSet inherits.
DeclaredRangeFilterSet = type(
    "DeclaredRangeFilterSet", (filters.FilterSet,), declared_ranges()
)


class CardFilterSet(DeclaredRangeFilterSet):
    """Every card filter; ``q`` reads the search language (cards/search.py).

    The games' number ranges come from their declared fields (``declared_ranges``).
    """

    q = SearchFilter(
        method="filter_q",
        label="Search",
        help_text="The search language (keys, aliases, groups, order:): /search/help/",
    )
    game = filters.ChoiceFilter(
        field_name="card_set__game__slug", choices=GameSlug.choices, label="Game"
    )
    set = filters.CharFilter(
        field_name="card_set__slug", max_length=60, label="Set (slug)"
    )
    kind = filters.MultipleChoiceFilter(
        field_name="card_set__kind", choices=SetKind.choices, label="Kind of set"
    )
    type = filters.ChoiceFilter(
        field_name="card_type", choices=CardType.choices, label="Card type"
    )
    colour = filters.ChoiceFilter(choices=COLOUR_CHOICES, label="Colour")
    rarity = filters.CharFilter(lookup_expr="iexact", max_length=12, label="Rarity")
    number, number_min, number_max = _range("number", "Number")
    promo = filters.BooleanFilter(method="filter_promo", label="Promo")
    verification = filters.ChoiceFilter(
        choices=Verification.choices, label="Verification"
    )
    text = filters.CharFilter(
        method="filter_text", label="Name or text", max_length=200
    )
    name = filters.CharFilter(
        lookup_expr="icontains", max_length=160, label="Name contains"
    )

    # Collision.
    edge_1 = filters.ChoiceFilter(
        choices=PIECE_CHOICES, method="filter_edge", label="Notch 1"
    )
    edge_2 = filters.ChoiceFilter(
        choices=PIECE_CHOICES, method="filter_edge", label="Notch 2"
    )
    edge_3 = filters.ChoiceFilter(
        choices=PIECE_CHOICES, method="filter_edge", label="Notch 3"
    )
    edge_4 = filters.ChoiceFilter(
        choices=PIECE_CHOICES, method="filter_edge", label="Notch 4"
    )
    edge_5 = filters.ChoiceFilter(
        choices=PIECE_CHOICES, method="filter_edge", label="Notch 5"
    )
    edge_6 = filters.ChoiceFilter(
        choices=PIECE_CHOICES, method="filter_edge", label="Notch 6"
    )
    live = WholeNumberFilter(method="filter_live", label="Live pieces")
    live_min = WholeNumberFilter(method="filter_live_min", label="Live pieces at least")
    live_max = WholeNumberFilter(method="filter_live_max", label="Live pieces at most")
    strike = WholeNumberFilter(method="filter_strike", label="Strike pieces")
    strike_min = WholeNumberFilter(
        method="filter_strike_min", label="Strike pieces at least"
    )
    strike_max = WholeNumberFilter(
        method="filter_strike_max", label="Strike pieces at most"
    )
    empty = WholeNumberFilter(method="filter_empty", label="Empty pieces")
    empty_min = WholeNumberFilter(
        method="filter_empty_min", label="Empty pieces at least"
    )
    empty_max = WholeNumberFilter(
        method="filter_empty_max", label="Empty pieces at most"
    )
    symbol = filters.ChoiceFilter(choices=Symbol.choices, label="Symbol")

    # Metal Fusion.
    emblem = filters.CharFilter(lookup_expr="icontains", max_length=60, label="Emblem")
    launcher = filters.ChoiceFilter(choices=COLOUR_CHOICES, label="Launcher colour")
    booster = filters.ChoiceFilter(
        choices=MF_COLOUR_CHOICES, method="filter_booster", label="Booster colour"
    )

    # Collide-O!
    section = filters.ChoiceFilter(
        choices=COLOUR_CHOICES, method="filter_section", label="Colour in any section"
    )
    section_1 = filters.ChoiceFilter(
        choices=COLOUR_CHOICES, method="filter_section", label="Section 1 colour"
    )
    section_2 = filters.ChoiceFilter(
        choices=COLOUR_CHOICES, method="filter_section", label="Section 2 colour"
    )
    section_3 = filters.ChoiceFilter(
        choices=COLOUR_CHOICES, method="filter_section", label="Section 3 colour"
    )
    wild = filters.BooleanFilter(method="filter_wild", label="Has a wild section")

    # Bakugan.
    attribute = filters.ChoiceFilter(choices=Attribute.choices, label="Attribute")
    gate_class = filters.ChoiceFilter(choices=GateClass.choices, label="Gate class")

    filter_live = _count_filter("live", "exact")
    filter_live_min = _count_filter("live", "gte")
    filter_live_max = _count_filter("live", "lte")
    filter_strike = _count_filter("strike", "exact")
    filter_strike_min = _count_filter("strike", "gte")
    filter_strike_max = _count_filter("strike", "lte")
    filter_empty = _count_filter("empty", "exact")
    filter_empty_min = _count_filter("empty", "gte")
    filter_empty_max = _count_filter("empty", "lte")

    class Meta:
        model = Card
        fields = []

    def __init__(self, data=None, *args, prune: bool = False, **kwargs):
        if prune and data is not None:
            # The API builds a FilterSet per request; copying ~100 filters and their
            # form fields cost more than the query, so keep only the ones given.
            self.base_filters = {
                k: f for k, f in self.base_filters.items() if k in data
            }
        super().__init__(data, *args, **kwargs)
        self.search = search.parse_query("")

    def filter_q(self, queryset, name, value):
        self.search = search.parse_query(value)
        return queryset.filter(self.search.q)

    def filter_promo(self, queryset, name, value):
        return (
            queryset.filter(search.promo_q())
            if value
            else queryset.exclude(search.promo_q())
        )

    def filter_text(self, queryset, name, value):
        return queryset.filter(Q(name__icontains=value) | Q(text__icontains=value))

    def filter_edge(self, queryset, name, value):
        notch = int(name.rsplit("_", 1)[1])
        return queryset.filter(
            Exact(Substr("battle_edge", notch, 1), PIECE_CODES[value])
        )

    def filter_booster(self, queryset, name, value):
        return queryset.filter(boosters__contains=COLOUR_LETTERS[value])

    def filter_section(self, queryset, name, value):
        fields = (
            ("section_1", "section_2", "section_3") if name == "section" else (name,)
        )
        return queryset.filter(search.section_q(COLOUR_LETTERS[value], fields))

    def filter_wild(self, queryset, name, value):
        return (
            queryset.filter(search.wild_q())
            if value
            else queryset.exclude(search.wild_q())
        )
