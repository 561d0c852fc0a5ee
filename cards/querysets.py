"""Querysets for sets and cards."""

from django.db import models, transaction
from django.db.models import Q

from .choices import SetKind


class VersionedQuerySet(models.QuerySet):
    """A queryset whose bulk writes, which send no signals, still mark the card list changed."""

    def update(self, **kwargs):
        from .api.cache import bump_card_list_version

        with transaction.atomic(using=self.db):
            bump_card_list_version()
            return super().update(**kwargs)

    def bulk_create(self, objs, *args, **kwargs):
        from .api.cache import bump_card_list_version

        with transaction.atomic(using=self.db):
            bump_card_list_version()
            return super().bulk_create(objs, *args, **kwargs)


class CardSetQuerySet(VersionedQuerySet):
    def official(self):
        return self.filter(kind=SetKind.OFFICIAL)

    def visible_to(self, user):
        """Return the sets this user may see: all but other users' private custom sets."""
        q = ~Q(kind=SetKind.CUSTOM) | Q(is_public=True)
        if user is not None and user.is_authenticated:
            q |= Q(owner=user)
        return self.filter(q)


class CardQuerySet(VersionedQuerySet):
    # Both keep each set's cards_total (cards/api/totals.py): they send no signals.
    def update(self, **kwargs):
        from .api.totals import set_totals_refresh

        with transaction.atomic(using=self.db):
            updated = super().update(**kwargs)
            if "card_set" in kwargs or "card_set_id" in kwargs:
                set_totals_refresh(using=self.db)
            return updated

    def bulk_create(self, objs, *args, **kwargs):
        from .api.totals import set_totals_refresh

        objs = list(objs)
        with transaction.atomic(using=self.db):
            created = super().bulk_create(objs, *args, **kwargs)
            set_totals_refresh({obj.card_set_id for obj in objs}, using=self.db)
            return created

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
