"""Playtest and deck report API: games and reports are private to their owner."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from cards.safejson import MAX_INT

from ...engine.bots import BOT_NAMES
from ...models import Deck
from ..models import DeckReport, Playtest
from ..reports import (
    MAX_GAMES,
    MAX_OPPONENTS,
    deck_report_cancel,
    deck_report_start,
    report_requeue_stale,
)
from ..services import (
    MatchSummary,
    PlaytestError,
    PlaytestPage,
    playtest_page,
    playtest_page_after,
)


class PlaytestCreateSerializer(serializers.Serializer):
    deck = serializers.IntegerField(min_value=1, max_value=MAX_INT)
    opponent = serializers.ChoiceField(
        choices=[*BOT_NAMES, "hotseat"], default="random"
    )
    opponent_deck = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_INT
    )
    opponent_decks = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_INT),
        required=False,
        max_length=8,
    )
    players = serializers.IntegerField(
        required=False, default=2, min_value=2, max_value=8
    )
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**53 - 1)
    options = serializers.DictField(required=False)
    chance = serializers.ChoiceField(choices=["seed", "choose"], default="seed")
    match = serializers.BooleanField(
        default=False,
        help_text="Game 1 of a match, for games with a match mode (Collision: best of three).",
    )


class NextGameSerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=0, max_value=MAX_INT)


class MatchSerializer(serializers.Serializer):
    label = serializers.CharField()
    game = serializers.IntegerField(help_text="This game's place in the match.")
    games = serializers.IntegerField(help_text="Games started so far.")
    wins = serializers.ListField(child=serializers.IntegerField())
    draws = serializers.IntegerField()
    winner = serializers.IntegerField(allow_null=True)
    latest = serializers.IntegerField(
        allow_null=True, help_text="The game under way, when it is not this one."
    )


class ActionSerializer(serializers.Serializer):
    action = serializers.CharField(max_length=200)
    version = serializers.IntegerField(min_value=0, max_value=MAX_INT)


class UndoSerializer(serializers.Serializer):
    to = serializers.ChoiceField(choices=["last", "turn"], default="last")
    version = serializers.IntegerField(required=False, min_value=0, max_value=MAX_INT)


class ChoiceSerializer(serializers.Serializer):
    id = serializers.CharField()
    label = serializers.CharField()


class PlaytestStateSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    version = serializers.IntegerField()
    seed = serializers.IntegerField()
    view = serializers.DictField()
    legal_actions = ChoiceSerializer(many=True)
    over = serializers.BooleanField()
    winner = serializers.IntegerField(allow_null=True)
    log = serializers.ListField(child=serializers.CharField())
    match = MatchSerializer(allow_null=True)


def state_payload(page: PlaytestPage) -> dict:
    """Return the API's view of a playtest for the player to act."""
    pt, view = page.playtest, page.view
    return {
        "id": pt.pk,
        "game": pt.game,
        "version": pt.version,
        "seed": pt.seed,
        "view": view.to_json(),
        "legal_actions": [{"id": c.id, "label": c.label} for c in page.choices],
        "over": page.over,
        "winner": page.winner,
        # The action log as the viewer may read it (a game whose log holds a
        # secret, a Bakugan gate placed from hand, gives its view's copy).
        "log": list(view.board.get("log") or pt.log),
        "match": _match_payload(page.match),
    }


def _match_payload(summary: MatchSummary | None) -> dict | None:
    if summary is None:
        return None
    return {
        "label": summary.label,
        "game": summary.number,
        "games": summary.games,
        "wins": summary.wins,
        "draws": summary.draws,
        "winner": summary.winner,
        "latest": summary.latest,
    }


def _error(exc: PlaytestError) -> Response:
    body = {"code": exc.code, "detail": exc.message}
    if exc.details:
        body["cards"] = exc.details
    headers = None
    if exc.retry_after is not None:
        body["retry_after"] = exc.retry_after
        headers = {"Retry-After": str(exc.retry_after)}
    return Response(body, status=exc.status, headers=headers)


class PlaytestViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    permission_classes = [IsAuthenticated]
    serializer_class = PlaytestStateSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Playtest.objects.none()
        return Playtest.objects.filter(owner=self.request.user)

    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(
            self.get_queryset().only("id", "game", "version", "over", "winner")
        )
        rows = [
            {
                "id": p.pk,
                "game": p.game,
                "version": p.version,
                "over": p.over,
                "winner": p.winner,
            }
            for p in page
        ]
        return self.get_paginated_response(rows)

    def _exists(self, pk) -> bool:
        try:
            return self.get_queryset().filter(pk=int(pk)).exists()
        except (ValueError, TypeError):
            return False

    def _get(self, pk) -> Playtest | None:
        try:
            return self.get_queryset().get(pk=int(pk))
        except (Playtest.DoesNotExist, ValueError, TypeError):
            return None

    @extend_schema(
        request=PlaytestCreateSerializer, responses={201: PlaytestStateSerializer}
    )
    def create(self, request):
        data = PlaytestCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        visible = Deck.objects.visible_to(request.user).select_related("game")
        deck = visible.filter(pk=v["deck"]).first()
        if deck is None:
            return Response(
                {"deck": ["No such deck."]}, status=status.HTTP_400_BAD_REQUEST
            )
        ids = v.get("opponent_decks") or (
            [v["opponent_deck"]] if "opponent_deck" in v else []
        )
        opponents = []
        for pk in ids:
            other = visible.filter(pk=pk).first()
            if other is None:
                return Response(
                    {"opponent_deck": [f"No such deck: {pk}."]},
                    status=status.HTTP_400_BAD_REQUEST,
                )
            opponents.append(other)
        try:
            page = playtest_page_after(
                "create",
                owner=request.user,
                deck=deck,
                opponent=v["opponent"],
                opponent_decks=opponents,
                players=v["players"],
                seed=v.get("seed"),
                options=v.get("options") or {},
                chance=v["chance"],
                match=v["match"],
            )
        except PlaytestError as exc:
            return _error(exc)
        return Response(state_payload(page), status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: PlaytestStateSerializer})
    def retrieve(self, request, pk=None):
        pt = self._get(pk)
        if pt is None:
            return Response(
                {"detail": "No such game."}, status=status.HTTP_404_NOT_FOUND
            )
        return Response(state_payload(playtest_page(playtest=pt)))

    def _change(self, pk, serializer_class, change: str):
        """Validate the body, run an acting service, answer with the new state."""
        if not self._exists(pk):
            return Response(
                {"detail": "No such game."}, status=status.HTTP_404_NOT_FOUND
            )
        data = serializer_class(data=self.request.data)
        data.is_valid(raise_exception=True)
        try:
            page = playtest_page_after(
                change,
                playtest_id=int(pk),
                user=self.request.user,
                **data.validated_data,
            )
        except PlaytestError as exc:
            return _error(exc)
        return Response(state_payload(page))

    @extend_schema(request=ActionSerializer, responses={200: PlaytestStateSerializer})
    @action(detail=True, methods=["post"])
    def actions(self, request, pk=None):
        return self._change(pk, ActionSerializer, "act")

    @extend_schema(request=UndoSerializer, responses={200: PlaytestStateSerializer})
    @action(detail=True, methods=["post"])
    def undo(self, request, pk=None):
        return self._change(pk, UndoSerializer, "undo")

    @extend_schema(request=NextGameSerializer, responses={201: PlaytestStateSerializer})
    @action(detail=True, methods=["post"], url_path="next")
    def next_game(self, request, pk=None):
        """Start the next game of this game's match (refused as stale: 409)."""
        if not self._exists(pk):
            return Response(
                {"detail": "No such game."}, status=status.HTTP_404_NOT_FOUND
            )
        data = NextGameSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            page = playtest_page_after(
                "next", playtest_id=int(pk), user=request.user, **data.validated_data
            )
        except PlaytestError as exc:
            return _error(exc)
        return Response(state_payload(page), status=status.HTTP_201_CREATED)


class ReportCreateSerializer(serializers.Serializer):
    deck = serializers.IntegerField(min_value=1, max_value=MAX_INT)
    opponents = serializers.ListField(
        child=serializers.CharField(max_length=40),
        required=False,
        max_length=MAX_OPPONENTS,
        help_text="The opposing field, as the report form names it: presets, "
        '"random", "mirror", deck ids. None: the mirror.',
    )
    games = serializers.IntegerField(min_value=1, max_value=MAX_GAMES, default=100)
    bot = serializers.ChoiceField(choices=BOT_NAMES, default="greedy")
    seed = serializers.IntegerField(min_value=0, max_value=2**53 - 1, default=1)


class ReportSerializer(serializers.ModelSerializer):
    class Meta:
        model = DeckReport
        fields = [
            "id",
            "deck",
            "game",
            "bot",
            "games",
            "seed",
            "field",
            "status",
            "done_games",
            "result",
            "error",
            "created_at",
        ]
        read_only_fields = fields


class ReportViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Deck reports: start one (within the owner's quota), read it, cancel it."""

    permission_classes = [IsAuthenticated]
    serializer_class = ReportSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return DeckReport.objects.none()
        return DeckReport.objects.filter(owner=self.request.user).defer("decks")

    def _get(self, pk) -> DeckReport | None:
        try:
            return self.get_queryset().get(pk=int(pk))
        except (DeckReport.DoesNotExist, ValueError, TypeError):
            return None

    @extend_schema(request=ReportCreateSerializer, responses={201: ReportSerializer})
    def create(self, request):
        data = ReportCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        deck = (
            Deck.objects.visible_to(request.user)
            .select_related("game")
            .filter(pk=v["deck"])
            .first()
        )
        if deck is None:
            return Response(
                {"deck": ["No such deck."]}, status=status.HTTP_400_BAD_REQUEST
            )
        try:
            report = deck_report_start(
                owner=request.user,
                deck=deck,
                opponents=v.get("opponents") or (),
                games=v["games"],
                bot=v["bot"],
                seed=v["seed"],
            )
        except PlaytestError as exc:
            return _error(exc)
        return Response(ReportSerializer(report).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: ReportSerializer})
    def retrieve(self, request, pk=None):
        report = self._get(pk)
        if report is None:
            return Response(
                {"detail": "No such report."}, status=status.HTTP_404_NOT_FOUND
            )
        if report.unfinished and report_requeue_stale(report):
            report.refresh_from_db()
        return Response(ReportSerializer(report).data)

    @extend_schema(request=None, responses={200: ReportSerializer})
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        """Cancel a report waiting or running: its remaining slices are skipped."""
        report = self._get(pk)
        if report is None:
            return Response(
                {"detail": "No such report."}, status=status.HTTP_404_NOT_FOUND
            )
        return Response(ReportSerializer(deck_report_cancel(report=report)).data)
