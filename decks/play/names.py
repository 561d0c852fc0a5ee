"""One name per seat, everywhere a playtest speaks: board, log, buttons, replay.

The engines say "Player 2"; the site says who that is: "You" (the deck's owner,
to the owner), the owner's username (to anyone else watching a shared replay:
it never says "You" to them), the names entered for hot-seat players, and
"Casual bot" or "Beginner bot" for a bot (numbered when several bots sit at the
table). ``speak`` rewrites an engine sentence with these names, a "You" spoken
in the second person through its whole clause ("You stand A-blade up, deal a
spin pile of 6 and draw 5", "You put Effect #4 into your hand").
"""

from __future__ import annotations

import re

from ..engine.bots import BOT_LABELS

BOT_WORDS = BOT_LABELS  # "Casual bot", "Strong bot (quick)", ...
_PLAYER = re.compile(r"\bPlayer ([1-8])('s)?")
_IRREGULAR = {"has": "have", "is": "are", "was": "were", "goes": "go", "does": "do"}
# A clause ends at these; "their" looks back only to the start of its sentence.
_CLAUSE_END = re.compile(r"[;:.!?]")
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)")
# The next verb of a clause whose subject is "you": ", deals", " and draws".
_NEXT_VERB = re.compile(r"(,| and) ([a-z]+)\b")
_SUBJECT_BEFORE = (".", ":", ";", "!", "?", ",", " and", " then", " but")


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


def _is_verb(word: str) -> bool:
    """Return whether a clause's next word reads as a third-person verb."""
    return word in _IRREGULAR or (
        len(word) > 2 and word.endswith("s") and not word.endswith("ss")
    )


def _starts_sentence(before: str) -> bool:
    """Return whether a name after ``before`` begins a sentence (capitalised).

    A short label before a colon ("Turn 2:", "B13:") starts one too; after a
    clause ("Nobody can play:") the sentence goes on in lower case.
    """
    before = before.rstrip()
    if not before or before.endswith((".", "!", "?")):
        return True
    if before.endswith(":"):
        sentence = re.split(r"[.!?]\s", before)[-1]
        return len(sentence.split()) <= 2
    return False


def _as_you(rest: str) -> str:
    """Return the words after a "you" subject with its verbs and "their" spoken.

    The first verb and the verbs its clause goes on with (", deals a spin pile
    and draws 5") take the second person; "their" up to the end of the
    sentence is "your" (nobody else is named before ``rest`` ends).
    """
    clause = _CLAUSE_END.search(rest)
    cut = clause.start() if clause else len(rest)
    head, tail = rest[:cut], rest[cut:]
    first = re.match(r" ([a-z]+)\b", head)
    if first and first.group(1) != "and":
        head = " " + _second_person(first.group(1)) + head[first.end() :]
    head = _NEXT_VERB.sub(
        lambda m: (
            f"{m.group(1)} {_second_person(m.group(2))}"
            if _is_verb(m.group(2))
            else m.group(0)
        ),
        head,
    )
    rest = head + tail
    end = _SENTENCE_END.search(rest)
    cut = end.start() if end else len(rest)
    return re.sub(r"\btheir\b", "your", rest[:cut]) + rest[cut:]


def speak(text: str, names: list[str]) -> str:
    """Return ``text`` with every "Player N" as that seat's name, in good grammar.

    A seat named "You" is spoken in the second person: "You stand A-blade up,
    deal a spin pile of 6 and draw 5", "You put Effect #4 into your hand",
    "Your spin pile is empty: you are out", "The seed picks you".
    """
    if "Player " not in text:
        return text
    mentions = list(_PLAYER.finditer(text))
    out = [text[: mentions[0].start()]]
    for k, match in enumerate(mentions):
        end = mentions[k + 1].start() if k + 1 < len(mentions) else len(text)
        rest = text[match.end() : end]
        seat = int(match.group(1)) - 1
        if not 0 <= seat < len(names):
            out.append(match.group(0) + rest)
            continue
        who, possessive = names[seat], match.group(2)
        before = text[: match.start()]
        if who != "You":
            out.append(who + ("'s" if possessive else "") + rest)
            continue
        start = _starts_sentence(before)
        if possessive:
            # "it is Player 1's." stands alone: "it is yours."
            alone = not re.match(r" [\w#]", rest)
            word = (
                ("Yours" if start else "yours")
                if alone
                else ("Your" if start else "your")
            )
            out.append(word + rest)
            continue
        subject = start or before.rstrip().endswith(_SUBJECT_BEFORE)
        out.append(("You" if start else "you") + (_as_you(rest) if subject else rest))
    spoken = "".join(out)
    if "you" in spoken:
        # "you" as the object of "of": "the power of you", "a Character of you".
        spoken = spoken.replace("the power of you", "your power")
        spoken = re.sub(r"\b(Characters?|cards?) of you\b", r"\1 of yours", spoken)
    return spoken
