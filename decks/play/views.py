"""Playtest pages: start, board, act, undo, restart, branch, share, replay, reports."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from cards.games import GAMES
from cards.safejson import MAX_INT, MIN_INT

from ..engine.bots import OFFERED_LABELS
from ..engine.core import CHANCE
from ..engine.strength import levels_measured
from ..models import Deck
from .clicks import card_moves, may_grey
from .coach import hint_marked
from .models import DeckReport, Playtest
from .names import seat_names, speak
from .reports import (
    MAX_GAMES,
    deck_report_cancel,
    deck_report_start,
    report_requeue_stale,
)
from .services import (
    Choice,
    PlaytestError,
    PlaytestPage,
    PlaytestStartPage,
    match_next_game,
    playtest_act,
    playtest_branch,
    playtest_create,
    playtest_list_page,
    playtest_page,
    playtest_page_after,
    playtest_share,
    playtest_start_page,
    playtest_undo,
)
from .visitors import account_required, player_of, player_required


def _int(value, default=None):
    """Return ``value`` as an integer the database can hold, else ``default``."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return default
    return number if MIN_INT <= number <= MAX_INT else default


def _visible_deck(user, pk):
    deck = (
        Deck.objects.visible_to(user)
        .filter(pk=_int(pk, -1))
        .select_related("game")
        .first()
    )
    if deck is None:
        raise Http404("No such deck.")
    return deck


def board_context(page: PlaytestPage, *, watcher: bool = False) -> dict:
    """Return the template context of a board: the view, choices and the plain-words log.

    Every seat has one name (``names.py``), in the board, the log and the
    buttons alike; ``watcher`` is someone else watching a shared replay.
    """
    pt, game, state = page.playtest, page.engine, page.state
    names = seat_names(pt, watcher=watcher)
    pt.names = names  # the seat filters of the templates read it
    spoken = [Choice(c.id, speak(c.label, names)) for c in page.choices]
    # A move played from the coach's hint reads "(hint)" in the log.
    events = hint_marked(pt, page.view.events)[-60:]
    return {
        "pt": pt,
        "game": game,
        "game_slug": pt.game,
        "view": page.view,
        "viewer": page.viewer,
        "acting": page.acting,
        "is_chance": page.acting == CHANCE,
        "choices": spoken,
        # Cards played by clicking them (clicks.py); greyed ones ask the engine.
        "card_moves": card_moves(game, state, spoken),
        "may_grey": page.step is None
        and not page.pass_screen
        and not page.over
        and may_grey(pt, page.viewer),
        "engine_state": state,
        "events": [speak(line, names) for line in events],
        "over": page.over,
        "winner": page.winner,
        "reason": speak(page.view.reason or "", names),
        "winner_text": speak(f"Player {page.winner + 1} wins", names)
        if page.winner is not None
        else "",
        "pass_screen": page.pass_screen,
        "hotseat": page.hotseat,
        "step": page.step,
        "steps": len(pt.log),
        "board_template": GAMES[pt.game].board_template,
        # Only the player's own readings are "your reading"; a watcher has none.
        "reading_ids": set() if watcher else reading_ids(pt),
        "error": page.error,
        **match_context(page, names),
    }


def match_context(page: PlaytestPage, names: list[str]) -> dict:
    """Return the board's match part: the score, and who goes first in the next game."""
    summary = page.match
    if summary is None:
        return {"match": None}
    context = {
        "match_mode": GAMES[page.playtest.game].match,
        "match": summary,
        "match_score": score_text(summary, names),
        "match_result": speak(f"Player {summary.winner + 1} wins the match", names)
        if summary.winner is not None
        else "",
        "match_next": page.match_next,
    }
    if page.match_next:
        first = page.match_next_first
        context["match_next_first"] = (
            speak(f"Player {first + 1} goes first in the next game", names)
            if isinstance(first, int)
            else ""
        )
    return context


def score_text(summary, names: list[str]) -> str:
    """Return a match's score in seat names: "You 1 – 0 Casual bot" (two seats)."""
    if len(names) == 2 and len(summary.wins) == 2:
        text = f"{names[0]} {summary.wins[0]} – {summary.wins[1]} {names[1]}"
    else:
        text = " · ".join(f"{n} {w}" for n, w in zip(names, summary.wins, strict=False))
    if summary.draws:
        text += f" ({summary.draws} {summary.draw_word})"
    return text


def reading_ids(pt: Playtest) -> set:
    """Return the ids of the cards the player plays as their own reading."""
    return {
        card.get("id")
        for deck in pt.decks or []
        for cards in deck.values()
        if isinstance(cards, list)
        for card in cards
        if isinstance(card, dict) and card.get("your_reading")
    }


@login_required
def playtest_list(request):
    page = playtest_list_page(owner=request.user)
    for g in page.games:
        if g.match_summary is not None:
            g.match_score = score_text(g.match_summary, seat_names(g))
    return render(
        request, "play/list.html", {"games": page.games, "reports": page.reports}
    )


def start_context(page: PlaytestStartPage) -> dict:
    """Return what the start form needs: the game's engine, seat range, other decks, blockers."""
    spec = GAMES[page.deck.game.slug]
    return {
        "deck": page.deck,
        "engine": page.engine,
        "spec": spec,
        "game_slug": page.deck.game.slug,
        "other_decks": page.other_decks,
        "opponent_groups": page.opponent_groups,
        "default_opponent": page.default_opponent,
        "preset_list": page.presets,
        "players_range": spec.seat_counts,
        "seat_options": [o for o in spec.options if o.kind == "seat"],
        "all_seats": range(max(spec.seat_counts)),
        "blocked": page.blocked,
        "copies_missing": any(b["record_copy"] for b in page.blocked),
        "transcribable": any(b["can_transcribe"] for b in page.blocked),
        "max_report_games": MAX_GAMES,
        "bots": OFFERED_LABELS,
    }


def form_options(spec, data) -> dict:
    """Return the game options a start form set (the engine checks and fills the rest)."""
    options = {}
    for option in spec.form_options:
        raw = data.get(option.name)
        if option.kind == "bool" and raw:
            options[option.name] = True
        elif option.kind == "choice" and raw in [str(v) for v, _ in option.choices]:
            options[option.name] = raw
    for option in spec.options:
        # Who goes first (Collision C3 with its cut, Bakugan B9): a seat, a named
        # way (the cut), or nothing for the seed; the engine checks the seat.
        raw = str(data.get(option.name) or "")
        if option.kind != "seat" or not raw:
            continue
        if raw in [str(v) for v, _ in option.choices or ()]:
            options[option.name] = raw
        elif raw.isdigit() and len(raw) < 3:
            options[option.name] = int(raw)
    return options


@login_required
def playtest_new(request):
    if request.method == "GET":
        deck = _visible_deck(request.user, request.GET.get("deck"))
        page = playtest_start_page(user=request.user, deck=deck)
        return render(request, "play/new.html", start_context(page))
    if request.method != "POST":
        return HttpResponse(status=405)
    deck = _visible_deck(request.user, request.POST.get("deck"))
    opponent = request.POST.get("opponent", "random")
    players = _int(request.POST.get("players"), 2)
    seed = (
        # An unreadable or out-of-range seed becomes -1, which the service refuses.
        _int(request.POST.get("seed"), -1)
        if request.POST.get("seed", "").strip()
        else None
    )
    # A preset, "random", "mirror" or a deck id per opponent seat (opponents.py).
    opponent_decks = [v for v in request.POST.getlist("opponent_deck") if v.strip()]
    # The checkbox is ticked by default; a form without the box keeps it on.
    autoplay = (
        bool(request.POST.get("autoplay")) or "autoplay_shown" not in request.POST
    )
    options = form_options(GAMES[deck.game.slug], request.POST)
    chance = "choose" if request.POST.get("chance") == "choose" else "seed"
    # "Single game" or the game's match mode (Collision: best of three).
    match = request.POST.get("match") == "match"
    try:
        pt = playtest_create(
            owner=request.user,
            deck=deck,
            opponent=opponent,
            opponent_decks=opponent_decks,
            players=players,
            seed=seed,
            options=options,
            chance=chance,
            autoplay=autoplay,
            names=request.POST.getlist("seat_name")[:8],
            match=match,
        )
    except PlaytestError as exc:
        if exc.status == 429:
            return _busy(request, exc, f"{reverse('play:new')}?deck={deck.pk}")
        messages.error(request, exc.message)
        return redirect(f"{reverse('play:new')}?deck={deck.pk}")
    return redirect(pt.get_absolute_url())


def _own(request, pk) -> Playtest:
    """Return the request's player's game ``pk``: a user's, or a visitor's of today."""
    return get_object_or_404(Playtest.objects.of(player_of(request)), pk=_int(pk, -1))


def _shown(request) -> int | None:
    """Return the seat the hot-seat pass screen was passed to (the ``seat`` of the URL)."""
    return _int(request.GET.get("seat"))


@player_required
@require_GET
def playtest_detail(request, pk):
    page = playtest_page(playtest=_own(request, pk), board=True, shown=_shown(request))
    template = "play/_board.html" if request.htmx else "play/detail.html"
    return render(request, template, board_context(page))


def _busy(
    request, exc: PlaytestError, back: str | None = None, title: str | None = None
):
    """Answer a refusal of a budget: 429, the message and when to retry.

    htmx swaps no 429, so it is told to reload the page, which shows the message.
    ``title`` heads the page instead of the bots' (and drops "your game is as
    you left it").
    """
    if request.htmx:
        messages.error(request, exc.message)
        response = HttpResponse(exc.message, status=429)
        response["HX-Refresh"] = "true"
    else:
        context = {"title": title, "message": exc.message, "back": back}
        response = render(request, "play/busy.html", context, status=429)
    response["Retry-After"] = str(exc.retry_after)
    return response


def _redirect_to_board(request, pt: Playtest, error: str | None = None):
    """Answer a board form without htmx: a redirect to the board, with the refusal."""
    if error:
        messages.error(request, error)
    url = pt.get_absolute_url()
    seat = request.POST.get("seat")
    return redirect(f"{url}?seat={seat}" if seat else url)


def _stale(request, pt_url: str, message: str):
    messages.warning(request, message)
    if request.htmx:
        response = HttpResponse(message, status=409)
        response["HX-Refresh"] = "true"
        return response
    return redirect(pt_url)


def _board_change(request, pk, change: str, **fields):
    """Run an acting service for the board's owner; answer with the board, or refresh a stale tab.

    htmx gets the board partial (one service call: the change and the page it
    leaves); a plain form gets a redirect to the board.
    """
    pt = _own(request, pk)
    fields.update(
        playtest_id=pt.pk,
        user=player_of(request),
        version=_int(request.POST.get("version"), -1),
    )
    try:
        if request.htmx:
            page = playtest_page_after(
                change, board=True, shown=_shown(request), refused=pt, **fields
            )
            return render(request, "play/_board.html", board_context(page))
        changed = {"act": playtest_act, "undo": playtest_undo}[change](**fields)
    except PlaytestError as exc:
        if exc.status == 409:
            return _stale(request, pt.get_absolute_url(), exc.message)
        if exc.status == 429:
            return _busy(request, exc, pt.get_absolute_url())
        return _redirect_to_board(request, pt, exc.message)
    return _redirect_to_board(request, changed)


@player_required
@require_POST
def playtest_act_view(request, pk):
    return _board_change(request, pk, "act", action=request.POST.get("action", ""))


@account_required
@require_POST
def match_next_view(request, pk):
    """Start the next game of a match; a stale tab is sent to the game under way."""
    pt = _own(request, pk)
    try:
        new = match_next_game(
            playtest_id=pt.pk,
            user=request.user,
            version=_int(request.POST.get("version"), -1),
        )
    except PlaytestError as exc:
        if exc.status == 409:
            messages.warning(request, exc.message)
            latest = (
                Playtest.objects.filter(match_id=pt.match_id, owner=request.user)
                .order_by("-match_game")
                .first()
                if pt.match_id
                else None
            )
            return redirect((latest or pt).get_absolute_url())
        if exc.status == 429:
            return _busy(request, exc, pt.get_absolute_url())
        messages.error(request, exc.message)
        return redirect(pt.get_absolute_url())
    return redirect(new.get_absolute_url())


@player_required
@require_POST
def playtest_undo_view(request, pk):
    return _board_change(request, pk, "undo", to=request.POST.get("to", "last"))


@account_required
@require_POST
def playtest_branch_view(request, pk):
    pt = get_object_or_404(Playtest, pk=_int(pk, -1))
    if not pt.may_branch(request.user):
        raise Http404("No such game.")
    step = _int(request.POST.get("step"), 0 if request.POST.get("restart") else None)
    try:
        new = playtest_branch(playtest=pt, user=request.user, step=step)
    except PlaytestError as exc:
        if exc.status == 429:
            return _busy(request, exc, pt.get_absolute_url())
        messages.error(request, exc.message)
        return redirect(pt.get_absolute_url())
    return redirect(new.get_absolute_url())


@account_required
@require_POST
def playtest_share_view(request, pk):
    pt = _own(request, pk)
    playtest_share(playtest=pt, on=request.POST.get("on") == "1")
    return redirect(pt.get_absolute_url())


@require_GET
def playtest_shared(request, token):
    pt = get_object_or_404(Playtest, share_token=str(token)[:40])
    step = max(0, min(_int(request.GET.get("step"), 0), len(pt.log)))
    page = playtest_page(playtest=pt, step=step, seat=0)
    context = board_context(page, watcher=request.user != pt.owner)
    context["share_url"] = reverse("play:shared", kwargs={"token": token})
    context["may_branch"] = pt.may_branch(request.user)
    return render(request, "play/shared.html", context)


@login_required
@require_POST
def report_new(request):
    deck = _visible_deck(request.user, request.POST.get("deck"))
    # One or more opponents (a preset, "random", "mirror", a deck id): the
    # report's games go round them and give the win rate against each.
    opponents = [v for v in request.POST.getlist("opponent_deck") if v.strip()]
    try:
        report = deck_report_start(
            owner=request.user,
            deck=deck,
            opponents=opponents,
            games=_int(request.POST.get("games"), 100),
            bot=request.POST.get("bot", "greedy"),
            seed=_int(request.POST.get("seed"), -1)
            if request.POST.get("seed", "").strip()
            else 1,
        )
    except PlaytestError as exc:
        messages.error(request, exc.message)
        return redirect(f"{reverse('play:new')}?deck={deck.pk}")
    return redirect("play:report", pk=report.pk)


def _own_report(request, pk) -> DeckReport:
    return get_object_or_404(
        DeckReport.objects.select_related("deck", "opponent_deck"),
        pk=_int(pk, -1),
        owner=request.user,
    )


@login_required
@require_GET
def report_detail(request, pk):
    report = _own_report(request, pk)
    # Whoever watches a report also notices a slice whose worker died.
    if report.unfinished and report_requeue_stale(report):
        report.refresh_from_db()
    template = "play/_report.html" if request.htmx else "play/report.html"
    return render(request, template, {"report": report})


@login_required
@require_POST
def report_cancel_view(request, pk):
    report = deck_report_cancel(report=_own_report(request, pk))
    messages.info(request, "The report is cancelled.")
    return redirect("play:report", pk=report.pk)


@require_GET
def how_to_play(request, game):
    """Show the site's own how-to-play page of a game, with the rulings it follows."""
    if game not in GAMES:
        raise Http404("No such game.")
    spec = GAMES[game]
    return render(
        request,
        spec.help_template,
        {
            "game_slug": game,
            "game_name": spec.name,
            "spec": spec,
            "strength": levels_measured(game),
        },
    )
