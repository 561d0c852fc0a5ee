"""API of community card data: submissions, their review, and card history."""

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field, inline_serializer
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied, Throttled
from rest_framework.exceptions import ValidationError as BadRequest
from rest_framework.generics import ListAPIView
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from ... import safejson
from ...choices import Verification
from ...models import Card, CardChange, CardSubmission
from .. import readings
from .. import services as community
from ..trust import ReadingLimitReached


@extend_schema_field(OpenApiTypes.OBJECT)
class JSONObjectField(serializers.Field):
    """A JSON object, given as an object (JSON body) or as JSON text (multipart)."""

    default_error_messages = {"invalid": "Give the fields as a JSON object."}

    def to_internal_value(self, data):
        if isinstance(data, str):
            try:
                data = safejson.loads(data)
            except ValueError:
                self.fail("invalid")
        if not isinstance(data, dict):
            self.fail("invalid")
        return data

    def to_representation(self, value):
        return value


@extend_schema_field({"type": "integer", "nullable": True})
class NullableCardField(serializers.Field):
    """A card id, or null (or an empty multipart value) for a new card."""

    default_error_messages = {
        "invalid": "Give a card id, or null for a new card.",
        "missing": "No such card.",
    }

    def to_internal_value(self, data):
        if data in (None, "", "null"):
            return None
        if isinstance(data, bool):
            self.fail("invalid")
        try:
            pk = int(data)
        except (TypeError, ValueError):
            self.fail("invalid")
        user = self.context["request"].user
        card = Card.objects.visible_to(user).with_related().filter(pk=pk).first()
        if card is None:
            self.fail("missing")
        return card

    def to_representation(self, value):
        return value


class SubmissionSerializer(serializers.ModelSerializer):
    card = NullableCardField(allow_null=True, required=False)
    game = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    fields = JSONObjectField()
    submitter = serializers.CharField(source="submitter.username", read_only=True)
    reviewer = serializers.CharField(
        source="reviewer.username", read_only=True, default=None, allow_null=True
    )
    set = serializers.CharField(source="card_set.slug", read_only=True, default=None)
    scans = serializers.SerializerMethodField()

    class Meta:
        model = CardSubmission
        fields = [
            "id",
            "card",
            "game",
            "set",
            "is_new",
            "is_reading",
            "fields",
            "source",
            "status",
            "submitter",
            "reviewer",
            "reviewed_at",
            "reason",
            "verification",
            "scans",
            "created_at",
        ]
        read_only_fields = [
            "is_new",
            "is_reading",
            "status",
            "reviewed_at",
            "reason",
            "verification",
            "created_at",
        ]

    @extend_schema_field(
        inline_serializer(
            "SubmissionScan",
            {
                "id": serializers.IntegerField(),
                "status": serializers.CharField(),
                "width": serializers.IntegerField(),
                "height": serializers.IntegerField(),
            },
            many=True,
        )
    )
    def get_scans(self, instance):
        return [
            {"id": s.pk, "status": s.status, "width": s.width, "height": s.height}
            for s in instance.scans.all()
        ]

    def to_representation(self, instance):
        data = super().to_representation(instance)
        data["card"] = instance.card_id
        return data


class SubmissionCreateSerializer(serializers.Serializer):
    card = NullableCardField(allow_null=True, required=False, default=None)
    game = serializers.CharField(max_length=20)
    fields = JSONObjectField()
    source = serializers.CharField(max_length=community.MAX_SOURCE_CHARS)
    scan = serializers.FileField(required=False, allow_empty_file=True)
    reading = serializers.BooleanField(
        default=False,
        help_text="True: your reading of the card, as on its transcribe page "
        "(it may confirm unknown values). False: a proposal for a moderator.",
    )


class AcceptSerializer(serializers.Serializer):
    verification = serializers.ChoiceField(
        choices=Verification.choices, default=Verification.UNVERIFIED
    )
    note = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=2000
    )


class RejectSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=community.MAX_REASON_CHARS)


class SubmissionViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """Proposed cards and corrections: your own, or all of them for moderators."""

    serializer_class = SubmissionSerializer
    permission_classes = [IsAuthenticated]
    filterset_fields = ["status", "is_reading"]

    def get_queryset(self):
        return community.visible_submissions(self.request.user).prefetch_related(
            "scans"
        )

    @extend_schema(request=SubmissionCreateSerializer, responses=SubmissionSerializer)
    def create(self, request, *args, **kwargs):
        incoming = SubmissionCreateSerializer(
            data=request.data, context=self.get_serializer_context()
        )
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        if data["reading"]:
            return self._read(request, data)
        submission = community.card_submission_create(
            user=request.user,
            game=data["game"],
            card=data.get("card"),
            fields=data["fields"],
            source=data["source"],
            scan=data.get("scan"),
        )
        out = self.get_serializer(submission)
        return Response(out.data, status=status.HTTP_201_CREATED)

    def _read(self, request, data):
        """Record or change the caller's reading through the transcribe page's service."""
        card = data.get("card")
        if card is None:
            raise BadRequest({"card": ["A reading names the card it reads."]})
        if card.card_set.game.slug != data["game"]:
            raise BadRequest(
                {"card": [f"This card is a {card.card_set.game.name} card."]}
            )
        existed = readings.own_reading(request.user, card) is not None
        try:
            reading = readings.card_reading_save(
                user=request.user,
                card=card,
                fields=data["fields"],
                source=data["source"],
                scan=data.get("scan"),
            )
        except ReadingLimitReached as limit:
            raise Throttled(
                wait=limit.wait.total_seconds(), detail=limit.message
            ) from None
        out = self.get_serializer(reading)
        code = status.HTTP_200_OK if existed else status.HTTP_201_CREATED
        return Response(out.data, status=code)

    def _moderated(self):
        # Seeing the submission comes first (404), then the right to review it (403).
        submission = self.get_object()
        if not community.is_moderator(self.request.user):
            raise PermissionDenied("Only moderators review submissions.")
        return submission

    @extend_schema(request=AcceptSerializer, responses=SubmissionSerializer)
    @action(detail=True, methods=["post"])
    def accept(self, request, pk=None):
        """Apply the proposal to the card (moderators), with a verification status."""
        submission = self._moderated()
        body = AcceptSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        community.card_submission_accept(
            submission=submission,
            moderator=request.user,
            verification=body.validated_data["verification"],
            note=body.validated_data["note"],
        )
        submission.refresh_from_db()
        return Response(self.get_serializer(submission).data)

    @extend_schema(request=RejectSerializer, responses=SubmissionSerializer)
    @action(detail=True, methods=["post"])
    def reject(self, request, pk=None):
        """Reject the proposal with a reason (moderators)."""
        submission = self._moderated()
        body = RejectSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        community.card_submission_reject(
            submission=submission,
            moderator=request.user,
            reason=body.validated_data["reason"],
        )
        submission.refresh_from_db()
        return Response(self.get_serializer(submission).data)


class CardChangeSerializer(serializers.ModelSerializer):
    user = serializers.CharField(
        source="user.username", read_only=True, default=None, allow_null=True
    )

    class Meta:
        model = CardChange
        fields = [
            "id",
            "created_at",
            "user",
            "created",
            "changes",
            "source",
            "submission",
        ]


@extend_schema(
    responses=CardChangeSerializer(many=True),
    description="Every recorded change of a card, newest first.",
)
class CardHistoryView(ListAPIView):
    """The change history of one card you may see."""

    serializer_class = CardChangeSerializer
    permission_classes = [AllowAny]
    filter_backends = []

    def get_queryset(self):
        card = get_object_or_404(
            Card.objects.visible_to(self.request.user), pk=self.kwargs["pk"]
        )
        return community.card_history(card=card)
