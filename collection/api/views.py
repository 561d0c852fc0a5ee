"""The collection API: the signed-in user's entries, nobody else's."""

from django.core.exceptions import ValidationError
from django.http import Http404
from rest_framework import permissions, viewsets
from rest_framework.response import Response

from cards.community.readings import entries_as_read
from cards.selectors import hide_private_cards

from .. import services
from ..filtersets import CollectionEntryFilterSet
from ..models import CollectionEntry
from .serializers import CollectionEntrySerializer


class OwnerOnly(permissions.BasePermission):
    """Answer 404 to anonymous requests, as for another user's entries."""

    def has_permission(self, request, view):
        if not request.user or not request.user.is_authenticated:
            raise Http404
        return True


class CollectionEntryViewSet(viewsets.ModelViewSet):
    """List, create, update and delete the signed-in user's collection entries."""

    serializer_class = CollectionEntrySerializer
    permission_classes = [OwnerOnly]
    filterset_class = CollectionEntryFilterSet

    def get_queryset(self):
        return CollectionEntry.objects.of(self.request.user).with_related()

    def paginate_queryset(self, queryset):
        # A card whose set its owner made private shows as a stand-in.
        page = super().paginate_queryset(queryset)
        if page is not None:
            entries_as_read(self.request.user, page)
            hide_private_cards(page, self.request.user)
        return page

    def retrieve(self, request, *args, **kwargs):
        entry = self.get_object()
        entries_as_read(request.user, [entry])
        hide_private_cards([entry], request.user)
        return Response(self.get_serializer(entry).data)

    def perform_create(self, serializer):
        data = dict(serializer.validated_data)
        card = data.pop("card")
        serializer.instance = services.collection_entry_create(
            user=self.request.user, card=card, **data
        )

    def perform_update(self, serializer):
        data = dict(serializer.validated_data)
        card = data.pop("card", None)
        entry = serializer.instance
        if card is not None and card.pk != entry.card_id:
            raise ValidationError(
                {"card": "An entry's card cannot change; delete it and add another."},
                code="card_changed",
            )
        serializer.instance = services.collection_entry_update(entry=entry, **data)

    def perform_destroy(self, instance):
        services.collection_entry_delete(entry=instance)
