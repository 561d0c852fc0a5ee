"""Reads over collections: counts for a page of cards, totals, completion, population.

The checklist and the card page show a one-click widget per card. To keep it at
one query per page, not one per row, call ``annotate_cards(cards, user)`` (or
``annotate_page``, which adds ``trade_qty``) on the page before rendering: each
card then has ``owned_qty`` and ``wanted_qty``, which
``_owned_widget.html`` reads instead of querying.
"""

from collections import defaultdict

from django.db.models import Q, Sum
from django.db.models.functions import Coalesce

from cards.choices import SetKind
from cards.games import GAMES
from cards.models import Card, CardSet

from .choices import CardStatus, GradingCompany, ShareKind
from .models import CollectionEntry, ShareLink


def counts_for_cards(*, user, card_ids) -> dict[int, tuple[int, int]]:
    """Return {card id: (owned, wanted)} for ``user`` over ``card_ids``, in one query."""
    if user is None or not user.is_authenticated:
        return {}
    rows = (
        CollectionEntry.objects.filter(user=user, card_id__in=list(card_ids))
        .values("card_id")
        .annotate(owned=Sum("quantity"), wanted=Sum("wanted_quantity"))
    )
    return {r["card_id"]: (r["owned"] or 0, r["wanted"] or 0) for r in rows}


def entries_of(*, user):
    """Return ``user``'s collection entries with their cards, sets and games."""
    return CollectionEntry.objects.of(user).with_related()


def cards_by_status(cards, status: str, user):
    """Return the ``cards`` that have ``status`` (owned, missing, ...) in ``user``'s collection.

    Each status is a membership test against the user's own entries, so the
    owned, wanted and for-trade lists cost what the collection holds, not what
    the card table holds.
    """
    if user is None or not user.is_authenticated:
        return cards.none() if status in _HELD else cards
    entries = CollectionEntry.objects.filter(user=user)
    owned = entries.filter(quantity__gt=0).values("card_id")
    if status == CardStatus.OWNED:
        return cards.filter(pk__in=owned)
    if status == CardStatus.MISSING:
        return cards.exclude(pk__in=owned)
    if status in _HELD:
        return cards.filter(
            pk__in=entries.filter(**{_HELD[status]: 0}).values("card_id")
        )
    return cards


_HELD = {
    CardStatus.OWNED: "quantity__gt",
    CardStatus.WANTED: "wanted_quantity__gt",
    CardStatus.FOR_TRADE: "trade_quantity__gt",
}


def share_links_of(*, user) -> dict:
    """Return ``user``'s share links by kind."""
    return {link.kind: link for link in ShareLink.objects.filter(user=user)}


def share_link_by_token(token):
    """Return the share links with ``token`` (at most one), with their owner."""
    return ShareLink.objects.select_related("user").filter(token=token)


def owned_card_ids(*, user):
    """Return a subquery of the ids of the cards ``user`` owns at least one of."""
    return CollectionEntry.objects.filter(user=user, quantity__gt=0).values("card_id")


def annotate_cards(cards, user):
    """Set ``owned_qty`` and ``wanted_qty`` on each card of a list; return the list."""
    cards = list(cards)
    counts = counts_for_cards(user=user, card_ids={c.pk for c in cards})
    for card in cards:
        card.owned_qty, card.wanted_qty = counts.get(card.pk, (0, 0))
    return cards


def annotate_page(cards, user) -> list:
    """Set ``owned_qty``, ``wanted_qty`` and ``trade_qty`` on a page of cards, in one query."""
    cards = list(cards)
    rows = {}
    if user is not None and user.is_authenticated and cards:
        rows = {
            r["card_id"]: r
            for r in CollectionEntry.objects.filter(
                user=user, card_id__in=[c.pk for c in cards]
            )
            .order_by()
            .values("card_id")
            .annotate(
                owned=Sum("quantity"),
                wanted=Sum("wanted_quantity"),
                trade=Sum("trade_quantity"),
            )
        }
    for card in cards:
        row = rows.get(card.pk, {})
        card.owned_qty = row.get("owned") or 0
        card.wanted_qty = row.get("wanted") or 0
        card.trade_qty = row.get("trade") or 0
    return cards


def collection_totals(*, user) -> dict:
    """Return the owner's totals: distinct cards, copies, wanted and for trade."""
    entries = CollectionEntry.objects.filter(user=user)
    totals = entries.aggregate(
        copies=Coalesce(Sum("quantity"), 0),
        wanted=Coalesce(Sum("wanted_quantity"), 0),
        for_trade=Coalesce(Sum("trade_quantity"), 0),
        graded=Coalesce(Sum("quantity", filter=Q(grade__isnull=False)), 0),
    )
    totals["cards"] = (
        entries.filter(quantity__gt=0).values("card_id").distinct().count()
    )
    return totals


# A rarity row of the cards that print none (ruling E4), apart from unknown ones.
NOT_PRINTED = "not printed"


def _percent(owned: int, total: int) -> float:
    return round(100 * owned / total, 1) if total else 0.0


def set_completion(*, user) -> list[dict]:
    """Return completion of every official set: cards owned of all, overall and per rarity.

    Practice and custom sets are not printed products and never count.
    """
    owned_ids = set(
        CollectionEntry.objects.filter(
            user=user, quantity__gt=0, card__card_set__kind=SetKind.OFFICIAL
        ).values_list("card_id", flat=True)
    )
    per_set = defaultdict(
        lambda: {"total": 0, "owned": 0, "rarities": defaultdict(lambda: [0, 0])}
    )
    cards = Card.objects.filter(card_set__kind=SetKind.OFFICIAL).values_list(
        "pk",
        "card_set_id",
        "rarity",
        "card_set__game__slug",
        "card_type",
        "not_printed",
    )
    for pk, set_id, rarity, slug, card_type, marked in cards:
        row = per_set[set_id]
        have = pk in owned_ids
        row["total"] += 1
        row["owned"] += have
        if not rarity and not GAMES[slug].prints("rarity", card_type, marked or ()):
            rarity = NOT_PRINTED
        counts = row["rarities"][rarity or ""]
        counts[0] += 1
        counts[1] += have
    sets = CardSet.objects.official().filter(pk__in=per_set).select_related("game")
    result = []
    for card_set in sets:
        row = per_set[card_set.pk]
        rarities = [
            {
                "rarity": rarity or None,
                "total": total,
                "owned": owned,
                "missing": total - owned,
                "percent": _percent(owned, total),
            }
            for rarity, (total, owned) in sorted(row["rarities"].items())
        ]
        result.append(
            {
                "set": card_set,
                "total": row["total"],
                "owned": row["owned"],
                "missing": row["total"] - row["owned"],
                "percent": _percent(row["owned"], row["total"]),
                "rarities": rarities,
            }
        )
    return result


def _species_cards(game: str):
    """Return (species key, name, card id) of every official item of ``game``
    that belongs to a species."""
    species_of = GAMES[game].species_of
    rows = Card.objects.filter(
        card_set__kind=SetKind.OFFICIAL, card_set__game__slug=game
    ).values_list("pk", "card_type", "number")
    for pk, card_type, number in rows:
        species = species_of(card_type, number)
        if species is not None:
            yield species[0], species[1], pk


def species_completion(*, user) -> list[dict]:
    """Return, per game with species and per species, the release variants owned.

    A species' variants are its official items across every release line
    (attribute, maker, treatment); practice and custom items never count.
    """
    owned_ids = set(
        CollectionEntry.objects.filter(
            user=user, quantity__gt=0, card__card_set__kind=SetKind.OFFICIAL
        ).values_list("card_id", flat=True)
    )
    result = []
    for slug, game in GAMES.items():
        if game.species_of is None:
            continue
        rows: dict[str, dict] = {}
        for key, name, pk in _species_cards(slug):
            row = rows.setdefault(
                key, {"game": game, "key": key, "name": name, "total": 0, "owned": 0}
            )
            row["total"] += 1
            row["owned"] += pk in owned_ids
        ordered = sorted(
            rows.values(),
            key=lambda r: (
                not r["key"].isdigit(),
                int(r["key"]) if r["key"].isdigit() else 0,
            ),
        )
        for row in ordered:
            row["missing"] = row["total"] - row["owned"]
            row["percent"] = _percent(row["owned"], row["total"])
        if ordered:
            result.append({"game": game, "species": ordered})
    return result


def missing_of_species(*, user, game: str, species: str):
    """Return (species name, the species' official variants the user owns no copy of,
    how many variants it has), or None for a species the game does not have."""
    found = [(name, pk) for key, name, pk in _species_cards(game) if key == species]
    if not found:
        return None
    owned = CollectionEntry.objects.filter(user=user, quantity__gt=0).values("card_id")
    cards = (
        Card.objects.filter(pk__in=[pk for _, pk in found])
        .exclude(pk__in=owned)
        .select_related("card_set", "card_set__game")
        .order_by("card_set__sort_order", "card_set__name", "name", "key")
    )
    return found[0][0], cards, len(found)


def missing_cards(*, user, card_set):
    """Return the cards of ``card_set`` the user owns no copy of."""
    owned = CollectionEntry.objects.filter(user=user, quantity__gt=0).values("card_id")
    return (
        card_set.cards.exclude(pk__in=owned)
        .select_related("card_set", "card_set__game")
        .order_by("number", "key")
    )


def graded_population(*, card) -> list[dict]:
    """Return graded copies of ``card`` held on the site, by company and grade; no owners."""
    labels = dict(GradingCompany.choices)
    rows = (
        CollectionEntry.objects.filter(card=card, grade__isnull=False, quantity__gt=0)
        .values("grading_company", "grade")
        .annotate(copies=Sum("quantity"))
        .order_by("grading_company", "-grade")
    )
    return [
        {
            "company": r["grading_company"],
            "company_label": labels.get(r["grading_company"], r["grading_company"]),
            "grade": r["grade"],
            "copies": r["copies"],
        }
        for r in rows
    ]


def g_power_population(*, card) -> list[dict]:
    """Return the G-Power values recorded for copies of a figure on the site.

    One row per value with the number of copies, highest first; no owners. A
    figure's G-Power is printed on each copy, so this is what the site knows,
    never one value for the variant.
    """
    rows = (
        CollectionEntry.objects.filter(card=card, g_power__isnull=False, quantity__gt=0)
        .values("g_power")
        .annotate(copies=Sum("quantity"))
        .order_by("-g_power")
    )
    return [{"g_power": r["g_power"], "copies": r["copies"]} for r in rows]


def entries_for_share(*, link):
    """Return the entries a share link shows."""
    entries = CollectionEntry.objects.filter(user=link.user).with_related()
    if link.kind == ShareKind.WISHLIST:
        return entries.filter(wanted_quantity__gt=0)
    if link.kind == ShareKind.TRADELIST:
        return entries.filter(trade_quantity__gt=0)
    return entries.filter(quantity__gt=0)


def owned_copies(*, user, card_ids) -> dict[int, list[int]]:
    """Return card id -> the G-Power of each owned copy that records one."""
    copies: dict[int, list[int]] = {}
    rows = (
        CollectionEntry.objects.filter(
            user=user, card_id__in=card_ids, g_power__isnull=False, quantity__gt=0
        )
        .order_by("-g_power", "pk")
        .values_list("card_id", "g_power", "quantity")
    )
    for card_id, g_power, quantity in rows:
        copies.setdefault(card_id, []).extend([g_power] * quantity)
    return copies
