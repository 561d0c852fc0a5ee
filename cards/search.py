"""The card search language shared by the search box, the checklists and the API.

A query is a list of terms separated by spaces. A term is a bare word or a
quoted phrase (searched in the name and the text), or ``key:value``, or a
comparison ``key>=value`` (``>``, ``>=``, ``<``, ``<=``, ``=``, ``!=``). A
leading ``-`` negates a term; ``or`` between terms joins the groups on either
side (``a b or c`` is "(a and b) or c"). Values with spaces are quoted:
``name:"Storm Pegasus"``.

Nothing a user types raises: every term that cannot be read is dropped with a
warning saying why, and the rest is searched. A negated comparison keeps the
cards whose value is unknown (they are not known to match).
"""

import re
import unicodedata
from dataclasses import dataclass, field

from django.db.models import Q, Value, lookups
from django.db.models.functions import Length, Replace, Substr
from django.db.models.lookups import Exact

from .choices import (
    COLOUR_LETTERS,
    PIECE_CODES,
    PIECE_NAMES,
    Attribute,
    CardType,
    Colour,
    GameSlug,
    GateClass,
    SetKind,
    Symbol,
    Verification,
)
from .games import GAMES, collide_o, metal_fusion

MAX_LENGTH = 500
MAX_TERMS = 30
MAX_NUMBER = 99999
WILD = collide_o.ORDER

OPERATORS = (">=", "<=", "!=", ":", ">", "<", "=")
KEY_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(>=|<=|!=|:|>|<|=)")
CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
OP_WORDS = {
    ":": "",
    "=": "",
    "!=": "not ",
    ">": "more than ",
    ">=": "at least ",
    "<": "less than ",
    "<=": "at most ",
}
OP_LOOKUPS = {
    ":": "exact",
    "=": "exact",
    ">": "gt",
    ">=": "gte",
    "<": "lt",
    "<=": "lte",
}

# Every game answers to its slug and short name, and to the other words it lists.
GAME_ALIASES = {
    word: g.slug
    for g in GAMES.values()
    for word in (g.slug, g.short_name.lower(), *g.aliases)
}
GAME_NAMES = {g.slug: g.short_name for g in GAMES.values()}
COLOURS = tuple(Colour.values)
MF_COLOURS = metal_fusion.COLOURS
BAKUGAN_ATTRIBUTES = tuple(Attribute.values)


def piece_count(code: str):
    """Return an expression counting the pieces ``code`` in the battle edge."""
    return Length("battle_edge") - Length(
        Replace("battle_edge", Value(code), Value(""))
    )


def promo_q() -> Q:
    """Return the condition for promo cards: rarity promo, or a game's promo numbers."""
    q = Q(rarity__iexact="promo")
    for g in GAMES.values():
        if g.promo_numbers:
            q |= Q(
                card_set__game__slug=g.slug,
                number__gte=g.promo_numbers[0],
                number__lte=g.promo_numbers[-1],
            )
    return q


def wild_q() -> Q:
    """Return the condition for cards with at least one wild (five-colour) section."""
    return Q(section_1=WILD) | Q(section_2=WILD) | Q(section_3=WILD)


def section_q(letter: str, fields=("section_1", "section_2", "section_3")) -> Q:
    """Return the condition for a colour letter in any of ``fields``."""
    q = Q()
    for name in fields:
        q |= Q(**{f"{name}__contains": letter})
    return q


class TermError(Exception):
    """A term that cannot be read; the message says why."""


@dataclass
class Term:
    raw: str
    key: str | None
    op: str | None
    value: str
    negated: bool


@dataclass
class Clause:
    q: Q
    phrase: str
    leading: bool = False  # "of Collision", "in set X" read before the rest


@dataclass
class SearchQuery:
    """The result of reading a query: the condition, its description, the warnings."""

    text: str
    q: Q = field(default_factory=Q)
    description: str = "All cards"
    warnings: list[str] = field(default_factory=list)
    mentions_kind: bool = False
    is_empty: bool = True


# Key handlers: each takes (op, value) and returns (Q, positive phrase, negated
# phrase, leading) or raises TermError.


def _equality_only(key: str, op: str) -> None:
    if op not in (":", "="):
        raise TermError(f'{key} takes ":" only, not "{op}".')


def _choice(key, op, value, choices, aliases=None):
    _equality_only(key, op)
    v = value.lower()
    v = (aliases or {}).get(v, v)
    if v not in choices:
        raise TermError(f"{key} must be one of {', '.join(choices)}.")
    return v


def _int(key, value) -> int:
    if not re.fullmatch(r"[+-]?\d{1,6}", value):
        raise TermError(f"{key} needs a whole number.")
    n = int(value)
    if abs(n) > MAX_NUMBER:
        raise TermError(f"{key} must be between -{MAX_NUMBER} and {MAX_NUMBER}.")
    return n


def _compare(label: str, field_or_expr):
    """Return a handler comparing a number column (or expression) with the value."""

    def handler(key, op, value):
        n = _int(key, value)
        if op == "!=":
            q = ~_compare_q(field_or_expr, "exact", n)
        else:
            q = _compare_q(field_or_expr, OP_LOOKUPS[op], n)
        words = OP_WORDS[op]
        positive = f"whose {label} is {words}{n}"
        negated = f"whose {label} is not {words}{n}".replace("is not not ", "is ")
        return q, positive, negated

    return handler


def _compare_q(field_or_expr, lookup: str, n: int) -> Q:
    if isinstance(field_or_expr, str):
        return Q(**{f"{field_or_expr}__{lookup}": n})
    cls = {
        "exact": lookups.Exact,
        "gt": lookups.GreaterThan,
        "gte": lookups.GreaterThanOrEqual,
        "lt": lookups.LessThan,
        "lte": lookups.LessThanOrEqual,
    }[lookup]
    return Q(cls(field_or_expr(), n))


def _text(label: str, fields):
    def handler(key, op, value):
        _equality_only(key, op)
        q = Q()
        for name in fields:
            q |= Q(**{f"{name}__icontains": value})
        return (
            q,
            f"whose {label} contains “{value}”",
            f"whose {label} does not contain “{value}”",
        )

    return handler


def _game(key, op, value):
    slug = _choice(key, op, value, tuple(GameSlug.values), GAME_ALIASES)
    name = GAME_NAMES[slug]
    return (
        Q(card_set__game__slug=slug),
        f"of {name}",
        f"that are not {name} cards",
        True,
    )


def _set(key, op, value):
    _equality_only(key, op)
    q = Q(card_set__slug__iexact=value) | Q(card_set__name__iexact=value)
    return q, f"in the set “{value}”", f"that are not in the set “{value}”", True


def _type(key, op, value):
    labels = {label.lower().split()[0]: v for v, label in CardType.choices}
    v = _choice(key, op, value, tuple(CardType.values), labels)
    label = CardType(v).label
    return Q(card_type=v), f"whose type is {label}", f"whose type is not {label}"


def _colour(key, op, value):
    v = _choice(key, op, value, COLOURS)
    return Q(colour=v), f"that are {v}", f"that are not {v}"


def _rarity(key, op, value):
    _equality_only(key, op)
    if len(value) > 12:
        raise TermError(f"{key} is a rarity name or letter.")
    return (
        Q(rarity__iexact=value),
        f"whose rarity is {value}",
        f"whose rarity is not {value}",
    )


def _status(key, op, value):
    v = _choice(key, op, value, tuple(Verification.values))
    return Q(verification=v), f"whose data is {v}", f"whose data is not {v}"


IS_FLAGS = {
    "promo": (promo_q, "that are promos", "that are not promos"),
    "practice": (
        lambda: Q(card_set__kind=SetKind.PRACTICE),
        "that are practice cards",
        "that are not practice cards",
    ),
    "custom": (
        lambda: Q(card_set__kind=SetKind.CUSTOM),
        "that are custom cards",
        "that are not custom cards",
    ),
    "official": (
        lambda: Q(card_set__kind=SetKind.OFFICIAL),
        "that are official cards",
        "that are not official cards",
    ),
    "wild": (wild_q, "that have a wild section", "that have no wild section"),
}


def _is(key, op, value):
    v = _choice(key, op, value, tuple(IS_FLAGS))
    make, positive, negated = IS_FLAGS[v]
    return make(), positive, negated


def _edge(key, op, value):
    _equality_only(key, op)
    m = re.fullmatch(r"([1-6])[=:]([a-z.]+)", value.lower())
    if m is None:
        raise TermError("edge needs a notch and a piece, e.g. edge:4=strike.")
    notch, piece = int(m.group(1)), m.group(2)
    code = PIECE_CODES.get(piece) or {"l": "L", "s": "S", "e": "E", ".": "."}.get(piece)
    if code is None:
        raise TermError("edge pieces are bare, live, strike and empty.")
    name = PIECE_NAMES[code]
    q = Q(Exact(Substr("battle_edge", notch, 1), code))
    article = "an" if name[0] in "aeiou" else "a"
    return (
        q,
        f"whose battle edge has {article} {name} piece at notch {notch}",
        f"whose battle edge has no {name} piece at notch {notch}",
    )


def _count(piece: str):
    code = PIECE_CODES[piece]
    return _compare(f"number of {piece} pieces", lambda: piece_count(code))


def _symbol(key, op, value):
    v = _choice(key, op, value, tuple(Symbol.values))
    return Q(symbol=v), f"with the {v} symbol", f"without the {v} symbol"


def _launcher(key, op, value):
    v = _choice(key, op, value, MF_COLOURS)
    return Q(launcher=v), f"whose launcher is {v}", f"whose launcher is not {v}"


def _booster(key, op, value):
    v = _choice(key, op, value, MF_COLOURS)
    letter = COLOUR_LETTERS[v]
    return (
        Q(boosters__contains=letter),
        f"whose boosters include {v}",
        f"whose boosters do not include {v}",
    )


def _section(fields, where: str):
    def handler(key, op, value):
        v = _choice(key, op, value, COLOURS)
        q = section_q(COLOUR_LETTERS[v], fields)
        return q, f"with {v} in {where}", f"without {v} in {where}"

    return handler


def _wild(key, op, value):
    v = _choice(
        key,
        op,
        value,
        ("yes", "no"),
        {"true": "yes", "false": "no", "1": "yes", "0": "no"},
    )
    make, positive, negated = IS_FLAGS["wild"]
    if v == "no":
        positive, negated = negated, positive
        return ~make(), positive, negated
    return make(), positive, negated


def _attribute(key, op, value):
    v = _choice(key, op, value, BAKUGAN_ATTRIBUTES)
    return (
        Q(attribute=v),
        f"whose attribute is {v.title()}",
        f"whose attribute is not {v.title()}",
    )


def _gate_class(key, op, value):
    v = _choice(key, op, value, tuple(GateClass.values))
    return Q(gate_class=v), f"that are {v} gates", f"that are not {v} gates"


def _with_mentions_kind(handler):
    handler.mentions_kind = True
    return handler


KEYS = {
    "game": _game,
    "set": _with_mentions_kind(_set),
    "type": _type,
    "colour": _colour,
    "color": _colour,
    "rarity": _rarity,
    "number": _compare("number", "number"),
    "text": _text("text", ("text",)),
    "name": _text("name", ("name",)),
    "is": _is,
    "status": _status,
    "edge": _edge,
    "live": _count("live"),
    "strike": _count("strike"),
    "empty": _count("empty"),
    "spin": _compare("spin strength", "spin_strength"),
    "symbol": _symbol,
    "emblem": _text("emblem", ("emblem",)),
    "launcher": _launcher,
    "booster": _booster,
    "section": _section(("section_1", "section_2", "section_3"), "a section"),
    "section1": _section(("section_1",), "section 1"),
    "section2": _section(("section_2",), "section 2"),
    "section3": _section(("section_3",), "section 3"),
    "wild": _wild,
    "attribute": _attribute,
    "g": _compare("G-Power", "g_power"),
    "class": _gate_class,
}
for _c in MF_COLOURS:
    KEYS[_c] = _compare(f"{_c} stat", f"stat_{_c}")
for _a in BAKUGAN_ATTRIBUTES:
    KEYS[_a] = _compare(f"{_a.title()} bonus", f"bonus_{_a}")


def _bare(term: Term):
    q = Q(name__icontains=term.value) | Q(text__icontains=term.value)
    return (
        q,
        f"whose name or text contains “{term.value}”",
        f"whose name or text does not contain “{term.value}”",
        False,
    )


def tokenize(text: str, warnings: list[str]) -> list[Term]:
    """Split ``text`` into terms, reading quotes and the leading ``-``."""
    terms = []
    pos, end = 0, len(text)
    while pos < end:
        if text[pos].isspace():
            pos += 1
            continue
        start = pos
        negated = False
        if text[pos] == "-" and pos + 1 < end and not text[pos + 1].isspace():
            negated = True
            pos += 1
        key = op = None
        m = KEY_RE.match(text, pos)
        if m:
            key, op = m.group(1).lower(), m.group(2)
            pos = m.end()
        if pos < end and text[pos] == '"':
            close = text.find('"', pos + 1)
            if close == -1:
                warnings.append(
                    'Ignored an unbalanced quote mark ("); the rest was read as plain words.'
                )
                pos += 1
                m2 = re.compile(r'[^\s"]*').match(text, pos)
                value = m2.group(0)
                pos = m2.end()
            else:
                value = text[pos + 1 : close]
                pos = close + 1
        else:
            m2 = re.compile(r'[^\s"]*').match(text, pos)
            value = m2.group(0)
            pos = m2.end()
        raw = text[start:pos]
        if not raw.strip() or raw == "-":
            continue
        terms.append(
            Term(raw=raw, key=key, op=op, value=value.strip(), negated=negated)
        )
    return terms


def _read_term(term: Term):
    if term.key is None:
        if not term.value:
            raise TermError("it is empty.")
        return _bare(term)
    handler = KEYS.get(term.key)
    if handler is None:
        raise TermError(f'unknown key "{term.key}".')
    if not term.value:
        raise TermError("no value given.")
    result = handler(term.key, term.op, term.value)
    if len(result) == 3:
        result = (*result, False)
    return result


def _sentence(clauses: list[Clause], first: bool) -> str:
    lead = " ".join(c.phrase for c in clauses if c.leading)
    rest = " and ".join(c.phrase for c in clauses if not c.leading)
    words = " ".join(
        part for part in ("Cards" if first else "cards", lead, rest) if part
    )
    return words


def parse_query(text: str) -> SearchQuery:
    """Read a search query into a condition over cards, a description and warnings."""
    text = text or ""
    result = SearchQuery(text=text)
    warnings = result.warnings
    if len(text) > MAX_LENGTH:
        text = text[:MAX_LENGTH]
        warnings.append(f"The query was cut to its first {MAX_LENGTH} characters.")
    # Lone surrogates cannot be stored or compared by the database; drop them too.
    text = unicodedata.normalize("NFC", text)
    cleaned = CONTROL_RE.sub(" ", text.encode("utf-8", "replace").decode("utf-8"))
    if cleaned != text:
        warnings.append("Removed control characters from the query.")
    text = cleaned.replace("\u201c", '"').replace("\u201d", '"')
    result.text = text

    terms = tokenize(text, warnings)
    words = [
        t
        for t in terms
        if not (t.key is None and not t.negated and t.value.lower() == "or")
    ]
    if len(words) > MAX_TERMS:
        kept, count = [], 0
        for t in terms:
            is_or = t.key is None and not t.negated and t.value.lower() == "or"
            if not is_or:
                count += 1
                if count > MAX_TERMS:
                    break
            kept.append(t)
        warnings.append(
            f"Only the first {MAX_TERMS} terms were used; {len(words) - MAX_TERMS} more "
            "were ignored."
        )
        terms = kept

    groups: list[list[Clause]] = [[]]
    pending_or = False
    for term in terms:
        if term.key is None and not term.negated and term.value.lower() == "or":
            if not groups[-1] or pending_or:
                warnings.append('Ignored "or" with no term before it.')
                continue
            pending_or = True
            continue
        try:
            q, positive, negated, leading = _read_term(term)
        except TermError as exc:
            warnings.append(f"Ignored “{term.raw}”: {exc}")
            continue
        if getattr(KEYS.get(term.key or ""), "mentions_kind", False) or (
            term.key == "is"
            and term.value.lower() in ("practice", "custom", "official")
        ):
            result.mentions_kind = True
        if pending_or:
            groups.append([])
            pending_or = False
        if term.negated:
            groups[-1].append(Clause(q=~q, phrase=negated))
        else:
            groups[-1].append(Clause(q=q, phrase=positive, leading=leading))
    if pending_or:
        warnings.append('Ignored "or" with no term after it.')

    groups = [g for g in groups if g]
    if not groups:
        result.description = (
            "All cards" if not terms else "All cards (no term could be read)"
        )
        return result
    combined = Q()
    sentences = []
    for i, group in enumerate(groups):
        gq = Q()
        for clause in group:
            gq &= clause.q
        combined = gq if i == 0 else combined | gq
        sentences.append(_sentence(group, first=i == 0))
    result.q = combined
    result.description = ", or ".join(sentences)
    result.is_empty = False
    return result
