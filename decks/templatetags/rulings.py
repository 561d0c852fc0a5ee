"""Ruling codes shown to players, linked to their words on the how-to-play page."""

from django import template
from django.urls import reverse
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def ruling(game: str, code: str):
    """Link ``code`` (``"M3"``) to where the game's how-to-play page words it."""
    url = reverse("play:help", kwargs={"game": game}) + f"#ruling-{code}"
    return format_html(
        '<a class="ruling" href="{}" title="How the site reads the rules: ruling {}">'
        "{}</a>",
        url,
        code,
        code,
    )
