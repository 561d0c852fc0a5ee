"""One click from the collection page: a deck of what I own, against a bot."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from .owned import play_from_collection
from .play.services import PlaytestError


@login_required
@require_POST
def from_collection(request, game):
    try:
        playtest = play_from_collection(user=request.user, game=game)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("collection:home")
    except PlaytestError as error:
        messages.error(request, error.message)
        return redirect("collection:home")
    messages.success(
        request,
        "Your deck is built from your collection and saved with your decks; "
        "the bot plays the same deck.",
    )
    return redirect(playtest.get_absolute_url())
