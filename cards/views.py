"""Pages of the card catalogue: home, games, sets, cards."""

from django.db.models import Count, Q
from django.shortcuts import get_object_or_404, render

from .choices import SetKind
from .models import Game


def home(request):
    """List the four games with their official and practice card counts."""
    games = Game.objects.annotate(
        official_count=Count("sets__cards", filter=Q(sets__kind=SetKind.OFFICIAL)),
        practice_count=Count("sets__cards", filter=Q(sets__kind=SetKind.PRACTICE)),
    ).order_by("sort_order")
    return render(request, "cards/home.html", {"games": games})


def game_detail(request, game):
    """Show one game: its sets (the checklist lives on the game and set pages)."""
    game = get_object_or_404(Game, slug=game)
    sets = game.sets.visible_to(request.user).annotate(card_count=Count("cards"))
    return render(request, "cards/game.html", {"game": game, "sets": sets})
