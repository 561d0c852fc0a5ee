"""Accounts: sign-up, and a log-in that cools off after repeated failures.

Failed log-ins are stored in the database (``LoginAttempt``) so every server
process sees the same count. Five failures for one username within fifteen
minutes refuse that username until the oldest of them leaves the window; the
same holds per client address with a higher limit, since several people may
share one address. Nothing is locked for good: the refusal ends by itself.
"""

from datetime import timedelta

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model, login
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.views import LoginView
from django.core.exceptions import ValidationError
from django.shortcuts import redirect
from django.urls import reverse_lazy
from django.utils import timezone
from django.views.generic import CreateView

from .models import LoginAttempt

USERNAME_LIMIT = 5
ADDRESS_LIMIT = 20
WINDOW = timedelta(minutes=15)


def clock():
    """Return the current time (tests patch this to move time on)."""
    return timezone.now()


def client_address(request) -> str | None:
    """Return the client's address as the server saw it."""
    # X-Forwarded-For is written by the client unless a trusted proxy rewrites
    # it, so trusting it would let anyone pick a fresh address per attempt.
    return request.META.get("REMOTE_ADDR") or None


def normalise_username(username: str) -> str:
    return (username or "").strip().lower()[:150]


def login_cool_off(*, username: str, address: str | None) -> timedelta | None:
    """Return how long log-ins for this username or address stay refused, or None."""
    now = clock()
    since = now - WINDOW
    recent = LoginAttempt.objects.filter(created_at__gt=since)
    waits = []
    checks = [(recent.filter(username=normalise_username(username)), USERNAME_LIMIT)]
    if address:
        checks.append((recent.filter(ip_address=address), ADDRESS_LIMIT))
    for attempts, limit in checks:
        if attempts.count() >= limit:
            # The refusal lasts until enough failures have left the window.
            times = list(
                attempts.order_by("-created_at").values_list("created_at", flat=True)
            )
            waits.append(times[limit - 1] + WINDOW - now)
    if not waits:
        return None
    return max(waits)


def login_record_failure(*, username: str, address: str | None) -> None:
    """Store one failed log-in."""
    LoginAttempt.objects.create(
        username=normalise_username(username), ip_address=address, created_at=clock()
    )


def login_record_success(*, username: str) -> None:
    """Forget the username's failures once its owner has logged in."""
    LoginAttempt.objects.filter(username=normalise_username(username)).delete()


def login_attempts_prune() -> int:
    """Delete failures older than the window; return how many went."""
    deleted, _ = LoginAttempt.objects.filter(created_at__lte=clock() - WINDOW).delete()
    return deleted


def describe_wait(wait: timedelta) -> str:
    minutes = max(1, -(-int(wait.total_seconds()) // 60))
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


COOLING_OFF = (
    "Too many failed log-in attempts. For your account's safety, log-ins "
    "are paused for %(wait)s; try again after that, or reset your password."
)


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


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        required=False, help_text="Optional; needed only to reset a forgotten password."
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")


class SignUpView(CreateView):
    """Create an account, then log the new user in."""

    form_class = SignUpForm
    template_name = "registration/signup.html"
    success_url = reverse_lazy("collection:home")

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated:
            return redirect("collection:home")
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form):
        response = super().form_valid(form)
        login(
            self.request,
            self.object,
            backend="django.contrib.auth.backends.ModelBackend",
        )
        return response
