"""Template tags of the collection: widget counts and graded population."""

from django import template

from .. import selectors

register = template.Library()


@register.simple_tag(takes_context=True)
def collection_counts(context, card):
    """Return {"owned": n, "wanted": n} for the signed-in user and ``card``.

    Uses ``card.owned_qty``/``card.wanted_qty`` when the page annotated them
    (see ``collection.selectors``); otherwise asks the database for this card.
    """
    if hasattr(card, "owned_qty") and hasattr(card, "wanted_qty"):
        return {"owned": card.owned_qty or 0, "wanted": card.wanted_qty or 0}
    request = context.get("request")
    user = getattr(request, "user", None) or context.get("user")
    owned, wanted = selectors.counts_for_cards(user=user, card_ids=[card.pk]).get(
        card.pk, (0, 0)
    )
    return {"owned": owned, "wanted": wanted}


@register.simple_tag
def graded_population(card):
    """Return graded copies of ``card`` on the site by company and grade."""
    return selectors.graded_population(card=card)


@register.simple_tag
def g_power_population(card):
    """Return the G-Power values recorded for copies of ``card`` on the site."""
    return selectors.g_power_population(card=card)


@register.simple_tag
def games_building_from_collection():
    """Return the games that can build a deck from what a collector owns."""
    from cards.games import GAMES

    return [spec for spec in GAMES.values() if spec.deck_from_collection]
