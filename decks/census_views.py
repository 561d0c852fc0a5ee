"""The deck pages of the Collide-O! census: a deck of the official pack."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from .census import official_pack_deck


@login_required
@require_POST
def official_pack_view(request):
    """Make the signed-in collector a deck of the official pack and start a game."""
    deck = official_pack_deck(owner=request.user)
    if deck is None:
        messages.error(request, "The official Collide-O! pack is not known yet.")
        return redirect("community:census")
    return redirect(f"{reverse('play:new')}?deck={deck.pk}")
