"""Helpers for tests: the strength switch, and processes on the test database."""

import os

from django.conf import settings


def full_strength() -> bool:
    """Return True under CI: fuzzers, races and schema checks run at full size.

    ``.ci/run`` sets ``HYPOTHESIS_PROFILE=ci``; CI services set ``CI=true``.
    ``make test`` runs the same tests smaller, to stay quick.
    """
    profile = os.environ.get("HYPOTHESIS_PROFILE")
    if profile:
        return profile == "ci"
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def subprocess_env(**extra) -> dict:
    """Return an environment whose ``manage.py`` uses the current test database."""
    db = settings.DATABASES["default"]
    env = dict(os.environ, PYTHONUNBUFFERED="1", **extra)
    if db["ENGINE"].endswith("sqlite3"):
        env["SQLITE_PATH"] = str(db["NAME"])
        env.pop("DATABASE_URL", None)
    else:
        env["DATABASE_URL"] = (
            f"postgres://{db['USER']}:{db.get('PASSWORD') or ''}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
        )
    return env
