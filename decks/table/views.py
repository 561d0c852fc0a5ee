"""Pages that take a deck to the table: proxy sheets, the deck list, play mats.

A deck prints for whoever may read it (``decks.selectors.visible_decks``:
public decks for anyone, a private one for its owner only); a set or a list of
cards prints what the reader may see. Before a PDF, a page says what will
print, which cards print incomplete (unknown values show as "?"), what is left
out, and where a card size is not sourced. A visitor who is not logged in has
a few sheets drawn an hour per address (``budgets.PROXY_SHEETS``); a sheet
served from the cache is not counted.
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.views.decorators.http import require_GET

from cards.choices import SetKind
from cards.community.readings import cards_as_read, entries_as_read
from cards.games import GAMES
from cards.models import Card
from cards.selectors import hide_private_cards, visible_sets
from collection.accounts import client_address

from .. import selectors
from ..budgets import PROXY_SHEETS, BudgetSpent, budget_charge, budget_check
from . import decklist, mats, proxies
from .companion import score

MAX_LIST = proxies.MAX_CARDS
MAX_ID = 2**63 - 1  # the largest id a database row can have


class BadRequest(ValueError):
    """A parameter the page cannot use; its message says why."""


def _paper(request) -> str:
    paper = request.GET.get("paper") or proxies.DEFAULT_PAPER
    if paper not in proxies.PAPERS:
        raise BadRequest("Paper is a4 or letter.")
    return paper


def _refuse(request, message: str, status: int = 400):
    return render(request, "table/refused.html", {"message": message}, status=status)


def _pdf(data: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


# --- what to print -------------------------------------------------------------


def _deck_lines(request, pk):
    deck = get_object_or_404(selectors.visible_decks(request.user), pk=pk)
    entries = entries_as_read(request.user, selectors.deck_entries(deck))
    hidden = hide_private_cards(entries, request.user)
    lines = [
        proxies.ProxyLine(e.card, e.quantity)
        for e in entries
        if e.card_id not in hidden
    ]
    hidden_copies = sum(e.quantity for e in entries if e.card_id in hidden)
    return deck, lines, hidden_copies


def _set_lines(request, game, set):
    card_set = get_object_or_404(visible_sets(request.user), game__slug=game, slug=set)
    cards = card_set.cards.select_related("card_set__game").order_by(
        "number", "key", "pk"
    )
    return card_set, [
        proxies.ProxyLine(card, 1) for card in cards_as_read(request.user, cards)
    ]


def _list_lines(request):
    """Return the lines of ``?cards=12,12,40`` (a card named twice prints twice)."""
    raw = request.GET.get("cards", "")
    words = [w for w in raw.replace(" ", ",").split(",") if w]
    if not words:
        raise BadRequest("Name the cards to print: ?cards=12,12,40 (card ids).")
    if len(words) > MAX_LIST:
        proxies.check_limit(len(words))
    try:
        ids = [int(w) for w in words]
    except ValueError:
        raise BadRequest(
            "Cards are named by their ids, e.g. ?cards=12,12,40."
        ) from None
    out_of_range = sorted({i for i in ids if not 0 < i <= MAX_ID})
    if out_of_range:
        raise BadRequest(f"No card with id {out_of_range[0]}.")
    cards = {
        c.pk: c
        for c in cards_as_read(
            request.user,
            Card.objects.visible_to(request.user)
            .filter(pk__in=set(ids))
            .select_related("card_set__game"),
        )
    }
    missing = sorted({i for i in ids if i not in cards})
    if missing:
        raise BadRequest(
            "No card with id " + ", ".join(str(i) for i in missing[:10]) + "."
        )
    copies: dict[int, int] = {}
    for i in ids:
        copies[i] = copies.get(i, 0) + 1
    return [proxies.ProxyLine(cards[i], n) for i, n in copies.items()]


def _notice(request, *, title, back, lines, hidden=0, pdf_url):
    plan = proxies.proxy_plan(lines, hidden=hidden)
    refusal = None
    try:
        proxies.check_limit(plan.count)
    except proxies.TooManyCards as error:
        refusal = str(error)
    return render(
        request,
        "table/proxies.html",
        {
            "title": title,
            "back": back,
            "plan": plan,
            "refusal": refusal,
            "pdf_url": pdf_url,
            "papers": [(k, v[0]) for k, v in proxies.PAPERS.items()],
            "max_cards": proxies.MAX_CARDS,
            "mark": proxies.PROXY_MARK,
        },
    )


def _sheet(request, lines, title, filename, hidden=0):
    try:
        paper = _paper(request)
        plan = proxies.proxy_plan(lines, hidden=hidden)
        proxies.check_limit(plan.count)
        data = proxies.cached_sheet(plan.lines, paper=paper, title=title)
        if data is None:
            data = _build(request, plan.lines, paper=paper, title=title)
    except (BadRequest, proxies.TooManyCards) as error:
        return _refuse(request, str(error))
    except BudgetSpent as spent:
        response = _refuse(request, spent.message, status=429)
        response["Retry-After"] = str(spent.retry_after)
        return response
    return _pdf(data, filename)


def _build(request, lines, *, paper: str, title: str) -> bytes:
    """Draw a sheet; a visitor who is not logged in builds a few per hour per address.

    A sheet costs up to 2 s of CPU and 8 MB of disk; a cached one costs nothing
    and is not counted.
    """
    if request.user.is_authenticated:
        return proxies.proxy_sheet(lines, paper=paper, title=title)
    address = client_address(request)
    budget_check(budget=PROXY_SHEETS, address=address)
    data = proxies.proxy_sheet(lines, paper=paper, title=title)
    budget_charge(budget=PROXY_SHEETS, address=address, amount=1)
    return data


# --- proxy sheets ----------------------------------------------------------------


@require_GET
def deck_proxies(request, pk):
    """Say what a deck's proxy sheet will print, before printing."""
    deck, lines, hidden = _deck_lines(request, pk)
    return _notice(
        request,
        title=f"Proxy sheet: {deck.name}",
        back=(deck.get_absolute_url(), deck.name),
        lines=lines,
        hidden=hidden,
        pdf_url=request.path.rstrip("/") + ".pdf",
    )


@require_GET
def deck_proxies_pdf(request, pk):
    """Return a deck's proxy sheet: every copy it holds, at card size."""
    deck, lines, hidden = _deck_lines(request, pk)
    return _sheet(
        request, lines, f"Proxies: {deck.name}", f"proxies-deck-{deck.pk}.pdf", hidden
    )


@require_GET
def set_proxies(request, game, set):
    """Say what a set's proxy sheet (one of each card) will print."""
    card_set, lines = _set_lines(request, game, set)
    return _notice(
        request,
        title=f"Proxy sheet: {card_set.name}",
        back=(card_set.get_absolute_url(), card_set.name),
        lines=lines,
        pdf_url=request.path.rstrip("/") + ".pdf",
    )


@require_GET
def set_proxies_pdf(request, game, set):
    """Return a set's proxy sheet, one of each card the reader may see."""
    card_set, lines = _set_lines(request, game, set)
    return _sheet(
        request, lines, f"Proxies: {card_set.name}", f"proxies-{card_set.slug}.pdf"
    )


@require_GET
def card_proxies(request):
    """Say what a list of cards (``?cards=``) will print."""
    try:
        lines = _list_lines(request)
    except (BadRequest, proxies.TooManyCards) as error:
        return _refuse(request, str(error))
    query = request.GET.urlencode()
    return _notice(
        request,
        title="Proxy sheet: chosen cards",
        back=None,
        lines=lines,
        pdf_url=f"{request.path.rstrip('/')}.pdf?{query}",
    )


@require_GET
def card_proxies_pdf(request):
    """Return the proxy sheet of a list of cards."""
    try:
        lines = _list_lines(request)
    except (BadRequest, proxies.TooManyCards) as error:
        return _refuse(request, str(error))
    return _sheet(request, lines, "Proxies: chosen cards", "proxies.pdf")


# --- deck list -------------------------------------------------------------------


@require_GET
def deck_list_pdf(request, pk):
    """Return a one-page deck list for a tournament: cards by zone, counts, numbers."""
    deck = get_object_or_404(selectors.visible_decks(request.user), pk=pk)
    try:
        paper = _paper(request)
    except BadRequest as error:
        return _refuse(request, str(error))
    entries = entries_as_read(request.user, selectors.deck_entries(deck))
    hide_private_cards(entries, request.user)
    data = decklist.render_decklist(
        deck,
        entries,
        paper=paper,
        printed_on=timezone.localdate().isoformat(),
    )
    return _pdf(data, f"decklist-{deck.pk}.pdf")


# --- the table's front page -------------------------------------------------------


@require_GET
def table_index(request):
    """Show what the table offers each game: proxies, mats, deck lists, companion."""
    sets = (
        visible_sets(request.user)
        .exclude(kind=SetKind.CUSTOM)
        .order_by("kind", "sort_order")
    )
    with_companion = {game.slug for game in score.games()}
    games = [
        {
            "spec": spec,
            "sets": [s for s in sets if s.game.slug == spec.slug],
            "companion": spec.slug in with_companion,
        }
        for spec in GAMES.values()
    ]
    return render(request, "table/index.html", {"games": games})


# --- play mats -------------------------------------------------------------------


@require_GET
def mat_index(request):
    """List every game's play mats."""
    games = [g for g in GAMES.values() if g.mats]
    return render(
        request,
        "table/mats.html",
        {
            "games": games,
            "papers": [(k, v[0]) for k, v in proxies.PAPERS.items()],
            "max_players": mats.MAX_PLAYERS,
        },
    )


@require_GET
def mat_pdf(request, game, mat):
    """Return a play mat as PDF (one sheet per player for a player's mat)."""
    spec = GAMES.get(game)
    found = spec.mat(mat) if spec else None
    if found is None:
        raise Http404("No such mat.")
    try:
        paper = _paper(request)
        players = int(request.GET.get("players") or spec.min_players)
    except BadRequest as error:
        return _refuse(request, str(error))
    except ValueError:
        return _refuse(request, "Players is a number.")
    if not 1 <= players <= spec.max_players:
        return _refuse(
            request, f"{spec.short_name} is for up to {spec.max_players} players."
        )
    data = mats.render_mat(spec, found, paper=paper, players=players)
    return _pdf(data, f"mat-{game}-{mat}.pdf")
