"""The site's own words for a card's encoded effect (``cards.effects``)."""

from django import template

from cards.effects import EffectError, effect_sentence

register = template.Library()


@register.filter
def effect_words(card) -> str:
    """Return the sentence generated from ``card.effects`` ("" when not encoded)."""
    try:
        return effect_sentence(card.effects or [], is_gate=card.card_type == "gate")
    except EffectError:
        return ""
