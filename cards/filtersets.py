"""FilterSets over games, sets and cards, shared by the HTML pages and the API."""

from functools import partial

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
    CardType,
    Colour,
    GameSlug,
    SetKind,
    Verification,
)
from .community.readings import search_as_read
from .games import GAMES
from .models import Card, CardSet, GameRecord

PIECE_CHOICES = [(name, name) for name in PIECE_CODES]
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


# --- the filters of the games' declared fields (``Field.filters``) ------------
# Each maker takes (game, field, filter name) and returns the filters that name
# brings, by name (a range brings three), or {} for one it cannot make.


def _number_filters(game, field, name: str) -> dict[str, filters.Filter]:
    """``<word>_min`` or ``<word>_max`` brings ``<word>`` and both bounds."""
    word, _, end = name.rpartition("_")
    if end not in ("min", "max"):
        return {}
    exact, low, high = _range(field.name, field.label)
    return {word: exact, f"{word}_min": low, f"{word}_max": high}


def _notch_filters(game, field, name: str) -> dict[str, filters.Filter]:
    """``edge_<n>``: the piece at notch n; ``<piece>_min``/``_max``: a piece count."""
    column = field.name
    word, _, end = name.rpartition("_")
    if word == "edge" and end.isdigit():
        notch = int(end)

        def at_notch(queryset, name, value):
            return queryset.filter(Exact(Substr(column, notch, 1), PIECE_CODES[value]))

        return {
            name: filters.ChoiceFilter(
                choices=PIECE_CHOICES, method=at_notch, label=f"Notch {notch}"
            )
        }
    if word not in PIECE_CODES or end not in ("min", "max"):
        return {}
    code = PIECE_CODES[word]

    def counted(lookup: str):
        def method(queryset, name, value):
            count = partial(search.piece_count, code, column)
            return queryset.filter(search._compare_q(count, lookup, int(value)))

        return method

    label = f"{word.title()} pieces"
    return {
        word: WholeNumberFilter(method=counted("exact"), label=label),
        f"{word}_min": WholeNumberFilter(
            method=counted("gte"), label=f"{label} at least"
        ),
        f"{word}_max": WholeNumberFilter(
            method=counted("lte"), label=f"{label} at most"
        ),
    }


def _choice_filters(game, field, name: str) -> dict[str, filters.Filter]:
    """A choice's value, each named as its column names it (none without choices)."""
    if not field.choices:
        return {}
    labels = dict(Card._meta.get_field(field.name).choices or ())
    choices = [(v, labels.get(v, v)) for v in field.choices]
    return {
        name: filters.ChoiceFilter(
            field_name=field.name, choices=choices, label=field.label
        )
    }


def _colour_filters(game, field, name: str) -> dict[str, filters.Filter]:
    """A colour, any of the site's (one the game does not print finds nothing)."""
    return {
        name: filters.ChoiceFilter(
            field_name=field.name, choices=COLOUR_CHOICES, label=field.label
        )
    }


def _letters_filters(game, field, name: str) -> dict[str, filters.Filter]:
    """One of the game's colours among the letters the column holds."""
    column = field.name

    def including(queryset, name, value):
        return queryset.filter(**{f"{column}__contains": COLOUR_LETTERS[value]})

    choices = [(c.value, c.value) for c in game.colours]
    label = f"{name.replace('_', ' ').capitalize()} colour"
    return {name: filters.ChoiceFilter(choices=choices, method=including, label=label)}


def _section_filters(game, field, name: str) -> dict[str, filters.Filter]:
    """A colour in this section (its own name), in any (another name), or wild."""
    if name == "wild":

        def wild(queryset, name, value):
            q = search.wild_q()
            return queryset.filter(q) if value else queryset.exclude(q)

        return {name: filters.BooleanFilter(method=wild, label="Has a wild section")}
    if name == field.name:
        columns, label = (field.name,), f"{field.label} colour"
    else:
        columns = tuple(f.name for f in game.printed if f.reading == "section")
        label = "Colour in any section"

    def coloured(queryset, name, value):
        return queryset.filter(search.section_q(COLOUR_LETTERS[value], columns))

    return {
        name: filters.ChoiceFilter(choices=COLOUR_CHOICES, method=coloured, label=label)
    }


def _text_filters(game, field, name: str) -> dict[str, filters.Filter]:
    """Text the column contains."""
    return {
        name: filters.CharFilter(
            field_name=field.name,
            lookup_expr="icontains",
            max_length=Card._meta.get_field(field.name).max_length,
            label=field.label,
        )
    }


FILTER_MAKERS = {
    "number": _number_filters,
    "pips": _number_filters,
    "bonus": _number_filters,
    "notches": _notch_filters,
    "choice": _choice_filters,
    "colour": _colour_filters,
    "letters": _letters_filters,
    "section": _section_filters,
    "text": _text_filters,
}


def declared_filters(games, makers=FILTER_MAKERS) -> dict[str, filters.Filter]:
    """Return the filters of the games' declared fields, made by each field's kind.

    A filter name two games declare is made once, from the first.
    """
    made = {}
    for game in games:
        for field in game.printed:
            maker = makers.get(field.reading)
            for name in field.filters:
                if maker is not None and name not in made:
                    made.update(
                        {
                            k: f
                            for k, f in maker(game, field, name).items()
                            if k not in made
                        }
                    )
    return made


# The declared filters, as a base whose filters the FilterSet inherits.
DeclaredFilterSet = type(
    "DeclaredFilterSet", (filters.FilterSet,), declared_filters(GAMES.values())
)


class CardFilterSet(DeclaredFilterSet):
    """Every card filter; ``q`` reads the search language (cards/search.py).

    Each game's own filters come from its declared fields (``declared_filters``).
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
        field_name="card_set__slug",
        max_length=60,
        label="Set",
        help_text="The set's short name, as its page's address writes it.",
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

    class Meta:
        model = Card
        fields = []

    def __init__(self, data=None, *args, prune: bool = False, reader=None, **kwargs):
        if prune and data is not None:
            # The API builds a FilterSet per request; copying ~100 filters and their
            # form fields cost more than the query, so keep only the ones given.
            self.base_filters = {
                k: f for k, f in self.base_filters.items() if k in data
            }
        super().__init__(data, *args, **kwargs)
        # Whose readings the search reads the cards with (the request's user).
        self.reader = reader or getattr(self.request, "user", None)
        self.search = search.parse_query("")

    def filter_q(self, queryset, name, value):
        self.search = search.parse_query(value)
        return search_as_read(self.reader, queryset, self.search.q)

    def filter_promo(self, queryset, name, value):
        return (
            queryset.filter(search.promo_q())
            if value
            else queryset.exclude(search.promo_q())
        )

    def filter_text(self, queryset, name, value):
        return queryset.filter(Q(name__icontains=value) | Q(text__icontains=value))
