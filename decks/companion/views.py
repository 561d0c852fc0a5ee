"""The table companion's pages: start a game, keep its score on a phone, share it.

The pages work without JavaScript: each entry is a small form that posts and
comes back to the score (post, redirect, get), so a reload never repeats an
entry and the score survives a reload or a closed tab. The shared page is
read-only and reached by its unguessable link only.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cards.games import GAMES

from .. import selectors
from . import score, services
from .models import TableGame

ATTRIBUTES = score.bakugan.ATTRIBUTES
MF_COLOURS = score.metal_fusion.COLOURS
MF_SLOTS = score.metal_fusion.SLOTS


def _int(value, default=None):
    """Return ``value`` as a whole number, or ``default`` when it is none (or absurd)."""
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        return default
    return number if abs(number) <= 10**9 else default


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
    kind = score.keeper(spec.module).kind
    players = _int(post.get("players"))
    if players not in spec.seat_counts:
        counts = " or ".join(str(n) for n in spec.seat_counts)
        raise ValidationError(f"{spec.short_name} is for {counts} players.")
    names = [
        _text(post.get(f"name_{p}"), 40) or f"Player {p + 1}" for p in range(players)
    ]
    chosen = [
        _chosen_deck(request, decks, post.get(f"deck_{p}")) for p in range(players)
    ]
    cards = [
        services.deck_cards(deck, request.user) if deck else None for deck in chosen
    ]
    setup = {"names": names, "decks": [d.name if d else None for d in chosen]}
    if kind == "spin":
        strengths = []
        for p in range(players):
            typed = _int(post.get(f"strength_{p}"))
            if typed is None and cards[p]:
                blades = [
                    c
                    for zone in cards[p].values()
                    for c in zone
                    if c.get("card_type") == "blade"
                ]
                typed = blades[0].get("spin_strength") if blades else None
                if typed is None:
                    raise ValidationError(
                        f"The Blade of {chosen[p].name} has no recorded spin "
                        "strength: type it in."
                    )
            if typed is None:
                raise ValidationError(f"Give {names[p]}'s spin strength or a deck.")
            strengths.append(typed)
        setup["strength"] = strengths
    elif kind == "gates":
        setup["players"] = players
        setup["cards"] = []
        for p in range(players):
            gates, figures = [], []
            for zone in (cards[p] or {}).values():
                for c in zone:
                    if c.get("card_type") in spec.not_cards:
                        figures.append(
                            {
                                k: c.get(k)
                                for k in ("id", "label", "attribute", "g_power")
                            }
                        )
                    elif c.get("card_type") == "gate":
                        gates.append(
                            {
                                "id": c["id"],
                                "label": c.get("label"),
                                "not_printed": c.get("not_printed") or [],
                                **{
                                    f"bonus_{a}": c.get(f"bonus_{a}")
                                    for a in ATTRIBUTES
                                },
                            }
                        )
            setup["cards"].append({"gates": gates, "figures": figures})
    elif kind == "power":
        lineups = []
        for p in range(players):
            if cards[p]:
                lineup = []
                for c in cards[p].get("lineup", []):
                    lineup += [c] * c.get("copies", 1)
                lineups.append([_lineup_card(c) for c in lineup])
            else:
                lineups.append(score.typed_lineup(_typed_lineup(post, p)))
        setup["lineups"] = lineups
    elif kind == "cards":
        setup["players"] = players
        pack = _int(post.get("pack"))
        if pack is None and cards[0]:
            pack = sum(c.get("copies", 1) for zone in cards[0].values() for c in zone)
        setup["pack"] = pack if pack is not None else 90
    return setup


_LINEUP_FIELDS = (
    "id", "label", "card_type", "emblem", "not_printed", "effects",
    *(f"stat_{c}" for c in MF_COLOURS), *(f"move_{c}" for c in MF_COLOURS),
)  # fmt: skip


def _lineup_card(card: dict) -> dict:
    return {k: card.get(k) for k in _LINEUP_FIELDS}


def _typed_lineup(post, p: int) -> dict:
    values = {
        slot: {c: post.get(f"{slot}_{c}_{p}") for c in MF_COLOURS} for slot in MF_SLOTS
    }
    values["move"] = {c: post.get(f"move_{c}_{p}") or 0 for c in MF_COLOURS}
    values["emblems_match"] = bool(post.get(f"emblems_{p}"))
    return values


@login_required
@require_http_methods(["GET", "POST"])
def companion_new(request):
    """Start keeping the score of a game at the table."""
    spec = GAMES.get(request.GET.get("game") or request.POST.get("game") or "")
    games = [(g, score.keeper(g.module)) for g in GAMES.values()]
    if spec is None:
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
            "spec": spec,
            "kind": score.keeper(spec.module).kind,
            "decks": decks,
            "seats": range(spec.max_players),
            "error": error,
            "colours": MF_COLOURS,
            "slots": MF_SLOTS,
            "post": request.POST,
        },
        status=400 if error else 200,
    )


# --- the score -------------------------------------------------------------------


def _context(table_game: TableGame) -> dict:
    kind = score.keeper(table_game.game_module).kind
    result = score.score(table_game.game_module, table_game.setup, table_game.log)
    names = table_game.setup.get("names") or []
    for row in result["rows"]:
        row["name"] = (
            names[row["player"]]
            if row["player"] < len(names)
            else (f"Player {row['player'] + 1}")
        )
    winner = result["winner"]
    return {
        "table_game": table_game,
        "kind": kind,
        "score": result,
        "winner_name": result["rows"][winner]["name"] if winner is not None else None,
        "history": list(reversed(result["history"])),
        "colours": MF_COLOURS,
        "attributes": ATTRIBUTES,
        "players": range(len(result["rows"])),
        "bakugan_cards": table_game.setup.get("cards") or [],
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


def _event(table_game: TableGame, post) -> dict:
    """Return the event a score form posted (the companion's own words for it)."""
    kind = score.keeper(table_game.game_module).kind
    what = post.get("event")
    if kind == "spin":
        if what == "battle":
            event = {"kind": "battle", "defender": _int(post.get("defender"))}
            a, d = (
                (post.get("attacker_edge") or "").strip(),
                (post.get("defender_edge") or "").strip(),
            )
            if a or d:
                event.update(attacker_edge=a.upper(), defender_edge=d.upper())
            else:
                event["hits"] = post.get("hits")
            return event
        return {
            "kind": what,
            "player": _int(post.get("player")),
            "amount": post.get("amount"),
        }
    if kind == "gates":
        if what == "gate":
            return {"kind": "gate", "player": _int(post.get("player"))}
        cards = table_game.setup.get("cards") or []
        gate = None
        gate_id = _int(post.get("gate"))
        for hand in cards:
            gate = gate or next((g for g in hand["gates"] if g["id"] == gate_id), None)
        if gate is None:
            gate = {f"bonus_{a}": _int(post.get(f"bonus_{a}"), 0) for a in ATTRIBUTES}
        fighters = []
        for f in (0, 1):
            player = _int(post.get(f"player_{f}"))
            fighter = {
                "player": player,
                "g_power": post.get(f"g_power_{f}"),
                "attribute": post.get(f"attribute_{f}"),
                "abilities": [
                    w
                    for w in (post.get(f"abilities_{f}") or "")
                    .replace(",", " ")
                    .split()
                ],
            }
            figure_id = _int(post.get(f"figure_{f}"))
            for hand in cards:
                figure = next(
                    (x for x in hand["figures"] if x["id"] == figure_id), None
                )
                if figure:
                    fighter["attribute"] = (
                        figure.get("attribute") or fighter["attribute"]
                    )
                    if not fighter["g_power"] and figure.get("g_power") is not None:
                        fighter["g_power"] = figure["g_power"]
                    fighter["label"] = figure.get("label")
            fighters.append(fighter)
        return {"kind": "battle", "gate": gate, "fighters": fighters}
    if kind == "power":
        attacker, defender = _int(post.get("attacker")), _int(post.get("defender"))
        return {
            "kind": "turn",
            "attacker": attacker,
            "defender": defender,
            "colour": post.get("colour"),
            "adjust": {
                str(attacker): post.get("adjust_attacker") or 0,
                str(defender): post.get("adjust_defender") or 0,
            },
            "keep": post.get("keep") or "hand",
            # Stored only where it counts; the score checks it is a booster code.
            "booster": (post.get("booster") or "").upper() or None
            if post.get("keep") == "booster"
            else None,
        }
    return {"kind": "play", "player": _int(post.get("player"))}


@login_required
@require_POST
def companion_act(request, pk):
    """Enter what happened at the table."""
    table_game = _own(request, pk)
    try:
        services.table_game_record(
            table_game=table_game,
            event=_event(table_game, request.POST),
            version=_int(request.POST.get("version"), -1),
        )
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


@require_GET
def companion_shared(request, token):
    """Show a table game's score read-only to whoever has its link."""
    table_game = get_object_or_404(
        TableGame.objects.select_related("game"), share_token=token
    )
    context = _context(table_game)
    context["editable"] = False
    return render(request, "table/companion.html", context)
