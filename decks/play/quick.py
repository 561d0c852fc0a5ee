"""Play now: a game with a starter deck against a bot in two taps, account or not.

Tap one is "Play now" (the home page, a game's page, ``/play/now/``); tap two is
a bot's button on the game's form, with the first starter deck already chosen.
A visitor's game belongs to their browser session (``visitors``). The starter
decks are the preset decks (``opponents.Starter``); a signed-in player copies
one into their own decks with "Copy to my decks".
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cards.models import GameRecord

from ..engine.bots import LEVEL_NAMES, OFFERED, OFFERED_LABELS
from ..models import Deck
from ..services import deck_create
from .models import VISITOR_GAME_LIFE
from .opponents import PRESET, Starter, available_presets, starter
from .services import PlaytestError, playtest_create
from .views import _busy, _int
from .visitors import player_of

STARTER = "starter:"
DECK = "deck:"


@require_GET
def play_now(request):
    """List the four games, each with its Play now button."""
    return render(request, "play/now.html", {"games": GameRecord.objects.all()})


def _chosen_deck(request, game, value: str):
    """Return the deck a form names: a starter deck, or a public (or own) deck."""
    if value.startswith(DECK):
        deck = (
            Deck.objects.visible_to(request.user)
            .filter(pk=_int(value[len(DECK) :], -1), game=game)
            .select_related("game", "owner")
            .first()
        )
        if deck is None:
            raise PlaytestError("bad_deck", "No such deck of this game.")
        return deck
    presets = available_presets(game.slug)
    slug = value[len(STARTER) :] if value.startswith(STARTER) else ""
    if not slug and presets:
        slug = presets[0].slug
    return starter(game, slug)


def _opposing(game, deck) -> list[str]:
    """Return the bot's deck: the starter after the player's, so no game is a mirror."""
    values = [f"{PRESET}{p.slug}" for p in available_presets(game.slug)]
    if not isinstance(deck, Starter) or len(values) < 2:
        return []  # the game's default opponent (opponents.default_opponent)
    mine = values.index(f"{PRESET}{deck.preset.slug}")
    return [values[(mine + 1) % len(values)]]


@require_http_methods(["GET", "POST"])
def play_now_game(request, game):
    """Offer a game's starter decks and its bots; a bot's button starts the game."""
    game = get_object_or_404(GameRecord, slug=game)
    back = reverse("play:now-game", kwargs={"game": game.slug})
    if request.method == "POST":
        bot = request.POST.get("bot", "")
        try:
            if bot not in OFFERED:
                raise PlaytestError("bad_opponent", "Choose a bot to play against.")
            deck = _chosen_deck(request, game, request.POST.get("deck", ""))
            pt = playtest_create(
                owner=player_of(request, create=True),
                deck=deck,
                opponent=bot,
                opponent_decks=_opposing(game, deck),
            )
        except PlaytestError as exc:
            if exc.code == "visitor_games":
                return _busy(request, exc, back, title="Sign up to play more")
            if exc.status == 429:
                return _busy(request, exc, back)
            messages.error(request, exc.message)
            return redirect(back)
        return redirect(pt.get_absolute_url())
    decks = [
        {
            "value": f"{STARTER}{p.slug}",
            "name": p.name,
            "starter": True,
            "about": f"{p.style}: {p.description}",
        }
        for p in available_presets(game.slug)
    ]
    # "Play it" on a published deck names it; it comes first, chosen.
    wanted = request.GET.get("deck", "")
    if wanted.startswith(DECK):
        played = (
            Deck.objects.visible_to(request.user)
            .filter(pk=_int(wanted[len(DECK) :], -1), game=game)
            .select_related("owner")
            .first()
        )
        if played is not None:
            about = f"by {played.owner.get_username()}"
            decks.insert(
                0,
                {"value": f"{DECK}{played.pk}", "name": played.name, "about": about},
            )
    values = [d["value"] for d in decks]
    chosen = wanted if wanted in values else next(iter(values), "")
    context = {
        "game": game,
        "decks": decks,
        "chosen": chosen,
        # One button per offered level, easiest first: "Casual (greedy bot)".
        "bots": [
            (name, LEVEL_NAMES[name], OFFERED_LABELS[name][len(LEVEL_NAMES[name]) :])
            for name in OFFERED
        ],
        "visitor_hours": int(VISITOR_GAME_LIFE.total_seconds() // 3600),
    }
    return render(request, "play/now_game.html", context)


@login_required
@require_POST
def starter_copy(request, game, slug):
    """Copy a starter deck into the player's own decks."""
    game = get_object_or_404(GameRecord, slug=game)
    try:
        chosen = starter(game, slug)
        _, entries = chosen.played()
        deck = deck_create(
            owner=request.user,
            game=game,
            name=chosen.name,
            notes=chosen.preset.description,
            entries=entries,
        )
    except PlaytestError as exc:
        messages.error(request, exc.message)
        return redirect("decks:list")
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("decks:list")
    messages.success(request, f"Copied into your decks as “{deck.name}”.")
    return redirect(deck)
