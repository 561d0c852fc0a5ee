"""Querysets for sets and cards, the card list version and each set's card total.

The card list version and the set totals are the model layer's own bookkeeping:
every write path (``save``, ``delete``, and these querysets' ``update`` and
``bulk_create``, which send no signals) keeps them, and the card list API reads
them. The other models are reached through the app registry, so this module
imports no other module of the site.
"""

import secrets

from django.apps import apps
from django.db import IntegrityError, connections, models, transaction
from django.db.models import Count, F, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce

from .choices import SetKind

VERSION_ROW = 1


class CardListVersionQuerySet(models.QuerySet):
    """The one row whose number grows on every write to a game, set or card."""

    def current(self) -> int:
        """Return the card list version (creating its row on first use)."""
        # Read on every card list request: plain SQL the ORM would write,
        # without compiling it.
        connection = connections[self.db]
        table = connection.ops.quote_name(self.model._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT value FROM {table} WHERE id = %s", [VERSION_ROW])
            row = cursor.fetchone()
        return self._create_row() if row is None else row[0]

    def bump(self) -> None:
        """Mark every kept card list answer out of date (a card, set or game changed)."""
        if not self.filter(pk=VERSION_ROW).update(value=F("value") + 1):
            self._create_row()

    def _create_row(self) -> int:
        # A random start, so a table emptied and refilled (a test database flushed)
        # never reuses a number that answers were kept under.
        start = secrets.randbits(40) + 1
        try:
            with transaction.atomic(using=self.db):
                self.create(pk=VERSION_ROW, value=start)
            return start
        except IntegrityError:
            return self.values_list("value", flat=True).get(pk=VERSION_ROW)

    def current_for(self, user) -> tuple[int, int]:
        """Return the shared version and ``user``'s own (0 when none), in one query."""
        if user is None or not user.is_authenticated:
            return self.current(), 0
        connection = connections[self.db]
        quote = connection.ops.quote_name
        table = quote(self.model._meta.db_table)
        owners = quote(apps.get_model("cards", "OwnerCardListVersion")._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT 0, value FROM {table} WHERE id = %s "
                f"UNION ALL SELECT 1, value FROM {owners} WHERE owner_id = %s",
                [VERSION_ROW, user.pk],
            )
            found = dict(cursor.fetchall())
        shared = found[0] if 0 in found else self._create_row()
        return shared, found.get(1, 0)


class OwnerCardListVersionQuerySet(models.QuerySet):
    """One row per user whose number grows on writes only that user sees."""

    def bump(self, owner_ids) -> None:
        """Mark the kept card list answers of ``owner_ids`` out of date."""
        for owner_id in sorted(set(owner_ids)):
            if self.filter(pk=owner_id).update(value=F("value") + 1):
                continue
            # A random start, as the shared row's: a user id reused after a
            # flush never meets a number its answers were kept under.
            try:
                with transaction.atomic(using=self.db):
                    self.create(pk=owner_id, value=secrets.randbits(40) + 1)
            except IntegrityError:
                self.filter(pk=owner_id).update(value=F("value") + 1)


def _versions(using: str):
    return apps.get_model("cards", "CardListVersion").objects.db_manager(using)


class VersionedQuerySet(models.QuerySet):
    """A queryset whose bulk writes, which send no signals, still mark the card list changed."""

    def update(self, **kwargs):
        with transaction.atomic(using=self.db):
            _versions(self.db).bump()
            return super().update(**kwargs)

    def bulk_create(self, objs, *args, **kwargs):
        with transaction.atomic(using=self.db):
            _versions(self.db).bump()
            return super().bulk_create(objs, *args, **kwargs)


class CardSetQuerySet(VersionedQuerySet):
    def refresh_totals(self, set_ids=None) -> None:
        """Count again the cards of the sets ``set_ids`` (every set when None).

        The unfiltered card list needs how many cards each visible set holds;
        counting them reads every card. Instead each ``cards_total`` is counted
        again, from that set's cards only (the card_set index), whenever one of
        its cards is saved, moved or deleted. Recounting rather than adding one
        keeps the figure exact whatever the write was.
        """
        if set_ids is not None:
            set_ids = {pk for pk in set_ids if pk is not None}
            if not set_ids:
                return
        cards = self.model._meta.get_field("cards").related_model
        counted = (
            cards.objects.using(self.db)
            .filter(card_set_id=OuterRef("pk"))
            .order_by()
            .values("card_set_id")
            .annotate(n=Count("pk"))
            .values("n")
        )
        sets = self.all()
        if set_ids is not None:
            sets = sets.filter(pk__in=set_ids)
        # The plain update: the card write that called this already marked the
        # card list changed (VersionedQuerySet.update would mark it again).
        models.QuerySet.update(sets, cards_total=Coalesce(Subquery(counted), 0))

    def official(self):
        return self.filter(kind=SetKind.OFFICIAL)

    def visible_to(self, user):
        """Return the sets this user may see: all but other users' private custom sets."""
        q = ~Q(kind=SetKind.CUSTOM) | Q(is_public=True)
        if user is not None and user.is_authenticated:
            q |= Q(owner=user)
        return self.filter(q)


class CardQuerySet(VersionedQuerySet):
    # Both keep each set's cards_total (CardSetQuerySet.refresh_totals): they
    # send no signals.
    def update(self, **kwargs):
        with transaction.atomic(using=self.db):
            updated = super().update(**kwargs)
            if "card_set" in kwargs or "card_set_id" in kwargs:
                self._sets().refresh_totals()
            return updated

    def bulk_create(self, objs, *args, **kwargs):
        objs = list(objs)
        with transaction.atomic(using=self.db):
            created = super().bulk_create(objs, *args, **kwargs)
            self._sets().refresh_totals({obj.card_set_id for obj in objs})
            return created

    def _sets(self):
        card_set = self.model._meta.get_field("card_set").related_model
        return card_set.objects.db_manager(self.db)

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
