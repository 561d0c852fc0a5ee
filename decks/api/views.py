"""The deck API: the owner's decks, public decks, one deck with its legality."""

from rest_framework import status, viewsets
from rest_framework.exceptions import NotAuthenticated, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from .. import services
from ..filtersets import DeckFilterSet
from ..models import Deck
from ..selectors import with_card_counts
from .serializers import DeckListSerializer, DeckSerializer


class DeckViewSet(viewsets.ModelViewSet):
    """Decks. The list holds the signed-in user's own decks; ``?public=1`` lists
    everyone's public decks (anonymous users always get public decks). A private
    deck is 404 to anyone but its owner, and so is every write by a non-owner."""

    filterset_class = DeckFilterSet
    # Writes are checked per object (404 for non-owners) and in ``create``.
    permission_classes = [AllowAny]

    def get_queryset(self):
        user = self.request.user
        decks = Deck.objects.select_related("game", "owner")
        if self.action == "list":
            scoped = user.is_authenticated and "public" not in self.request.query_params
            decks = decks.owned_by(user) if scoped else decks.visible_to(user)
            return decks.order_by("-updated_at", "-id")
        if self.request.method in ("GET", "HEAD", "OPTIONS"):
            return decks.visible_to(user)
        return decks.owned_by(user)

    def paginate_queryset(self, queryset):
        page = super().paginate_queryset(queryset)
        if page is None or self.action != "list":
            return page
        # Counted for the page shown only (see selectors.with_card_counts).
        return with_card_counts(page)

    def get_serializer_class(self):
        return DeckListSerializer if self.action == "list" else DeckSerializer

    def create(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            raise NotAuthenticated("Sign in to create a deck.")
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        deck = services.deck_create(
            owner=request.user,
            game=data["game"]["slug"],
            name=data["name"],
            notes=data.get("notes", ""),
            is_public=data.get("is_public", False),
            entries=[dict(e) for e in data.get("entries", [])],
        )
        return Response(self.get_serializer(deck).data, status=status.HTTP_201_CREATED)

    def update(self, request, *args, **kwargs):
        partial = kwargs.pop("partial", False)
        deck = self.get_object()
        serializer = self.get_serializer(deck, data=request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        game = data.get("game", {}).get("slug")
        if game is not None and game != deck.game.slug:
            raise ValidationError({"game": ["A deck's game cannot change."]})
        # Entries are replaced only when sent, by PUT as by PATCH.
        entries = data.get("entries")
        deck = services.deck_update(
            deck=deck,
            name=data.get("name"),
            notes=data.get("notes") if "notes" in request.data or not partial else None,
            is_public=data.get("is_public") if "public" in request.data else None,
            entries=None if entries is None else [dict(e) for e in entries],
        )
        return Response(self.get_serializer(deck).data)

    def perform_destroy(self, instance):
        services.deck_delete(deck=instance)
