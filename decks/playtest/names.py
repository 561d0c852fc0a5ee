"""One name per seat, everywhere a playtest speaks: board, log, buttons, replay.

The engines say "Player 2"; the site says who that is: "You" (the deck's owner,
to the owner), the owner's username (to anyone else watching a shared replay:
it never says "You" to them), the names entered for hot-seat players, and
"Greedy bot" or "Random bot" for a bot (numbered when several bots sit at the
table). ``speak`` rewrites an engine sentence with these names, the verb after
"You" put in the second person ("You play", "You have").
"""

from __future__ import annotations

import re

from ..engine.bots import BOT_LABELS

BOT_WORDS = BOT_LABELS  # "Greedy bot", "Search bot (fast)", ...
_PLAYER = re.compile(r"\bPlayer ([1-8])('s)?(?: ([a-z]+))?")
_IRREGULAR = {"has": "have", "is": "are", "was": "were", "goes": "go", "does": "do"}


def seat_names(pt, *, watcher: bool = False) -> list[str]:
    """Return the name of each seat of ``pt`` (as a watcher when ``watcher``)."""
    seats = pt.seats or []
    bots = [s["kind"] for s in seats if s.get("kind") in BOT_WORDS]
    counts: dict[str, int] = {}
    names = []
    for i, seat in enumerate(seats):
        kind = seat.get("kind")
        if kind == "human":
            owner = getattr(pt, "owner", None)
            names.append(
                (owner.get_username() if owner is not None else "The player")
                if watcher
                else "You"
            )
        elif kind == "hotseat":
            names.append(seat.get("label") or f"Player {i + 1}")
        else:
            word = BOT_WORDS.get(kind, "Bot")
            if bots.count(kind) > 1:
                counts[kind] = counts.get(kind, 0) + 1
                word = f"{word} {counts[kind]}"
            names.append(word)
    return names


def _second_person(verb: str) -> str:
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith(("sses", "shes", "ches", "xes", "zes")):
        return verb[:-2]
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if verb.endswith("s") and not verb.endswith("ss") and len(verb) > 2:
        return verb[:-1]
    return verb


def speak(text: str, names: list[str]) -> str:
    """Return ``text`` with every "Player N" as that seat's name."""
    if "Player " not in text:
        return text

    def name(match: re.Match) -> str:
        seat = int(match.group(1)) - 1
        if not 0 <= seat < len(names):
            return match.group(0)
        who, possessive, word = names[seat], match.group(2), match.group(3)
        start = match.start() == 0 or text[: match.start()].rstrip().endswith(
            (".", ":", "!", "?")
        )
        if who == "You":
            if possessive:
                result = "Your" if start else "your"
                return result + (f" {word}" if word else "")
            who = "You" if start else "you"
            return who + (f" {_second_person(word)}" if word else "")
        result = who + ("'s" if possessive else "")
        return result + (f" {word}" if word else "")

    return _PLAYER.sub(name, text)
