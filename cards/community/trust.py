"""Whose readings count toward confirming a card, and how many readings an hour.

A reading works for its author at once whoever they are; it counts toward
confirming a card for everyone only from an account that nobody could have made
a minute ago. The rule (the help page on /community/ says it in words):

- moderators always count;
- any other account counts once it is at least ``TRUSTED_AFTER`` old **and**
  has a record of its own: at least one proposal or reading a moderator
  accepted.

Why: signing up twice takes a minute, so two fresh accounts agreeing prove
nothing. Age alone only makes the puppeteer wait; a moderator-accepted
contribution is work a moderator looked at, one per account, which is what
"two independent collectors" needs. A confirmed e-mail address was considered
and left out: one person has as many addresses as they like, so it adds a
step for honest collectors and none for a puppeteer.

Readings are also limited per account (``READINGS_PER_HOUR`` new readings in
any hour), the way sign-ups and password resets are limited per address. The
figure lets a collector read a whole Collision deck in one sitting with room to
spare: sixty cards or more, all different at worst, at a card every twenty
seconds with the keyboard, plus a withdrawn reading or two (those count).
"""

from datetime import timedelta

from django.utils import timezone

from ..models import CardSubmission, ReviewStatus
from .services import is_moderator

TRUSTED_AFTER = timedelta(days=7)
READINGS_PER_HOUR = 120
READINGS_WINDOW = timedelta(hours=1)


def counts_toward_confirmation(user) -> bool:
    """Return True when ``user``'s readings count toward confirming a card."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if is_moderator(user):
        return True
    if user.date_joined > timezone.now() - TRUSTED_AFTER:
        return False
    return CardSubmission.objects.filter(
        submitter=user, status=ReviewStatus.ACCEPTED
    ).exists()


class ReadingLimitReached(Exception):
    """Too many new readings from one account within the window."""

    def __init__(self, wait: timedelta):
        self.wait = wait
        minutes = max(1, -(-int(wait.total_seconds()) // 60))
        self.message = (
            f"You have recorded {READINGS_PER_HOUR} readings in the last hour, "
            f"the most one account may; try again in {minutes} "
            f"minute{'s' if minutes != 1 else ''}."
        )
        super().__init__(self.message)


def reading_limit_check(user) -> None:
    """Raise ``ReadingLimitReached`` when ``user`` may not start another reading now."""
    now = timezone.now()
    times = list(
        CardSubmission.objects.filter(
            submitter=user, is_reading=True, created_at__gt=now - READINGS_WINDOW
        )
        .order_by("-created_at")
        .values_list("created_at", flat=True)[:READINGS_PER_HOUR]
    )
    if len(times) >= READINGS_PER_HOUR:
        # The refusal lasts until the oldest of the last N leaves the window.
        raise ReadingLimitReached(times[-1] + READINGS_WINDOW - now)
