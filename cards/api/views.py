"""Read-only API over games, sets and cards, with the shared FilterSets."""

from django.db.models import Count
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, viewsets
from rest_framework.decorators import api_view, permission_classes
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from .. import search
from ..filtersets import CardFilterSet, CardSetFilterSet, GameFilterSet, sort_cards
from ..models import Card, CardSet, Game
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

    def get_queryset(self):
        return Card.objects.visible_to(self.request.user).with_related()

    def list(self, request, *args, **kwargs):
        queryset = self.filter_queryset(self.get_queryset())
        queryset, sort_warning = sort_cards(queryset, request.query_params.get("sort"))
        parsed = search.parse_query(request.query_params.get("q", ""))
        warnings = parsed.warnings + ([sort_warning] if sort_warning else [])
        # Rows as dicts: building three model instances per card was most of the cost.
        page = self.paginate_queryset(queryset.values(*VALUE_FIELDS))
        data = [represent_row(row) for row in page]
        return self.paginator.get_paginated_response(
            data, warnings=warnings, searched=parsed.description
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
