"""Accounts: sign-up, password reset, and a log-in that cools off after failures.

Every way to sign in goes through the log-in form (the API takes the session
only), so one limit covers them all. Failed log-ins are stored in the database
(``LoginAttempt``) so every server process sees the same count. Five failures
for one username from one client address within fifteen minutes refuse that
username from that address; twenty failures from one address refuse that
address. A stranger guessing elsewhere therefore cannot lock the owner out, and
a successful password reset lifts the username's refusals. Sign-ups and
password-reset e-mails are limited per address the same way
(``AccountRequest``). Nothing is locked for good: a refusal ends by itself.
"""

import ipaddress
from datetime import timedelta

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model, login
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.views import (
    LoginView,
    PasswordResetConfirmView,
    PasswordResetView,
)
from django.core.exceptions import ValidationError
from django.shortcuts import redirect
from django.urls import reverse_lazy
from django.utils import timezone
from django.views.generic import CreateView

from .choices import AccountRequestKind
from .models import AccountRequest, LoginAttempt

USERNAME_LIMIT = 5
ADDRESS_LIMIT = 20
REQUEST_LIMITS = {AccountRequestKind.SIGN_UP: 10, AccountRequestKind.PASSWORD_RESET: 5}
WINDOW = timedelta(minutes=15)


def clock():
    """Return the current time (tests patch this to move time on)."""
    return timezone.now()


def _address(value: str) -> str | None:
    try:
        return str(ipaddress.ip_address(value.strip()))
    except ValueError:
        return None


def client_address(request) -> str | None:
    """Return the client's address: REMOTE_ADDR, or the entry a trusted proxy added."""
    # A client writes any X-Forwarded-For it likes; only the entries the trusted
    # proxies appended (the last TRUSTED_PROXY_COUNT) are true, and the first of
    # those is the address the outermost proxy saw.
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        if len(forwarded) >= proxies:
            address = _address(forwarded[-proxies])
            if address:
                return address
    return _address(request.META.get("REMOTE_ADDR") or "")


def normalise_username(username: str) -> str:
    return (username or "").strip().lower()[:150]


def _wait(attempts, limit: int, now) -> timedelta | None:
    if attempts.count() < limit:
        return None
    # The refusal lasts until enough of them have left the window.
    times = list(attempts.order_by("-created_at").values_list("created_at", flat=True))
    return times[limit - 1] + WINDOW - now


def login_cool_off(*, username: str, address: str | None) -> timedelta | None:
    """Return how long log-ins for this username from this address stay refused."""
    now = clock()
    recent = LoginAttempt.objects.filter(created_at__gt=now - WINDOW)
    waits = [
        _wait(
            recent.filter(username=normalise_username(username), ip_address=address),
            USERNAME_LIMIT,
            now,
        )
    ]
    if address:
        waits.append(_wait(recent.filter(ip_address=address), ADDRESS_LIMIT, now))
    waits = [wait for wait in waits if wait is not None]
    return max(waits) if waits else None


def login_record_failure(*, username: str, address: str | None) -> None:
    """Store one failed log-in."""
    LoginAttempt.objects.create(
        username=normalise_username(username), ip_address=address, created_at=clock()
    )


def login_record_success(*, username: str) -> None:
    """Forget the username's failures once its owner has logged in."""
    LoginAttempt.objects.filter(username=normalise_username(username)).delete()


def login_lift_cool_off(*, username: str) -> int:
    """Forget every failure for the username (its owner has proved who they are)."""
    deleted, _ = LoginAttempt.objects.filter(
        username=normalise_username(username)
    ).delete()
    return deleted


def login_attempts_prune() -> int:
    """Delete failures and requests older than the window; return how many went."""
    before = clock() - WINDOW
    deleted, _ = LoginAttempt.objects.filter(created_at__lte=before).delete()
    requests, _ = AccountRequest.objects.filter(created_at__lte=before).delete()
    return deleted + requests


def account_request_wait(
    *, kind: AccountRequestKind, address: str | None
) -> timedelta | None:
    """Return how long this address must wait before another request of this kind."""
    now = clock()
    recent = AccountRequest.objects.filter(
        kind=kind, ip_address=address, created_at__gt=now - WINDOW
    )
    return _wait(recent, REQUEST_LIMITS[kind], now)


def account_request_record(*, kind: AccountRequestKind, address: str | None) -> None:
    """Store one sign-up or password-reset request."""
    AccountRequest.objects.create(kind=kind, ip_address=address, created_at=clock())


def describe_wait(wait: timedelta) -> str:
    minutes = max(1, -(-int(wait.total_seconds()) // 60))
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


COOLING_OFF = (
    "Too many failed log-in attempts. For your account's safety, log-ins "
    "are paused for %(wait)s; try again after that, or reset your password."
)
TOO_MANY_REQUESTS = {
    AccountRequestKind.SIGN_UP: (
        "Too many accounts were made from your address just now; try again in %(wait)s."
    ),
    AccountRequestKind.PASSWORD_RESET: (
        "Too many password-reset e-mails were asked for from your address just "
        "now; try again in %(wait)s."
    ),
}


class RateLimitMixin:
    """Refuse an authentication form while its username or address cools off."""

    cooling_off = False

    def clean(self):
        username = self.cleaned_data.get("username") or ""
        address = client_address(self.request) if self.request else None
        wait = login_cool_off(username=username, address=address)
        if wait is not None:
            # Checked before the password, so guesses during the pause learn nothing.
            self.cooling_off = True
            raise ValidationError(
                COOLING_OFF, code="cooling_off", params={"wait": describe_wait(wait)}
            )
        try:
            cleaned = super().clean()
        except ValidationError:
            if username:
                login_record_failure(username=username, address=address)
            raise
        login_record_success(username=username)
        return cleaned


class RateLimitedAuthenticationForm(RateLimitMixin, AuthenticationForm):
    """The site's log-in form."""


class RateLimitedAdminAuthenticationForm(RateLimitMixin, AdminAuthenticationForm):
    """The admin's log-in form, under the same limits."""


class RateLimitedLoginView(LoginView):
    """Log in; answer 429 while the username or address is cooling off."""

    form_class = RateLimitedAuthenticationForm
    redirect_authenticated_user = False

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.cooling_off:
            response.status_code = 429
        return response

    def form_valid(self, form):
        login_attempts_prune()
        return super().form_valid(form)


class AddressLimitMixin:
    """Refuse a valid form with 429 once its address has made too many requests."""

    request_kind: AccountRequestKind

    def form_valid(self, form):
        address = client_address(self.request)
        wait = account_request_wait(kind=self.request_kind, address=address)
        if wait is not None:
            form.add_error(
                None,
                ValidationError(
                    TOO_MANY_REQUESTS[self.request_kind],
                    code="too_many_requests",
                    params={"wait": describe_wait(wait)},
                ),
            )
            response = self.form_invalid(form)
            response.status_code = 429
            return response
        account_request_record(kind=self.request_kind, address=address)
        return super().form_valid(form)


class RateLimitedPasswordResetView(AddressLimitMixin, PasswordResetView):
    """Send a password-reset e-mail, a few per address per window."""

    request_kind = AccountRequestKind.PASSWORD_RESET


class LockLiftingPasswordResetConfirmView(PasswordResetConfirmView):
    """Set the new password and lift the username's log-in cool-off."""

    def form_valid(self, form):
        response = super().form_valid(form)
        login_lift_cool_off(username=form.user.get_username())
        return response


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        required=False, help_text="Optional; needed only to reset a forgotten password."
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")


class SignUpView(AddressLimitMixin, CreateView):
    """Create an account, then log the new user in; a few per address per window."""

    form_class = SignUpForm
    template_name = "registration/signup.html"
    success_url = reverse_lazy("collection:home")
    request_kind = AccountRequestKind.SIGN_UP

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated:
            return redirect("collection:home")
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form):
        response = super().form_valid(form)
        if self.object is not None:  # None when the address limit refused it
            login(
                self.request,
                self.object,
                backend="django.contrib.auth.backends.ModelBackend",
            )
        return response
