"""Production settings pass Django's deployment checks; `make serve` starts as documented."""

import http.client
import os
import secrets
import signal
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def production_env(**extra):
    test_only = {"DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE", "CARDSITE_TEST_FAST_HASHER"}
    env = {k: v for k, v in os.environ.items() if k not in test_only}
    env.update(
        CARDSITE_PRODUCTION="1",
        SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS="cards.example.org",
        **extra,
    )
    return env


def test_deploy_check_passes_at_warning_level_with_production_settings():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=production_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    env = production_env()
    env.pop("SECRET_KEY")
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "Set SECRET_KEY in the environment for production." in result.stderr


def test_production_settings_turn_debug_off_and_cookies_secure():
    code = (
        "from django.conf import settings as s;"
        "print(s.DEBUG, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS,"
        " 'whitenoise.middleware.WhiteNoiseMiddleware' in s.MIDDLEWARE)"
    )
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE','cardsite.settings'); django.setup(); {code}",
        ],
        cwd=ROOT,
        env=production_env(SECURE_HSTS_SECONDS="600"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.stdout.split() == ["False", "True", "True", "600", "True"], (
        result.stderr
    )


def test_deploy_check_accepts_a_proxy_that_redirects_plain_http_itself():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=production_env(SECURE_SSL_REDIRECT="0"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(port, path, **headers):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        response.read()
        return response
    finally:
        connection.close()


def test_make_serve_as_documented_starts_behind_a_tls_proxy(tmp_path):
    env = production_env(WORKERS="1", SQLITE_PATH=str(tmp_path / "db.sqlite3"))
    for name in (
        "SECRET_KEY",
        "ALLOWED_HOSTS",
        "SECURE_SSL_REDIRECT",
        "SECURE_COOKIES",
    ):
        env.pop(name, None)
    key_file = tmp_path / "secret-key"
    # Set-up (venv, migrate, cards) and the minutes-long collectstatic are not
    # what is tested: -o takes them as done.
    command = ["make", "-o", "setup", "-o", "staticfiles/staticfiles.json", "serve"]
    # The port is free when chosen but another process (the other xdist worker's
    # servers and clients) may take it before gunicorn binds it; gunicorn then
    # exits, so that one case starts again on another port.
    for attempt in range(3):
        port = _free_port()
        log = tmp_path / f"serve-{attempt}.log"
        with log.open("w") as out:
            server = subprocess.Popen(
                [*command, f"PORT={port}", f"SECRET_KEY_FILE={key_file}"],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        through_proxy = _wait_for_ping(server, port, log)
        if through_proxy is not None:
            break
    try:
        assert through_proxy is not None, log.read_text()
        assert through_proxy.status == 200
        assert through_proxy.headers.get_all("Server") is None
        plain = _get(port, "/api/ping/")
        assert plain.status == 301
        assert plain.headers["Location"] == f"https://127.0.0.1:{port}/api/ping/"
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    finally:
        _stop(server)


def _wait_for_ping(server, port, log):
    """Return the answer to a ping through the proxy; None if the port was taken."""
    deadline = time.monotonic() + 120
    while True:
        if server.poll() is not None:
            _stop(server)  # what make started may outlive it
            text = log.read_text()
            assert "Connection in use" in text, text
            return None
        try:
            return _get(port, "/api/ping/", **{"X-Forwarded-Proto": "https"})
        except OSError:
            if time.monotonic() >= deadline:
                _stop(server)
                raise AssertionError(log.read_text()) from None
            time.sleep(0.5)


def _stop(server):
    """Stop make and everything it started; a group already gone is stopped."""
    # killpg on a group whose processes all exited raises ProcessLookupError,
    # which used to hide the failure the server's log explains.
    try:
        os.killpg(server.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    server.wait(timeout=30)


def test_the_development_server_does_not_name_itself(live_server):
    host, port = live_server.url.removeprefix("http://").split(":")
    response = _get(int(port), "/api/ping/")
    assert response.status == 200
    assert response.headers.get_all("Server") == ["cardsite"]
