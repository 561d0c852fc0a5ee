"""Read settings from the environment: booleans, whole numbers, lists and text.

Each reader returns ``default`` when the variable is unset or empty, and raises
ImproperlyConfigured naming the variable and the value when it cannot be read,
so a typo in a deployment stops the site at start-up instead of being ignored.
"""

import os
from collections.abc import Mapping

from django.core.exceptions import ImproperlyConfigured

TRUE = frozenset({"1", "true", "yes", "on"})
FALSE = frozenset({"0", "false", "no", "off"})


def _raw(name: str, environ: Mapping[str, str] | None) -> str | None:
    value = (os.environ if environ is None else environ).get(name)
    if value is None or not value.strip():
        return None
    return value.strip()


def env_str(
    name: str, default: str, *, environ: Mapping[str, str] | None = None
) -> str:
    """Return the variable ``name`` as text."""
    value = _raw(name, environ)
    return default if value is None else value


def env_bool(
    name: str, default: bool, *, environ: Mapping[str, str] | None = None
) -> bool:
    """Return the variable ``name`` read as a boolean (1/0, true/false, yes/no, on/off)."""
    value = _raw(name, environ)
    if value is None:
        return default
    if value.lower() in TRUE:
        return True
    if value.lower() in FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a boolean: use one of 1, 0, true, false, yes, no, "
        "on, off."
    )


def env_int(
    name: str,
    default: int,
    *,
    minimum: int | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    """Return the variable ``name`` read as a whole number, at least ``minimum``."""
    value = _raw(name, environ)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number.") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number} is below its minimum, {minimum}.")
    return number


def env_list(
    name: str, default: list[str], *, environ: Mapping[str, str] | None = None
) -> list[str]:
    """Return the variable ``name`` read as a comma-separated list, blanks dropped."""
    value = _raw(name, environ)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]
