"""The site navigation: mark the link of the section the reader is in."""

from django import template
from django.utils.safestring import mark_safe

register = template.Library()


@register.simple_tag(takes_context=True)
def nav_current(context, href: str) -> str:
    """Return ``aria-current="page"`` when the request's path is under ``href``."""
    request = context.get("request")
    if request is None:
        return ""
    path = request.path
    here = path == href if href == "/" else path.startswith(href)
    return mark_safe(' aria-current="page"') if here else ""
