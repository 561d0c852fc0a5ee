"""Each set's card total, kept up to date by every card write.

The unfiltered card list (the API's first page, the most asked) needs how many
cards each visible set holds; counting them reads every card. Instead each
``CardSet.cards_total`` is counted again, from the cards of that set only
(the card_set index), whenever one of its cards is saved, moved or deleted and
after the querysets' ``bulk_create`` and ``update``. Recounting rather than
adding one keeps the figure exact whatever the write was.
"""

from django.db.models import Count, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.db.models.signals import post_save

from ..models import Card, CardSet


def set_totals_refresh(set_ids=None, *, using: str = "default") -> None:
    """Count again the cards of the sets ``set_ids`` (every set when None)."""
    if set_ids is not None:
        set_ids = {pk for pk in set_ids if pk is not None}
        if not set_ids:
            return
    counted = (
        Card.objects.using(using)
        .filter(card_set_id=OuterRef("pk"))
        .order_by()
        .values("card_set_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    sets = CardSet.objects.using(using).all()
    if set_ids is not None:
        sets = sets.filter(pk__in=set_ids)
    # The plain update: the card write that called this already marked the
    # card list changed (VersionedQuerySet.update would mark it again).
    QuerySet.update(sets, cards_total=Coalesce(Subquery(counted), 0))


def remember_set(sender, instance, **kwargs) -> None:
    """post_init: note the set a card was read with, to recount it if it moves."""
    instance._loaded_set_id = instance.__dict__.get("card_set_id")


def refresh_on_card_write(sender, instance, using=None, **kwargs) -> None:
    """post_save / post_delete of a card: recount its set (and the one it left)."""
    using = using or "default"
    loaded = getattr(instance, "_loaded_set_id", None)
    if loaded is None and not kwargs.get("created", True) and "signal" in kwargs:
        # A card read without its set (deferred) and saved: where it was is not
        # known, so every set is counted again (rare; exact either way).
        if kwargs["signal"] is post_save:
            set_totals_refresh(using=using)
            instance._loaded_set_id = instance.card_set_id
            return
    set_totals_refresh({instance.card_set_id, loaded}, using=using)
    instance._loaded_set_id = instance.card_set_id


def refresh_on_set_save(sender, instance, using=None, raw=False, **kwargs) -> None:
    """post_save of a set: a set saved from an older copy wrote an older total."""
    set_totals_refresh({instance.pk}, using=using or "default")
