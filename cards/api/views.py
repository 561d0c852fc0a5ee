"""Read-only API over games, sets and cards, with the shared FilterSets."""

from threading import Lock

import orjson
from django.db import router
from django.db.models import Case, Count, When
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
from . import cache
from .serializers import (
    CardSerializer,
    CardSetSerializer,
    GameSerializer,
    represented_cards,
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


class SortedCards:
    """A card listing in an explicit sort, as Django's Paginator reads it."""

    def __init__(self, queryset, using: str, version=None):
        self.queryset, self.using, self.version = queryset, using, version

    def rows(self, ids: list[int]) -> list[dict]:
        return represented_cards.get(ids, version=self.version, using=self.using)

    def count(self) -> int:
        return self.queryset.order_by().count()

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, page: slice) -> list[dict]:
        return self.rows(list(self.queryset.values_list("pk", flat=True)[page]))


class SetOrderedCards(SortedCards):
    """A card listing in checklist order, as Django's Paginator reads it.

    It never sorts the whole listing: one query counts the matching cards of
    each set (a row per set), which are put in set order here; the page then
    sorts only the cards of the sets it falls in.
    """

    def __init__(self, queryset, using: str, version, set_order: dict):
        super().__init__(queryset.order_by(), using, version)
        self.set_order = set_order
        self._groups = None

    def groups(self) -> list[tuple[int, int]]:
        if self._groups is None:
            counts = self.queryset.values_list("card_set_id").annotate(n=Count("pk"))
            self._groups = sorted(
                counts.values_list("card_set_id", "n"),
                key=lambda group: self.set_order.get(group[0], (group[0],)),
            )
        return self._groups

    def count(self) -> int:
        return sum(n for _, n in self.groups())

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
        cards = self.queryset.filter(card_set_id__in=sets)
        if len(sets) > 1:
            rank = Case(
                *(When(card_set_id=set_id, then=i) for i, set_id in enumerate(sets))
            )
            cards = cards.alias(_set_rank=rank).order_by("_set_rank", *CARD_KEY)
        else:
            cards = cards.order_by(*CARD_KEY)
        return self.rows(
            list(cards.values_list("pk", flat=True)[offset : offset + stop - start])
        )


class SetOrder:
    """Each set's place in checklist order, read once per card list version."""

    def __init__(self):
        self.version, self.order, self.lock = None, {}, Lock()

    def get(self, version, using: str) -> dict:
        with self.lock:
            if version is not None and version == self.version:
                return self.order
        rows = CardSet.objects.using(using).values_list("pk", *SET_ORDER)
        order = {pk: (*key, pk) for pk, *key in rows}
        with self.lock:
            self.version, self.order = version, order
        return order

    def clear(self) -> None:
        with self.lock:
            self.version, self.order = None, {}


class FastJSONRenderer(JSONRenderer):
    """DRF's compact JSON, written by orjson; indented JSON is left to DRF."""

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if data is None:
            return b""
        indent = self.get_indent(accepted_media_type, renderer_context or {})
        if indent is not None or self.ensure_ascii or not self.compact:
            return super().render(data, accepted_media_type, renderer_context)
        text = orjson.dumps(data, default=self.encoder_class().default)
        # As DRF does: these two are legal JSON but not legal JavaScript.
        return text.replace(b"\xe2\x80\xa8", b"\\u2028").replace(
            b"\xe2\x80\xa9", b"\\u2029"
        )


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
            description=", ".join(search.SORT_KEYS)
            + "; - first for descending (the same words as the search's order:). "
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
    renderer_classes = [FastJSONRenderer, BrowsableAPIRenderer]
    set_order = SetOrder()
    cache.WORKER_CACHES += [set_order, represented_cards]

    def get_queryset(self):
        return Card.objects.visible_to(self.request.user).with_related()

    def retrieve(self, request, *args, **kwargs):
        """One card, with ``field_verification``: each field whose level is not the
        card's own ``verification`` (confirmed by two readings, or disputed)."""
        card = self.get_object()
        data = dict(self.get_serializer(card).data)
        data["field_verification"] = card_verification(card)["fields"]
        return Response(data)

    def dispatch(self, request, *args, **kwargs):
        # A kept answer skips DRF altogether (see cards/api/cache.py).
        if self.action_map.get(request.method.lower()) != "list":
            return super().dispatch(request, *args, **kwargs)
        key = cache.request_key(request)
        if key is None:
            return super().dispatch(request, *args, **kwargs)
        using = router.db_for_read(Card)
        version = request.card_list_version = cache.card_list_version(using)
        response = cache.kept_answer(request, version, key)
        if response is None:
            response = super().dispatch(request, *args, **kwargs)
            cache.keep_answer(version, key, response)
        return response

    def list(self, request, *args, **kwargs):
        params = request.query_params
        queryset = self.filter_queryset(Card.objects.visible_to(request.user))
        parsed = search.parse_query(params.get("q", ""))
        # The sort parameter wins; else the query's order: and direction:.
        sort = params.get("sort") or parsed.order
        queryset, sort_warning = sort_cards(queryset, sort)
        using = router.db_for_read(Card)
        version = getattr(request, "card_list_version", None)
        if sort and not sort_warning:
            rows = SortedCards(queryset, using, version)
        else:
            rows = SetOrderedCards(
                queryset, using, version, self.set_order.get(version, using)
            )
        page = self.paginate_queryset(rows)
        return self.paginator.get_paginated_response(
            page,
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
