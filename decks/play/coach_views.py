"""Pages of the coach: a hint on the board, hints off for a game, a game's review."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from .coach import (
    playtest_hint,
    playtest_hints_set,
    review_graph,
    review_requeue_stale,
    review_start,
    turning_sentence,
)
from .models import GameReview, Playtest
from .names import seat_names, speak
from .services import PlaytestError
from .views import _board_change, _busy, _int, _own, _stale
from .visitors import account_required, player_of, player_required


@player_required
@require_POST
def hint_view(request, pk):
    pt = _own(request, pk)
    try:
        hint = playtest_hint(
            playtest=pt,
            user=player_of(request),
            version=_int(request.POST.get("version"), -1),
        )
    except PlaytestError as exc:
        if exc.status == 409:
            return _stale(request, pt.get_absolute_url(), exc.message)
        if exc.status == 429:
            return _busy(request, exc, pt.get_absolute_url())
        messages.error(request, exc.message)
        return redirect(pt.get_absolute_url())
    names = seat_names(pt)
    moves = [(m.id, speak(m.label, names), m.percent) for m in hint]
    context = {"pt": pt, "hint": moves}
    template = "play/_hint_list.html" if request.htmx else "play/hint.html"
    return render(request, template, context)


@player_required
@require_POST
def hint_act_view(request, pk):
    return _board_change(
        request, pk, "act", action=request.POST.get("action", ""), hint=True
    )


@player_required
@require_POST
def hints_set_view(request, pk):
    pt = playtest_hints_set(
        playtest=_own(request, pk), on=request.POST.get("on") == "1"
    )
    return redirect(pt.get_absolute_url())


def _start(request, pt: Playtest, back: str):
    try:
        review = review_start(owner=request.user, playtest=pt)
    except PlaytestError as exc:
        messages.error(request, exc.message)
        return redirect(back)
    return redirect(review.get_absolute_url())


@account_required
@require_POST
def review_new(request, pk):
    pt = _own(request, pk)
    return _start(request, pt, pt.get_absolute_url())


@login_required
@require_POST
def review_shared(request, token):
    pt = get_object_or_404(Playtest, share_token=str(token)[:40])
    return _start(request, pt, reverse("play:shared", kwargs={"token": token}))


def _moves_of(name: str) -> str:
    """Return "Your moves" or "Mia's moves" for a seat's name."""
    return "Your moves" if name == "You" else f"{name}'s moves"


@login_required
@require_GET
def review_detail(request, pk):
    review = get_object_or_404(
        GameReview.objects.select_related("playtest"),
        pk=_int(pk, -1),
        owner=request.user,
    )
    # Whoever watches a review also notices when its worker died.
    if review.unfinished and review_requeue_stale(review):
        review.refresh_from_db()
    pt = review.playtest
    names = seat_names(pt, watcher=request.user != pt.owner)
    result = dict(review.result)
    rows = [
        {**row, "move": speak(row["move"], names), "best": speak(row["best"], names)}
        for row in result.get("moves", [])
    ]
    turning = result.get("turning_point") or {}
    point = next((r for r in rows if r["step"] == turning.get("step")), None)
    result.update(moves=rows, turning_point=point)
    context = {
        "review": review,
        "pt": pt,
        "player_moves": _moves_of(names[review.seat]),
        "result": result,
        "costly": [row for row in rows if row["costly"]],
        "sentence": turning_sentence(point) if review.status == "done" else "",
        "graph": review_graph(result),
    }
    template = "play/_review.html" if request.htmx else "play/review.html"
    return render(request, template, context)
