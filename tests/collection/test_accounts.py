"""Sign-up, log-in and log-out, password change and reset, and the log-in cool-off."""

import base64
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone

from collection import accounts
from collection.choices import AccountRequestKind
from collection.models import CollectionEntry, LoginAttempt

PASSWORD = "correct-horse-battery-1"


def _login(client, username, password, address="10.0.0.1"):
    return client.post(
        "/accounts/login/",
        {"username": username, "password": password},
        REMOTE_ADDR=address,
    )


@pytest.mark.django_db
def test_sign_up_creates_the_account_and_logs_in(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "newcomer",
            "email": "n@example.com",
            "password1": "a-long-enough-passphrase",
            "password2": "a-long-enough-passphrase",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == "/collection/"
    assert get_user_model().objects.filter(username="newcomer").count() == 1
    assert client.get("/collection/").status_code == 200


@pytest.mark.django_db
def test_sign_up_refuses_a_password_shorter_than_twelve_characters(client):
    response = client.post(
        "/accounts/signup/",
        {"username": "newcomer", "password1": "xq7!kd9#zp", "password2": "xq7!kd9#zp"},
    )
    assert response.status_code == 200
    assert "at least 12 characters" in response.content.decode()
    assert not get_user_model().objects.filter(username="newcomer").exists()


@pytest.mark.django_db
def test_log_in_and_log_out_by_post(client, user):
    response = _login(client, "alice", PASSWORD)
    assert response.status_code == 302
    assert client.get("/collection/").status_code == 200
    assert client.get("/accounts/logout/").status_code == 405
    assert client.post("/accounts/logout/").status_code == 302
    assert client.get("/collection/").status_code == 302


@pytest.mark.django_db
def test_password_change(client, user):
    client.force_login(user)
    response = client.post(
        "/accounts/password_change/",
        {
            "old_password": PASSWORD,
            "new_password1": "another-long-passphrase",
            "new_password2": "another-long-passphrase",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("another-long-passphrase")


@pytest.mark.django_db
def test_password_reset_sends_a_link_by_email(client, user, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    response = client.post("/accounts/password_reset/", {"email": "alice@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert "/accounts/reset/" in mail.outbox[0].body
    assert mail.outbox[0].to == ["alice@example.com"]


@pytest.mark.django_db
def test_fifth_failure_pauses_log_ins_for_that_username(client, user):
    for _ in range(accounts.USERNAME_LIMIT):
        assert _login(client, "alice", "wrong password").status_code == 200
    response = _login(client, "alice", PASSWORD)
    assert response.status_code == 429
    assert "Too many failed log-in attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert LoginAttempt.objects.filter(username="alice").count() == 5


@pytest.mark.django_db
def test_username_pause_holds_only_at_the_guessing_address(client, user):
    for _ in range(accounts.USERNAME_LIMIT):
        _login(client, "Alice", "wrong password", address="10.0.1.1")
    assert _login(client, "alice", PASSWORD, address="10.0.1.1").status_code == 429
    # Usernames are public: a stranger's guesses must not lock the owner out.
    assert _login(client, "alice", PASSWORD, address="10.9.9.9").status_code == 302


@pytest.mark.django_db
def test_address_pause_covers_every_username(client, user, other_user):
    for i in range(accounts.ADDRESS_LIMIT):
        _login(client, f"nobody{i}", "wrong password", address="10.0.0.66")
    assert _login(client, "alice", PASSWORD, address="10.0.0.66").status_code == 429
    assert _login(client, "alice", PASSWORD, address="10.0.0.67").status_code == 302


@pytest.mark.django_db
def test_cool_off_ends_when_the_window_passes(client, user, monkeypatch):
    start = timezone.now()
    monkeypatch.setattr(accounts, "clock", lambda: start)
    for _ in range(accounts.USERNAME_LIMIT):
        _login(client, "alice", "wrong password")
    assert _login(client, "alice", PASSWORD).status_code == 429
    later = start + accounts.WINDOW - timedelta(seconds=1)
    monkeypatch.setattr(accounts, "clock", lambda: later)
    response = _login(client, "alice", PASSWORD)
    assert response.status_code == 429
    assert "1 minute" in response.content.decode()
    after = start + accounts.WINDOW + timedelta(seconds=1)
    monkeypatch.setattr(accounts, "clock", lambda: after)
    assert _login(client, "alice", PASSWORD).status_code == 302


@pytest.mark.django_db
def test_attempts_during_the_pause_do_not_extend_it(client, user, monkeypatch):
    start = timezone.now()
    monkeypatch.setattr(accounts, "clock", lambda: start)
    for _ in range(accounts.USERNAME_LIMIT):
        _login(client, "alice", "wrong password")
    for _ in range(10):
        _login(client, "alice", "wrong password")
    assert LoginAttempt.objects.filter(username="alice").count() == 5


@pytest.mark.django_db
def test_success_clears_the_usernames_failures(client, user):
    for _ in range(accounts.USERNAME_LIMIT - 1):
        _login(client, "alice", "wrong password")
    assert _login(client, "alice", PASSWORD).status_code == 302
    assert LoginAttempt.objects.filter(username="alice").count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    [
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password_reset/",
        "/accounts/password_reset/done/",
        "/accounts/reset/done/",
        "/accounts/reset/MQ/bad-token/",
    ],
)
def test_account_pages_render(client, url):
    response = client.get(url)
    assert response.status_code == 200
    assert (
        "<form" in response.content.decode() or "password" in response.content.decode()
    )


@pytest.mark.django_db
def test_password_change_page_needs_a_log_in(client, user):
    assert client.get("/accounts/password_change/").status_code == 302
    client.force_login(user)
    assert client.get("/accounts/password_change/").status_code == 200


@pytest.mark.django_db
def test_admin_log_in_obeys_the_same_pause(client, user):
    for _ in range(accounts.USERNAME_LIMIT):
        _login(client, "alice", "wrong password")
    response = client.post(
        "/admin/login/",
        {"username": "alice", "password": PASSWORD},
        REMOTE_ADDR="10.0.0.1",
    )
    assert response.status_code == 200
    assert "Too many failed log-in attempts" in response.content.decode()


def _basic(username, password):
    token = base64.b64encode(f"{username}:{password}".encode()).decode()
    return f"Basic {token}"


@pytest.mark.django_db
def test_api_ignores_http_basic_credentials(client, user, cards):
    for _ in range(accounts.USERNAME_LIMIT):
        _login(client, "alice", "wrong password")
    response = client.post(
        "/api/collection/",
        {"card": cards.dragoon.pk, "quantity": 1},
        content_type="application/json",
        HTTP_AUTHORIZATION=_basic("alice", PASSWORD),
        REMOTE_ADDR="10.0.0.1",
    )
    # Answered as to anyone not signed in (the collection API hides itself: 404).
    assert response.status_code == 404
    assert CollectionEntry.objects.count() == 0


def _reset_password(client, address, new_password):
    client.post(
        "/accounts/password_reset/", {"email": "alice@example.com"}, REMOTE_ADDR=address
    )
    link = re.search(r"/accounts/reset/\S+/\S+/", mail.outbox[-1].body).group(0)
    form_url = client.get(link, REMOTE_ADDR=address)["Location"]
    return client.post(
        form_url,
        {"new_password1": new_password, "new_password2": new_password},
        REMOTE_ADDR=address,
    )


@pytest.mark.django_db
def test_successful_password_reset_lifts_the_pause(client, user, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    for _ in range(accounts.USERNAME_LIMIT):
        _login(client, "alice", "wrong password")
    assert _login(client, "alice", PASSWORD).status_code == 429
    new_password = "a-brand-new-passphrase-7"
    assert _reset_password(client, "10.0.0.1", new_password).status_code == 302
    assert _login(client, "alice", new_password).status_code == 302
    assert LoginAttempt.objects.filter(username="alice").count() == 0


def _login_via_proxy(client, username, password, forwarded_for):
    return client.post(
        "/accounts/login/",
        {"username": username, "password": password},
        REMOTE_ADDR="127.0.0.1",
        HTTP_X_FORWARDED_FOR=forwarded_for,
    )


@pytest.mark.django_db
def test_behind_one_trusted_proxy_the_address_is_the_one_the_proxy_added(
    client, user, settings
):
    settings.TRUSTED_PROXY_COUNT = 1
    # The attacker writes a fresh first entry each time; the proxy appends the
    # address it saw, so every guess still counts against 203.0.113.9.
    for i in range(accounts.ADDRESS_LIMIT):
        _login_via_proxy(client, f"nobody{i}", "wrong", f"10.1.1.{i}, 203.0.113.9")
    assert LoginAttempt.objects.filter(ip_address="203.0.113.9").count() == 20
    refused = _login_via_proxy(client, "alice", PASSWORD, "203.0.113.9")
    assert refused.status_code == 429
    # Everyone else behind the same proxy still gets in.
    assert (
        _login_via_proxy(client, "alice", PASSWORD, "198.51.100.4").status_code == 302
    )


@pytest.mark.django_db
def test_without_a_trusted_proxy_x_forwarded_for_is_ignored(client, user):
    for i in range(accounts.USERNAME_LIMIT):
        _login_via_proxy(client, "alice", "wrong", f"10.1.1.{i}")
    assert _login_via_proxy(client, "alice", PASSWORD, "10.2.2.2").status_code == 429
    assert set(LoginAttempt.objects.values_list("ip_address", flat=True)) == {
        "127.0.0.1"
    }


@pytest.mark.django_db
def test_password_reset_emails_are_limited_per_address(client, user, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    limit = accounts.REQUEST_LIMITS[AccountRequestKind.PASSWORD_RESET]
    for _ in range(limit):
        response = client.post(
            "/accounts/password_reset/",
            {"email": "alice@example.com"},
            REMOTE_ADDR="10.0.0.5",
        )
        assert response.status_code == 302
    refused = client.post(
        "/accounts/password_reset/",
        {"email": "alice@example.com"},
        REMOTE_ADDR="10.0.0.5",
    )
    assert refused.status_code == 429
    assert "Too many password-reset e-mails" in refused.content.decode()
    assert len(mail.outbox) == limit
    other = client.post(
        "/accounts/password_reset/",
        {"email": "alice@example.com"},
        REMOTE_ADDR="10.0.0.6",
    )
    assert other.status_code == 302
    assert len(mail.outbox) == limit + 1


@pytest.mark.django_db
def test_sign_ups_are_limited_per_address(client):
    limit = accounts.REQUEST_LIMITS[AccountRequestKind.SIGN_UP]

    def sign_up(name, address):
        client.logout()
        return client.post(
            "/accounts/signup/",
            {
                "username": name,
                "password1": "a-long-enough-passphrase",
                "password2": "a-long-enough-passphrase",
            },
            REMOTE_ADDR=address,
        )

    for i in range(limit):
        assert sign_up(f"newcomer{i}", "10.0.0.7").status_code == 302
    refused = sign_up("one-too-many", "10.0.0.7")
    assert refused.status_code == 429
    assert "Too many accounts were made from your address" in refused.content.decode()
    users = get_user_model().objects
    assert not users.filter(username="one-too-many").exists()
    assert sign_up("one-too-many", "10.0.0.8").status_code == 302
    assert users.filter(username__startswith="newcomer").count() == limit
