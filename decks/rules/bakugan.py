"""Bakugan Battle Brawlers deck rules (rules text: what each player needs).

Exactly three Bakugan; three Gate cards, one gold, one silver and one copper;
three Ability cards, one red, one blue and one green. Each card sits in the zone
of its own type. The requirements are data (``REQUIREMENTS``), checked by one
loop.

A Bakugan slot may play with a G-Power: one of the owner's recorded copies or
a value the player types. A typed value obeys the rule a collection copy obeys
(``cards.games.bakugan.copy_g_power_problem``, the one function for both); a
slot with none plays the strongest recorded copy the owner has
(``decks.copies``, read by the playtest, reports, the doctor and the deck tools
alike), and a figure with no value at all cannot be played.

The table companion (``COMPANION``): a battle's G-Power per Bakugan is its
G-Power plus the gate's bonus for its attribute (``engine.g_power_on_gate``,
ruling B5) plus what ability cards add as the battle goes (typed: what a card's
text does is read at the table). The engine says who wins (``battle_winner``: a
tie goes to the Bakugan that landed first, and a battle names its two Bakugan in
the order they landed) and how many gates win (``GATES_TO_WIN``).
"""

from cards.games import Game
from cards.games.bakugan import (
    ABILITY_COLOURS,
    FIGURE,
    GAME,
    GATE_CLASSES,
    copy_g_power_problem,
)

from ..engine import bakugan as engine
from ..table.companion.score import (
    Companion,
    ScoreError,
    players,
    seat,
    seat_name,
    typed,
    whole,
)
from ..tools import engine_card, zone_printing
from . import WARNING, Line, Problem, count_phrase, ids, rotated, total

SLUG = GAME.slug
NAME = GAME.short_name
ZONES = GAME.zone_values
SOURCE = "rules: what each player needs"

# zone: (card type, how many, the field each card must differ on, its values)
REQUIREMENTS = {
    "bakugan": ("bakugan", 3, None, ()),
    "gate": ("gate", 3, "gate_class", GATE_CLASSES),
    "ability": ("ability", 3, "colour", ABILITY_COLOURS),
}
NOUNS = {
    "bakugan": ("Bakugan", "Bakugan"),
    "gate": ("Gate card", "Gate cards"),
    "ability": ("Ability card", "Ability cards"),
}
RULE_TEXT = (
    "A Bakugan player brings exactly three Bakugan; three Gate cards, one gold, one "
    "silver and one copper; and three Ability cards, one red, one blue and one green"
)


def validate(lines: list[Line], **options) -> list[Problem]:
    """Return the problems of a Bakugan deck."""
    problems = _g_power_problems(lines)
    for zone, (card_type, needed, field, values) in REQUIREMENTS.items():
        one, many = NOUNS[zone]
        in_zone = [line for line in lines if line.zone == zone]
        wrong = [line for line in in_zone if line.get("card_type") != card_type]
        if wrong:
            problems.append(
                Problem(
                    f"not_{card_type}",
                    f"Only {many} go among the {many} ({SOURCE}): "
                    + ", ".join(line.label for line in wrong)
                    + f" {'is' if len(wrong) == 1 else 'are'} not.",
                    ids(wrong),
                )
            )
        count = total(in_zone)
        if count != needed:
            problems.append(
                Problem(
                    f"{zone}_count",
                    f"{RULE_TEXT} ({SOURCE}). This deck has "
                    f"{count_phrase(count, one, many)}.",
                    ids(in_zone),
                )
            )
        if field is None:
            continue
        problems.extend(_spread_problems(zone, in_zone, field, values, many, card_type))
    return problems


def _g_power_problems(lines: list[Line]) -> list[Problem]:
    problems = []
    for line in lines:
        if line.g_power is None:
            continue
        message = copy_g_power_problem(line.get("card_type"), line.g_power)
        if message:
            problems.append(
                Problem("bad_g_power", f"{line.label}: {message}", ids([line]))
            )
    return problems


def _spread_problems(zone, in_zone, field, values, many, card_type) -> list[Problem]:
    problems = []
    counts = {value: 0 for value in values}
    for line in in_zone:
        value = line.get(field)
        if value in counts:
            counts[value] += line.quantity
    extra = [v for v in values if counts[v] > 1]
    missing = [v for v in values if counts[v] == 0]
    if extra or missing:
        parts = [f"{counts[v]} {v}" for v in extra] + [f"no {v}" for v in missing]
        involved = [line for line in in_zone if line.get(field) in extra]
        problems.append(
            Problem(
                f"{zone}_{'colours' if field == 'colour' else 'classes'}",
                f"{RULE_TEXT} ({SOURCE}). This deck's {many} have "
                + " and ".join(parts)
                + ".",
                ids(involved),
            )
        )
    # A card of the wrong type is reported above, not as an unknown value.
    unknown = [
        line
        for line in in_zone
        if line.get(field) is None and line.get("card_type") == card_type
    ]
    if unknown:
        what = "colour" if field == "colour" else "class"
        problems.append(
            Problem(
                f"unknown_{what}",
                f"The {what} of "
                + ", ".join(line.label for line in unknown)
                + f" is unknown, so it cannot count toward one {'/'.join(values)} "
                f"({SOURCE}).",
                ids(unknown),
                WARNING,
            )
        )
    return problems


def sample(cards: list, variant: int = 0) -> list[dict]:
    """Return entries of a legal deck of ``cards``: three of each, one per value.

    ``variant`` turns the choice of cards, so two samples can face each other.
    """
    entries = []
    for zone, (card_type, needed, field, values) in REQUIREMENTS.items():
        of_type = [c for c in cards if c.card_type == card_type]
        if field is None:
            chosen = rotated(of_type, variant)[:needed]
        else:
            chosen = [
                rotated([c for c in of_type if getattr(c, field) == v], variant)[0]
                for v in values
            ]
        entries += [{"card": c.pk, "quantity": 1, "zone": zone} for c in chosen]
    return entries


def _playable_gate(card) -> bool:
    return all(
        getattr(card, f"bonus_{a}") is not None
        or f"bonus_{a}" in (card.not_printed or [])
        for a in ("pyrus", "aquos", "subterra", "haos", "darkus", "ventus")
    )


def from_collection(owned: list, copies: dict[int, list[int]]) -> list[dict]:
    """Return the entries of a legal deck built from what a collector owns.

    ``owned`` holds the cards the collector owns; ``copies`` maps a figure's
    card id to the G-Power recorded on each owned copy. The deck takes the
    three strongest recorded copies (each slot with its copy's G-Power) whose attribute is known, one gate of each
    class with a known bonus grid and one ability of each colour (an encoded
    one first, then the lowest number). Raise ValueError saying what is missing.
    """
    missing = []
    figures = sorted(
        (
            (g, c.pk)
            for c in owned
            if c.card_type == "bakugan" and c.attribute
            for g in copies.get(c.pk, ())
        ),
        reverse=True,
    )[:3]
    if len(figures) < 3:
        missing.append(
            f"three Bakugan figures with their G-Power recorded in your collection "
            f"(you have {len(figures)})"
        )
    entries, counts = [], {}
    for g_power, pk in figures:
        counts[pk, g_power] = counts.get((pk, g_power), 0) + 1
    # Each slot plays the G-Power of the copies chosen for it.
    entries += [
        {"card": pk, "quantity": n, "zone": "bakugan", "g_power": g_power}
        for (pk, g_power), n in counts.items()
    ]
    for zone, field, values, check in (
        ("gate", "gate_class", GATE_CLASSES, _playable_gate),
        ("ability", "colour", ABILITY_COLOURS, lambda c: True),
    ):
        for value in values:
            fits = [
                c
                for c in owned
                if c.card_type == zone and getattr(c, field) == value and check(c)
            ]
            fits.sort(
                key=lambda c: (not c.effects, c.card_set.sort_order, c.number or 0)
            )
            if not fits:
                what = (
                    "gate with a known bonus grid" if zone == "gate" else "Ability card"
                )
                missing.append(f"a {value} {what}")
                continue
            entries.append({"card": fits[0].pk, "quantity": 1, "zone": zone})
    if missing:
        raise ValueError(
            "To build a deck from what you own you still need "
            + "; ".join(missing)
            + "."
        )
    return entries


def timing_entries(size: int) -> list[dict]:
    """Return a plain legal deck and ``size - 9`` more red Ability cards."""

    def entry(card_id, zone, **fields):
        card = {"id": card_id, "name": f"Card {card_id}", **fields}
        return {"card": card, "quantity": 1, "zone": zone}

    entries = [entry(300 + i, "bakugan", card_type="bakugan") for i in range(3)]
    entries += [
        entry(310 + i, "gate", card_type="gate", gate_class=c)
        for i, c in enumerate(GATE_CLASSES)
    ]
    entries += [
        entry(320 + i, "ability", card_type="ability", colour=c)
        for i, c in enumerate(ABILITY_COLOURS)
    ]
    entries += [
        entry(400 + i, "ability", card_type="ability", colour="red")
        for i in range(size - 9)
    ]
    return entries


# --- the table companion -------------------------------------------------------


def battle_totals(fighters: list[dict], gate: dict) -> list[int]:
    """Return each Bakugan's G-Power on ``gate`` with its ability cards added."""
    totals = []
    for fighter in fighters:
        figure = {
            "g_power": whole(fighter.get("g_power"), "A Bakugan's G-Power", 0, 2000),
            "attribute": fighter.get("attribute"),
        }
        if figure["attribute"] not in engine.ATTRIBUTES:
            raise ScoreError(
                "A Bakugan's attribute is one of " + ", ".join(engine.ATTRIBUTES) + "."
            )
        on_gate = engine.g_power_on_gate(figure, gate)
        if on_gate is None:
            raise ScoreError(
                f"The gate's bonus for {figure['attribute']} is unknown; type it in."
            )
        abilities = [
            whole(a, "An ability card's G-Power", -2000, 2000)
            for a in fighter.get("abilities", [])
        ]
        totals.append(on_gate + sum(abilities))
    return totals


def _score(setup: dict, log: list) -> dict:
    count = players(GAME, setup.get("players"))
    won = [0] * count
    history = []
    winner = None
    for event in log:
        if winner is not None:
            raise ScoreError(
                f"The game is over: a player has won {engine.GATES_TO_WIN} gates."
            )
        kind = event.get("kind")
        if kind == "battle":
            fighters = event.get("fighters") or []
            if len(fighters) != 2:
                raise ScoreError("A battle is two Bakugan, in the order they landed.")
            seats = [seat(f.get("player"), count) for f in fighters]
            if seats[0] == seats[1]:
                raise ScoreError("A battle is between two different players.")
            totals = battle_totals(fighters, event.get("gate") or {})
            first = engine.battle_winner(*totals)
            won[seats[first]] += 1
            history.append(
                f"{seat_name(setup, seats[0])} {totals[0]} against "
                f"{seat_name(setup, seats[1])} {totals[1]}: "
                f"{seat_name(setup, seats[first])} wins the gate"
                + (" (tie: landed first)" if totals[0] == totals[1] else "")
            )
        elif kind == "gate":
            player = seat(event.get("player"), count)
            won[player] += 1
            history.append(f"{seat_name(setup, player)} wins a gate without a battle")
        else:
            raise ScoreError("A Bakugan event is a battle or a gate won.")
        leaders = [p for p in range(count) if won[p] >= engine.GATES_TO_WIN]
        winner = leaders[0] if leaders else None
    return {
        "rows": [{"player": p, "gates": won[p]} for p in range(count)],
        "winner": winner,
        "history": history,
        "to_win": engine.GATES_TO_WIN,
    }


def _setup(form, seats) -> dict:
    hands = []
    for place in seats:
        gates, figures = [], []
        for zone in (place.cards or {}).values():
            for c in zone:
                if c.get("card_type") in GAME.not_cards:
                    figures.append(
                        {k: c.get(k) for k in ("id", "label", "attribute", "g_power")}
                    )
                elif c.get("card_type") == "gate":
                    gates.append(
                        {
                            "id": c["id"],
                            "label": c.get("label"),
                            "not_printed": c.get("not_printed") or [],
                            **{
                                f"bonus_{a}": c.get(f"bonus_{a}")
                                for a in engine.ATTRIBUTES
                            },
                        }
                    )
        hands.append({"gates": gates, "figures": figures})
    return {"players": len(seats), "cards": hands}


def _event(form, setup: dict) -> dict:
    if form.get("event") == "gate":
        return {"kind": "gate", "player": typed(form.get("player"))}
    cards = setup.get("cards") or []
    gate = None
    gate_id = typed(form.get("gate"))
    for hand in cards:
        gate = gate or next((g for g in hand["gates"] if g["id"] == gate_id), None)
    if gate is None:
        gate = {
            f"bonus_{a}": typed(form.get(f"bonus_{a}"), 0) for a in engine.ATTRIBUTES
        }
    fighters = []
    for f in (0, 1):
        fighter = {
            "player": typed(form.get(f"player_{f}")),
            "g_power": form.get(f"g_power_{f}"),
            "attribute": form.get(f"attribute_{f}"),
            "abilities": (form.get(f"abilities_{f}") or "").replace(",", " ").split(),
        }
        figure_id = typed(form.get(f"figure_{f}"))
        for hand in cards:
            figure = next((x for x in hand["figures"] if x["id"] == figure_id), None)
            if figure:
                fighter["attribute"] = figure.get("attribute") or fighter["attribute"]
                if not fighter["g_power"] and figure.get("g_power") is not None:
                    fighter["g_power"] = figure["g_power"]
                fighter["label"] = figure.get("label")
        fighters.append(fighter)
    return {"kind": "battle", "gate": gate, "fighters": fighters}


def _page(setup: dict) -> dict:
    return {"attributes": engine.ATTRIBUTES, "hands": setup.get("cards") or []}


COMPANION = Companion(replay=_score, setup=_setup, event=_event, page=_page)


# --- deck tools (the deck page's figures) --------------------------------------


def gate_table(game: Game, lines: list[Line]) -> dict:
    """Return each Bakugan's G-Power on each of the deck's gates (None: unknown).

    The Bakugan are the cards that print a G-Power, the gates those with a class;
    a figure's row is one value it plays (``decks.copies.deck_lines`` gives the
    lines, one per copy's G-Power).
    """
    figures, gated = zone_printing(game, "g_power"), zone_printing(game, "gate_class")
    bakugan = [line for line in lines if line.zone == figures]
    gates = [line for line in lines if line.zone == gated]
    rows = []
    for b in bakugan:
        # The card's own G-Power (a practice figure's), else the copy the slot plays.
        power = b.get("g_power") if b.get("g_power") is not None else b.g_power
        figure = {**engine_card(b.card), "g_power": power}
        rows.append(
            {
                "line": b,
                "g_power": power,
                "cells": [
                    engine.g_power_on_gate(figure, engine_card(g.card)) for g in gates
                ],
            }
        )
    return {"gates": gates, "rows": rows}


def deck_tools(game, lines: list[Line]) -> dict:
    """Return this game's own figures for the deck page."""
    return {"gate_table": gate_table(game, lines)}


# --- board helpers (the playtest board's template filters and tags) ----------


def versus(battle) -> str:
    """Return a battle naming both owners: "Player 1's Dragonoid (Pyrus, 340 G) against ..."."""

    def side(b) -> str:
        owner = str(b.get("id", ""))[1:2]
        power = b.get("g_power")
        parts = [str(b.get("attribute") or "attribute unknown").capitalize()]
        parts.append(f"{power} G" if power is not None else "G-Power unknown")
        who = f"Player {owner}'s " if owner.isdigit() else ""
        return f"{who}{b.get('name')} ({', '.join(parts)})"

    try:
        return f"{side(battle['attacker'])} against {side(battle['defender'])}"
    except (KeyError, TypeError, AttributeError):
        return ""


def board_card(decks: list, ref, seat=None) -> dict:
    """Return the stored card behind a reference: "P1-G2" / "P1-B3" (seat 1, gate or
    Bakugan 2 / 3) or "A2" (ability 2 of ``seat``)."""
    ref = str(ref)
    if ref.startswith("A"):
        return decks[int(seat)]["ability"][int(ref[1:]) - 1]
    player, item = ref.split("-")
    zone = {"G": "gate", "B": FIGURE}[item[0]]
    return decks[int(player[1:]) - 1][zone][int(item[1:]) - 1]


BOARD_SAYINGS = {"bakugan_versus": versus}
