"""Signal receivers that keep the card list version and each set's card total.

Connected in ``CardsConfig.ready``. The bulk writes that send no signals keep
both in the querysets themselves (``cards/querysets.py``).

Each receiver refreshes at once, per write. Inside ``card_refreshes_deferred``
they only note what to refresh, and the block's end refreshes it once: the card
list version bumped once, each touched set counted once and each saved card's
words written once, in the block's transaction. A data file of 549 cards spent
most of its load in these per-card refreshes.
"""

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models.signals import post_save

from .choices import SetKind
from .models import Card, CardListVersion, CardSet, OwnerCardListVersion


@dataclass
class _Deferred:
    """What the receivers noted inside ``card_refreshes_deferred`` for one database."""

    bump: bool = False
    # Sets whose cards were written: their owners' versions, or the shared one.
    card_set_ids: set = field(default_factory=set)
    owner_ids: set = field(default_factory=set)
    every_set: bool = False
    set_ids: set = field(default_factory=set)
    word_card_ids: set = field(default_factory=set)

    def run(self, using: str) -> None:
        from .words import card_words_refresh

        if self.card_set_ids:
            owners = set_owners(using, self.card_set_ids)
            if owners is None:
                self.bump = True
            else:
                self.owner_ids |= owners
        if self.bump:
            CardListVersion.objects.db_manager(using).bump()
        elif self.owner_ids:
            OwnerCardListVersion.objects.db_manager(using).bump(self.owner_ids)
        sets = CardSet.objects.db_manager(using)
        if self.every_set:
            sets.refresh_totals()
        elif self.set_ids:
            sets.refresh_totals(self.set_ids)
        if self.word_card_ids:
            # Read back from the database: what the last save of each card wrote.
            card_words_refresh(sorted(self.word_card_ids))


_deferred: ContextVar[dict[str, _Deferred]] = ContextVar("card_refreshes_deferred")


def deferred(using: str | None) -> _Deferred | None:
    """Return what is being noted for ``using``, or None when refreshes run at once."""
    return _deferred.get({}).get(using or "default")


@contextmanager
def card_refreshes_deferred(using: str = "default"):
    """Run the card-write refreshes once at the end of the block, not per write.

    Totals, versions and word rows after the block are what the per-write
    refreshes would have left: each is recounted or rewritten from the
    database. Nothing is refreshed if the block raises (its transaction is
    rolled back). A nested block joins the outer one.
    """
    if deferred(using) is not None:
        yield
        return
    noted = _Deferred()
    with transaction.atomic(using=using):
        token = _deferred.set({**_deferred.get({}), using: noted})
        try:
            yield
        finally:
            _deferred.reset(token)
        # A block that asked for a rollback (set_rollback) leaves nothing to refresh.
        if not transaction.get_connection(using).needs_rollback:
            noted.run(using)


def bump_card_list_version(sender, instance, using=None, **kwargs) -> None:
    """A game, set or card was written: mark the kept card list answers stale.

    A write only one user sees (a private custom set of theirs, or its cards)
    moves that user's version; any other moves the shared one.
    """
    using = using or "default"
    noted = deferred(using)
    # Before refresh_on_card_write (connected after this) moves _loaded_set_id.
    loaded = getattr(instance, "_loaded_set_id", None)
    if sender is Card and (kwargs.get("created") or loaded is not None):
        set_ids = {instance.card_set_id, loaded} - {None}
        if noted is not None:
            noted.card_set_ids |= set_ids
            return
        owners = set_owners(using, set_ids)
    elif sender is CardSet and not kwargs.get("created") and "signal" in kwargs:
        owners = _set_owner(instance, kwargs["signal"] is post_save)
    else:
        owners = None  # a game, a new set or one read without its audience
    if noted is not None:
        if owners is None:
            noted.bump = True
        else:
            noted.owner_ids |= owners
        return
    if owners is None:
        CardListVersion.objects.db_manager(using).bump()
    else:
        OwnerCardListVersion.objects.db_manager(using).bump(owners)


# What decides who sees a set.
AUDIENCE = ("kind", "is_public", "owner_id")


def _private_owner(kind, is_public, owner_id):
    """Return the one user who sees a set like this, or None when others do."""
    return owner_id if kind == SetKind.CUSTOM and not is_public else None


def set_owners(using: str, set_ids) -> set | None:
    """Return the owners of ``set_ids`` when each is private, else None."""
    found = CardSet.objects.using(using).filter(pk__in=set_ids).values_list(*AUDIENCE)
    owners = [_private_owner(*audience) for audience in found]
    if len(owners) != len(set(set_ids)) or None in owners:
        return None
    return set(owners)


def _set_owner(instance, saved: bool) -> set | None:
    """Return the owner of a set saved or deleted, when only they ever saw it."""
    stored = instance.__dict__.pop("_stored_audience", None)
    now = tuple(instance.__dict__.get(name) for name in AUDIENCE)
    # A set deleted may have been the only one hidden from someone: whether
    # each user sees every set is kept per shared version (EverySetVisible in
    # cards/api/views.py). A set made public or private, or given away, changes
    # what others see.
    if not saved or stored != now:
        return None
    owner = _private_owner(*now)
    return None if owner is None else {owner}


def remember_audience(sender, instance, using=None, **kwargs) -> None:
    """pre_save of a set: read who could see it as stored, to tell a change of it."""
    # Read from the database, not the instance: a copy read before another
    # write would hide a change of who sees the set.
    stored = None
    if instance.pk is not None:
        found = CardSet.objects.using(using or "default").filter(pk=instance.pk)
        stored = found.values_list(*AUDIENCE).first()
    instance._stored_audience = stored


def remember_set(sender, instance, **kwargs) -> None:
    """post_init: note the set a card was read with, to recount it if it moves."""
    instance._loaded_set_id = instance.__dict__.get("card_set_id")


def refresh_on_card_write(sender, instance, using=None, **kwargs) -> None:
    """post_save / post_delete of a card: recount its set (and the one it left)."""
    sets = CardSet.objects.db_manager(using or "default")
    noted = deferred(using)
    loaded = getattr(instance, "_loaded_set_id", None)
    if loaded is None and not kwargs.get("created", True) and "signal" in kwargs:
        # A card read without its set (deferred) and saved: where it was is not
        # known, so every set is counted again (rare; exact either way).
        if kwargs["signal"] is post_save:
            if noted is not None:
                noted.every_set = True
            else:
                sets.refresh_totals()
            instance._loaded_set_id = instance.card_set_id
            return
    if noted is not None:
        noted.set_ids |= {instance.card_set_id, loaded} - {None}
    else:
        sets.refresh_totals({instance.card_set_id, loaded})
    instance._loaded_set_id = instance.card_set_id


def refresh_on_set_save(sender, instance, using=None, raw=False, **kwargs) -> None:
    """post_save of a set: a set saved from an older copy wrote an older total."""
    noted = deferred(using)
    if noted is not None:
        noted.set_ids.add(instance.pk)
        return
    CardSet.objects.db_manager(using or "default").refresh_totals({instance.pk})
