"""The table companion's pages: start a game, keep its score on a phone, share it.

The pages work without JavaScript: each entry is a small form that posts and
comes back to the score (post, redirect, get), so a reload never repeats an
entry and the score survives a reload or a closed tab. The shared page is
read-only and reached by its unguessable link only, while its owner keeps it
on; turning it off or deleting the game (each confirmed by a ticked box) ends
the link.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cards.games import GAMES

from ... import selectors
from . import score, services
from .models import TableGame

_int = score.typed


def _text(value, limit: int) -> str:
    """Return a typed name without NUL characters, which no database stores."""
    return (value or "").replace("\x00", "").strip()[:limit]


def _own(request, pk) -> TableGame:
    return get_object_or_404(
        TableGame.objects.filter(owner=request.user).select_related("game"), pk=pk
    )


def _decks(request, game_slug: str):
    return list(selectors.visible_decks(request.user).filter(game__slug=game_slug))


# --- set-up ------------------------------------------------------------------------


def _chosen_deck(request, decks, value):
    pk = _int(value)
    if pk is None:
        return None
    deck = next((d for d in decks if d.pk == pk), None)
    if deck is None:
        raise ValidationError("Choose one of the decks listed.", code="no_deck")
    return deck


def _setup_from_post(request, spec, decks) -> dict:
    """Return the set-up a start form describes, reading chosen decks' cards."""
    post = request.POST
    players = _int(post.get("players"))
    if players not in spec.seat_counts:
        counts = " or ".join(str(n) for n in spec.seat_counts)
        raise ValidationError(f"{spec.short_name} is for {counts} players.")
    names = [
        _text(post.get(f"name_{p}"), 40) or score.seat_name({}, p)
        for p in range(players)
    ]
    chosen = [
        _chosen_deck(request, decks, post.get(f"deck_{p}")) for p in range(players)
    ]
    seats = [
        score.Seat(
            name,
            deck.name if deck else None,
            services.deck_cards(deck, request.user) if deck else None,
        )
        for name, deck in zip(names, chosen, strict=True)
    ]
    setup = {"names": names, "decks": [d.name if d else None for d in chosen]}
    try:
        setup.update(score.companion(spec.slug).setup(post, seats))
    except score.ScoreError as error:
        raise ValidationError(str(error), code="bad_setup") from None
    return setup


@login_required
@require_http_methods(["GET", "POST"])
def companion_new(request):
    """Start keeping the score of a game at the table."""
    spec = GAMES.get(request.GET.get("game") or request.POST.get("game") or "")
    games = score.games()
    if spec not in games:
        mine = TableGame.objects.filter(owner=request.user).select_related("game")[:20]
        return render(
            request, "table/companion_start.html", {"games": games, "mine": mine}
        )
    decks = _decks(request, spec.slug)
    error = None
    if request.method == "POST":
        try:
            setup = _setup_from_post(request, spec, decks)
            table_game = services.table_game_create(
                owner=request.user,
                game_slug=spec.slug,
                name=_text(request.POST.get("title"), 120),
                setup=setup,
            )
        except ValidationError as e:
            error = " ".join(e.messages)
        else:
            return redirect(table_game)
    return render(
        request,
        "table/companion_new.html",
        {
            **score.companion(spec.slug).page({}),
            "spec": spec,
            "decks": decks,
            "seats": range(spec.max_players),
            "error": error,
            "post": request.POST,
        },
        status=400 if error else 200,
    )


# --- the score -------------------------------------------------------------------


def _context(table_game: TableGame) -> dict:
    slug = table_game.game.slug
    result = score.score(slug, table_game.setup, table_game.log)
    for row in result["rows"]:
        row["name"] = score.seat_name(table_game.setup, row["player"])
    winner = result["winner"]
    return {
        **score.companion(slug).page(table_game.setup),
        "table_game": table_game,
        "spec": table_game.spec,
        "score": result,
        "winner_name": result["rows"][winner]["name"] if winner is not None else None,
        "history": list(reversed(result["history"])),
        "players": range(len(result["rows"])),
    }


@login_required
@require_GET
def companion_detail(request, pk):
    """Show the score with the forms that enter what happened."""
    table_game = _own(request, pk)
    context = _context(table_game)
    context["editable"] = True
    context["share_url"] = request.build_absolute_uri(table_game.get_shared_url())
    return render(request, "table/companion.html", context)


@login_required
@require_POST
def companion_act(request, pk):
    """Enter what happened at the table."""
    table_game = _own(request, pk)
    keeper = score.companion(table_game.game.slug)
    try:
        services.table_game_record(
            table_game=table_game,
            event=keeper.event(request.POST, table_game.setup),
            version=_int(request.POST.get("version"), -1),
        )
    except score.ScoreError as error:
        messages.error(request, str(error))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect(table_game)


@login_required
@require_POST
def companion_undo(request, pk):
    """Take back the last entry."""
    table_game = _own(request, pk)
    try:
        services.table_game_undo(
            table_game=table_game, version=_int(request.POST.get("version"), -1)
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect(table_game)


@login_required
@require_POST
def companion_share(request, pk):
    """Turn the read-only link off, or on again with a new address."""
    table_game = _own(request, pk)
    on = request.POST.get("on") == "1"
    if not on and not request.POST.get("confirm"):
        messages.error(request, "Tick the box to confirm the link should stop working.")
    else:
        services.table_game_share(table_game=table_game, on=on)
    return redirect(table_game)


@login_required
@require_POST
def companion_delete(request, pk):
    """Delete a table game for good, once its owner has ticked the box."""
    table_game = _own(request, pk)
    if not request.POST.get("confirm"):
        messages.error(request, "Tick the box to confirm the game should be deleted.")
        return redirect(table_game)
    services.table_game_delete(table_game=table_game)
    messages.success(request, f"“{table_game.name}” is deleted.")
    return redirect("table:companion-new")


@require_GET
def companion_shared(request, token):
    """Show a table game's score read-only to whoever has its link, while it is on."""
    table_game = get_object_or_404(
        TableGame.objects.select_related("game"), share_token=token, shared=True
    )
    context = _context(table_game)
    context["editable"] = False
    return render(request, "table/companion.html", context)
