"""Querysets for sets and cards."""

from django.db import models
from django.db.models import Q

from .choices import SetKind


class CardSetQuerySet(models.QuerySet):
    def official(self):
        return self.filter(kind=SetKind.OFFICIAL)

    def visible_to(self, user):
        """Return the sets this user may see: all but other users' private custom sets."""
        q = ~Q(kind=SetKind.CUSTOM) | Q(is_public=True)
        if user is not None and user.is_authenticated:
            q |= Q(owner=user)
        return self.filter(q)


class CardQuerySet(models.QuerySet):
    def official(self):
        return self.filter(card_set__kind=SetKind.OFFICIAL)

    def visible_to(self, user):
        """Return the cards this user may see: all but other users' private custom cards."""
        q = ~Q(card_set__kind=SetKind.CUSTOM) | Q(card_set__is_public=True)
        if user is not None and user.is_authenticated:
            q |= Q(card_set__owner=user)
        return self.filter(q)

    def with_related(self):
        return self.select_related("card_set", "card_set__game")
