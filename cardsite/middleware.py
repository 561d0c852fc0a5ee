"""Site-wide response headers."""

from django.conf import settings


class ContentSecurityPolicyMiddleware:
    """Send the Content-Security-Policy header: no inline scripts, nothing from other hosts."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        return response
