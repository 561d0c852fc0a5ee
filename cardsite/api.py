"""API plumbing shared by every app: the JSON parser and the exception handler."""

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions, parsers
from rest_framework.views import exception_handler as drf_exception_handler

from cards import safejson


class SafeJSONParser(parsers.JSONParser):
    """Parse a JSON body, refusing deep nesting, huge numbers and lone surrogates."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return safejson.loads(stream.read() if stream is not None else b"")
        except ValueError as exc:
            raise exceptions.ParseError(f"JSON parse error - {exc}") from None


def exception_handler(exc, context):
    """Turn Django's ValidationError into a 400 with field errors, then defer to DRF."""
    if isinstance(exc, DjangoValidationError):
        if hasattr(exc, "error_dict"):
            detail = {
                field: [
                    e.message % (e.params or {}) if e.params else e.message
                    for e in errs
                ]
                for field, errs in exc.error_dict.items()
            }
        else:
            detail = {"non_field_errors": exc.messages}
        exc = exceptions.ValidationError(detail=detail)
    return drf_exception_handler(exc, context)
