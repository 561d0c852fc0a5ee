"""Budgets: how much costly work one user (or one address) may cause per window.

Three budgets: the search bots' thinking inside web requests (seconds per user per
minute), anonymous proxy sheets (sheets per address per hour) and the games
visitors without an account start (games per address per hour). Work is
charged as ``BudgetCharge`` rows in the database, so every server process sees
the same sum. Beyond a budget the request is refused (429) with the time until
enough of the window's charges have aged out (``BudgetSpent.retry_after``).
Nothing is locked for good: a refusal ends by itself.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from .choices import BudgetKind
from .models import BudgetCharge


def clock():
    """Return the current time (tests patch this to move time on)."""
    return timezone.now()


@dataclass(frozen=True)
class Budget:
    kind: str
    window: timedelta
    setting: str  # the settings name of the amount allowed per window
    message: str  # the refusal, with {wait}

    @property
    def limit(self) -> float:
        return getattr(settings, self.setting)


BOT_THINKING = Budget(
    BudgetKind.BOT_THINKING,
    timedelta(minutes=1),
    "BOT_THINKING_SECONDS_PER_MINUTE",
    "The bots have thought for you as long as they may this minute. "
    "Try again in {wait}.",
)
PROXY_SHEETS = Budget(
    BudgetKind.PROXY_SHEET,
    timedelta(hours=1),
    "ANONYMOUS_PROXY_SHEETS_PER_HOUR",
    "Proxy sheets are built for visitors a few an hour from each address; "
    "log in to print more, or try again in {wait}.",
)

VISITOR_GAMES = Budget(
    BudgetKind.VISITOR_GAME,
    timedelta(hours=1),
    "VISITOR_GAMES_PER_HOUR",
    "Visitors start a few games an hour from each address; sign up or log in "
    "to play more, or try again in {wait}.",
)


class BudgetSpent(Exception):
    """A budget is spent: ``message`` says so, ``retry_after`` is whole seconds."""

    def __init__(self, budget: Budget, wait: timedelta):
        self.retry_after = max(1, math.ceil(wait.total_seconds()))
        self.message = budget.message.format(wait=describe_seconds(self.retry_after))
        super().__init__(self.message)


def describe_seconds(seconds: int) -> str:
    """Return a wait in words: "40 seconds", "1 minute", "12 minutes"."""
    if seconds < 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def _charges(budget: Budget, user, address: str | None, now):
    recent = BudgetCharge.objects.filter(
        kind=budget.kind, created_at__gt=now - budget.window
    )
    if user is not None and user.is_authenticated:
        return recent.filter(user=user)
    return recent.filter(user=None, ip_address=address)


def budget_wait(*, budget: Budget, user=None, address: str | None = None):
    """Return how long ``budget`` stays spent for this user (or address), or None."""
    now = clock()
    rows = list(
        _charges(budget, user, address, now)
        .order_by("created_at")
        .values_list("created_at", "amount")
    )
    spent = sum(amount for _, amount in rows)
    if spent < budget.limit:
        return None
    # Oldest first: the budget reopens when enough charges have left the window
    # to bring the sum under the limit.
    for created_at, amount in rows:
        spent -= amount
        if spent < budget.limit:
            return created_at + budget.window - now
    return budget.window  # a limit of nothing: closed for a whole window


def budget_check(*, budget: Budget, user=None, address: str | None = None) -> None:
    """Raise BudgetSpent when ``budget`` is spent for this user (or address)."""
    wait = budget_wait(budget=budget, user=user, address=address)
    if wait is not None:
        raise BudgetSpent(budget, wait)


def budget_charge(
    *, budget: Budget, amount: float, user=None, address: str | None = None
) -> None:
    """Charge ``amount`` to this user (or address) and forget its charges past the window."""
    now = clock()
    user = user if user is not None and user.is_authenticated else None
    BudgetCharge.objects.create(
        kind=budget.kind, user=user, ip_address=address, amount=amount, created_at=now
    )
    old = BudgetCharge.objects.filter(
        kind=budget.kind, created_at__lte=now - budget.window
    )
    old = old.filter(user=user) if user else old.filter(user=None, ip_address=address)
    old.delete()


class Stopwatch:
    """Add up the seconds spent inside ``with stopwatch:`` blocks."""

    def __init__(self):
        self.seconds = 0.0

    def __enter__(self):
        self._started = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.seconds += time.perf_counter() - self._started
