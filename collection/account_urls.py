"""Account URLs under /accounts/: sign-up, the rate-limited log-in, and Django's own."""

from django.urls import include, path

from .accounts import RateLimitedLoginView, SignUpView

urlpatterns = [
    path("login/", RateLimitedLoginView.as_view(), name="login"),
    path("signup/", SignUpView.as_view(), name="signup"),
    path("", include("django.contrib.auth.urls")),
]
