"""Read-only API over games, sets and cards, with the shared FilterSets."""

import json
from collections import OrderedDict
from dataclasses import dataclass
from threading import Lock

from django.core.exceptions import EmptyResultSet
from django.db import connections, router
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
from ..community.readings import card_verification
from ..filtersets import CardFilterSet, CardSetFilterSet, GameFilterSet, sort_cards
from ..models import Card, CardSet, Game
from .serializers import (
    CardSerializer,
    CardSetSerializer,
    GameSerializer,
    card_rows_json,
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


class JSONText(str):
    """JSON already written (by the database), spliced into a response as is."""


class SplicingJSONRenderer(JSONRenderer):
    """DRF's JSON renderer, writing JSONText values of a top-level dict verbatim."""

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if not isinstance(data, dict) or not any(
            isinstance(v, JSONText) for v in data.values()
        ):
            return super().render(data, accepted_media_type, renderer_context)
        indent = self.get_indent(accepted_media_type, renderer_context or {})
        if indent is not None or self.ensure_ascii or not self.compact:
            # Rare forms (the browsable API, ?indent): decode and render normally.
            data = {
                k: json.loads(v) if isinstance(v, JSONText) else v
                for k, v in data.items()
            }
            return super().render(data, accepted_media_type, renderer_context)
        parts = [
            json.dumps(key, ensure_ascii=False)
            + ":"
            + (value if isinstance(value, JSONText) else self._dump(value))
            for key, value in data.items()
        ]
        text = "{" + ",".join(parts) + "}"
        # As JSONRenderer does: these two are legal JSON but not legal JavaScript.
        text = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
        return text.encode()

    def _dump(self, value) -> str:
        return json.dumps(
            value,
            cls=self.encoder_class,
            ensure_ascii=False,
            allow_nan=not self.strict,
            separators=(",", ":"),
        )


@dataclass(frozen=True)
class CardListPlan:
    """The SQL of one card listing (filters, sort, visibility) and its search notes."""

    ids_sql: str
    ids_params: tuple
    count_sql: str
    count_params: tuple
    searched: str
    warnings: tuple


class CardRows:
    """A card listing as Django's Paginator sees it: a count and slices of JSON rows."""

    def __init__(self, plan: CardListPlan, using: str):
        self.plan, self.using = plan, using

    def count(self) -> int:
        with connections[self.using].cursor() as cursor:
            cursor.execute(self.plan.count_sql, self.plan.count_params)
            return cursor.fetchone()[0]

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, page: slice) -> list[str]:
        start, stop = page.start or 0, page.stop
        if stop is None or stop <= start:
            return []
        with connections[self.using].cursor() as cursor:
            cursor.execute(
                f"{self.plan.ids_sql} LIMIT %s OFFSET %s",
                (*self.plan.ids_params, stop - start, start),
            )
            ids = [row[0] for row in cursor.fetchall()]
        return card_rows_json(ids, using=self.using)


class PlanCache:
    """A bounded, per-process map from a listing's parameters to its CardListPlan."""

    # Turning the FilterSet and sort into SQL cost more than running it. The SQL
    # depends only on the parameters, the viewer and the database, never on the
    # data, so it is reused; every request still reads the rows.

    def __init__(self, size: int = 512):
        self.size, self.plans, self.lock = size, OrderedDict(), Lock()

    def get(self, key):
        with self.lock:
            plan = self.plans.get(key)
            if plan is not None:
                self.plans.move_to_end(key)
            return plan

    def put(self, key, plan) -> None:
        with self.lock:
            self.plans[key] = plan
            self.plans.move_to_end(key)
            while len(self.plans) > self.size:
                self.plans.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.plans.clear()


# Parameters that choose a page or a rendering, not the listing itself.
PAGE_PARAMETERS = frozenset({"page", "page_size", "format"})


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
    renderer_classes = [SplicingJSONRenderer, BrowsableAPIRenderer]
    plans = PlanCache()

    def get_queryset(self):
        return Card.objects.visible_to(self.request.user).with_related()

    def retrieve(self, request, *args, **kwargs):
        """One card, with ``field_verification``: each field whose level is not the
        card's own ``verification`` (confirmed by two readings, or disputed)."""
        card = self.get_object()
        data = dict(self.get_serializer(card).data)
        data["field_verification"] = card_verification(card)["fields"]
        return Response(data)

    def list(self, request, *args, **kwargs):
        using = router.db_for_read(Card)
        plan = self.list_plan(request, using)
        page = self.paginate_queryset(CardRows(plan, using))
        return self.paginator.get_paginated_response(
            JSONText("[" + ",".join(page) + "]"),
            warnings=plan.warnings,
            searched=plan.searched,
        )

    def list_plan(self, request, using: str) -> CardListPlan:
        """Return the listing's plan, validating the parameters when it is new."""
        params = request.query_params
        key = (
            using,
            request.user.pk,
            tuple(
                sorted(
                    (name, tuple(params.getlist(name)))
                    for name in params
                    if name not in PAGE_PARAMETERS
                )
            ),
        )
        plan = self.plans.get(key)
        if plan is not None:
            return plan
        # Bad parameters raise here (a 400) before anything is kept.
        queryset = self.filter_queryset(Card.objects.visible_to(request.user))
        queryset, sort_warning = sort_cards(queryset, params.get("sort"))
        parsed = search.parse_query(params.get("q", ""))
        try:
            ids_sql, ids_params = queryset.values_list("pk").query.sql_with_params()
        except EmptyResultSet:
            # Django proves some conditions match no row (number:-3 on a
            # positive column) and writes no SQL for them; list nothing.
            queryset = Card.objects.filter(pk__isnull=True)
            ids_sql, ids_params = queryset.values_list("pk").query.sql_with_params()
        count_sql, count_params = (
            queryset.order_by().values("pk").query.sql_with_params()
        )
        plan = CardListPlan(
            ids_sql=ids_sql,
            ids_params=tuple(ids_params),
            count_sql=f"SELECT COUNT(*) FROM ({count_sql}) listing",
            count_params=tuple(count_params),
            searched=parsed.description,
            warnings=tuple(parsed.warnings + ([sort_warning] if sort_warning else [])),
        )
        self.plans.put(key, plan)
        return plan


@extend_schema(
    responses=inline_serializer("Ping", {"ok": serializers.BooleanField()}),
    description="A trivial endpoint, the baseline of the API benchmark.",
)
@api_view(["GET"])
@permission_classes([AllowAny])
def ping(request):
    """Answer {"ok": true}."""
    return Response({"ok": True})
