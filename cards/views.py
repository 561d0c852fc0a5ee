"""Pages of the card catalogue: home, games, sets, cards, search and card pictures."""

from django.core.paginator import Paginator
from django.http import FileResponse, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, render
from django.utils.http import http_date

from . import images
from .choices import SetKind
from .community import counts, readings, transcribe
from .filtersets import CardFilterSet, sort_cards
from .games import GAMES, PALETTE
from .models import GameRecord
from .search import official_only as search_official_only
from .selectors import (
    annotate_card_list,
    card_neighbours,
    game_cover,
    game_sets,
    unofficial_total,
    visible_cards,
    visible_sets,
)
from .validation import field_applies

DEFAULT_PER_PAGE = 50
MAX_PER_PAGE = 200
PER_PAGE_CHOICES = (25, 50, 100, 200)
# A game's page lists its sets a page at a time: collectors add custom sets.
SETS_PER_PAGE = 25

COMMON_FILTERS = (
    "type",
    "colour",
    "rarity",
    "number_min",
    "number_max",
    "promo",
    "verification",
    "text",
    "kind",
)
# Fields shown on the card page after its number (``GameRecord.card_number``); the
# game's own follow (``GameRecord.page_fields``).
COMMON_FIELDS = (
    ("Name", "name"),
    ("Type", "card_type"),
    ("Rarity", "rarity"),
    ("Text", "text"),
    ("Lore", "lore"),
    ("Code", "code"),
)


# Fields only some card types print; other types leave them out (not unknown).
_PALETTE_CSS = (
    "/* The site's colours, written from cards.games.spec.PALETTE. */\n:root {\n"
    + "".join(f"  --{name}: {value};\n" for name, value in PALETTE.items())
    + "}\n"
)


def palette_css(request):
    """Serve the palette as CSS custom properties, so CSS, SVG and Pillow agree."""
    response = HttpResponse(_PALETTE_CSS, content_type="text/css; charset=utf-8")
    response["Cache-Control"] = "public, max-age=86400"
    return response


def home(request):
    """Open with search, the four games with a card of each, and what is known."""
    figures = counts.data_counts()
    games = list(GameRecord.objects.order_by("sort_order"))
    for game in games:
        game.figures = figures.get(game.slug, counts.Counts())
        game.cover = game_cover(game)
    return render(request, "cards/home.html", {"games": games})


def _per_page(value, warnings: list[str]) -> int:
    if value in (None, ""):
        return DEFAULT_PER_PAGE
    try:
        number = int(value)
    except (TypeError, ValueError):
        warnings.append(f"Ignored the page size “{value[:20]}”: it is not a number.")
        return DEFAULT_PER_PAGE
    if not 1 <= number <= MAX_PER_PAGE:
        bounded = min(max(number, 1), MAX_PER_PAGE)
        warnings.append(
            f"The page size must be 1 to {MAX_PER_PAGE}; showing {bounded}."
        )
        return bounded
    return number


def checklist(request, base, *, game_slug=None, default_official=True):
    """Return the context of a filtered, sorted, paginated card list."""
    params = request.GET.copy()
    warnings: list[str] = []
    filterset = CardFilterSet(params, queryset=base, request=request)
    errors = {}
    if not filterset.is_valid():
        # Show what was wrong and filter by the rest, rather than failing the page.
        errors = {
            (filterset.form.fields[name].label or name)
            if name in filterset.form.fields
            else name: [str(e) for e in errs]
            for name, errs in filterset.form.errors.items()
        }
        for name in filterset.form.errors:
            params.pop(name, None)
        filterset = CardFilterSet(params, queryset=base, request=request)
        filterset.is_valid()
    cards = filterset.qs
    search = filterset.search
    # The search page and every checklist agree (cards.search.official_only):
    # official cards only, unless the query or the filters name a kind or a set.
    only_official = default_official and search_official_only(search, params)
    left_out = 0
    if only_official:
        if cards.query.where == base.query.where:
            # Nothing asked: every practice and custom card the viewer may see,
            # which the sets' kept totals say without counting cards.
            left_out = unofficial_total(request.user, game_slug)
        else:
            left_out = cards.exclude(card_set__kind=SetKind.OFFICIAL).count()
        cards = cards.filter(card_set__kind=SetKind.OFFICIAL)
    # The sort parameter wins; else the query's order: and direction:.
    cards, sort_warning = sort_cards(cards, params.get("sort") or search.order)
    if sort_warning:
        warnings.append(sort_warning)
    per_page = _per_page(params.get("per_page"), warnings)
    page = Paginator(cards, per_page).get_page(params.get("page"))
    # What other apps add to a card list (owned/wanted counts), one query a page.
    page.object_list = annotate_card_list(
        readings.cards_as_read(request.user, page.object_list), request.user
    )
    names = COMMON_FILTERS + (GAMES[game_slug].filters if game_slug else ())
    if game_slug is None:
        names = ("game",) + names
    form = filterset.form
    return {
        "filterset": filterset,
        "filter_fields": [form[name] for name in names],
        "search": search,
        "warnings": search.warnings + warnings,
        "errors": errors,
        "page_obj": page,
        "cards": page.object_list,
        "per_page": per_page,
        "per_page_choices": PER_PAGE_CHOICES,
        "sort": params.get("sort", ""),
        "default_official": only_official,
        "left_out": left_out,
        "include_all_url": _include_all_url(params) if left_out else "",
        "show_game": game_slug is None,
        "show_set": True,
    }


def _include_all_url(params) -> str:
    """Return the query string of this list with practice and custom cards too."""
    wider = params.copy()
    wider.pop("page", None)
    wider.setlist("kind", [k for k in SetKind.values])
    return "?" + wider.urlencode()


def _cards(request):
    return visible_cards(request.user)


def game_detail(request, game):
    """Show one game: its sets and its checklist."""
    game = get_object_or_404(GameRecord, slug=game)
    sets = Paginator(game_sets(game, request.user), SETS_PER_PAGE).get_page(
        request.GET.get("sets_page")
    )
    base = _cards(request).filter(card_set__game=game)
    context = checklist(request, base, game_slug=game.slug)
    context.update(game=game, sets=sets, figures=counts.game_counts(game.slug))
    return render(request, "cards/game.html", context)


def set_detail(request, game, set):
    """Show one set and its checklist."""
    card_set = get_object_or_404(
        visible_sets(request.user),
        game__slug=game,
        slug=set,
    )
    base = _cards(request).filter(card_set=card_set)
    context = checklist(
        request, base, game_slug=card_set.game.slug, default_official=False
    )
    context.update(game=card_set.game, card_set=card_set, show_set=False)
    return render(request, "cards/set.html", context)


def search(request):
    """Search every card of the four games with the one search box."""
    context = checklist(request, _cards(request))
    context["query"] = request.GET.get("q", "")
    return render(request, "cards/search.html", context)


def search_help(request):
    """Explain the search language; the key table is the parser's own (help_rows)."""
    from . import search as language

    return render(
        request,
        "cards/search_help.html",
        {
            "rows": language.help_rows(),
            "operators": language.OPERATORS,
            "sort_keys": list(language.SORT_KEYS),
            "max_length": language.MAX_LENGTH,
            "max_terms": language.MAX_TERMS,
            "max_depth": language.MAX_DEPTH,
        },
    )


def card_detail(request, pk):
    """Show one card: every field of its game, provenance, pictures, neighbours."""
    card = get_object_or_404(_cards(request), pk=pk)
    slug = card.card_set.game.slug
    # The viewer's own reading, not reviewed yet, shows to them alone.
    card = readings.cards_as_read(request.user, [card])[0]
    reading = getattr(card, "your_reading", None)
    levels = readings.field_levels(card)
    context = {
        "card": card,
        "reading": reading,
        "reading_face": transcribe.face_data_uri(card) if reading else None,
        "field_levels": levels,
        "can_transcribe": card.card_set.kind != SetKind.CUSTOM,
        "game": card.card_set.game,
        "slug": slug,
        "spec": GAMES[slug],
        "fields": [
            (label, name, levels.get(name))
            for label, name in (
                ("Number", GAMES[slug].card_number),
                *COMMON_FIELDS,
                *GAMES[slug].page_fields,
            )
            if field_applies(card, name)
        ],
        **card_neighbours(card),
    }
    return render(request, "cards/card.html", context)


def card_image(request, pk):
    """Serve the card's picture: its accepted scan if any, else the drawn face."""
    card = get_object_or_404(_cards(request), pk=pk)
    size = request.GET.get("size", "full")
    if size not in images.SIZES:
        size = "full"
    card = readings.cards_as_read(request.user, [card])[0]
    if getattr(card, "your_reading", None) is not None:
        # The viewer's own reading is drawn for them alone, never cached.
        response = HttpResponse(
            transcribe.face_png(card, size), content_type="image/png"
        )
        response["Cache-Control"] = "private, no-store"
        return response
    path = None
    scan = getattr(card, "accepted_scan", None)
    scan_file = getattr(scan, "image", None) if scan is not None else None
    if scan_file:
        stamp = str(getattr(scan, "pk", "") or "0")
        try:
            path = images.scan_image(card, scan_file, size, stamp)
        except (OSError, ValueError):
            path = None  # An unreadable scan falls back to the drawn face.
    if path is None:
        path = images.card_image(card, size)
    etag = f'"{path.stem}"'
    if etag in request.headers.get("If-None-Match", ""):
        response = HttpResponseNotModified()
    else:
        response = FileResponse(path.open("rb"), content_type="image/png")
    response["ETag"] = etag
    if card.updated_at:
        response["Last-Modified"] = http_date(card.updated_at.timestamp())
    public = card.card_set.kind != SetKind.CUSTOM or card.card_set.is_public
    response["Cache-Control"] = f"{'public' if public else 'private'}, max-age=3600"
    return response
