"""The shape of a game's description: plain frozen data, no Django.

Each game module in this package builds one ``Game`` from its own constants;
``cards.games`` finds it by slug. The site's pages, search, deck rules, deck
tools, playtest and engine all read what a game is from here.

A game's behaviour (its ``# Behaviour`` block) is named, not chosen by a shared
word: ``draw_face`` is the game's own function, and ``rules_path`` and
``engine_path`` are dotted module paths, ``decks.rules.<module>`` and
``decks.engine.<module>`` unless the entry names others, so a game defined
outside the tree (a test's) brings its own. What a rules module offers beside
its construction rules is optional, each read with ``getattr``: ``deck_tools``,
``BOARD_FILTERS``, ``BOARD_SAYINGS``, ``board_card`` and ``COMPANION``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

# The site's one set of colour values: CSS (served as /palette.css), SVG pictures
# and the Pillow card faces all read these.
PALETTE = {
    "red": "#c8312b",
    "yellow": "#e0a800",
    "green": "#2e8b3a",
    "blue": "#2859b8",
    "black": "#222222",
    "gold": "#c9a227",
    "silver": "#9ea4ad",
    "copper": "#b06a3b",
    "unknown": "#8a8a8a",
    "ink": "#1d1d24",
    "paper": "#ffffff",
    "bare": "#f3f1ea",
    "practice": "#7a3fb0",
    "custom": "#b0583f",
}


def hex_rgb(value: str) -> tuple[int, int, int]:
    """Return a colour written "#rrggbb" as an (r, g, b) triple."""
    value = value.lstrip("#")
    return tuple(int(value[i : i + 2], 16) for i in (0, 2, 4))


def rgb(name: str) -> tuple[int, int, int]:
    """Return the palette colour ``name`` as an (r, g, b) triple."""
    return hex_rgb(PALETTE[name])


@dataclass(frozen=True)
class Colour:
    """A colour a game prints, with the letter its colour sets are written in."""

    value: str
    label: str
    letter: str

    @property
    def hex(self) -> str:
        return PALETTE[self.value]


# Columns every game's cards have; a game's own columns are the rest of what it
# declares (``Game.fields``).
COMMON_FIELDS = (
    "key",
    "number",
    "printed_number",
    "name",
    "card_type",
    "rarity",
    "text",
    "lore",
    "code",
    "source",
    "verification",
    "distribution",
    "not_printed",
    "effects",
)

# Common columns a game declares only when its cards print them. Bakugan and
# Collide-O! leave rarity out of ``printed``: no recorded source gives a rarity
# for either (docs/games.md), and the site reads none; a source that shows one
# is declared here and in the game's entry together.
DECLARED_COMMON = ("name", "rarity", "text")


@dataclass(frozen=True)
class SearchKey:
    """A search key a field declares, with its words where its kind's will not do.

    ``aliases`` are its other names; ``takes`` is the help table's words for its
    value (``{}`` the values it takes); ``says`` a matching term's phrase and its
    negation and ``reads`` how a bare word naming a value is read, ``{value}``
    standing for the value (``{Value}`` capitalised). Empty: the kind's words.
    """

    name: str
    aliases: tuple[str, ...] = ()
    takes: str = ""
    says: tuple[str, str] = ()
    reads: str = ""


# When a card is played (Metal Fusion's effect timings, Bakugan's ability windows).
TIMING_KEY = SearchKey(
    "timing",
    takes="when it is played: {}",
    says=("played “{value}”", "not played “{value}”"),
)


@dataclass(frozen=True)
class Field:
    """One field a game's cards print, declared once; the site derives the rest.

    ``name`` is the Card column and ``label`` its name on the card page. ``kind``
    is the transcribe page's control: ``notches``, ``pips``, ``section``,
    ``colour``, ``colours`` (a set of the game's colours, stored as their
    letters), ``rarity``, ``choice``, ``number``, ``bonus`` or ``text``.
    ``minimum``/``maximum`` bound a number, ``choices`` the values a choice takes,
    and its filter and search key with it (a value outside them is refused with
    ``invalid``, code ``invalid_code``, unless the column's own choices are these).
    ``types`` are the card types that print it (empty: every type). ``page`` is
    its place among the card page's fields (None: not listed there),
    ``filters`` the card filters over it in form order, ``search`` the search
    keys that read it (a name, or a ``SearchKey`` with its words), ``sort`` its
    sort key (None: no order by it); ``transcribed`` says whether the transcribe
    page asks for it. Its filters and search keys are made by its kind
    (``cards.filtersets``, ``cards.search``), or by ``search_kind`` when that
    differs from the control: ``letters``, a set of the game's colours written
    in their letters (Metal Fusion's boosters).
    """

    name: str
    label: str
    kind: str = "text"
    types: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    invalid: str = ""
    invalid_code: str = ""
    transcribed: bool = True
    page: int | None = None
    filters: tuple[str, ...] = ()
    search: tuple[str | SearchKey, ...] = ()
    sort: str | None = None
    # Its name mid-sentence (a sort list, a search's description), when not its label.
    sort_label: str = ""
    search_kind: str = ""

    @property
    def keys(self) -> tuple[SearchKey, ...]:
        """Return the search keys that read it, each with its words."""
        return tuple(
            k if isinstance(k, SearchKey) else SearchKey(k) for k in self.search
        )

    @property
    def reading(self) -> str:
        """Return the kind its filters and search keys take it as."""
        return self.search_kind or self.kind

    def printed_by(self, card_type: str) -> bool:
        """Return whether a card of this type prints the field."""
        return not self.types or card_type in self.types


def check_choices(card, errors, printed: tuple[Field, ...], *names: str) -> None:
    """Add the declared message for each field of ``names`` outside its choices."""
    for declared in printed:
        value = getattr(card, declared.name)
        if declared.name in names and value is not None:
            if value not in declared.choices:
                errors.add(declared.name, declared.invalid, declared.invalid_code)


@dataclass(frozen=True)
class CardKind:
    """A card type of a game and the fields a card of that type prints.

    ``fields`` is filled in by ``Game`` from its declared ``printed`` fields.
    """

    value: str
    label: str
    fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Zone:
    """A place a deck's cards sit in (Collision's Blade, Bakugan's Gate cards, ...).

    ``aliases`` are other headings a typed decklist may give it, beside its value
    and label (``decks.text_io``).
    """

    value: str
    label: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Option:
    """A game option, as the engine checks it and the playtest form offers it.

    ``kind`` is ``bool``, ``choice``, ``float``, ``int`` or ``seat`` (a seat
    number from 0, or one of ``choices``; the engine knows how many). An option with
    ``label=None`` is the engine's own (a seat to start, a test set-up) and is not
    offered on the form.
    """

    name: str
    kind: str
    default: object
    label: str | None = None
    choices: tuple[tuple[object, str], ...] = ()
    minimum: float | None = None
    maximum: float | None = None

    def check(self, value, game_name: str):
        """Return ``value`` if it is one this option takes, else raise ValueError."""
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise ValueError(f"{game_name}: {self.name} is true or false.")
        elif self.kind == "choice":
            if value not in [v for v, _ in self.choices]:
                allowed = ", ".join(repr(v) for v, _ in self.choices)
                raise ValueError(f"{game_name}: {self.name} is one of {allowed}.")
        elif self.kind == "seat":
            if value is None or value in [v for v, _ in self.choices]:
                return value
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                others = "".join(f" or {v!r}" for v, _ in self.choices)
                raise ValueError(f"{game_name}: {self.name} is a seat number{others}.")
        elif self.kind in ("float", "int"):
            numeric = (int, float) if self.kind == "float" else (int,)
            if isinstance(value, bool) or not isinstance(value, numeric):
                raise ValueError(f"{game_name}: {self.name} is a number.")
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise ValueError(
                    f"{game_name}: {self.name} is from {self.minimum} to {self.maximum}."
                )
            if self.kind == "float":
                value = float(value)
        return value


@dataclass(frozen=True)
class MatchMode:
    """A game's match mode: several games between the same seats, one score.

    ``label`` is what the start page offers ("Best of three"), ``seats`` the
    seat counts it is for, ``source`` the rule it follows (cited on the board
    and the help page) and ``note`` one sentence on how the match goes. The
    engine module holds the rule itself (``Match``, ``match_record``,
    ``match_winner``, ``next_game_first``); ``first_option`` is the engine
    option the next game's first player is passed in (None: no first player);
    ``draw_word`` names a game without a winner in the score.
    A game without one (``Game.match`` None) says why on its help page.
    """

    label: str
    seats: tuple[int, ...]
    source: str
    note: str
    first_option: str | None = None
    first_note: str = ""  # why that player goes first, in a few words
    draw_first_note: str = ""  # the same after a game with no winner
    draw_word: str = "drawn"  # a game with no winner, in the score


@dataclass(frozen=True)
class Opening:
    """What a player holds at the start, as the deck page's sample draws it.

    ``kind`` is ``hand`` (cards drawn), ``top`` (the top card turned) or ``gates``
    (Bakugan's gates, set out with no draw). The cards come from ``zone``
    (every zone when None), leaving out the card types ``leaves_out``; ``size``
    cards are drawn from the shuffled copies (None: the zone as it is).
    ``heading`` is what the deck page calls it.
    """

    kind: str = "hand"
    zone: str | None = None
    size: int | None = None
    leaves_out: tuple[str, ...] = ()
    heading: str = "Sample opening hand"


@dataclass(frozen=True)
class PrintSize:
    """A card's size on paper, in millimetres, and whether a source gives it.

    An unsourced size is the common 63 x 88 mm card, and the print page says
    so: a player measures a real card before trusting a sleeve to it.
    """

    width_mm: float = 63.0
    height_mm: float = 88.0
    sourced: bool = False


@dataclass(frozen=True)
class MatPlace:
    """One marked place on a play mat, in millimetres from the mat's top left.

    ``kind`` is ``card`` (a card-sized box), ``sections`` (a card drawn in its
    three sections), ``ghost`` (where a later card goes, labelled in its outer
    third), ``area`` (a free space), ``colour`` (a coloured disc, ``colour``
    naming the palette entry) or ``arrow`` (the way a line grows).
    """

    label: str
    x: float
    y: float
    w: float
    h: float
    kind: str = "card"
    colour: str | None = None
    note: str = ""


def _page(field: Field) -> int:
    return field.page


# A one-player mat fills a landscape sheet of A4 or US Letter inside 5 mm
# margins: four 63 x 88 mm card places across, two rows.
MAT_SIZE = (269.0, 190.0)
MAT_COLUMNS = (3.4, 69.8, 136.2, 202.6)
MAT_ROWS = (3.0, 99.0)


@dataclass(frozen=True)
class Mat:
    """A printable play mat: a name, its size in millimetres and its places."""

    slug: str
    name: str
    width_mm: float
    height_mm: float
    places: tuple[MatPlace, ...]
    players: int | None = None  # the seat count it is for (None: any)
    per_player: bool = True  # one sheet for each player, named
    note: str = ""


@dataclass(frozen=True)
class Game:
    """Everything the site knows about one game that is not a rule of play."""

    slug: str
    module: str  # the Python name of its modules: cards/games, decks/rules, engine
    name: str  # "Beyblade Collision"
    short_name: str  # "Collision"
    publisher: str
    year: str
    order: int
    validate: Callable  # validate(card, errors): the game's own card checks
    kinds: tuple[CardKind, ...]
    unknown_type_fields: tuple[str, ...]  # what to ask for when the type is unknown
    colours: tuple[Colour, ...] = ()
    not_printable: tuple[str, ...] = ()
    zones: tuple[Zone, ...] = ()
    default_zones: dict[str, str] = field(default_factory=dict)  # card type -> zone
    # The zones the deck editor offers a card type (first is the editor's default);
    # a type not named is offered its default zone only.
    zone_choices: dict[str, tuple[str, ...]] = field(default_factory=dict)
    seat_counts: tuple[int, ...] = (2,)
    shared_pack: bool = False  # one pack dealt among the seats (Collide-O!)
    # Said on the start page before a game begins when the rules themselves make
    # a mirror match endless ("" when they do not).
    mirror_note: str = ""
    chance_steps: bool = False  # physical outcomes a player may enter (Bakugan rolls)
    options: tuple[Option, ...] = ()
    colour_field: str | None = "colour"  # what the deck page's colour bars count
    colour_caption: str = "Colours"  # the caption of those bars
    opening: Opening = field(default_factory=Opening)
    # The set-ups the engine benchmark times: (options, players) pairs.
    bench_setups: tuple[tuple[dict, int], ...] = (({}, 2),)
    aliases: tuple[str, ...] = ()  # other words for it in search
    rarity_symbols: dict[str, str] = field(default_factory=dict)  # as printed
    promo_numbers: range | None = None  # numbers that are promos whatever the rarity
    frame: str = "#3c3c3c"  # the card face's frame colour
    gate_classes: tuple[str, ...] = ()  # what the word-index benchmark picks by
    # Letters a search may write a rarity word with (``r:c`` for common).
    rarity_letters: dict[str, str] = field(default_factory=dict)
    # Proxy sheets (``decks.table``): the card size on paper, per card type
    # where types differ, and the types that are not cards (Bakugan figures).
    print_size: PrintSize = field(default_factory=PrintSize)
    print_sizes: dict[str, PrintSize] = field(default_factory=dict)
    not_cards: tuple[str, ...] = ()
    mats: tuple[Mat, ...] = ()  # printable play mats (``decks.table.mats``)
    # copy_check(card_type, g_power) -> a message, or None: the values a
    # collection entry records per physical copy (a Bakugan figure's G-Power).
    copy_check: Callable | None = None
    # "Build a deck from what I own": decks.rules.<module>.from_collection exists.
    deck_from_collection: bool = False
    # Several games between the same seats with one score (None: single games only).
    match: MatchMode | None = None
    # name_from(title, subtitle): the name a card prints when it is made of
    # its title and subtitle (Collision); None where the name is its own field.
    name_from: Callable | None = None
    # species_of(card_type, number) -> (key, name) or None: the species an
    # official item belongs to, for completion per species (Bakugan figures,
    # one species per mould); None where a game's items have no species.
    species_of: Callable | None = None

    # --- printed fields (issue 31): each declared once, the rest derived -------
    # What a card of each type prints, in the order the transcribe page asks it.
    printed: tuple[Field, ...] = ()
    # The column a reader's printed card number goes to: Metal Fusion's engine
    # compares ``number``, so that game reads the number straight into it.
    card_number: str = "printed_number"
    # The keys typed for the pieces of a notched edge (Collision's battle edge),
    # wherever one is typed: (key, stored code, piece name), read by the
    # transcribe page and the table companion alike.
    notch_keys: tuple[tuple[str, str, str], ...] = ()

    def __post_init__(self):
        kinds = tuple(
            CardKind(
                k.value,
                k.label,
                tuple(f.name for f in self.printed if f.printed_by(k.value)),
            )
            for k in self.kinds
        )
        object.__setattr__(self, "kinds", kinds)

    @property
    def fields(self) -> tuple[str, ...]:
        """Return the Card columns only this game uses (its declared, not common)."""
        return tuple(f.name for f in self.printed if f.name not in COMMON_FIELDS)

    @property
    def page_fields(self) -> tuple[tuple[str, str], ...]:
        """Return (label, field) of the fields the card page lists, in its order."""
        shown = sorted((f for f in self.printed if f.page is not None), key=_page)
        return tuple((f.label, f.name) for f in shown)

    @property
    def filters(self) -> tuple[str, ...]:
        """Return the game's own filters on its pages, in form order."""
        return tuple(name for f in self.printed for name in f.filters)

    @property
    def sort_numbers(self) -> tuple[tuple[str, str, str], ...]:
        """Return (sort key, column, label) of the numbers a list is ordered by."""
        return tuple(
            (f.sort, f.name, f.sort_label or f.label)
            for f in self.printed
            if f.sort is not None
        )

    @property
    def colour_search(self) -> tuple[str, ...]:
        """Return the columns the search's ``colour:`` looks in (fields declaring it)."""
        return tuple(
            f.name for f in self.printed if "colour" in (k.name for k in f.keys)
        )

    @property
    def colour_search_letters(self) -> bool:
        """Return whether those columns hold colour letters (sections), not values."""
        return any(
            f.reading == "section" for f in self.printed if f.name in self.colour_search
        )

    def read_notches(self, typed: str) -> str:
        """Return typed notch keys as the stored codes (a code typed as itself stays)."""
        codes = {key: code for key, code, _ in self.notch_keys}
        return "".join(codes.get(c.lower(), c.upper()) for c in typed)

    @property
    def notch_key_help(self) -> str:
        """Return the notch keys in words: "b bare, l live, ..."."""
        return ", ".join(f"{key} {name}" for key, _, name in self.notch_keys)

    def printed_field(self, name: str) -> Field | None:
        """Return the declaration of the field ``name``, or None if not declared."""
        return next((f for f in self.printed if f.name == name), None)

    # --- Behaviour: where a game's code lives -----------------------------------
    # Shared code reaches a game's behaviour only through these, never by
    # importing a game's module by name or by branching on a game's name: the
    # engine and the deck-layer rules module are named by dotted path ("" means
    # ``decks.engine.<module>`` / ``decks.rules.<module>``), so a game defined
    # outside the tree names its own. The rules module offers the deck tools
    # (``deck_tools(game, lines)``), the board helpers (``BOARD``) and the table
    # companion (``COMPANION``); ``draw_face(card, pen, top)`` draws the card
    # face's body with the drawing helper ``cards.images`` passes in.
    engine: str = ""
    rules: str = ""
    draw_face: Callable | None = None

    @property
    def engine_path(self) -> str:
        return self.engine or f"decks.engine.{self.module}"

    @property
    def rules_path(self) -> str:
        return self.rules or f"decks.rules.{self.module}"

    @property
    def companion_template(self) -> str:
        return f"table/companion/{self.slug}.html"

    @property
    def types(self) -> tuple[str, ...]:
        return tuple(k.value for k in self.kinds)

    @property
    def min_players(self) -> int:
        return min(self.seat_counts)

    @property
    def max_players(self) -> int:
        return max(self.seat_counts)

    @property
    def zone_values(self) -> tuple[str, ...]:
        return tuple(z.value for z in self.zones)

    @property
    def form_options(self) -> tuple[Option, ...]:
        return tuple(o for o in self.options if o.label)

    # Each page part is the game's own template, then a generic one a game
    # without its own gets ({% include %} and select_template take the first found).
    @property
    def board_template(self) -> tuple[str, str]:
        return (f"play/boards/{self.slug}.html", "play/boards/generic.html")

    @property
    def help_template(self) -> tuple[str, str]:
        return (f"play/help/{self.slug}.html", "play/help/generic.html")

    @property
    def card_template(self) -> tuple[str, str]:
        return (f"cards/games/{self.slug}/card.html", "cards/games/generic/card.html")

    @property
    def key_stats_template(self) -> tuple[str, str]:
        return (
            f"cards/games/{self.slug}/key_stats.html",
            "cards/games/generic/key_stats.html",
        )

    def card_size(self, card_type: str | None) -> PrintSize:
        """Return the size a card of this type prints at."""
        return self.print_sizes.get(card_type or "", self.print_size)

    def mat(self, slug: str) -> Mat | None:
        return next((m for m in self.mats if m.slug == slug), None)

    def kind(self, card_type: str | None) -> CardKind | None:
        return next((k for k in self.kinds if k.value == card_type), None)

    def prints(self, field: str, card_type: str | None, marked=()) -> bool:
        """Return whether this card prints ``field``: if not, an empty one is "not
        printed" (ruling E4), else "unknown".

        ``marked`` is the card's own ``not_printed``. A column the game declares
        (``printed``), or one of the common ones a game declares when its cards
        print it (``DECLARED_COMMON``), is printed by the types declaring it (by
        any, for a card whose type is unknown); other columns are always printed.
        """
        if field in marked:
            return False
        declared = {f.name for f in self.printed}
        if field not in declared and field not in DECLARED_COMMON:
            return True
        kind = self.kind(card_type)
        return field in (kind.fields if kind is not None else declared)

    def type_fields(self, card_type: str | None) -> tuple[str, ...]:
        """Return the fields a card of this type prints (what to ask when unknown)."""
        kind = self.kind(card_type)
        return kind.fields if kind else self.unknown_type_fields

    def colour(self, value: str) -> Colour | None:
        return next((c for c in self.colours if c.value == value), None)

    def default_zone(self, card_type: str | None) -> str:
        """Return the zone a card of this type goes to when none is named."""
        chosen = self.default_zones.get(card_type or "")
        if chosen is not None:
            return chosen
        values = self.zone_values
        return "deck" if "deck" in values else values[0]

    def zones_for_type(self, card_type: str | None) -> tuple[str, ...]:
        """Return the zones the deck editor offers a card of this type."""
        return self.zone_choices.get(card_type or "") or (self.default_zone(card_type),)

    def check_options(self, options: dict | None, allowed_extra=()) -> dict:
        """Return the options with defaults filled in; raise ValueError on a bad one."""
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise ValueError("Options must be an object.")
        known = {o.name: o for o in self.options}
        unknown = sorted(set(options) - set(known) - set(allowed_extra))
        if unknown:
            raise ValueError(
                f"{self.short_name} has no option {', '.join(map(repr, unknown))}."
            )
        result = {}
        for name, option in known.items():
            if name in options:
                result[name] = option.check(options[name], self.short_name)
            else:
                result[name] = option.default
        for name in allowed_extra:
            if name in options:
                result[name] = options[name]
        return result
