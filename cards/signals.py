"""Signal receivers that keep the card list version and each set's card total.

Connected in ``CardsConfig.ready``. The bulk writes that send no signals keep
both in the querysets themselves (``cards/querysets.py``).
"""

from django.db.models.signals import post_save

from .models import CardListVersion, CardSet


def bump_card_list_version(using=None, **_signal_kwargs) -> None:
    """A game, set or card was written: mark every kept card list answer stale."""
    CardListVersion.objects.db_manager(using or "default").bump()


def remember_set(sender, instance, **kwargs) -> None:
    """post_init: note the set a card was read with, to recount it if it moves."""
    instance._loaded_set_id = instance.__dict__.get("card_set_id")


def refresh_on_card_write(sender, instance, using=None, **kwargs) -> None:
    """post_save / post_delete of a card: recount its set (and the one it left)."""
    sets = CardSet.objects.db_manager(using or "default")
    loaded = getattr(instance, "_loaded_set_id", None)
    if loaded is None and not kwargs.get("created", True) and "signal" in kwargs:
        # A card read without its set (deferred) and saved: where it was is not
        # known, so every set is counted again (rare; exact either way).
        if kwargs["signal"] is post_save:
            sets.refresh_totals()
            instance._loaded_set_id = instance.card_set_id
            return
    sets.refresh_totals({instance.card_set_id, loaded})
    instance._loaded_set_id = instance.card_set_id


def refresh_on_set_save(sender, instance, using=None, raw=False, **kwargs) -> None:
    """post_save of a set: a set saved from an older copy wrote an older total."""
    CardSet.objects.db_manager(using or "default").refresh_totals({instance.pk})
