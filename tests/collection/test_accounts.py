"""Sign-up, log-in and log-out, password change and reset, and the log-in cool-off."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone

from collection import accounts
from collection.models import LoginAttempt

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
def test_username_pause_applies_from_any_address(client, user):
    for i in range(accounts.USERNAME_LIMIT):
        _login(client, "Alice", "wrong password", address=f"10.0.1.{i}")
    assert _login(client, "alice", PASSWORD, address="10.9.9.9").status_code == 429


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
