"""Read-only API over games, sets and cards, with the shared FilterSets."""

from django.db.models import Count
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, viewsets
from rest_framework.decorators import api_view, permission_classes
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.response import Response

from .. import search
from ..filtersets import CardFilterSet, CardSetFilterSet, GameFilterSet, sort_cards
from ..models import Card, CardSet, Game
from . import cache
from .serializers import (
    VALUE_FIELDS,
    CardSerializer,
    CardSetSerializer,
    GameSerializer,
    represent_row,
)

# Meta.ordering is dropped from GROUP BY queries, so the count annotation restates it.
SET_ORDER = ("game__sort_order", "kind", "sort_order", "slug")


class PrunedFilterBackend(DjangoFilterBackend):
    """Build the FilterSet with only the filters the request names (see CardFilterSet)."""

    def get_filterset_kwargs(self, request, queryset, view):
        return {**super().get_filterset_kwargs(request, queryset, view), "prune": True}


class CardPagination(PageNumberPagination):
    """Pages of 50 (page_size up to 200), with the search's warnings and words."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_paginated_response(self, data, *, warnings=(), searched=""):
        response = super().get_paginated_response(data)
        response.data["searched"] = searched
        response.data["warnings"] = list(warnings)
        return response

    def get_paginated_response_schema(self, schema):
        schema = super().get_paginated_response_schema(schema)
        schema["properties"]["searched"] = {
            "type": "string",
            "description": "What was searched, in plain words.",
        }
        schema["properties"]["warnings"] = {
            "type": "array",
            "items": {"type": "string"},
            "description": "Search terms or parameters that were ignored, and why.",
        }
        return schema


# The listing's order: the sets in checklist order, then the cards of each set.
SET_KEY = (
    "card_set__game__sort_order",
    "card_set__kind",
    "card_set__sort_order",
    "card_set__slug",
    "card_set_id",
)
CARD_KEY = ("number", "key", "pk")


class SetOrderedCards:
    """A card listing in checklist order, as Django's Paginator reads it.

    It never sorts the whole listing: one query counts the matching cards of
    each set, in set order (a row per set); the page then reads and sorts only
    the cards of the sets it falls in.
    """

    def __init__(self, queryset):
        self.queryset = queryset.order_by()
        self._groups = None

    def groups(self) -> list[tuple[int, int]]:
        if self._groups is None:
            self._groups = list(
                self.queryset.values_list("card_set_id")
                .annotate(n=Count("pk"))
                .order_by(*SET_KEY)
                .values_list("card_set_id", "n")
            )
        return self._groups

    def count(self) -> int:
        return sum(n for _, n in self.groups())

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, page: slice) -> list[dict]:
        start, stop = page.start or 0, page.stop
        if stop is None or stop <= start:
            return []
        sets, before, seen = [], None, 0
        for set_id, n in self.groups():
            if seen + n > start and seen < stop:
                sets.append(set_id)
                before = seen if before is None else before
            seen += n
            if seen >= stop:
                break
        if not sets:
            return []
        offset = start - before
        rows = (
            self.queryset.filter(card_set_id__in=sets)
            .order_by(*SET_KEY, *CARD_KEY)
            .values(*VALUE_FIELDS)
        )
        return list(rows[offset : offset + stop - start])


class GameViewSet(viewsets.ReadOnlyModelViewSet):
    """The four games."""

    queryset = Game.objects.all()
    serializer_class = GameSerializer
    filterset_class = GameFilterSet
    permission_classes = [AllowAny]
    lookup_field = "slug"


class CardSetViewSet(viewsets.ReadOnlyModelViewSet):
    """Sets of every game: official, practice and the custom sets you may see."""

    serializer_class = CardSetSerializer
    filterset_class = CardSetFilterSet
    permission_classes = [AllowAny]

    def get_queryset(self):
        return (
            CardSet.objects.visible_to(self.request.user)
            .select_related("game")
            .annotate(card_count=Count("cards"))
            .order_by(*SET_ORDER)
        )


@extend_schema(
    parameters=[
        OpenApiParameter(
            "sort",
            OpenApiTypes.STR,
            description="number, name, type, colour or rarity; - first for descending. "
            "Any other value is ignored with a warning.",
        ),
    ]
)
class CardViewSet(viewsets.ReadOnlyModelViewSet):
    """Cards of every game; filter with the parameters or the search language in q."""

    serializer_class = CardSerializer
    filterset_class = CardFilterSet
    pagination_class = CardPagination
    permission_classes = [AllowAny]
    filter_backends = [PrunedFilterBackend]
    renderer_classes = [JSONRenderer, BrowsableAPIRenderer]

    def get_queryset(self):
        return Card.objects.visible_to(self.request.user).with_related()

    def dispatch(self, request, *args, **kwargs):
        # A kept answer skips DRF altogether (see cards/api/cache.py).
        if self.action_map.get(request.method.lower()) != "list":
            return super().dispatch(request, *args, **kwargs)
        key = cache.request_key(request)
        if key is None:
            return super().dispatch(request, *args, **kwargs)
        version = cache.card_list_version()
        response = cache.kept_answer(request, version, key)
        if response is None:
            response = super().dispatch(request, *args, **kwargs)
            cache.keep_answer(version, key, response)
        return response

    def list(self, request, *args, **kwargs):
        params = request.query_params
        queryset = self.filter_queryset(Card.objects.visible_to(request.user))
        sort = params.get("sort")
        queryset, sort_warning = sort_cards(queryset, sort)
        parsed = search.parse_query(params.get("q", ""))
        if sort and not sort_warning:
            rows = queryset.values(*VALUE_FIELDS)
        else:
            rows = SetOrderedCards(queryset)
        page = self.paginate_queryset(rows)
        return self.paginator.get_paginated_response(
            [represent_row(row) for row in page],
            warnings=parsed.warnings + ([sort_warning] if sort_warning else []),
            searched=parsed.description,
        )


@extend_schema(
    responses=inline_serializer("Ping", {"ok": serializers.BooleanField()}),
    description="A trivial endpoint, the baseline of the API benchmark.",
)
@api_view(["GET"])
@permission_classes([AllowAny])
def ping(request):
    """Answer {"ok": true}."""
    return Response({"ok": True})
