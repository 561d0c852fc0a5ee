"""Pages of the deck doctor: start a run, watch it, cancel it, apply a suggestion."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from ..engine.bots import BOT_LABELS
from ..models import Deck
from .adapter import PlaytestError
from .doctor import doctor_apply, doctor_cancel, doctor_requeue_stale, doctor_start
from .models import DeckDoctor
from .views import _int


def _own_doctor(request, pk) -> DeckDoctor:
    return get_object_or_404(
        DeckDoctor.objects.select_related("deck", "opponent_deck"),
        pk=_int(pk, -1),
        owner=request.user,
    )


@login_required
@require_POST
def doctor_new(request):
    deck = (
        Deck.objects.filter(owner=request.user, pk=_int(request.POST.get("deck"), -1))
        .select_related("game", "owner")
        .first()
    )
    if deck is None:
        raise Http404("No such deck of yours.")
    opponent = None
    if request.POST.get("opponent_deck"):
        opponent = (
            Deck.objects.visible_to(request.user)
            .filter(pk=_int(request.POST["opponent_deck"], -1))
            .select_related("game")
            .first()
        )
        if opponent is None:
            raise Http404("No such deck.")
    try:
        doctor = doctor_start(
            owner=request.user,
            deck=deck,
            opponent_deck=opponent,
            source=request.POST.get("source", "game"),
            games=_int(request.POST.get("games"), 200),
            bot=request.POST.get("bot", "greedy"),
            seed=_int(request.POST.get("seed"), -1)
            if request.POST.get("seed", "").strip()
            else 1,
        )
    except PlaytestError as exc:
        messages.error(request, exc.message)
        return redirect(f"{reverse('play:new')}?deck={deck.pk}")
    return redirect("play:doctor", pk=doctor.pk)


@login_required
@require_GET
def doctor_detail(request, pk):
    doctor = _own_doctor(request, pk)
    # Whoever watches a run also notices a candidate whose worker died.
    if doctor.unfinished and doctor_requeue_stale(doctor):
        doctor.refresh_from_db()
    template = "play/_doctor.html" if request.htmx else "play/doctor.html"
    return render(
        request,
        template,
        {"doctor": doctor, "bot_label": BOT_LABELS.get(doctor.bot, doctor.bot)},
    )


@login_required
@require_POST
def doctor_cancel_view(request, pk):
    doctor = doctor_cancel(doctor=_own_doctor(request, pk))
    messages.info(request, "The deck doctor run is cancelled.")
    return redirect("play:doctor", pk=doctor.pk)


@login_required
@require_POST
def doctor_apply_view(request, pk, index):
    doctor = _own_doctor(request, pk)
    try:
        deck = doctor_apply(doctor=doctor, index=_int(index, -1), user=request.user)
    except PlaytestError as exc:
        messages.error(request, exc.message)
        return redirect("play:doctor", pk=doctor.pk)
    messages.success(
        request,
        f"Applied: the deck is saved as version {deck.versions.first().number}.",
    )
    return redirect(deck.get_absolute_url())
