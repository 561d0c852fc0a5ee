"""Production settings pass Django's deployment checks."""

import os
import secrets
import subprocess
import sys
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
