"""Account URLs under /accounts/: the rate-limited log-in, sign-up and reset, and Django's own."""

from django.urls import include, path

from .accounts import (
    LockLiftingPasswordResetConfirmView,
    RateLimitedLoginView,
    RateLimitedPasswordResetView,
    SignUpView,
)

urlpatterns = [
    path("login/", RateLimitedLoginView.as_view(), name="login"),
    path(
        "password_reset/",
        RateLimitedPasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "reset/<uidb64>/<token>/",
        LockLiftingPasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("signup/", SignUpView.as_view(), name="signup"),
    path("", include("django.contrib.auth.urls")),
]
