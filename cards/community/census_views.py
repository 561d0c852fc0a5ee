"""The Collide-O! pack census pages: count your pack, and settle disagreeing counts."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from ..models import Census
from . import collide_o_census as service
from .views import _require_moderator, render

SECTIONS = ("section_1", "section_2", "section_3")


def _sections_posted(request) -> list[str]:
    """Return the three sections ticked on the picker (a list of letters per section)."""
    return ["".join(request.POST.getlist(name)) for name in SECTIONS]


@login_required
def census_page(request):
    """Show the picker, the patterns counted so far and how many of the pack."""
    census = service.census_of(request.user)
    counts = service.census_counts(census)
    rows = [
        {
            "pattern": pattern,
            "sections": [service.section_colours(s) for s in pattern],
            "words": service.pattern_words(pattern),
            "count": count,
        }
        for pattern, count in sorted(counts.items())
    ]
    official = service.official_pack()
    total = sum(counts.values())
    return render(
        request,
        "community/census.html",
        {
            "census": census,
            "deck": getattr(census, "deck", None) if census else None,
            "rows": rows,
            "total": total,
            "pack_size": service.PACK_SIZE,
            "left": service.PACK_SIZE - total,
            "colours": service.colours(),
            "section_names": SECTIONS,
            "official_known": bool(official),
            "official_source": official[0][0].source if official else "",
        },
    )


@login_required
@require_POST
def census_count(request):
    """Count one card of the posted pattern (+1) or take one off (-1)."""
    delta = -1 if request.POST.get("delta") == "-1" else 1
    sections = _sections_posted(request)
    try:
        service.census_change(user=request.user, sections=sections, delta=delta)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect("community:census")


@login_required
def census_compare(request):
    """Show every complete census pattern by pattern, for a moderator to settle."""
    _require_moderator(request)
    return render(
        request, "community/census_compare.html", service.census_disagreements()
    )


@login_required
@require_POST
def census_settle(request, pk):
    """Make one complete census the official pack (a moderator's choice)."""
    _require_moderator(request)
    census = get_object_or_404(Census, pk=pk)
    try:
        service.census_settle(moderator=request.user, census=census)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, "That count is now the official Collide-O! pack.")
    return redirect("community:census-compare")
