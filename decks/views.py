"""Deck pages: the public list per game, the deck page (its owner's editor), tools,
versions, text import and export. Writes go through ``decks.services``."""

import os
import secrets

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cards import selectors as card_selectors
from cards.choices import GameSlug
from cards.community.readings import cards_as_read, entries_as_read, names_as_read
from cards.filtersets import CardFilterSet
from cards.games import GAMES
from cards.models import GameRecord
from cards.search import parse_query

from . import selectors, services
from .choices import Zone, zones_for
from .copies import deck_lines
from .filtersets import DeckFilterSet
from .forms import DeckForm, DeckSettingsForm, EntryForm, ImportForm, SlotForm
from .models import Deck, diff_snapshots
from .play.opponents import available_presets
from .rules import is_legal
from .text_io import export_decklist
from .tools import deck_tools

SEARCH_LIMIT = 40
# Cards per page when an empty search browses a game: short enough on a phone
# that the deck below stays in reach.
BROWSE_PAGE = 20
MAX_SEED = 2**31 - 1


def _visible_deck(request, pk) -> Deck:
    return get_object_or_404(selectors.visible_decks(request.user), pk=pk)


def _own_deck(request, pk) -> Deck:
    return get_object_or_404(selectors.own_decks(request.user), pk=pk)


def _error_text(error: ValidationError) -> str:
    return " ".join(error.messages)


def _seed(value) -> int:
    try:
        return max(0, min(int(value), MAX_SEED))
    except (TypeError, ValueError):
        return 0


def card_zones(game_slug: str, card_type: str | None) -> list[str]:
    """Return the zones the editor offers for a card of this type."""
    return list(GAMES[game_slug].zones_for_type(card_type))


def problem_groups(problems: list) -> list[dict]:
    """Return the problems grouped by rule, each rule's words said once.

    Problems of one code (five titles over the limit) share their rule's sentences;
    the group shows those once and lists what differs ("This deck has 5 of ...").
    """
    groups: dict[tuple, list] = {}
    for problem in problems:
        groups.setdefault((problem.level, problem.code), []).append(problem.message)
    shown = []
    for (level, code), texts in groups.items():
        texts = list(dict.fromkeys(texts))
        common = ""
        if len(texts) > 1:
            first = texts[0]
            cut = first.rfind(". ", 0, len(os.path.commonprefix(texts)) + 1)
            common = first[: cut + 1] if cut > 0 else ""
        details = [m[len(common) :].strip() for m in texts] if common else texts
        shown.append(
            {"level": level, "code": code, "message": common, "details": details}
        )
    return shown


def deck_state(deck: Deck, user, *, seed: int = 0) -> dict:
    """Return the deck page's context: its zones, problems, collection counts and tools."""
    page = selectors.deck_page(deck, user, seed=seed)
    entries, problems = page.entries, page.problems
    labels = dict(Zone.choices)
    zones = []
    for zone in zones_for(deck.game.slug):
        in_zone = [e for e in entries if e.zone == zone]
        zones.append(
            {
                "zone": zone,
                "label": labels[zone],
                "entries": in_zone,
                "count": sum(e.quantity for e in in_zone),
            }
        )
    return {
        "deck": deck,
        "zones": zones,
        "problems": problems,
        "problem_groups": problem_groups(problems),
        "errors": [p for p in problems if p.level == "error"],
        "warnings": [p for p in problems if p.level != "error"],
        "legal": is_legal(problems),
        "card_count": sum(e.quantity for e in entries),
        "missing_total": page.missing_total,
        "printed_total": page.printed_total,
        "show_collection": user.is_authenticated,
        "is_owner": page.is_owner,
        "tools": page.tools,
        "next_seed": secrets.randbelow(MAX_SEED),
        "has_practice": any(e.card.card_set.kind != "official" for e in entries),
    }


def _finder_rows(request, deck: Deck, cards: list) -> None:
    """Give each card the finder lists its owned copies and the zones it may go to."""
    counts = selectors.collection_counts(request.user, [c.pk for c in cards])
    for card in cards:
        card.owned = counts.get(card.pk, (0, 0))[0]
        card.zones = card_zones(deck.game.slug, card.card_type)


def _page_query(request, number: int) -> str:
    """Return the finder's query string for page ``number`` of the same search."""
    query = request.GET.copy()
    query["page"] = str(number)
    return query.urlencode()


def _browse(request, deck: Deck) -> dict:
    """Return a page of the deck's game's cards: the finder's answer to an empty search."""
    base = selectors.editor_cards(deck, request.user)
    cards = CardFilterSet({"game": deck.game.slug}, queryset=base).qs
    page = Paginator(cards, BROWSE_PAGE).get_page(request.GET.get("page"))
    found = cards_as_read(request.user, list(page.object_list))
    _finder_rows(request, deck, found)
    return {
        "cards": found,
        "browse": GAMES[deck.game.slug].short_name,
        "page": page,
        "previous": _page_query(request, page.number - 1),
        "next": _page_query(request, page.number + 1),
        "q": "",
    }


def _search(request, deck: Deck) -> dict | None:
    """Return the card search of the editor, or None when nothing was asked.

    A search sent with nothing in it browses the game's cards, a page at a time.
    """
    asked = {k: v for k, v in request.GET.items() if k not in ("seed", "page") and v}
    if not asked:
        return _browse(request, deck) if "q" in request.GET else None
    data = request.GET.copy()
    data["game"] = deck.game.slug
    only_owned = request.GET.get("owned") in ("1", "on", "true")
    base = selectors.editor_cards(deck, request.user, only_owned=only_owned)
    filterset = CardFilterSet(data, queryset=base, reader=request.user)
    if not filterset.is_valid():
        return {"errors": filterset.errors, "cards": [], "only_owned": only_owned}
    found = cards_as_read(request.user, filterset.qs[: SEARCH_LIMIT + 1])
    more = len(found) > SEARCH_LIMIT
    found = found[:SEARCH_LIMIT]
    _finder_rows(request, deck, found)
    description = warnings = None
    if request.GET.get("q"):
        parsed = parse_query(request.GET["q"])
        description, warnings = parsed.description, parsed.warnings
    return {
        "cards": found,
        "more": more,
        "only_owned": only_owned,
        "description": description,
        "warnings": warnings,
        "q": request.GET.get("q", ""),
    }


@require_GET
def deck_list(request, game=None):
    """List public decks, by game, and the viewer's own decks."""
    params = request.GET.copy()
    if game is not None:
        if game not in GameSlug.values:
            raise Http404("No such game.")
        params["game"] = game
    public = selectors.public_decks()
    filterset = DeckFilterSet(params, queryset=public)
    decks = filterset.qs if filterset.is_valid() else public.none()
    page = Paginator(decks, 30).get_page(request.GET.get("page"))
    page.object_list = selectors.with_card_counts(page.object_list)
    mine = []
    if request.user.is_authenticated:
        game_slug = params.get("game")
        mine = Paginator(
            selectors.user_decks(
                request.user,
                game_slug=game_slug if game_slug in GameSlug.values else None,
            ),
            30,
        ).get_page(request.GET.get("mine_page"))
        mine.object_list = selectors.with_card_counts(mine.object_list)
    games = GameRecord.objects.all()
    current = params.get("game", "")
    # The preset decks, listed as starter decks anyone may play or copy.
    starters = [
        (g, preset)
        for g in games
        if not current or g.slug == current
        for preset in available_presets(g.slug)
    ]
    return render(
        request,
        "decks/list.html",
        {
            "filterset": filterset,
            "page": page,
            "mine": mine,
            "games": games,
            "current_game": current,
            "starters": starters,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def deck_create(request):
    """Start a new deck."""
    form = DeckForm(request.POST or None, initial={"game": request.GET.get("game")})
    if request.method == "POST" and form.is_valid():
        try:
            deck = services.deck_create(
                owner=request.user,
                game=form.cleaned_data["game"],
                name=form.cleaned_data["name"],
                notes=form.cleaned_data["notes"],
                is_public=form.cleaned_data["is_public"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return redirect(deck)
    return render(request, "decks/form.html", {"form": form, "title": "New deck"})


@require_GET
def deck_detail(request, pk):
    """Show a deck: zones, legality, tools; its owner also gets the editor."""
    deck = _visible_deck(request, pk)
    context = deck_state(deck, request.user, seed=_seed(request.GET.get("seed")))
    if context["is_owner"]:
        context["search"] = _search(request, deck)
        form = CardFilterSet(request.GET or None).form
        game = GAMES[deck.game.slug]
        # The finder searches this deck's game only: offer that game's types.
        form.fields["type"].empty_label = "any type"
        form.fields["type"].choices = [(kind.value, kind.label) for kind in game.kinds]
        context["card_filters"] = form
        colour_field = game.colour_field
        context["colour_filter"] = (
            context["card_filters"][colour_field] if colour_field else None
        )
        # No rarity filter for a game whose cards print none (Bakugan, Collide-O!).
        context["rarity_filter"] = game.prints("rarity", None)
    return render(request, "decks/detail.html", context)


@require_GET
def deck_search(request, pk):
    """Return the editor's card search results (htmx partial)."""
    deck = _own_deck(request, pk)
    return render(
        request,
        "decks/_search_results.html",
        {"deck": deck, "search": _search(request, deck), "is_owner": True},
    )


def _panel_response(request, deck, error: str | None = None):
    if request.htmx:
        context = deck_state(deck, request.user)
        context["panel_error"] = error
        return render(request, "decks/_panel.html", context)
    if error:
        messages.error(request, error)
    return redirect(deck)


@require_POST
def deck_add(request, pk):
    """Add copies of a card to the deck."""
    deck = _own_deck(request, pk)
    form = EntryForm(request.POST)
    if not form.is_valid():
        return _panel_response(request, deck, "Choose a card and a count from 1 to 99.")
    card = card_selectors.visible_card(request.user, form.cleaned_data["card"])
    if card is None:
        return _panel_response(request, deck, "There is no such card.")
    try:
        services.deck_add_card(
            deck=deck,
            card=card,
            zone=form.cleaned_data["zone"] or None,
            quantity=form.cleaned_data["quantity"],
            g_power=form.cleaned_data["g_power"],
        )
    except ValidationError as error:
        return _panel_response(request, deck, _error_text(error))
    return _panel_response(request, deck)


@require_POST
def deck_slot(request, pk, entry):
    """Say which owned copy plays one copy of a figure, or type its G-Power."""
    deck = _own_deck(request, pk)
    found = deck.entries.filter(pk=entry).first()
    if found is None:
        return _panel_response(request, deck, "This card is not in the deck.")
    form = SlotForm(request.POST)
    if not form.is_valid():
        return _panel_response(
            request, deck, "Choose one of your copies or type a G-Power as a number."
        )
    copy, g_power = form.cleaned_data["copy"], form.cleaned_data["g_power"]
    if copy is not None and g_power is not None:
        return _panel_response(
            request, deck, "Choose one of your copies or type a G-Power, not both."
        )
    try:
        services.deck_slot_set(entry=found, copy=copy, g_power=g_power)
    except ValidationError as error:
        return _panel_response(request, deck, _error_text(error))
    return _panel_response(request, deck)


@require_POST
def deck_remove(request, pk):
    """Take copies of a card out of a zone of the deck."""
    deck = _own_deck(request, pk)
    form = EntryForm(request.POST)
    if not form.is_valid() or not form.cleaned_data["zone"]:
        return _panel_response(request, deck, "Choose a card, a zone and a count.")
    card = card_selectors.card_by_id(form.cleaned_data["card"])
    if card is None:
        return _panel_response(request, deck, "There is no such card.")
    try:
        services.deck_remove_card(
            deck=deck,
            card=card,
            zone=form.cleaned_data["zone"],
            quantity=form.cleaned_data["quantity"],
            g_power=form.cleaned_data["g_power"],
        )
    except ValidationError as error:
        return _panel_response(request, deck, _error_text(error))
    return _panel_response(request, deck)


@require_http_methods(["GET", "POST"])
def deck_settings(request, pk):
    """Change a deck's name, notes and visibility."""
    deck = _own_deck(request, pk)
    form = DeckSettingsForm(request.POST or None, instance=deck)
    if request.method == "POST" and form.is_valid():
        try:
            services.deck_update(
                deck=Deck.objects.get(pk=deck.pk),
                name=form.cleaned_data["name"],
                notes=form.cleaned_data["notes"],
                is_public=form.cleaned_data["is_public"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, "Deck saved.")
            return redirect(deck)
    return render(
        request,
        "decks/form.html",
        {"form": form, "title": f"Edit {deck}", "deck": deck},
    )


@require_POST
def deck_delete(request, pk):
    """Delete one of the user's decks."""
    deck = _own_deck(request, pk)
    services.deck_delete(deck=deck)
    messages.success(request, f"Deck “{deck.name}” deleted.")
    return redirect("decks:list")


@login_required
@require_POST
def deck_clone(request, pk):
    """Copy a deck the user can see into a new private deck of theirs."""
    deck = _visible_deck(request, pk)
    try:
        copy = services.deck_clone(deck=deck, owner=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(deck)
    messages.success(request, f"Copied into “{copy.name}”.")
    return redirect(copy)


@require_http_methods(["GET", "POST"])
def deck_import(request, pk):
    """Replace the deck's cards from a decklist; any bad line writes nothing."""
    deck = _own_deck(request, pk)
    form = ImportForm(request.POST or None)
    line_errors = []
    if request.method == "POST" and form.is_valid():
        try:
            services.deck_import_text(deck=deck, text=form.cleaned_data["text"])
        except services.DecklistError as error:
            line_errors = error.lines
        except ValidationError as error:
            # The service names its own fields ("entries"), not the form's.
            form.add_error(None, error.messages)
        else:
            messages.success(request, "Decklist imported.")
            return redirect(deck)
    return render(
        request,
        "decks/import.html",
        {"form": form, "deck": deck, "line_errors": line_errors},
    )


@require_GET
def deck_export(request, pk):
    """Return the deck as a plain-text decklist."""
    deck = _visible_deck(request, pk)
    response = HttpResponse(
        export_decklist(deck, reader=request.user),
        content_type="text/plain; charset=utf-8",
    )
    if request.GET.get("download"):
        response["Content-Disposition"] = f'attachment; filename="deck-{deck.pk}.txt"'
    return response


def _version_rows(rows: list[dict], user) -> list[dict]:
    """Return a version's stored rows as ``user`` reads the cards they name."""
    return names_as_read(user, card_selectors.hide_private_names(rows, user))


@require_GET
def deck_versions(request, pk):
    """List a deck's versions and compare any two."""
    deck = _visible_deck(request, pk)
    versions = list(deck.versions.all())
    numbers = {v.number: v for v in versions}
    diff = a = b = None
    if len(versions) >= 2:
        a = numbers.get(_seed(request.GET.get("a"))) or versions[1]
        b = numbers.get(_seed(request.GET.get("b"))) or versions[0]
        diff = diff_snapshots(
            _version_rows(a.entries, request.user),
            _version_rows(b.entries, request.user),
        )
    return render(
        request,
        "decks/versions.html",
        {"deck": deck, "versions": versions, "diff": diff, "a": a, "b": b},
    )


@require_GET
def deck_hand(request, pk):
    """Return a sample opening for a seed (htmx partial, or the deck page)."""
    deck = _visible_deck(request, pk)
    seed = _seed(request.GET.get("seed"))
    if not request.htmx:
        return redirect(f"{reverse('decks:detail', args=[deck.pk])}?seed={seed}#hand")
    entries = entries_as_read(request.user, selectors.deck_entries(deck, ordered=False))
    card_selectors.hide_private_cards(entries, request.user)
    lines = deck_lines(owner=deck.owner, entries=entries)
    tools = deck_tools(deck.game.slug, lines, seed=seed)
    return render(
        request,
        "decks/_hand.html",
        {"deck": deck, "tools": tools, "next_seed": secrets.randbelow(MAX_SEED)},
    )


@require_POST
def deck_wishlist(request, pk):
    """Raise the wanted count of each card the user lacks for this deck."""
    deck = _own_deck(request, pk)
    added = services.deck_add_missing_to_wishlist(deck=deck, user=request.user)
    text = (
        f"Added {added} wanted {'copy' if added == 1 else 'copies'} to your wishlist."
        if added
        else "Your wishlist already covers every missing card."
    )
    if request.htmx:
        context = deck_state(deck, request.user)
        context["panel_message"] = text
        return render(request, "decks/_panel.html", context)
    messages.success(request, text)
    return redirect(deck)


@require_GET
def version_detail(request, pk, number):
    """Show one stored version of a deck."""
    deck = _visible_deck(request, pk)
    version = get_object_or_404(selectors.deck_version(deck, number))
    version.entries = _version_rows(version.entries, request.user)
    return render(request, "decks/version.html", {"deck": deck, "version": version})
