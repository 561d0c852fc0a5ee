"""Read-only API over games, sets and cards, with the shared FilterSets."""

from collections import OrderedDict
from threading import Lock

import orjson
from django.core.exceptions import EmptyResultSet
from django.db import connections, router
from django.db.models import Count, F, Sum, Window
from django.http import HttpResponse
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, viewsets
from rest_framework.decorators import api_view, permission_classes
from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.response import Response

from .. import search
from ..community.readings import (
    card_verification,
    cards_as_read,
    has_readings,
    pending_readings,
)
from ..filtersets import CardFilterSet, CardSetFilterSet, GameFilterSet, sort_cards
from ..models import Card, CardSet, GameRecord
from . import cache
from .serializers import (
    CardSerializer,
    CardSetSerializer,
    GameSerializer,
    represented_cards,
)

# Meta.ordering is dropped from GROUP BY queries, so the count annotation restates it.
SET_ORDER = ("game__sort_order", "kind", "sort_order", "slug")


class ListingFilterSet(CardFilterSet):
    """CardFilterSet whose form class is built once per set of parameters named.

    django-filter builds a form class (and a form field per filter) on every
    request; the class depends only on which filters are given, so it is kept.
    """

    form_classes: dict = {}
    form_classes_lock = Lock()

    def get_form_class(self):
        key = tuple(self.filters)
        form_class = self.form_classes.get(key)
        if form_class is None:
            form_class = super().get_form_class()
            with self.form_classes_lock:
                if len(self.form_classes) >= 1024:
                    self.form_classes.clear()
                self.form_classes[key] = form_class
        return form_class


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
CARD_KEY = ("number", "key", "pk")


class SortedCards:
    """A card listing in an explicit sort, as Django's Paginator reads it."""

    def __init__(self, queryset, using: str, version=None, totals=None, reader=None):
        self.queryset, self.using, self.version = queryset, using, version
        # Whose own readings the rows show (None: the cards as stored).
        self.reader = reader
        # The sets shown, with their kept totals, when the listing is not filtered.
        self.totals = totals

    def rows(self, ids: list[int]) -> list[dict]:
        rows = represented_cards.get(ids, version=self.version, using=self.using)
        return rows if self.reader is None else rows_as_read(self.reader, rows)

    def count(self) -> int:
        if self.totals is not None:
            return self.totals.count()
        return self.queryset.order_by().count()

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, page: slice) -> list[dict]:
        return self.rows(list(self.queryset.values_list("pk", flat=True)[page]))


def rows_as_read(user, rows: list[dict]) -> list[dict]:
    """Return API card rows with the cards ``user`` read in their read form."""
    found = pending_readings(user, [row["id"] for row in rows])
    if not found:
        return rows
    read = cards_as_read(user, Card.objects.with_related().filter(pk__in=found))
    shown = {card.pk: CardSerializer(card).data for card in read}
    return [shown.get(row["id"], row) for row in rows]


class SetTotals:
    """The sets an unfiltered listing shows, read through their kept card totals.

    Neither the count nor a page reads the list of sets: the count is one sum,
    and a page reads the sets it falls in, found by their running total in
    checklist order.
    """

    def __init__(self, sets):
        self.sets = sets.filter(cards_total__gt=0).order_by()
        self._count = None

    def count(self) -> int:
        if self._count is None:
            total = self.sets.aggregate(total=Sum("cards_total"))["total"]
            self._count = total or 0
        return self._count

    def overlapping(self, start: int, stop: int) -> list[tuple[int, int, int]]:
        """Return (set id, cards, cards before it) of the sets holding [start, stop)."""
        running = Window(Sum("cards_total"), order_by=[*SET_ORDER, "pk"])
        found = (
            self.sets.annotate(end=running)
            .filter(end__gt=start, end__lt=stop + F("cards_total"))
            .order_by("end")
            .values_list("pk", "cards_total", "end")
        )
        return [(pk, n, end - n) for pk, n, end in found]


class SetOrderedCards(SortedCards):
    """A card listing in checklist order, as Django's Paginator reads it.

    It never sorts the whole listing. The cards of each set are counted (a row
    per set holding a match, in set order; unfiltered, the sets' kept totals
    are read instead); the page then sorts only the cards of the sets it falls
    in. The filter is compiled once: both queries read it as a common table.
    """

    def __init__(self, queryset, using: str, version, totals=None, reader=None):
        super().__init__(queryset.order_by(), using, version, totals, reader)
        self._groups = None
        self._compiled = None

    def compiled(self):
        """Return (SQL, params) of the filtered cards' (id, set, number, key), or None."""
        if self._compiled is None:
            query = self.queryset.values_list("pk", "card_set_id", "number", "key")
            try:
                self._compiled = query.query.get_compiler(using=self.using).as_sql()
            except EmptyResultSet:
                self._compiled = False
        return self._compiled or None

    def execute(self, tail: str, params: list) -> list[tuple]:
        sql, filter_params = self.compiled()
        with connections[self.using].cursor() as cursor:
            cursor.execute(
                f"WITH listed (c_id, c_set, c_number, c_key) AS ({sql}) {tail}",
                [*filter_params, *params],
            )
            return cursor.fetchall()

    def groups(self) -> list[tuple[int, int]]:
        """Return (set id, matching cards) of the filtered listing, in set order."""
        if self._groups is None:
            if self.compiled() is None:
                self._groups = []
            else:
                sets, games = CardSet._meta.db_table, GameRecord._meta.db_table
                order = "g.sort_order, s.kind, s.sort_order, s.slug, s.id"
                self._groups = [
                    (set_id, n)
                    for set_id, n, *_ in self.execute(
                        f"SELECT c_set, COUNT(*), {order} FROM listed "
                        f'JOIN "{sets}" s ON s.id = c_set '
                        f'JOIN "{games}" g ON g.id = s.game_id '
                        f"GROUP BY c_set, {order} ORDER BY {order}",
                        [],
                    )
                ]
        return self._groups

    def count(self) -> int:
        if self.totals is not None:
            return self.totals.count()
        return sum(n for _, n in self.groups())

    def overlapping(self, start: int, stop: int) -> list[tuple[int, int, int]]:
        """Return (set id, cards, cards before it) of the sets holding [start, stop)."""
        if self.totals is not None:
            return self.totals.overlapping(start, stop)
        found, seen = [], 0
        for set_id, n in self.groups():
            if seen + n > start and seen < stop:
                found.append((set_id, n, seen))
            seen += n
            if seen >= stop:
                break
        return found

    def __getitem__(self, page: slice) -> list[dict]:
        start, stop = page.start or 0, page.stop
        if stop is None or stop <= start:
            return []
        found = self.overlapping(start, stop)
        if not found:
            return []
        sets = [set_id for set_id, _, _ in found]
        offset = start - found[0][2]
        marks = ", ".join(["%s"] * len(sets))
        if len(sets) > 1:
            rank = " ".join("WHEN %s THEN %s" for _ in sets)
            order = f"CASE c_set {rank} END, "
            params = [v for i, set_id in enumerate(sets) for v in (set_id, i)]
        else:
            order, params = "", []
        ids = self.execute(
            f"SELECT c_id FROM listed WHERE c_set IN ({marks}) "
            f"ORDER BY {order}c_number, c_key, c_id LIMIT %s OFFSET %s",
            [*sets, *params, stop - start, offset],
        )
        return self.rows([row[0] for row in ids])


class EverySetVisible:
    """Whether each user sees every set, kept per card list version.

    A user who does (no other user's private set exists) needs no condition on
    the listing at all. The answer is one small query, never the list of sets.
    """

    def __init__(self, size: int = 512):
        self.size, self.version, self.kept, self.lock = (
            size,
            None,
            OrderedDict(),
            Lock(),
        )

    def get(self, version, user, using: str) -> bool:
        key = user.pk if user.is_authenticated else None
        with self.lock:
            if version is not None and version == self.version and key in self.kept:
                self.kept.move_to_end(key)
                return self.kept[key]
        sets = CardSet.objects.using(using)
        answer = not sets.exclude(pk__in=sets.visible_to(user).values("pk")).exists()
        if version is not None:
            with self.lock:
                if version != self.version:
                    self.version, self.kept = version, OrderedDict()
                self.kept[key] = answer
                while len(self.kept) > self.size:
                    self.kept.popitem(last=False)
        return answer

    def clear(self) -> None:
        with self.lock:
            self.version, self.kept = None, OrderedDict()


JSON_MEDIA = frozenset({"", "*/*", "application/*", "application/json"})


def accepts_json(accept: str) -> bool:
    """Whether every media type ``accept`` names is one DRF answers with plain JSON."""
    return all(
        part.split(";", 1)[0].strip().lower() in JSON_MEDIA
        for part in accept.split(",")
    )


class _PageRequest:
    """What DRF's paginator reads of a request, over a plain Django request."""

    def __init__(self, request):
        self.query_params = request.GET
        self.build_absolute_uri = request.build_absolute_uri


class FastJSONRenderer(JSONRenderer):
    """DRF's compact JSON, written by orjson; indented JSON is left to DRF."""

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if data is None:
            return b""
        indent = self.get_indent(accepted_media_type, renderer_context or {})
        if indent is not None or self.ensure_ascii or not self.compact:
            return super().render(data, accepted_media_type, renderer_context)
        return self.dumps(data)

    @classmethod
    def dumps(cls, data) -> bytes:
        text = orjson.dumps(data, default=cls.encoder_class().default)
        # As DRF does: these two are legal JSON but not legal JavaScript.
        return text.replace(b"\xe2\x80\xa8", b"\\u2028").replace(
            b"\xe2\x80\xa9", b"\\u2029"
        )


class GameViewSet(viewsets.ReadOnlyModelViewSet):
    """The four games."""

    queryset = GameRecord.objects.all()
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
    every_set_visible = EverySetVisible()
    cache.WORKER_CACHES += [every_set_visible, represented_cards]

    def get_queryset(self):
        return Card.objects.visible_to(self.request.user).with_related()

    def retrieve(self, request, *args, **kwargs):
        """One card, with ``field_verification``: each field whose level is not the
        card's own ``verification`` (confirmed by two readings, or disputed)."""
        card = cards_as_read(request.user, [self.get_object()])[0]
        data = dict(self.get_serializer(card).data)
        data["field_verification"] = card_verification(card)["fields"]
        return Response(data)

    def dispatch(self, request, *args, **kwargs):
        # A kept answer skips DRF altogether (see cards/api/cache.py); a JSON page
        # not kept yet is made without DRF's request and response layers too.
        if self.action_map.get(request.method.lower()) != "list":
            return super().dispatch(request, *args, **kwargs)
        key = cache.request_key(request)
        if key is None or has_readings(request.user):
            # A reader's own readings change without the card list version.
            return super().dispatch(request, *args, **kwargs)
        using = router.db_for_read(Card)
        version, own = cache.card_list_versions(request.user, using)
        request.card_list_version = version
        key = (own, *key)
        response = cache.kept_answer(request, version, key)
        if response is None:
            response = self.plain_list(request, version, using)
            if response is None:  # a 400 or 404: DRF words it
                response = super().dispatch(request, *args, **kwargs)
            cache.keep_answer(version, key, response)
        return response

    def listing(self, params, user, version, using: str):
        """Return (rows for the paginator, warnings, searched), or None when a
        parameter is invalid (DRF's filter backend then answers 400)."""
        sets = CardSet.objects.using(using).visible_to(user)
        cards = Card.objects.using(using)
        if self.every_set_visible.get(version, user, using):
            base = cards.all()
        else:
            base = cards.filter(card_set_id__in=sets.values("pk"))
        reader = user if has_readings(user) else None
        filterset = ListingFilterSet(params, queryset=base, prune=True, reader=reader)
        if not filterset.is_valid():
            return None
        queryset = filterset.qs
        unfiltered = queryset.query.where == base.query.where
        parsed = filterset.search
        raw = params.get("q", "")
        if raw != raw.strip():
            # The form strips the query; the warnings count characters of what
            # was typed, so they are read from the query as it came.
            parsed = search.parse_query(raw)
        # The sort parameter wins; else the query's order: and direction:.
        sort = params.get("sort") or parsed.order
        sort_warning = None
        if sort:  # else the checklist order below, without sorting the listing
            queryset, sort_warning = sort_cards(queryset, sort)
        totals = SetTotals(sets) if unfiltered else None
        if sort and not sort_warning:
            rows = SortedCards(queryset, using, version, totals, reader)
        else:
            rows = SetOrderedCards(queryset, using, version, totals, reader)
        warnings = parsed.warnings + ([sort_warning] if sort_warning else [])
        return rows, warnings, parsed.description

    def plain_list(self, request, version, using: str):
        """The JSON page DRF would answer, made without DRF's layers, or None."""
        if not accepts_json(request.headers.get("Accept", "")):
            return None  # DRF negotiates (and may answer 406)
        listed = self.listing(request.GET, request.user, version, using)
        if listed is None:
            return None
        rows, warnings, searched = listed
        paginator = self.pagination_class()
        try:
            page = paginator.paginate_queryset(rows, _PageRequest(request), view=self)
        except NotFound:
            return None
        data = paginator.get_paginated_response(
            page, warnings=warnings, searched=searched
        ).data
        response = HttpResponse(
            FastJSONRenderer.dumps(data), content_type="application/json"
        )
        for name, value in self.default_response_headers.items():
            response[name] = value
        return response

    def list(self, request, *args, **kwargs):
        using = router.db_for_read(Card)
        version = getattr(request, "card_list_version", None)
        listed = self.listing(request.query_params, request.user, version, using)
        if listed is None:
            # The filter backend raises the 400 naming the invalid parameters.
            self.filter_queryset(Card.objects.none())
            raise AssertionError("an invalid filter set raises")  # pragma: no cover
        rows, warnings, searched = listed
        page = self.paginate_queryset(rows)
        return self.paginator.get_paginated_response(
            page, warnings=warnings, searched=searched
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
