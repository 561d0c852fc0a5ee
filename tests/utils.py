"""Helpers for tests that start real processes on the test database."""

import os

from django.conf import settings


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
