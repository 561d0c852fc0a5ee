"""Site-wide response headers."""

from django.conf import settings


class ServerHeaderMiddleware:
    """Name the site, not the server software and its version, in ``Server``."""

    # Set on every answer, so Django's development server does not add
    # "WSGIServer/0.2 CPython/3.x"; gunicorn drops it and its own (gunicorn.conf.py).
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response["Server"] = "cardsite"
        return response


class ContentSecurityPolicyMiddleware:
    """Send the Content-Security-Policy header: no inline scripts, nothing from other hosts."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        return response
