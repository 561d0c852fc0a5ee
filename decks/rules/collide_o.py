"""Collide-O! pack rules (rules text: Set-Up).

All players share one pack: any cards, each any number of times. Set-up turns
one card face up in the centre and every player needs five cards to start, so a
pack holds at least ``pack_minimum(players)`` cards (the engine's count); the
deck page checks it for two players, the playtest for the number of players
chosen.

The table companion (``COMPANION``): one card to the centre, the rest dealt
equally, what is left over set aside (the same division as the engine's deal);
each card played takes one off its player's count; one card left wins (ruling
O5). The players share one pack, so the start form asks for no seat.
"""

from cards.games import Game
from cards.games.collide_o import GAME

from ..engine.collide_o import pack_minimum
from ..table.companion.score import (
    Companion,
    ScoreError,
    players,
    seat,
    seat_name,
    typed,
    whole,
)
from ..tools import UNKNOWN, Bar
from . import Line, Problem, total

__all__ = ["COMPANION", "deal", "pack_minimum", "sample", "timing_entries", "validate"]

SLUG = GAME.slug
NAME = GAME.short_name
ZONES = GAME.zone_values
DEFAULT_PLAYERS = GAME.min_players


def validate(
    lines: list[Line], *, players: int = DEFAULT_PLAYERS, **options
) -> list[Problem]:
    """Return the problems of a Collide-O! pack for this many players."""
    size = total(lines)
    needed = pack_minimum(players)
    if size >= needed:
        return []
    return [
        Problem(
            "pack_size",
            f"A Collide-O! pack for {players} players needs at least {needed} cards: "
            f"the centre card and five for each player (rules: Set-Up). This pack has "
            f"{size}.",
        )
    ]


def sample(cards: list, variant: int = 0) -> list[dict]:
    """Return entries of a pack of one copy of each of ``cards``."""
    return [{"card": c.pk, "quantity": 1, "zone": "pack"} for c in cards]


def timing_entries(size: int) -> list[dict]:
    """Return a plain pack of ``size`` cards."""
    return [
        {
            "card": {"id": 500 + i, "name": f"Card {500 + i}", "card_type": "sections"},
            "quantity": 1,
            "zone": "pack",
        }
        for i in range(size)
    ]


# --- the table companion -------------------------------------------------------


def deal(pack: int, count: int) -> tuple[list[int], int]:
    """Return each player's share and the cards set aside (after the centre card)."""
    share = (pack - 1) // count
    return [share] * count, pack - 1 - share * count


def _score(setup: dict, log: list) -> dict:
    count = players(GAME, setup.get("players"))
    pack = whole(setup.get("pack"), "The pack", pack_minimum(count), 500)
    left, aside = deal(pack, count)
    history = []
    winner = None
    for event in log:
        if winner is not None:
            raise ScoreError("The game is over: a player has one card left.")
        if event.get("kind") != "play":
            raise ScoreError("A Collide-O! event is a card played.")
        player = seat(event.get("player"), count)
        left[player] -= 1
        history.append(f"{seat_name(setup, player)} plays a card: {left[player]} left")
        if left[player] <= 1:
            winner = player
    return {
        "rows": [{"player": p, "left": left[p]} for p in range(count)],
        "aside": aside,
        "winner": winner,
        "history": history,
    }


def _setup(form, seats) -> dict:
    pack = typed(form.get("pack"))
    if pack is None and seats[0].cards:
        pack = sum(c.get("copies", 1) for zone in seats[0].cards.values() for c in zone)
    return {"players": len(seats), "pack": pack if pack is not None else 90}


def _event(form, setup: dict) -> dict:
    return {"kind": "play", "player": typed(form.get("player"))}


COMPANION = Companion(replay=_score, setup=_setup, event=_event)


# --- deck tools (the deck page's figures) --------------------------------------


def section_bars(game: Game, lines: list[Line]) -> list[Bar]:
    """Return per colour the cards with that colour in any of their sections.

    A card counts once per colour it shows (a red-blue stripe counts for red and
    for blue; the wild stripe for every colour, ruling O2), so the bars add up to
    more than the deck; cards with a section nobody has recorded count as unknown.
    """
    names = {c.letter: c.value for c in game.colours}
    fields = ("section_1", "section_2", "section_3")
    size = sum(line.quantity for line in lines) or 1
    counts = dict.fromkeys(names.values(), 0)
    unknown = 0
    for line in lines:
        sections = [line.get(f) for f in fields]
        if any(section is None for section in sections):
            unknown += line.quantity
            continue
        for colour in {names[c] for section in sections for c in section if c in names}:
            counts[colour] += line.quantity
    bars = [Bar(c, n, n / size, f"colour-{c}") for c, n in counts.items() if n]
    if unknown:
        bars.append(Bar(UNKNOWN, unknown, unknown / size, "colour-unknown"))
    return bars


def coverage(game: Game, lines: list[Line]) -> dict:
    """Return per colour the cards whose middle, or either end, offers it.

    ``section_2`` is the middle; a wild (five-colour) section offers every
    colour (ruling O2). Cards with an unknown section are counted apart.
    """
    names = {c.letter: c.value for c in game.colours}

    def offered(section: str | None) -> set[str]:
        return {names[c] for c in (section or "") if c in names}

    size = sum(line.quantity for line in lines) or 1
    rows = []
    for colour in names.values():
        middle = ends = 0
        for line in lines:
            if colour in offered(line.get("section_2")):
                middle += line.quantity
            if colour in offered(line.get("section_1")) | offered(
                line.get("section_3")
            ):
                ends += line.quantity
        rows.append(
            {
                "colour": colour,
                "middle": Bar(colour, middle, middle / size, f"colour-{colour}"),
                "ends": Bar(colour, ends, ends / size, f"colour-{colour}"),
            }
        )
    unknown = sum(
        line.quantity
        for line in lines
        if any(line.get(f) is None for f in ("section_1", "section_2", "section_3"))
    )
    return {"rows": rows, "unknown": unknown}


def deck_tools(game, lines: list[Line]) -> dict:
    """Return this game's own figures for the deck page."""
    return {"sections": section_bars(game, lines), "coverage": coverage(game, lines)}


# --- board helpers (the playtest board's template filters and tags) ----------


SECTION_FILLS = {c.letter: c.hex for c in GAME.colours}
COLOUR_WORDS = {c.letter: c.value for c in GAME.colours}


def section_rects(sections) -> list[dict]:
    """Return SVG rectangles of a Collide-O! card: three sections, stripes as bands."""
    rects = []
    if not isinstance(sections, (list, tuple)):
        return rects
    for index, letters in enumerate(sections[:3]):
        letters = [c for c in str(letters) if c in SECTION_FILLS] or ["K"]
        x = 2 + index * 30
        bands = len(letters) if len(letters) > 2 else len(letters) * 2
        if len(letters) == 1:
            bands = 1
        height = 44 / bands
        for band in range(bands):
            letter = letters[band % len(letters)]
            rects.append(
                {
                    "x": x,
                    "y": round(2 + band * height, 2),
                    "w": 30,
                    "h": round(height, 2),
                    "fill": SECTION_FILLS[letter],
                }
            )
    return rects


def section_words(letters) -> str:
    """Return a Collide-O! section in words: "red", "red-black stripe" or "wild"."""
    letters = [c for c in str(letters or "") if c in COLOUR_WORDS]
    if len(letters) == 5:
        return "wild (any colour)"
    if len(letters) == 2:
        return "-".join(COLOUR_WORDS[c] for c in letters) + " stripe"
    return " ".join(COLOUR_WORDS[c] for c in letters) or "unknown"


def card_sections_words(sections) -> str:
    """Return all three sections of a Collide-O! card in words."""
    if not isinstance(sections, (list, tuple)):
        return ""
    return " | ".join(section_words(s) for s in sections)


def board_card(decks: list, ref, seat=None) -> dict:
    """Return the pack card behind an engine reference (its index in the pack)."""
    return decks[0]["pack"][ref]


BOARD_FILTERS = {
    "section_rects": section_rects,
    "section_words": section_words,
    "card_sections_words": card_sections_words,
}
