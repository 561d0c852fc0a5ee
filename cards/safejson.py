"""JSON from strangers: bounded nesting, 64-bit integers, finite numbers, valid text.

Python's decoder takes any nesting until it overflows the stack, integers up
to 4,300 digits (then a bare ValueError), ``NaN`` and lone surrogates such as
``"\\ud800"``, none of which the database or the UTF-8 response can hold. Every
JSON written by a user (API bodies, JSON form fields, submitted fields, data
files) is read by ``SafeJSONDecoder``, which refuses them all with a
``JSONDecodeError`` the callers already turn into a message.
"""

import json
import math
import re

MAX_DEPTH = 32
MAX_INT = 2**63 - 1
MIN_INT = -(2**63)
# Twenty digits hold every 64-bit integer; the digit count is checked before int().
_MAX_INT_DIGITS = 20
_SURROGATE = re.compile("[\ud800-\udfff]")


class UnsafeJSON(json.JSONDecodeError):
    """JSON that parses but that the site refuses to hold."""

    def __init__(self, message: str, doc: str = ""):
        super().__init__(message, doc, 0)
        self.msg = message

    def __str__(self) -> str:
        return self.msg


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > _MAX_INT_DIGITS:
        raise UnsafeJSON("A number in the JSON is too large.")
    value = int(digits)
    if not MIN_INT <= value <= MAX_INT:
        raise UnsafeJSON("A number in the JSON is too large.")
    return value


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise UnsafeJSON("A number in the JSON is too large.")
    return value


def _refuse_constant(name: str):
    raise UnsafeJSON(f"{name} is not a JSON number.")


def _check(value) -> None:
    """Refuse nesting deeper than MAX_DEPTH and strings that are not text."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                raise UnsafeJSON("The JSON holds a lone surrogate (not text).")
        elif isinstance(item, (dict, list)):
            if depth >= MAX_DEPTH:
                raise UnsafeJSON(f"JSON nested deeper than {MAX_DEPTH} levels.")
            children = (
                [*item.keys(), *item.values()] if isinstance(item, dict) else item
            )
            stack.extend((child, depth + 1) for child in children)


class SafeJSONDecoder(json.JSONDecoder):
    """A JSONDecoder that refuses what the site cannot store or send back."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("parse_int", _parse_int)
        kwargs.setdefault("parse_float", _parse_float)
        kwargs.setdefault("parse_constant", _refuse_constant)
        super().__init__(*args, **kwargs)

    def decode(self, s, *args, **kwargs):
        try:
            value = super().decode(s, *args, **kwargs)
        except RecursionError:
            # The C scanner unwinds cleanly; nesting this deep is refused below anyway.
            raise UnsafeJSON(f"JSON nested deeper than {MAX_DEPTH} levels.") from None
        _check(value)
        return value


def loads(text: str | bytes):
    """Return the JSON value in ``text``; raise JSONDecodeError on anything unsafe."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise UnsafeJSON("The JSON is not UTF-8 text.") from None
    return json.loads(text, cls=SafeJSONDecoder)
