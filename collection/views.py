"""Collection pages: my collection, entries, one-click widget, import/export, sharing.

Every page belongs to the signed-in user. Anonymous requests for a page are sent
to log in; anonymous writes and anything of another user answer 404, so no
page reveals whether another user's entry exists.
"""

import io
from copy import copy
from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from cards import selectors as card_selectors
from cards.community.readings import cards_as_read, entries_as_read
from cards.filtersets import sort_cards as checklist_sort
from cards.games import GAMES
from cards.models import Card, CardSet

from . import csv_io, selectors, services
from .choices import CardStatus, ShareKind
from .filtersets import CollectionEntryFilterSet, card_filterset_class
from .forms import BulkAddForm, EntryForm, ImportFileForm, StatusForm
from .models import CollectionEntry, ImportPreview

PREVIEW_ROWS_SHOWN = 500
WIDGET_CHANGES = {
    "owned+1": {"owned_delta": 1},
    "owned-1": {"owned_delta": -1},
    "wanted+1": {"wanted_delta": 1},
    "wanted-1": {"wanted_delta": -1},
}


def owner_required(view):
    """Send anonymous page visits to log in; answer anonymous writes with 404."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            if request.method in ("GET", "HEAD"):
                return redirect_to_login(request.get_full_path())
            raise Http404
        return view(request, *args, **kwargs)

    return wrapper


def _safe_next(request, fallback: str) -> str:
    """Return ``next`` if it is a path on this site, else ``fallback``."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    # A bare word ("abc") is no path: redirect() would try it as a URL name.
    if target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


def sort_cards(queryset, value):
    """Order cards like the checklist does."""
    return checklist_sort(queryset, value)


def _card_filterset(request, queryset):
    """Return the checklist's CardFilterSet bound to the request."""
    return card_filterset_class()(
        request.GET or None, queryset=queryset, request=request
    )


@owner_required
@require_http_methods(["GET", "HEAD"])
def home(request):
    """Show my collection: filtered cards with counts, totals and set completion."""
    user = request.user
    cards = card_selectors.visible_cards(user)
    filterset = _card_filterset(request, cards)
    form_errors = []
    if filterset.is_bound and not filterset.is_valid():
        form_errors = [f"{k}: {' '.join(v)}" for k, v in filterset.errors.items()]
        cards = cards.none()
    else:
        cards = filterset.qs
    status_form = StatusForm(request.GET)
    status = CardStatus.OWNED
    if "status" in request.GET:
        status = (
            status_form.cleaned_data["status"] or CardStatus.ALL
            if status_form.is_valid()
            else CardStatus.ALL
        )
    search = getattr(filterset, "search", None)
    order = getattr(search, "order", None)  # the query's order:, unless sort= is given
    cards = selectors.cards_by_status(cards, status, user)
    cards, sort_warning = sort_cards(cards, request.GET.get("sort") or order)
    page = Paginator(cards, 50).get_page(request.GET.get("page"))
    # Counted for the page shown only, from the user's own entries.
    page.object_list = selectors.annotate_page(
        cards_as_read(user, page.object_list), user
    )
    # The search language reports ignored terms once the query has been built.
    warnings = list(getattr(getattr(filterset, "search", None), "warnings", []))
    if sort_warning:
        warnings.append(sort_warning)
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "filterset": filterset,
        "warnings": form_errors + warnings,
        "status": status,
        "statuses": CardStatus.choices,
        "page": page,
        "query": query.urlencode(),
        "totals": selectors.collection_totals(user=user),
        "completion": selectors.set_completion(user=user),
        "species_completion": selectors.species_completion(user=user),
        "q": request.GET.get("q", ""),
    }
    return render(request, "collection/home.html", context)


@owner_required
@require_http_methods(["GET", "HEAD"])
def entries(request):
    """List my entries, variant by variant, with the entry filters."""
    queryset = selectors.entries_of(user=request.user)
    filterset = CollectionEntryFilterSet(
        request.GET or None, queryset=queryset, request=request
    )
    rows = (
        filterset.qs
        if not filterset.is_bound or filterset.is_valid()
        else queryset.none()
    )
    page = Paginator(rows, 100).get_page(request.GET.get("page"))
    # A card whose set its owner made private shows as a stand-in.
    page.object_list = entries_as_read(request.user, page.object_list)
    card_selectors.hide_private_cards(page.object_list, request.user)
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "collection/entries.html",
        {
            "filterset": filterset,
            "page": page,
            "query": query.urlencode(),
            "warnings": filterset.warnings,
        },
    )


def _save_entry(request, form, *, entry=None, card=None):
    try:
        if entry is None:
            return services.collection_entry_create(
                user=request.user, card=card, **form.cleaned_data
            )
        changed = {name: form.cleaned_data[name] for name in form.changed_data}
        return services.collection_entry_update(entry=entry, **changed)
    except ValidationError as exc:
        for field, errors in exc.message_dict.items():
            form.add_error(field if field in form.fields else None, errors)
        return None


@owner_required
@require_http_methods(["GET", "HEAD", "POST"])
def entry_add(request, card_id):
    """Add an entry for one card in a chosen variant."""
    card = get_object_or_404(card_selectors.visible_cards(request.user), pk=card_id)
    form = EntryForm(request.POST or None, initial={"quantity": 1})
    if request.method == "POST" and form.is_valid():
        if _save_entry(request, form, card=card):
            name = cards_as_read(request.user, [copy(card)])[0].display_name
            messages.success(request, f"Added {name} to your collection.")
            return redirect(_safe_next(request, reverse("collection:entries")))
    shown = cards_as_read(request.user, [copy(card)])[0]
    return render(request, "collection/entry_form.html", {"form": form, "card": shown})


@owner_required
@require_http_methods(["GET", "HEAD", "POST"])
def entry_edit(request, pk):
    """Edit one of my entries."""
    entry = get_object_or_404(
        CollectionEntry.objects.with_related(), pk=pk, user=request.user
    )
    form = EntryForm(request.POST or None, instance=entry)
    if request.method == "POST" and form.is_valid():
        if _save_entry(request, form, entry=entry):
            messages.success(request, "Saved.")
            return redirect(_safe_next(request, reverse("collection:entries")))
    return render(
        request,
        "collection/entry_form.html",
        {
            "form": form,
            "card": cards_as_read(request.user, [copy(entry.card)])[0],
            "entry": entry,
        },
    )


@owner_required
@require_POST
def entry_delete(request, pk):
    """Delete one of my entries."""
    entry = get_object_or_404(CollectionEntry, pk=pk, user=request.user)
    services.collection_entry_delete(entry=entry)
    messages.success(request, "Entry deleted.")
    return redirect(_safe_next(request, reverse("collection:entries")))


def render_widget(request, card, error: str = "") -> str:
    """Return the one-click widget's HTML for one card."""
    selectors.annotate_cards([card], request.user)
    return render_to_string(
        "collection/_owned_widget.html",
        {"card": card, "widget_error": error, "next_url": request.POST.get("next", "")},
        request=request,
    )


@owner_required
@require_POST
def widget_change(request, card_id):
    """Add or remove one owned or wanted copy of a card; answer with the widget."""
    card = get_object_or_404(card_selectors.visible_cards(request.user), pk=card_id)
    error = ""
    change = WIDGET_CHANGES.get(request.POST.get("change", ""))
    if change is None:
        error = "Unknown change."
    else:
        try:
            services.collection_change_quantity(user=request.user, card=card, **change)
        except ValidationError as exc:
            error = " ".join(exc.messages)
    if request.htmx:
        return HttpResponse(render_widget(request, card, error))
    if error:
        messages.error(request, error)
    return redirect(_safe_next(request, card.get_absolute_url()))


@owner_required
@require_http_methods(["GET", "HEAD"])
def missing(request, game, set):
    """List the cards of one official set that I own no copy of."""
    card_set = get_object_or_404(
        CardSet.objects.official().select_related("game"), game__slug=game, slug=set
    )
    cards = selectors.missing_cards(user=request.user, card_set=card_set)
    cards = selectors.annotate_cards(cards_as_read(request.user, cards), request.user)
    total = card_set.cards.count()
    return render(
        request,
        "collection/missing.html",
        {"card_set": card_set, "cards": cards, "total": total},
    )


@owner_required
@require_http_methods(["GET", "HEAD"])
def species_missing(request, game, species):
    """List the release variants of one species that I own no copy of."""
    if game not in GAMES:
        raise Http404
    found = selectors.missing_of_species(user=request.user, game=game, species=species)
    if found is None:
        raise Http404
    name, cards, total = found
    cards = selectors.annotate_cards(cards, request.user)
    return render(
        request,
        "collection/species_missing.html",
        {"game": GAMES[game], "species": name, "cards": cards, "total": total},
    )


def _set_names(user) -> list[tuple]:
    """Return [(game, [sets])]: the sets a bulk-add line may name, game by game."""
    sets = (
        CardSet.objects.filter(cards__in=Card.objects.visible_to(user))
        .select_related("game")
        .distinct()
        .order_by("game__sort_order", "kind", "sort_order", "slug")
    )
    grouped: dict = {}
    for card_set in sets:
        grouped.setdefault(card_set.game, []).append(card_set)
    return list(grouped.items())


@owner_required
@require_http_methods(["GET", "HEAD", "POST"])
def import_start(request):
    """Upload a CSV file or type a list of cards; show the problems or a preview."""
    file_form = ImportFileForm()
    bulk_form = BulkAddForm()
    problems = []
    truncated = False
    if request.method == "POST":
        if request.POST.get("kind") == "bulk":
            bulk_form = BulkAddForm(request.POST)
            if bulk_form.is_valid():
                data = bulk_form.cleaned_data
                result = csv_io.read_bulk_text(
                    data["text"],
                    user=request.user,
                    game=data["game"],
                    card_set=data["set"],
                )
                mode, source = "add", "typed list"
            else:
                result = None
        else:
            file_form = ImportFileForm(request.POST, request.FILES)
            if file_form.is_valid():
                upload = file_form.cleaned_data["file"]
                if upload.size > csv_io.MAX_BYTES:
                    result = csv_io.ReadResult()
                    result.problem(
                        None,
                        f"The file is {upload.size:,} bytes; the limit is "
                        f"{csv_io.MAX_BYTES:,} bytes. Split it into smaller files.",
                    )
                else:
                    result = csv_io.read_csv(upload.read(), user=request.user)
                mode, source = file_form.cleaned_data["mode"], upload.name
            else:
                result = None
        if result is not None:
            if not result.problems:
                preview = services.collection_import_prepare(
                    user=request.user, rows=result.rows, mode=mode, source=source
                )
                return redirect(preview.get_absolute_url())
            problems, truncated = result.problems, result.truncated
    return render(
        request,
        "collection/import.html",
        {
            "set_names": _set_names(request.user),
            "file_form": file_form,
            "bulk_form": bulk_form,
            "problems": problems,
            "truncated": truncated,
            "max_rows": csv_io.MAX_ROWS,
        },
    )


def _describe(preview: ImportPreview) -> list[dict]:
    """Return the preview's changes with card names, for the page."""
    shown = preview.changes[:PREVIEW_ROWS_SHOWN]
    cards = Card.objects.select_related("card_set__game").in_bulk(
        {c["key"][0] for c in shown}
    )
    rows = []
    for change in shown:
        # A preview stored before G-Power was part of the key has six parts.
        card_id, condition, finish, language, company, grade, *rest = change["key"]
        entry = CollectionEntry(
            condition=condition,
            finish=finish,
            language=language,
            grading_company=company,
            grade=grade,
            g_power=rest[0] if rest else None,
        )
        rows.append(
            {**change, "card": cards.get(card_id), "variant": entry.variant_label}
        )
    return rows


@owner_required
@require_http_methods(["GET", "HEAD", "POST"])
def import_preview(request, token):
    """Show what an import will change; apply it all (or nothing) on POST."""
    preview = ImportPreview.objects.filter(token=token).first()
    if preview is None and request.method == "POST":
        # Applied or discarded already (a second tab, a double click): the token is
        # random, so saying so tells nobody anything.
        messages.info(request, "This import was already applied or discarded.")
        return redirect("collection:entries")
    if preview is None or preview.user_id != request.user.pk:
        raise Http404("No such import preview.")
    if request.method == "POST":
        if request.POST.get("action") == "discard":
            services.collection_import_discard(user=request.user, preview=preview)
            messages.info(request, "Import discarded; nothing was changed.")
            return redirect("collection:import")
        try:
            counts = services.collection_import_apply(
                user=request.user, preview=preview
            )
        except ValidationError as exc:
            # Adding the file to the collection can break a rule (too many copies).
            messages.error(request, "Nothing was imported: " + " ".join(exc.messages))
            return redirect(preview.get_absolute_url())
        except services.PreviewGone:
            messages.info(request, "This import was already applied or discarded.")
            return redirect("collection:entries")
        except services.StalePreview:
            messages.warning(
                request,
                "Your collection changed since this preview was made. Check the "
                "updated preview and apply again.",
            )
            return redirect(preview.get_absolute_url())
        messages.success(
            request,
            f"Import applied: {counts['created']} added, {counts['updated']} changed, "
            f"{counts['deleted']} removed.",
        )
        return redirect("collection:entries")
    summary = {"create": 0, "update": 0, "delete": 0}
    for change in preview.changes:
        summary[change["action"]] += 1
    return render(
        request,
        "collection/import_preview.html",
        {
            "preview": preview,
            "summary": summary,
            "rows": _describe(preview),
            "hidden": max(0, len(preview.changes) - PREVIEW_ROWS_SHOWN),
            "entry_count": len(preview.rows),
        },
    )


@owner_required
@require_http_methods(["GET", "HEAD"])
def export(request):
    """Download my collection as CSV."""
    entries = list(selectors.entries_of(user=request.user))
    card_selectors.hide_private_cards(entries, request.user)
    out = io.StringIO()
    csv_io.write_csv(entries, out)
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    name = f"collection-{timezone.now():%Y-%m-%d}.csv"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def csv_help(request):
    """Describe the CSV columns and the bulk-add lines."""
    return render(
        request,
        "collection/csv_help.html",
        {
            "columns": csv_io.COLUMNS,
            "max_rows": csv_io.MAX_ROWS,
            "max_mb": csv_io.MAX_BYTES // (1024 * 1024),
        },
    )


@owner_required
@require_http_methods(["GET", "HEAD", "POST"])
def sharing(request):
    """Turn read-only share links on and off."""
    if request.method == "POST":
        kind = request.POST.get("kind")
        if kind not in ShareKind.values:
            messages.error(
                request, "Choose the collection, the wishlist or the trade list."
            )
        elif request.POST.get("action") == "off":
            services.share_link_disable(user=request.user, kind=kind)
            messages.success(
                request, f"Sharing of your {ShareKind(kind).label.lower()} is off."
            )
        else:
            services.share_link_enable(user=request.user, kind=kind)
            messages.success(
                request, f"Your {ShareKind(kind).label.lower()} is shared."
            )
        return redirect("collection:sharing")
    links = selectors.share_links_of(user=request.user)
    kinds = [
        {
            "kind": value,
            "label": label,
            "link": links.get(value),
            "url": request.build_absolute_uri(links[value].get_absolute_url())
            if value in links
            else "",
        }
        for value, label in ShareKind.choices
    ]
    return render(request, "collection/sharing.html", {"kinds": kinds})


@require_http_methods(["GET", "HEAD"])
def shared(request, token):
    """Show a shared list read-only; 404 once its owner turns sharing off."""
    link = get_object_or_404(selectors.share_link_by_token(token))
    rows = selectors.entries_for_share(link=link)
    page = Paginator(rows, 200).get_page(request.GET.get("page"))
    page.object_list = entries_as_read(request.user, page.object_list)
    card_selectors.hide_private_cards(page.object_list, request.user)
    return render(request, "collection/shared.html", {"link": link, "page": page})
