"""The card search language shared by the search page, the checklists, the deck
builder's card finder, the collection pages and the API (``q=``).

It follows the convention most card players learned on Scryfall.

* A query is terms separated by spaces; terms side by side must all match
  (``and`` may be written), ``or`` between terms matches either, and ``and``
  binds tighter than ``or`` (``a b or c`` is "(a and b) or c").
* Parentheses group, nested to any depth up to ``MAX_DEPTH``:
  ``(c:red or c:blue) t:action``. A ``-`` before a term or a group negates it:
  ``-(c:red or c:blue)``.
* A term is ``key:value`` or a comparison ``key>=value`` (``:``, ``=``, ``!=``,
  ``<``, ``<=``, ``>``, ``>=``; every number key takes each of them, ``!=`` also
  negates any other key). Values with spaces are quoted: ``name:"Storm Pegasus"``.
  Keys have short forms (``c`` colour, ``t`` type, ``r`` rarity, ``o`` text, ``n``
  name, ``s`` set, ``cn`` number, ``g`` game, ``is``/``not``). Those every game
  answers are ``COMMON_KEYS``; a game's own are made from the fields it declares
  (``Field.search``) by their kind (``declared_keys``: a choice's values, a
  number's comparisons, a battle edge's notches, ...). ``KEYS`` holds both, and
  the help table is generated from it (``help_rows``).
* A bare word that names a value of a field of the games (a colour, card type,
  rarity, Bakugan attribute, gate class, play/win symbol, timing or a game) is
  read as that field, and the description says so ("red: read as colour red");
  a word naming values of several fields reads as any of them ("bakugan": the
  game or the figure type). Any other bare word, and any quoted phrase, matches
  names and card text at the start of a word ("red" does not find
  "Predictable"). Quote a field word to search it as text: ``"haos"``.
* Numbers: ``#96`` and a bare ``96`` are card number 96; ``1/48`` or ``9/48c``
  is the printed number; an attribute followed by a number (``haos 150``) is that
  gate bonus, as ``haos=150`` is.
* ``order:`` (a sort key of ``SORT_KEYS``, the same words as the checklist's and
  the API's ``sort`` parameter) and ``direction:asc|desc`` order the list; the
  ``sort`` parameter, when given, wins.

Readings chosen where the convention is silent (written on the help page too):
``g:`` is the game for a word (``g:bakugan``) and G-Power for a number
(``g>=300``, ``g:300``); ``c:`` reads a Collide-O! card's sections (a card "is"
every colour one of its sections shows) and a Metal Fusion card has no colour
(its launcher colour is ``launcher:``); colour letters side by side mean any of
them (``c:ry``: red or yellow); ``class:`` names a gate class or, as the
public card list calls an ability card's colour its class, an ability colour.

Nothing a user types raises. A term that cannot be read is left out with a
warning saying why (with a "did you mean" hint when a known word is close). A
query that cannot be read as a whole (unbalanced parentheses, too long, too
deep, too many terms) is refused with a message naming the place, and matches
no card; so does a query none of whose terms could be read: only the empty
query lists every card. A negated comparison keeps the cards whose value is
unknown (they are not known to match).
"""

from __future__ import annotations

import difflib
import functools
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db.models import Q, Value, lookups
from django.db.models.functions import Length, Replace, Substr
from django.db.models.lookups import Exact

from .choices import PIECE_CODES, PIECE_NAMES, SetKind, Verification
from .games import GAMES, Field, SearchKey
from .words import WORD_COLUMNS, WordCandidates, search_prefix

MAX_LENGTH = 2000
MAX_TERMS = 100
MAX_DEPTH = 32
MAX_NUMBER = 99999

OPERATORS = (">=", "<=", "!=", ":", ">", "<", "=")
KEY_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(>=|<=|!=|:|>|<|=)")
VALUE_RE = re.compile(r'[^\s"()]*')
CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
INTEGER_RE = re.compile(r"#?(\d{1,5})")
PRINTED_RE = re.compile(r"#?(\d{1,4}/\d{1,4}[a-z]?)", re.I)
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
NOTHING = Q(pk__in=[])

# What the registry says, gathered once.
GAME_NAMES = {g.slug: g.short_name for g in GAMES.values()}
GAME_ALIASES = {
    word: g.slug
    for g in GAMES.values()
    for word in (g.slug, g.short_name.lower(), *g.aliases)
}
COLOUR_NAMES = tuple(dict.fromkeys(c.value for g in GAMES.values() for c in g.colours))
COLOUR_LETTERS = {c.value: c.letter.lower() for g in GAMES.values() for c in g.colours}
LETTER_COLOURS = {letter: value for value, letter in COLOUR_LETTERS.items()}
TYPE_LABELS = {k.value: k.label for g in GAMES.values() for k in g.kinds}
TYPE_WORDS = {
    **{label.lower().split()[0]: v for v, label in TYPE_LABELS.items()},
    **{v: v for v in TYPE_LABELS},
}
RARITIES = tuple(dict.fromkeys(r for g in GAMES.values() for r in g.rarity_symbols))
RARITY_WORDS = RARITIES
MF_COLOURS = tuple(
    dict.fromkeys(
        n[0] for g in GAMES.values() for n in g.sort_numbers if n[1].startswith("stat_")
    )
)
WILD = next(
    (
        "".join(c.letter for c in g.colours)
        for g in GAMES.values()
        if g.colour_search_letters
    ),
    "",
)
SECTION_FIELDS = tuple(
    dict.fromkeys(
        f for g in GAMES.values() if g.colour_search_letters for f in g.colour_search
    )
)

# Sort keys the search's ``order:``, the checklist's and the API's ``sort`` take.
SORT_KEYS = {
    "number": ("number", "key", "pk"),
    "name": ("name", "number", "pk"),
    "set": (
        "card_set__game__sort_order",
        "card_set__sort_order",
        "card_set__slug",
        "number",
        "pk",
    ),
    "type": ("card_type", "number", "pk"),
    "colour": ("colour", "number", "pk"),
    "rarity": ("rarity", "number", "pk"),
    **{
        key: (column, "number", "pk")
        for g in GAMES.values()
        for key, column, _label in g.sort_numbers
    },
}
SORT_ALIASES = {
    "color": "colour",
    "cn": "number",
    "n": "name",
    "t": "type",
    "c": "colour",
    "r": "rarity",
    "s": "set",
}


def piece_count(code: str, column: str):
    """Return an expression counting the pieces ``code`` in a battle edge column."""
    return Length(column) - Length(Replace(column, Value(code), Value("")))


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
    """Return the condition for cards with at least one wild (every colour) section."""
    q = Q()
    for name in SECTION_FIELDS:
        q |= Q(**{name: WILD})
    return q


def section_q(letter: str, fields=SECTION_FIELDS) -> Q:
    """Return the condition for a colour letter in any of ``fields``."""
    return _any([Q(**{f"{name}__contains": letter.upper()}) for name in fields])


def word_scan_q(columns, value: str) -> Q:
    """Return the matching rule itself: ``value`` at the start of a word of a column.

    Checked row by row; ``word_q`` runs it over the cards the word index found.
    """
    pattern = r"(^|\W)" + re.escape(value)
    return _any(
        [
            Q(**{f"{name}__icontains": value, f"{name}__iregex": pattern})
            for name in columns
        ]
    )


def word_q(columns, value: str) -> Q:
    """Return the condition for ``value`` at the start of a word in any of ``columns``.

    The word index (``cards.words``) finds the cards that may match, served by
    a B-tree index; ``word_scan_q`` decides over those only, so the cards found
    are exactly the scan's.
    """
    scan = word_scan_q(columns, value)
    if not set(columns) <= set(WORD_COLUMNS) or not value:
        return scan
    return Q(pk__in=WordCandidates(columns, search_prefix(value))) & scan


class TermError(Exception):
    """A term that cannot be read; the message says why."""


class QueryError(Exception):
    """A query that cannot be read as a whole; the message names the place."""


def _hint(word: str, known) -> str:
    return _close(word.lower()[:40], tuple(known))


@functools.lru_cache(maxsize=2048)
def _close(word: str, known: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(word, known, n=1, cutoff=0.7)
    return f" Did you mean “{close[0]}”?" if close else ""


# Key handlers take (key, op, value) and return (Q, phrase, negated phrase) and
# optionally a fourth item, True for a phrase read first ("of Collision").


def _equality_only(key: str, op: str) -> None:
    if op not in (":", "="):
        raise TermError(f'{key} takes ":" only, not "{op}".')


def _choice(key, op, value, choices, aliases=None, what=None):
    _equality_only(key, op)
    v = value.lower()
    v = (aliases or {}).get(v, v)
    if v not in choices:
        raise TermError(
            f"{what or key} is one of {', '.join(choices)}."
            + _hint(v, [*choices, *(aliases or {})])
        )
    return v


def _int(key, value) -> int:
    if not re.fullmatch(r"[+-]?\d{1,6}", value):
        raise TermError(f"{key} needs a whole number.")
    n = int(value)
    if abs(n) > MAX_NUMBER:
        raise TermError(f"{key} must be between -{MAX_NUMBER} and {MAX_NUMBER}.")
    return n


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

    handler.numeric = True
    return handler


def _text(label: str, columns):
    def handler(key, op, value):
        _equality_only(key, op)
        return (
            word_q(columns, value),
            f"whose {label} has a word starting “{value}”",
            f"whose {label} has no word starting “{value}”",
        )

    return handler


def _game_word(key, op, value):
    slug = _choice(key, op, value, tuple(GAMES), GAME_ALIASES, what="game")
    name = GAME_NAMES[slug]
    return (
        Q(card_set__game__slug=slug),
        f"of {name}",
        f"that are not {name} cards",
        True,
    )


_g_power = _compare("G-Power", "g_power")


def _game(key, op, value):
    """``g``/``game``: a game by word; ``g`` with a number is G-Power."""
    if key == "g" and re.fullmatch(r"[+-]?\d+", value):
        return _g_power(key, op, value)
    return _game_word(key, op, value)


_game.numeric = True  # g>=300


def _set(key, op, value):
    _equality_only(key, op)
    q = Q(card_set__slug__iexact=value) | Q(card_set__name__iexact=value)
    return q, f"in the set “{value}”", f"that are not in the set “{value}”", True


TYPE_ALIASES = {
    **{w + "s": v for w, v in TYPE_WORDS.items()},
    **TYPE_WORDS,
}
TYPE_VALUES = tuple(TYPE_LABELS)


def _type(key, op, value):
    v = _choice(key, op, value, TYPE_VALUES, TYPE_ALIASES, what="type")
    label = TYPE_LABELS[v]
    return Q(card_type=v), f"whose type is {label}", f"whose type is not {label}"


# (game, {colour: letter}) of each game whose cards colour: reads.
_GAME_LETTERS = tuple(
    (g, {c.value: c.letter for c in g.colours})
    for g in GAMES.values()
    if g.colour_search
)


def colour_q(colours) -> Q:
    """Return the condition for cards showing any of ``colours``, game by game."""
    per_game = []
    for g, letters in _GAME_LETTERS:
        mine = [c for c in colours if c in letters]
        if not mine:
            continue
        if g.colour_search_letters:
            shown = [
                Q(**{f"{name}__contains": letters[c]})
                for c in mine
                for name in g.colour_search
            ]
        else:
            shown = [Q(**{f"{name}__in": mine}) for name in g.colour_search]
        per_game.append(Q(card_set__game__slug=g.slug) & _any(shown))
    return _any(per_game) if per_game else NOTHING


def _any(conditions: list[Q]) -> Q:
    """Return the or of ``conditions`` in one node (cheaper than chained ``|``)."""
    return conditions[0] if len(conditions) == 1 else Q(*conditions, _connector=Q.OR)


def _colours(key, value) -> list[str]:
    v = value.lower()
    if v in COLOUR_NAMES:
        return [v]
    if v and all(ch in LETTER_COLOURS for ch in v):
        return list(dict.fromkeys(LETTER_COLOURS[ch] for ch in v))
    letters = " ".join(COLOUR_LETTERS[c] for c in COLOUR_NAMES)
    raise TermError(
        f"{key} is a colour ({', '.join(COLOUR_NAMES)}) or colour letters ({letters})."
        + _hint(v, COLOUR_NAMES)
    )


def _or_words(words) -> str:
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _colour(key, op, value):
    _equality_only(key, op)
    colours = _colours(key, value)
    words = _or_words(colours)
    return colour_q(colours), f"that are {words}", f"that are not {words}"


def _rarity(key, op, value):
    """A rarity as printed; a game's rarity letter reads as its word there (r:c)."""
    _equality_only(key, op)
    if len(value) > 12:
        raise TermError(f"{key} is a rarity name or letter.")
    q = Q(rarity__iexact=value)
    words = [value]
    for g in GAMES.values():
        word = g.rarity_letters.get(value.lower())
        if word:
            q |= Q(card_set__game__slug=g.slug, rarity=word)
            words.append(f"{word} ({g.short_name})")
    if len(words) == 1 and value.lower() not in RARITY_WORDS and len(value) > 3:
        hint = _hint(value, RARITY_WORDS)
        if hint:
            raise TermError(f"no rarity “{value}”." + hint)
    shown = _or_words(words)
    return q, f"whose rarity is {shown}", f"whose rarity is not {shown}"


def _number(key, op, value):
    """``number``/``cn``: a card number, compared; or a printed number (1/48)."""
    m = PRINTED_RE.fullmatch(value)
    if m and "/" in value:
        _equality_only(key, op)
        printed = m.group(1)
        return (
            Q(printed_number__iexact=printed),
            f"numbered {printed}",
            f"not numbered {printed}",
        )
    return _number_compare(key, op, value.lstrip("#"))


_number_compare = _compare("number", "number")
_number.numeric = True


def _status(key, op, value):
    v = _choice(key, op, value, tuple(Verification.values), what="status")
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
KIND_FLAGS = ("practice", "custom", "official")


def _is(key, op, value):
    v = _choice(key, op, value, tuple(IS_FLAGS), what=f"{key}:")
    make, positive, negated = IS_FLAGS[v]
    if key == "not":
        return ~make(), negated, positive
    return make(), positive, negated


def _edge(column: str, game):
    """Return the ``edge:`` handler: the piece at one notch of the battle edge.

    A piece is its name, or one of the game's notch keys (edge:4=s, edge:3=b).
    """

    def handler(key, op, value):
        _equality_only(key, op)
        m = re.fullmatch(r"([1-6])[=:]([a-z.]+)", value.lower())
        if m is None:
            raise TermError("edge needs a notch and a piece, e.g. edge:4=strike.")
        notch, piece = int(m.group(1)), m.group(2)
        code = PIECE_CODES.get(piece)
        if code is None and len(piece) == 1:
            code = game.read_notches(piece)
        if code not in PIECE_NAMES:
            raise TermError("edge pieces are bare, live, strike and empty.")
        name = PIECE_NAMES[code]
        q = Q(Exact(Substr(column, notch, 1), code))
        return (
            q,
            f"whose battle edge has {_article(name)} {name} piece at notch {notch}",
            f"whose battle edge has no {name} piece at notch {notch}",
        )

    return handler


def _article(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def _count(piece: str, column: str):
    code = PIECE_CODES[piece]
    return _compare(f"number of {piece} pieces", lambda: piece_count(code, column))


def _section(fields, where: str):
    def handler(key, op, value):
        _equality_only(key, op)
        colours = _colours(key, value)
        q = Q()
        for c in colours:
            q |= section_q(COLOUR_LETTERS[c], fields)
        words = _or_words(colours)
        return q, f"with {words} in {where}", f"without {words} in {where}"

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
        return ~make(), negated, positive
    return make(), positive, negated


def _order(key, op, value):  # read by parse_query; never turned into a condition
    raise TermError("order: and direction: stand outside groups and negation.")


@dataclass(frozen=True)
class Key:
    """One key of the search language: its names, what it reads, where it applies."""

    name: str
    aliases: tuple[str, ...]
    handler: Callable
    games: tuple[str, ...]
    takes: str  # what its value is, in plain words

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)

    @property
    def numeric(self) -> bool:
        return getattr(self.handler, "numeric", False)

    @property
    def operators(self) -> tuple[str, ...]:
        return OPERATORS if self.numeric else (":", "=", "!=")


def _words(values) -> str:
    return ", ".join(values)


ALL = tuple(GAMES)
# The keys every game's cards answer; each game's own come from its declared
# fields (``declared_keys``). ``colour:`` reads the fields that declare it.
COMMON_KEYS: tuple[Key, ...] = (
    Key(
        "game",
        ("g",),
        _game,
        ALL,
        "a game: " + _words(GAME_ALIASES) + " (g with a number is G-Power)",
    ),
    Key("set", ("s", "e"), _set, ALL, "a set's slug or name"),
    Key("type", ("t",), _type, ALL, "a card type: " + _words(TYPE_LABELS)),
    Key(
        "colour",
        ("c", "color"),
        _colour,
        tuple(g.slug for g in GAMES.values() if g.colour_search),
        "a colour or colour letters: "
        + _words(f"{c} ({COLOUR_LETTERS[c]})" for c in COLOUR_NAMES),
    ),
    Key(
        "rarity",
        ("r",),
        _rarity,
        ALL,
        "a rarity as printed: "
        + _words(RARITIES)
        + "; a letter standing for one of them ("
        + "; ".join(
            g.short_name
            + ": "
            + _words(f"{k} {v}" for k, v in g.rarity_letters.items())
            for g in GAMES.values()
            if g.rarity_letters
        )
        + "), or a letter as printed (C, U, R)",
    ),
    Key(
        "number",
        ("cn",),
        _number,
        ALL,
        "a card number, or a printed number such as 1/48",
    ),
    Key(
        "name", ("n",), _text("name", ("name",)), ALL, "the start of a word of the name"
    ),
    Key(
        "text",
        ("o", "oracle"),
        _text("text", ("text",)),
        ALL,
        "the start of a word of the card text",
    ),
    Key("is", (), _is, ALL, "a kind of card: " + _words(IS_FLAGS)),
    Key("not", (), _is, ALL, "the kinds is: takes, negated"),
    Key(
        "status",
        ("verification",),
        _status,
        ALL,
        "how the data is checked: " + _words(Verification.values),
    ),
    Key("order", ("sort",), _order, ALL, "a sort key: " + _words(SORT_KEYS)),
    Key("direction", ("dir",), _order, ALL, "asc or desc"),
)


# --- the keys of the games' declared fields (``Field.search``) -----------------


@dataclass(frozen=True)
class Part:
    """One column a declared key reads, over every game that declares it there."""

    field: Field  # its first declaration
    values: tuple[str, ...]  # what a choice-like key takes in it
    words: SearchKey  # the aliases of all; takes, says and reads the first given


@dataclass(frozen=True)
class Declared:
    """A key the games' fields declare: its games, and each column it reads."""

    name: str
    games: tuple[str, ...]
    parts: tuple[Part, ...]

    @property
    def reading(self) -> str:
        return self.parts[0].field.reading


def _values(game, field: Field) -> tuple[str, ...]:
    """Return the values a choice-like key takes: the choices, or a colour's colours.

    A choice declared without its choices takes none, and makes no key.
    """
    if field.choices or field.reading not in ("colour", "letters"):
        return field.choices
    return tuple(c.value for c in game.colours)


def _part(declared: list) -> Part:
    keys = [k for _game, _field, k in declared]
    return Part(
        declared[0][1],
        tuple(dict.fromkeys(v for g, f, _k in declared for v in _values(g, f))),
        SearchKey(
            keys[0].name,
            tuple(dict.fromkeys(a for k in keys for a in k.aliases)),
            next((k.takes for k in keys if k.takes), ""),
            next((k.says for k in keys if k.says), ()),
            next((k.reads for k in keys if k.reads), ""),
        ),
    )


def declared(games) -> dict[str, Declared]:
    """Return each key name the games' fields declare, with what it reads."""
    found: dict[str, dict[str, list]] = {}
    for game in games:
        for f in game.printed:
            for k in f.keys:
                columns = found.setdefault(k.name, {})
                columns.setdefault(f.name, []).append((game, f, k))
    return {
        name: Declared(
            name,
            tuple(dict.fromkeys(g.slug for d in columns.values() for g, _f, _k in d)),
            tuple(_part(d) for d in columns.values()),
        )
        for name, columns in found.items()
    }


def _made(d: Declared, handler: Callable, takes: str) -> Key:
    aliases = tuple(dict.fromkeys(a for p in d.parts for a in p.words.aliases))
    return Key(d.name, aliases, handler, d.games, takes)


def _takes(d: Declared, default: str) -> str:
    return d.parts[0].words.takes or default


def _number_key(d: Declared) -> Key | None:
    if len(d.parts) > 1:
        return None  # a number is compared in one column
    field = d.parts[0].field
    label = field.sort_label or field.label
    return _made(d, _compare(label, field.name), _takes(d, f"the {label}"))


def _text_key(d: Declared) -> Key:
    label = d.parts[0].field.label.lower()
    columns = tuple(p.field.name for p in d.parts)
    takes = _takes(d, f"the start of a word of the {label}")
    return _made(d, _text(label, columns), takes)


def _notch_key(d: Declared) -> Key | None:
    """``edge:`` reads a notch; a piece's name counts those pieces."""
    column = d.parts[0].field.name
    if d.name == "edge":
        edge = _edge(column, GAMES[d.games[0]])
        return _made(d, edge, _takes(d, "a notch and a piece: 4=strike"))
    if d.name in PIECE_CODES:
        takes = _takes(d, f"the number of {d.name} pieces")
        return _made(d, _count(d.name, column), takes)
    return None


def _section_key(d: Declared) -> Key:
    """``wild`` reads every section; any other name, the sections declaring it."""
    if d.name == "wild":
        return _made(d, _wild, _takes(d, "yes or no: a section of every colour"))
    columns = tuple(p.field.name for p in d.parts)
    where = "a section" if len(columns) > 1 else d.parts[0].field.label.lower()
    anywhere = "any section" if len(columns) > 1 else where
    takes = _takes(d, f"a colour or letters in {anywhere}")
    return _made(d, _section(columns, where), takes)


def _choice_words(name: str, part: Part) -> tuple[str, tuple[str, str]]:
    """Return (takes, says) of a choice-like key over ``part``: declared, or the kind's."""
    if part.field.reading == "letters":
        noun = part.field.label.lower()
        takes = f"a {name} colour: {{}}"
        says = (
            f"whose {noun} include {{value}}",
            f"whose {noun} do not include {{value}}",
        )
    else:
        noun = (
            f"a {name} colour"
            if part.field.reading == "colour"
            else (f"{_article(name)} {name}")
        )
        takes = noun + ": {}"
        says = (f"whose {name} is {{value}}", f"whose {name} is not {{value}}")
    return part.words.takes or takes, part.words.says or says


def _choice_q(part: Part, value: str) -> Q:
    field = part.field
    if field.reading == "letters":
        return Q(**{f"{field.name}__contains": COLOUR_LETTERS[value].upper()})
    if field.reading == "colour" and field.types:
        # The colour column is every game's: a key of one type's colours reads that.
        types = field.types
        kind = {"card_type": types[0]} if len(types) == 1 else {"card_type__in": types}
        return Q(**kind, **{field.name: value})
    return Q(**{field.name: value})


def _choice_key(d: Declared) -> Key | None:
    """A value of the key's choices, read in the column whose choice it is."""
    values = tuple(dict.fromkeys(v for p in d.parts for v in p.values))
    if not values:
        return None
    words = [_choice_words(d.name, p) for p in d.parts]

    def handler(key, op, value):
        v = _choice(key, op, value, values, what=d.name)
        i = next(i for i, p in enumerate(d.parts) if v in p.values)
        shown = {"value": v, "Value": v.title()}
        positive, negated = (said.format(**shown) for said in words[i][1])
        return _choice_q(d.parts[i], v), positive, negated

    takes = " or ".join(
        t.format(_words(p.values)) for (t, _says), p in zip(words, d.parts, strict=True)
    )
    return _made(d, handler, takes)


# How each kind of field makes its keys; a maker returns None for a key it
# cannot make (the completeness test then names it missing).
KEY_MAKERS: dict[str, Callable[[Declared], Key | None]] = {
    "number": _number_key,
    "pips": _number_key,
    "bonus": _number_key,
    "text": _text_key,
    "notches": _notch_key,
    "section": _section_key,
    "choice": _choice_key,
    "colour": _choice_key,
    "letters": _choice_key,
}


def declared_keys(games, makers=KEY_MAKERS) -> tuple[Key, ...]:
    """Return the keys the games' declared fields read, each made by its kind."""
    common = {name for k in COMMON_KEYS for name in k.names}
    made = []
    for d in declared(games).values():
        maker = makers.get(d.reading)
        key = None if d.name in common or maker is None else maker(d)
        if key is not None:
            made.append(key)
    return tuple(made)


DECLARED = declared(GAMES.values())
KEY_TABLE: tuple[Key, ...] = COMMON_KEYS + declared_keys(GAMES.values())
KEYS: dict[str, Key] = {name: k for k in KEY_TABLE for name in k.names}
assert len(KEYS) == sum(len(k.names) for k in KEY_TABLE), "a key name is used twice"
# A word of these followed by a number reads as that bonus ("haos 150"), named so.
BONUS_LABELS = {
    name: d.parts[0].field.label for name, d in DECLARED.items() if d.reading == "bonus"
}
ATTRIBUTES = tuple(BONUS_LABELS)


def help_rows() -> list[dict]:
    """Return the help table: each key, its aliases, operators, values and games."""
    return [
        {
            "key": k.name,
            "aliases": k.aliases,
            "operators": k.operators,
            "takes": k.takes,
            "games": [GAME_NAMES[s] for s in k.games],
        }
        for k in KEY_TABLE
    ]


def _vocabulary() -> dict[str, list[tuple[str, str, str]]]:
    """Return word -> [(key, value, reading)] for words naming a field's value."""
    words: dict[str, list[tuple[str, str, str]]] = {}

    def add(word, key, value, reading):
        entry = (key, value, reading)
        if entry not in words.setdefault(word.lower(), []):
            words[word.lower()].append(entry)

    for word, slug in GAME_ALIASES.items():
        add(word, "game", slug, f"game {GAME_NAMES[slug]}")
    for g in GAMES.values():
        if g.colour_search:
            for c in g.colours:
                add(c.value, "colour", c.value, f"colour {c.value}")
        for k in g.kinds:
            add(k.value, "type", k.value, f"type {k.label}")
        for r in g.rarity_symbols:
            add(r, "rarity", r, f"rarity {r}")
    # The values of a declared choice (not a colour: those read as colour:).
    for name, d in DECLARED.items():
        if name not in KEYS or KEYS[name].name != name:
            continue
        for part in d.parts:
            if part.field.reading != "choice":
                continue
            reads = part.words.reads or f"{name} {{value}}"
            for v in part.values:
                add(v, name, v, reads.format(value=v, Value=v.title()))
    return words


VOCABULARY = _vocabulary()


# The reading: tokens, then a tree of nodes.


@dataclass
class Term:
    raw: str
    key: str | None
    op: str | None
    value: str
    negated: bool
    pos: int = 1  # the 1-based character where it starts
    quoted: bool = False
    reading: str | None = None  # how a bare word was read, for the description
    sorting: bool = False  # order: or direction:, read into SearchQuery.order


@dataclass
class Token:
    kind: str  # "(", ")", "or", "and", "not", "term"
    pos: int
    term: Term | None = None


@dataclass
class Node:
    """A read query: a term's condition, or and/or/not of nodes."""

    kind: str  # "term", "and", "or", "not"
    q: Q = field(default_factory=Q)
    phrase: str = ""
    negated_phrase: str = ""
    leading: bool = False
    noun: str | None = None  # "Actions": what a type term calls the cards
    sig: tuple | None = None  # what it reads, to drop repeats (_signature)
    children: list[Node] = field(default_factory=list)


@dataclass
class SearchQuery:
    """The result of reading a query: the condition, its description, the warnings."""

    text: str
    q: Q = field(default_factory=Q)
    description: str = "All cards"
    warnings: list[str] = field(default_factory=list)
    readings: list[str] = field(default_factory=list)
    mentions_kind: bool = False
    is_empty: bool = True
    refused: bool = False  # nothing could be read: the query matches no card
    # Plain words in the query: then a bare 96 is a word too ("Move 1").
    has_words: bool = False
    order: str | None = None  # a SORT_KEYS key, "-" first for descending


def tokenize(text: str, warnings: list[str]) -> list[Token]:
    """Split ``text`` into parentheses, ``or``/``and``, negations and terms."""
    tokens: list[Token] = []
    pos, end = 0, len(text)
    while pos < end:
        ch = text[pos]
        if ch.isspace():
            pos += 1
            continue
        if ch in "()":
            tokens.append(Token(ch, pos + 1))
            pos += 1
            continue
        if ch == "-" and pos + 1 < end and text[pos + 1] == "(":
            tokens.append(Token("not", pos + 1))
            pos += 1
            continue
        start = pos
        negated = False
        if ch == "-" and pos + 1 < end and not text[pos + 1].isspace():
            negated = True
            pos += 1
        key = op = None
        m = KEY_RE.match(text, pos)
        if m:
            key, op = m.group(1).lower(), m.group(2)
            pos = m.end()
        quoted = False
        if pos < end and text[pos] == '"':
            close = text.find('"', pos + 1)
            if close == -1:
                warnings.append(
                    f'Ignored the unbalanced quote mark (") at character {pos + 1}; '
                    "the rest was read as plain words."
                )
                pos += 1
                m2 = VALUE_RE.match(text, pos)
                value, pos = m2.group(0), m2.end()
            else:
                value, pos, quoted = text[pos + 1 : close], close + 1, True
        else:
            m2 = VALUE_RE.match(text, pos)
            value, pos = m2.group(0), m2.end()
        raw = text[start:pos]
        if not raw.strip() or raw == "-":
            if raw == "-" or pos == start:
                warnings.append(
                    f"Ignored the “{text[start]}” at character {start + 1}: "
                    "nothing follows it."
                )
            if pos == start:  # a lone quote mark or "-" before a space
                pos += 1
            continue
        if (
            key is None
            and not negated
            and not quoted
            and value.lower() in ("or", "and")
        ):
            tokens.append(Token(value.lower(), start + 1))
            continue
        term = Term(raw, key, op, value.strip(), negated, start + 1, quoted)
        tokens.append(Token("term", start + 1, term))
    return tokens


def check_parentheses(tokens: list[Token]) -> None:
    """Raise QueryError naming the first parenthesis that has no partner."""
    stack = []
    for t in tokens:
        if t.kind == "(":
            stack.append(t.pos)
            if len(stack) > MAX_DEPTH:
                raise QueryError(
                    f"The parentheses are nested more than {MAX_DEPTH} deep "
                    f"(at character {t.pos}); nothing was searched."
                )
        elif t.kind == ")":
            if not stack:
                raise QueryError(
                    f"The “)” at character {t.pos} closes no “(”; nothing was searched."
                )
            stack.pop()
    if stack:
        raise QueryError(
            f"The “(” at character {stack[-1]} is never closed; nothing was searched."
        )


def _signature(node: Node) -> tuple:
    if node.sig is None:
        if node.kind == "term":
            node.sig = ("term", node.phrase)
        else:
            node.sig = (node.kind, *(_signature(c) for c in node.children))
    return node.sig


def _distinct(parts: list[Node]) -> list[Node]:
    """Drop repeats of a term or group (a or a is a): the same cards, less SQL."""
    if len(parts) < 2:
        return parts
    seen, kept = set(), []
    for node in parts:
        sig = _signature(node)
        if sig not in seen:
            seen.add(sig)
            kept.append(node)
    return kept


class Parser:
    """Read tokens into a tree: or of ands of (negated) terms and groups."""

    def __init__(self, tokens: list[Token], read_term, warnings: list[str]):
        self.tokens = tokens
        self.i = 0
        self.read_term = read_term
        self.warnings = warnings

    def peek(self) -> Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def parse(self) -> Node | None:
        node = self.or_expr()
        return node

    def or_expr(self) -> Node | None:
        parts: list[Node] = []
        pending: Token | None = None
        while True:
            t = self.peek()
            if t is None or t.kind == ")":
                break
            if t.kind == "or":
                self.i += 1
                if pending is not None or not parts:
                    self.warnings.append(
                        f"Ignored the “or” at character {t.pos}: no term before it."
                    )
                    continue
                pending = t
                continue
            node = self.and_expr()
            if node is not None:
                parts.append(node)
            pending = None
        if pending is not None:
            self.warnings.append(
                f"Ignored the “or” at character {pending.pos}: no term after it."
            )
        if not parts:
            return None
        parts = _distinct(parts)
        return parts[0] if len(parts) == 1 else Node("or", children=parts)

    def and_expr(self) -> Node | None:
        parts: list[Node] = []
        while True:
            t = self.peek()
            if t is None or t.kind in (")", "or"):
                break
            if t.kind == "and":
                self.i += 1
                if not parts:
                    self.warnings.append(
                        f"Ignored the “and” at character {t.pos}: no term before it."
                    )
                continue
            node = self.unary()
            if node is not None:
                parts.append(node)
        if not parts:
            return None
        parts = _distinct(parts)
        return parts[0] if len(parts) == 1 else Node("and", children=parts)

    def unary(self) -> Node | None:
        t = self.peek()
        self.i += 1
        if t.kind == "not":
            inner = self.unary()  # the "(" follows: tokenize made "not" from "-("
            return None if inner is None else Node("not", children=[inner])
        if t.kind == "(":
            inner = self.or_expr()
            self.i += 1  # the ")": check_parentheses made sure it is there
            if inner is None:
                self.warnings.append(
                    f"Ignored the empty parentheses at character {t.pos}."
                )
            return inner
        return self.read_term(t.term)


def _joined(node: Node, negated: bool = False) -> str | None:
    """Return "that are red or blue" for an or of terms sharing their first words.

    With ``negated``, return "that are neither red nor blue" (None when the
    shared words do not end in "are" or "is").
    """
    if node.kind != "or" or any(c.kind != "term" for c in node.children):
        return None
    split = [c.phrase.split(" ") for c in node.children]
    common = 0
    while (
        all(len(w) > common + 1 for w in split)
        and len({tuple(w[: common + 1]) for w in split}) == 1
    ):
        common += 1
    if common < 2:
        return None
    head = " ".join(split[0][:common])
    rest = [" ".join(w[common:]) for w in split]
    if negated:
        if split[0][common - 1] not in ("are", "is"):
            return None
        return f"{head} neither {', '.join(rest[:-1])} nor {rest[-1]}"
    return head + " " + _or_words(rest)


def _phrase(node: Node, top: bool = False) -> str:
    if node.kind == "term":
        return node.phrase
    joined = _joined(node)
    if joined:
        return joined
    if node.kind == "not":
        child = node.children[0]
        if child.kind == "term":
            return child.negated_phrase
        return _joined(child, negated=True) or f"not ({_phrase(child)})"
    joiner = " and " if node.kind == "and" else " or "
    parts = []
    for child in node.children:
        text = _phrase(child)
        if child.kind in ("and", "or") and child.kind != node.kind:
            if not _joined(child):
                text = f"({text})"
        parts.append(text)
    if node.kind == "and" and top:
        lead = [p for c, p in zip(node.children, parts, strict=True) if c.leading]
        rest = [p for c, p in zip(node.children, parts, strict=True) if not c.leading]
        return " ".join(filter(None, (" ".join(lead), " and ".join(rest))))
    return joiner.join(parts)


def _condition(node: Node) -> Q:
    if node.kind == "term":
        return node.q
    if node.kind == "not":
        return ~_condition(node.children[0])
    connector = Q.AND if node.kind == "and" else Q.OR
    return Q(*(_condition(c) for c in node.children), _connector=connector)


def _merge_numbers(tokens: list[Token]) -> list[Token]:
    """Read "haos 150" (an attribute word, then a number) as the gate bonus haos=150."""
    out: list[Token] = []
    for t in tokens:
        prev = out[-1] if out else None
        if (
            t.kind == "term"
            and prev is not None
            and prev.kind == "term"
            and prev.term.key is None
            and not prev.term.quoted
            and prev.term.value.lower() in BONUS_LABELS
            and t.term.key is None
            and not t.term.negated
            and not t.term.quoted
            and re.fullmatch(r"\d{1,5}", t.term.value)
        ):
            p = prev.term
            p.key, p.op, p.value = p.value.lower(), ":", t.term.value
            p.raw = f"{p.raw} {t.term.value}"
            p.reading = f"{p.raw}: read as {BONUS_LABELS[p.key]} {p.value}"
            continue
        out.append(t)
    return out


def _clean(text: str, warnings: list[str]) -> str:
    # Lone surrogates cannot be stored or compared by the database; drop them too.
    text = unicodedata.normalize("NFC", text)
    cleaned = CONTROL_RE.sub(" ", text.encode("utf-8", "replace").decode("utf-8"))
    if cleaned != text:
        warnings.append("Removed control characters from the query.")
    return cleaned.replace("\u201c", '"').replace("\u201d", '"')


def parse_query(text: str) -> SearchQuery:
    """Read a search query into a condition over cards, a description and warnings."""
    text = text or ""
    result = SearchQuery(text=text)
    warnings = result.warnings
    if len(text) > MAX_LENGTH:
        result.text = text[:MAX_LENGTH]
        return _refuse(
            result,
            f"The query is {len(text)} characters long; the most is {MAX_LENGTH}. "
            "Nothing was searched.",
        )
    text = _clean(text, warnings)
    result.text = text
    tokens = tokenize(text, warnings)
    if not tokens:
        return _refuse(result, None) if text.strip() else result
    terms = sum(1 for t in tokens if t.kind == "term")
    if terms > MAX_TERMS:
        return _refuse(
            result,
            f"The query has {terms} terms; the most is {MAX_TERMS}. Nothing was searched.",
        )
    try:
        check_parentheses(tokens)
    except QueryError as exc:
        return _refuse(result, str(exc))
    tokens = _merge_numbers(tokens)
    tokens = _read_order(tokens, result)
    result.has_words = any(_is_plain_word(t.term) for t in tokens if t.kind == "term")

    def read(term: Term) -> Node | None:
        if term.sorting:
            return None
        try:
            node = _read_term(term, result)
        except TermError as exc:
            warnings.append(f"Ignored “{term.raw}”: {exc}")
            return None
        if term.negated:
            return Node("not", children=[node])
        return node

    tree = Parser(tokens, read, warnings).parse()
    if tree is None:
        terms = [t.term for t in tokens if t.kind == "term"]
        if result.order is not None and all(t.sorting for t in terms):
            result.description = "All cards (" + "; ".join(result.readings) + ")"
            return result
        return _refuse(result, None)
    result.q = _condition(tree)
    result.description = _describe(tree)
    if result.readings:
        result.description += " (" + "; ".join(result.readings) + ")"
    result.is_empty = False
    return result


def _describe(tree: Node) -> str:
    """Return the plain-words reading of the tree: "Actions that are red or blue"."""
    if tree.kind == "or" and not _joined(tree):
        return "Cards " + ", or cards ".join(
            _phrase(c, top=True) for c in tree.children
        )
    parts = tree.children if tree.kind == "and" else [tree]
    nouns = [c for c in parts if c.noun]
    if len(nouns) == 1:
        rest = [c for c in parts if c is not nouns[0]]
        if not rest:
            return f"{nouns[0].noun}"
        inner = rest[0] if len(rest) == 1 else Node("and", children=rest)
        return f"{nouns[0].noun} {_phrase(inner, top=True)}"
    return f"Cards {_phrase(tree, top=True)}"


def official_only(query: SearchQuery, params) -> bool:
    """Return True when a list shows official cards only.

    The search page and every checklist list official cards only, unless the
    query names a kind of set or a set (``is:practice``, ``set:``) or the
    filters do (``kind``, ``set``); both say so and offer the rest.
    """
    return not (query.mentions_kind or params.getlist("kind") or params.get("set"))


def _refuse(result: SearchQuery, message: str | None) -> SearchQuery:
    if message:
        result.warnings.append(message)
    result.q = NOTHING
    result.refused = True
    result.is_empty = False
    result.description = "No cards: nothing in the query could be read"
    return result


SORTING_KEYS = ("order", "sort", "direction", "dir")


def _read_order(tokens: list[Token], result: SearchQuery) -> list[Token]:
    """Read the ``order:`` and ``direction:`` terms into ``result.order``.

    They stay in place, marked, and read as no condition wherever they stand
    (``a or order:name`` is ``a``, ordered by name).
    """
    order = direction = None
    for t in tokens:
        term = t.term
        if t.kind != "term" or term.key not in SORTING_KEYS:
            continue
        term.sorting = True
        value = term.value.lower()
        if term.key in ("order", "sort"):
            desc = value.startswith("-")
            value = SORT_ALIASES.get(value.lstrip("-"), value.lstrip("-"))
            if value not in SORT_KEYS:
                result.warnings.append(
                    f"Ignored “{term.raw}”: order by one of {', '.join(SORT_KEYS)}."
                    + _hint(value, SORT_KEYS)
                )
                continue
            order = (value, desc)
        else:
            if value not in ("asc", "desc", "ascending", "descending"):
                result.warnings.append(
                    f"Ignored “{term.raw}”: direction is asc or desc."
                )
                continue
            direction = value.startswith("desc")
        if term.negated:
            result.warnings.append(f"Read “{term.raw}” without its “-”.")
    if order is None and direction is not None:
        order = ("number", False)
    if order is not None:
        key, desc = order
        if direction is not None:
            desc = direction
        result.order = ("-" if desc else "") + key
        result.readings.append(f"ordered by {key}{' descending' if desc else ''}")
    return tokens


def _read_term(term: Term, result: SearchQuery) -> Node:
    if term.key is None:
        return _read_word(term, result)
    key = KEYS.get(term.key)
    if key is None:
        raise TermError(f'unknown key "{term.key}".' + _hint(term.key, KEYS))
    if not term.value:
        raise TermError("no value given.")
    if key.name == "set" or (
        key.name in ("is", "not") and term.value.lower() in KIND_FLAGS
    ):
        result.mentions_kind = True
    op = term.op
    flip = op == "!=" and not key.numeric
    if op == "!=" and key.name == "game" and not re.fullmatch(r"[+-]?\d+", term.value):
        flip = True
    got = key.handler(term.key, ":" if flip else op, term.value)
    q, positive, negated = got[:3]
    leading = len(got) > 3 and got[3]
    if term.reading:
        result.readings.append(term.reading)
    if flip:
        return Node("term", q=~q, phrase=negated, negated_phrase=positive)
    noun = None
    if key.name == "type" and not term.negated:
        noun = _plural(TYPE_LABELS[q.children[0][1]])
    return Node(
        "term",
        q=q,
        phrase=positive,
        negated_phrase=negated,
        leading=leading,
        noun=noun,
    )


def _plural(label: str) -> str:
    return label if label.endswith("s") else label + "s"


def _is_plain_word(term: Term) -> bool:
    """Return True for a bare word searched as text (not a field word or a number)."""
    if term.key is not None:
        return False
    if term.quoted:
        return True
    v = term.value.lower()
    return not (
        v in VOCABULARY
        or INTEGER_RE.fullmatch(v)
        or PRINTED_RE.fullmatch(v)
        or not any(ch.isalnum() for ch in v)
    )


def _read_word(term: Term, result: SearchQuery) -> Node:
    """Read a bare word or quoted phrase: a field value, a number, or words."""
    value = term.value
    if not value:
        raise TermError("it is empty.")
    if not term.quoted:
        m = PRINTED_RE.fullmatch(value)
        if m and "/" in value:
            q, positive, negated = _number("number", ":", value)
            result.readings.append(f"{value}: read as printed number {m.group(1)}")
            return Node("term", q=q, phrase=positive, negated_phrase=negated)
        m = INTEGER_RE.fullmatch(value)
        if m and (value.startswith("#") or not result.has_words):
            n = int(m.group(1))
            result.readings.append(f"{value}: read as card number {n}")
            return Node(
                "term",
                q=Q(number=n),
                phrase=f"numbered {n}",
                negated_phrase=f"not numbered {n}",
            )
        readings = VOCABULARY.get(value.lower())
        if readings:
            q = Q()
            phrases, negated_phrases, leading = [], [], True
            for key, v, _reading in readings:
                got = KEYS[key].handler(key, ":", v)
                q |= got[0]
                phrases.append(got[1])
                negated_phrases.append(got[2])
                leading = leading and len(got) > 3 and got[3]
            result.readings.append(
                f"{value}: read as " + " or ".join(r for _k, _v, r in readings)
            )
            return Node(
                "term",
                q=q,
                phrase=" or ".join(phrases),
                negated_phrase=" and ".join(negated_phrases),
                leading=leading and len(readings) == 1,
            )
        if not any(ch.isalnum() for ch in value):
            raise TermError("it is neither a word nor a key:value term.")
        hint = _hint(value, VOCABULARY)
        if hint:
            result.warnings.append(f"“{value}” was searched as words.{hint}")
    return Node(
        "term",
        q=word_q(("name", "text"), value),
        phrase=f"whose name or text has a word starting “{value}”",
        negated_phrase=f"whose name or text has no word starting “{value}”",
    )
