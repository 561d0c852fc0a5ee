"""The engine core shared by the four games. Pure Python: no Django import.

A game is fully defined by ``(engine version, options, decks, seed, action log)``;
replaying the log reproduces the state exactly (``replay``). Each game module in
this package offers the same module-level interface (see ``GameModule``):

    new_game(decks, options, seed) -> state
    to_act(state) -> player index, or CHANCE for a chance step
    legal_actions(state) -> list of actions for whoever acts (deterministic order)
    apply(state, action, *, inplace=False) -> state (EngineError if not legal)
    parse_action(text) -> action        action.text is its stable log form
    describe(state, action) -> str      the action in plain words
    is_over(state), winner(state) -> int | None (None: draw, or not over)
    view(state, player) -> View         what that player may see (``envelope``)
    to_json(state) -> dict, from_json(data) -> state
    score(state, player) -> float       heuristic for the greedy bot
    scores_after(state, actions, player) -> [float]   optional: the score after
                                        each action, as ``search.
                                        scores_after_reference`` defines it
    chance_outcomes(state) -> [(action, probability)] when to_act is CHANCE
    determinize(state, player, rng) -> state   a copy as ``player`` may believe
                                        it (optional: see ``search``)
    card_problems(card) -> [str]        why a card dict cannot be played
    player_count(state) -> int, length(state) -> int  (turns or rounds played)

What the games share lives here: ``GAME`` (each module's registry entry,
``cards.games``) gives its slug, name and seat counts, and its options are
checked once by ``checked_options`` from the registry's ``Option`` specs. A
State dataclass marks each field (``marked``, ``derived``): how deep a copy goes
(``copy_state``, compiled once per class), the type JSON loses (tuples, ``Rng``,
a nested record), and whether it is derived (rebuilt on load). The saved form is
``state_to_json`` / ``state_from_json``: the fields not derived, stamped by
``saved`` with schema, game and engine version, which ``check_saved`` checks
(a saved game it refuses is replayed from its log). ``DeckReads`` is the one cache of
deck reads; ``envelope`` builds the one ``View`` type every game returns.

Randomness comes only from ``Rng``, whose whole state is one integer carried in
the game state; no global ``random``. Chance steps (a rolled Bakugan's landing)
are actions of the pseudo-player ``CHANCE``: a person enters the outcome, or
``resolve_chance`` draws it from the game's own ``Rng`` with stated odds.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Callable, Iterable, Sequence
from copy import deepcopy
from dataclasses import MISSING, dataclass, field, fields, is_dataclass
from functools import partial
from operator import itemgetter
from typing import Any, Protocol

from cards.effects import Effect, EffectError
from cards.effects import parse_effects as _parse_effects
from cards.games import Game

CHANCE = -1
# The saved form's layout; ``saved`` stamps it with the game and engine version,
# ``check_saved`` refuses any other (a saved game is then replayed from its log).
SCHEMA_VERSION = 3


class EngineError(Exception):
    """An action or request the rules refuse; the state is left unchanged.

    ``code`` is one of: not_your_turn, illegal_action, game_over, stale_state,
    bad_action (unparseable), bad_deck, bad_options, bad_state.
    """

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"EngineError({self.code!r}, {self.message!r})"


_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_LANES: dict[int, tuple[int, int, int, Callable[[bytes], tuple]]] = {}


class Rng:
    """A small seeded generator (SplitMix64) whose state is one JSON-safe integer."""

    __slots__ = ("state",)

    def __init__(self, state: int):
        self.state = state & _MASK

    def next64(self) -> int:
        self.state = (self.state + _GAMMA) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    # ``below``, ``random`` and ``choice`` are ``next64`` written out: a bot
    # draws at every move, and one call in place of three is a tenth of a
    # short game. ``below_reference`` and ``choice_reference`` are the plain
    # definitions, which a test holds them to.

    def below(self, n: int) -> int:
        """Return an integer in ``range(n)``: ``next64() % n``."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        z = self.state = (self.state + _GAMMA) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return (z ^ (z >> 31)) % n

    def below_reference(self, n: int) -> int:
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        return self.next64() % n

    def random(self) -> float:
        """Return a float in [0, 1): the top 53 bits of ``next64()``."""
        z = self.state = (self.state + _GAMMA) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return ((z ^ (z >> 31)) >> 11) / 9007199254740992.0  # 2 ** 53

    def random_reference(self) -> float:
        return (self.next64() >> 11) / float(1 << 53)

    def choice(self, items: Sequence[Any]) -> Any:
        """Return ``items[below(len(items))]``."""
        n = len(items)
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        z = self.state = (self.state + _GAMMA) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return items[(z ^ (z >> 31)) % n]

    def choice_reference(self, items: Sequence[Any]) -> Any:
        return items[self.below_reference(len(items))]

    def skip(self, draws: int) -> None:
        """Step the state as ``draws`` calls of ``next64`` would, drawing nothing.

        Each draw adds one ``_GAMMA`` to the state, so this is one sum.
        """
        self.state = (self.state + draws * _GAMMA) & _MASK

    def shuffle_reference(self, items: list) -> None:
        """Shuffle ``items`` in place (Fisher-Yates): the plain definition of ``shuffle``."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffle(self, items: list) -> None:
        """Shuffle ``items`` exactly as ``shuffle_reference`` does, several times faster.

        Shuffles are most of the cost of setting up a game. The reference draws
        one SplitMix64 number per position; the k-th draw mixes the state plus k
        steps, so all of them are mixed at once here, as 128-bit lanes of one long
        integer (a lane's product never reaches the next lane; the masks cut what
        each shift brings over from it).
        """
        m = len(items) - 1
        if m < 1:
            return
        lanes = _LANES.get(m)
        if lanes is None:
            ones = sum(1 << (128 * k) for k in range(m))
            steps = sum(((k + 1) * _GAMMA) << (128 * k) for k in range(m))
            # Each lane's low 8 bytes, read as one little-endian word per lane.
            words = struct.Struct("<" + "Q8x" * m).unpack
            lanes = _LANES[m] = (ones, steps, ones * _MASK, words)
        ones, steps, low, words = lanes
        start = self.state
        z = (start * ones + steps) & low
        z = (z ^ z >> 30) & low
        z = z * 0xBF58476D1CE4E5B9 & low
        z = (z ^ z >> 27) & low
        z = z * 0x94D049BB133111EB & low
        z = (z ^ z >> 31) & low
        i = m
        for draw in words(z.to_bytes(16 * m, "little")):
            j = draw % (i + 1)
            items[i], items[j] = items[j], items[i]
            i -= 1
        self.state = (start + m * _GAMMA) & _MASK


def seed_state(seed: int, stream: int = 0) -> int:
    """Return a generator state derived from a user seed and a stream number."""
    rng = Rng((seed * 0x100000001B3) ^ (stream * 0x9E3779B97F4A7C15))
    rng.next64()
    return rng.state


def redeal(zones: Sequence[list], rng: Rng) -> None:
    """Deal the cards held by ``zones`` anew among them, each zone keeping its size.

    The cards are sorted before ``rng`` shuffles them, so where they end up depends
    only on which cards the zones hold between them, never on where they were: a
    bot that samples the cards it cannot see this way learns nothing of their
    places. A determinization (``determinize`` in a game module) is built on it.
    """
    pool = sorted(card for zone in zones for card in zone)
    rng.shuffle(pool)
    at = 0
    for zone in zones:
        size = len(zone)
        zone[:] = pool[at : at + size]
        at += size


# --- effect vocabulary -----------------------------------------------------
#
# The vocabulary lives in the pure ``cards.effects``, which the card validator
# reads too; the engine only turns its error into a refused deck.


def parse_effects(steps: Iterable[dict] | None) -> tuple[Effect, ...]:
    """Return the effect steps of a card; raise EngineError(bad_deck) on an unknown step."""
    try:
        return _parse_effects(steps)
    except EffectError as error:
        raise EngineError("bad_deck", str(error)) from None


# --- deck reads ------------------------------------------------------------------


class DeckReads:
    """Remember the last few reads of decks into play data, one cache per game.

    Simulations start thousands of games from the same decks, so reading the
    cards once saves most of a short game's cost. Each read is kept with a deep
    copy of the decks and served only to decks equal to it, so a deck changed
    in place is read again. A read that raises is not kept.
    """

    def __init__(self, read: Callable[[Any], Any], size: int = 4):
        self._read = read
        self._size = size
        self._kept: list[tuple[Any, Any]] = []  # (snapshot, read), newest last

    def __call__(self, decks: Any) -> Any:
        if type(decks) is PinnedDecks:  # cannot change: read once, no comparison
            value = decks.reads.get(self, _UNREAD)
            if value is _UNREAD:
                value = decks.reads[self] = self._read(decks)
            return value
        for snapshot, value in self._kept:
            if snapshot == decks:
                return value
        value = self._read(decks)
        self._kept.append((deepcopy(decks), value))
        del self._kept[: -self._size]
        return value

    def clear(self) -> None:
        """Forget every read."""
        self._kept.clear()


_UNREAD = object()


class PinnedDecks(list):
    """A private copy of decks that nothing changes, made by ``pinned``.

    ``DeckReads`` keeps its read on the copy itself, so thousands of games
    started from it skip the comparison with the snapshot (in a short
    Collision game that comparison was a sixth of the cost). It is a list, so
    an engine, JSON and a saved game see plain decks; it must never be changed.
    """

    __slots__ = ("reads",)

    def __init__(self, decks: Iterable = ()):
        super().__init__(decks)
        self.reads: dict = {}


def pinned(decks: Any) -> Any:
    """Return a ``PinnedDecks`` deep copy of ``decks`` (for many games from one set).

    Anything that is not a list or tuple of decks is returned as it is, for the
    engine to refuse as usual.
    """
    if type(decks) is PinnedDecks or not isinstance(decks, (list, tuple)):
        return decks
    return PinnedDecks(deepcopy(list(decks)))


# --- saved form and view envelope ---------------------------------------------


def checked_options(game: Game, options: Any) -> dict:
    """Return ``options`` checked by the registry's specs, defaults filled in.

    Raise EngineError("bad_options") naming the option and what it takes.
    """
    try:
        return game.check_options(options)
    except ValueError as error:
        raise EngineError("bad_options", str(error)) from None


# A State field's metadata says how it is copied and loaded (its "shape"), and
# whether it is derived: rebuilt on load (from the decks and options, or a
# cache) and left out of the saved form. An unmarked field is shared by copies
# and loaded as it is saved: a number, a text, or data never changed in place.
#
#   list    a flat list of values, copied one level down
#   rows    a list of lists (one per seat), copied two levels down
#   grid    a list of lists of lists, copied three levels down
#   tuples  a list of tuples, copied one level down, its items tuples again on load
#   frozen  a tuple (or None), shared, a tuple again on load (nested ones too)
#   rng     an ``Rng``, copied as a new one, saved as its state
#   fresh   a cache a copy starts without (its default)
#   record  a nested State-like dataclass (``record=``), copied and loaded by its
#           own markings; None stays None
# ``whole(x)`` is ``x[:]`` as a C function: mapped over a row it copies without
# the frame of a comprehension, close to half the cost (bots copy at every move).
_COPIES = {
    "list": "{v}[:]",
    "rows": "[*map(whole, {v})]",  # [x[:] for x in v]
    "grid": "[[*map(whole, x)] for x in {v}]",  # [[y[:] for y in x] for x in v]
    "tuples": "{v}[:]",
    "rng": "Rng({v}.state)",
}
_WHOLE = itemgetter(slice(None))
_SHAPES = {*_COPIES, "shared", "frozen", "fresh", "record"}
_SAVED_NAMES: dict[type, tuple[str, ...]] = {}
_COPIERS: dict[type, Callable[[Any], Any]] = {}
_LOADS: dict[type, tuple[tuple[str, Callable[[Any], Any]], ...]] = {}


def marked(
    shape: str = "shared",
    default: Any = MISSING,
    *,
    factory: Any = MISSING,
    record: type | None = None,
    derived: bool = False,
) -> Any:
    """Return a State field of ``shape`` (see above); a derived one is not compared."""
    if shape not in _SHAPES or (shape == "record") != (record is not None):
        raise ValueError(f"Unknown state field shape {shape!r}.")
    return field(
        default=default,
        default_factory=factory,
        compare=not derived,
        repr=not derived,
        metadata={"shape": shape, "record": record, "derived": derived},
    )


def derived(default: Any = None, shape: str = "shared") -> Any:
    """Return a State field left out of the saved form and of comparisons."""
    return marked(shape, default, derived=True)


def saved_names(cls: type) -> tuple[str, ...]:
    """Return the names of the fields of a State dataclass that the saved form keeps."""
    names = _SAVED_NAMES.get(cls)
    if names is None:
        names = tuple(f.name for f in fields(cls) if not f.metadata.get("derived"))
        _SAVED_NAMES[cls] = names
    return names


def copier(cls: type) -> Callable[[Any], Any]:
    """Return the copy function of a State dataclass, built once from its markings.

    The function's source is written from the field list and compiled: as fast
    as a copy written by hand, which matters, as bots copy at every move.
    """
    made = _COPIERS.get(cls)
    if made is not None:
        return made
    space: dict[str, Any] = {"Rng": Rng, "new": object.__new__, "cls": cls}
    space["whole"] = _WHOLE
    lines = ["def copy(s):", "    d = s.__dict__.copy()"]
    for f in fields(cls):
        shape, name = f.metadata.get("shape", "shared"), f.name
        if shape in _COPIES:
            copied = _COPIES[shape].format(v=f"d[{name!r}]")
            lines.append(f"    d[{name!r}] = {copied}")
        elif shape == "fresh":
            if f.default is MISSING:
                raise ValueError(f"The cache {name!r} needs a default.")
            space[f"fresh_{name}"] = f.default
            lines.append(f"    d[{name!r}] = fresh_{name}")
        elif shape == "record":
            space[f"copy_{name}"] = copier(f.metadata["record"])
            lines += [
                f"    v = d[{name!r}]",
                "    if v is not None:",
                f"        d[{name!r}] = copy_{name}(v)",
            ]
    lines += ["    n = new(cls)", "    n.__dict__ = d", "    return n"]
    exec("\n".join(lines), space)  # noqa: S102 - source built from field names
    made = _COPIERS[cls] = space["copy"]
    return made


def copy_state(state: Any) -> Any:
    """Return an independent copy of a State, each field copied as deep as marked."""
    try:
        return _COPIERS[type(state)](state)
    except KeyError:
        return copier(type(state))(state)


def frozen(value: Any) -> Any:
    """Return ``value`` with every list in it turned into a tuple."""
    if isinstance(value, (list, tuple)):
        return tuple(frozen(item) for item in value)
    return value


def _loads(cls: type) -> tuple[tuple[str, Callable[[Any], Any]], ...]:
    """Return (name, conversion) for the saved fields of ``cls`` that JSON changes."""
    made = _LOADS.get(cls)
    if made is None:
        loads = {"tuples": _tuples, "frozen": frozen, "rng": Rng}
        made = _LOADS[cls] = tuple(
            (
                f.name,
                partial(_record, f.metadata["record"])
                if f.metadata["record"]
                else loads[f.metadata["shape"]],
            )
            for f in fields(cls)
            if not f.metadata.get("derived")
            and f.metadata.get("shape") in ("tuples", "frozen", "rng", "record")
        )
    return made


def _tuples(values: list) -> list:
    return [frozen(value) for value in values]


def _record(cls: type, values: dict | None) -> Any:
    return None if values is None else cls(**converted(cls, values))


def converted(cls: type, values: dict) -> dict:
    """Return the JSON ``values`` of ``cls``'s saved fields in the types it marks."""
    for name, convert in _loads(cls):
        values[name] = convert(values[name])
    return values


def _json_default(value: Any) -> Any:
    if isinstance(value, Rng):
        return value.state
    if is_dataclass(value):  # a record: its saved fields
        return {name: getattr(value, name) for name in saved_names(type(value))}
    raise TypeError(f"{type(value).__name__} is not part of a saved state.")


def plain(values: dict) -> dict:
    """Return ``values`` as fresh JSON data: tuples become lists, an ``Rng`` its state."""
    # Through the C encoder: several times faster than walking the lists here.
    return json.loads(json.dumps(values, default=_json_default))


def state_to_json(game: Game, version: str, state: Any) -> dict:
    """Return the saved form of a State: its fields not marked derived, stamped."""
    names = saved_names(type(state))
    body = plain({name: getattr(state, name) for name in names if name != "decks"})
    body["decks"] = state.decks  # read only, and the largest part: not copied
    return saved(game, version, body)


def state_from_json(
    data: Any, game: Game, version: str, cls: type, restore: Callable[[dict], Any]
) -> Any:
    """Return ``restore(values)`` for the saved fields of ``cls``; refuse a bad form.

    The values come in the types the fields mark (``converted``); ``restore``
    rebuilds the derived fields.
    """
    check_saved(data, game, version)
    try:
        names = saved_names(cls)
        # Fresh lists, so the state never shares one with ``data``.
        values = plain({name: data[name] for name in names if name != "decks"})
        values["decks"] = data["decks"]
        return restore(converted(cls, values))
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as error:
        raise EngineError(
            "bad_state", f"The saved game is damaged ({error})."
        ) from None


def saved(game: Game, version: str, body: dict) -> dict:
    """Return a state's JSON ``body`` stamped with schema, game and engine version."""
    return {"schema": SCHEMA_VERSION, "game": game.slug, "version": version, **body}


def check_saved(data: Any, game: Game, version: str) -> dict:
    """Return ``data`` if it is this game's saved form; else raise bad_state."""
    if not isinstance(data, dict) or data.get("game") != game.slug:
        raise EngineError("bad_state", f"This is not a saved {game.short_name} game.")
    if data.get("schema") != SCHEMA_VERSION:
        raise EngineError(
            "bad_state", f"Unknown saved-game schema {data.get('schema')!r}."
        )
    if data.get("version") != version:
        raise EngineError(
            "bad_state",
            f"This saved game was made by engine version {data.get('version')!r};"
            f" this is {version}.",
        )
    return data


def _own_cards(node: Any, seat: int, found: list, depth: int = 0) -> None:
    if depth > 6:
        return
    if isinstance(node, dict):
        cid = node.get("id")
        if isinstance(cid, (int, str)) and node.get("owner", seat) == seat:
            text = str(cid)
            if text not in found:
                found.append(text)
        for value in node.values():
            _own_cards(value, seat, found, depth + 1)
    elif isinstance(node, list):
        for value in node:
            _own_cards(value, seat, found, depth + 1)


@dataclass(frozen=True)
class View:
    """What one seat may see of a game: the fields every game has, then its board.

    ``seats`` holds one dict per seat, ``board`` the game's own table data;
    ``played`` lists the ids of the viewer's cards shown outside hand and deck.
    Templates read board keys as if they were fields (``view.phase``).
    """

    game: str
    you: int
    to_act: int | None
    legal_actions: list[str]
    over: bool
    winner: int | None
    reason: str
    events: list[str]
    turn: int
    seats: list[dict]
    board: dict = field(default_factory=dict)
    played: list[str] = field(default_factory=list)

    def __getitem__(self, key: str) -> Any:
        if key in _VIEW_FIELDS:
            return getattr(self, key)
        return self.board[key]

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def to_json(self) -> dict:
        """Return the envelope as JSON data, the board's keys beside the common ones."""
        data = {name: getattr(self, name) for name in _VIEW_FIELDS if name != "board"}
        return {**data, **self.board}


_VIEW_FIELDS = frozenset(f.name for f in fields(View))


def envelope(
    game: str,
    you: int,
    *,
    to_act: int | None,
    legal_actions: list[str],
    over: bool,
    winner: int | None,
    reason: str,
    events: list[str],
    turn: int,
    seats: list[dict],
    **board: Any,
) -> View:
    """Return the view envelope; ``played`` is read from the viewer's seat."""
    played: list[str] = []
    if 0 <= you < len(seats):
        mine = {k: v for k, v in seats[you].items() if k not in ("hand", "deck")}
        _own_cards(mine, you, played)
    return View(
        game,
        you,
        to_act,
        legal_actions,
        over,
        winner,
        reason,
        events,
        turn,
        seats,
        board,
        played,
    )


# --- the interface every game module offers --------------------------------


class GameModule(Protocol):
    GAME: Game
    SLUG: str
    NAME: str
    VERSION: str
    MIN_PLAYERS: int
    MAX_PLAYERS: int
    TURN_CAP: int

    def new_game(
        self, decks: Sequence[Sequence[dict]], options: dict, seed: int
    ) -> Any: ...
    def to_act(self, state: Any) -> int: ...
    def legal_actions(self, state: Any) -> list: ...
    def apply(self, state: Any, action: Any, *, inplace: bool = False) -> Any: ...
    def parse_action(self, text: str) -> Any: ...
    def describe(self, state: Any, action: Any) -> str: ...
    def is_over(self, state: Any) -> bool: ...
    def winner(self, state: Any) -> int | None: ...
    def view(self, state: Any, player: int) -> View: ...
    def to_json(self, state: Any) -> dict: ...
    def from_json(self, data: dict) -> Any: ...
    def score(self, state: Any, player: int) -> float: ...
    def chance_outcomes(self, state: Any) -> list: ...
    def card_problems(self, card: dict) -> list[str]: ...
    def player_count(self, state: Any) -> int: ...
    def length(self, state: Any) -> int: ...


def apply_as(
    game: GameModule, state: Any, player: int, action: Any, *, inplace: bool = False
) -> Any:
    """Return ``game.apply(state, action)`` made by ``player``; refuse it out of turn."""
    if not game.is_over(state):
        acting = game.to_act(state)
        if acting != player:
            who = "Chance" if acting == CHANCE else f"Player {acting + 1}"
            raise EngineError(
                "not_your_turn", f"It is {who}'s move, not Player {player + 1}'s."
            )
    return game.apply(state, action, inplace=inplace)


def resolve_chance(game: GameModule, state: Any, rng: Rng) -> Any:
    """Return the chance outcome drawn from ``rng`` with the stated odds."""
    outcomes = game.chance_outcomes(state)
    roll = rng.random()
    total = 0.0
    for action, probability in outcomes:
        total += probability
        if roll < total:
            return action
    return outcomes[-1][0]


def replay(
    game: GameModule, decks, options: dict, seed: int, log: Sequence[str]
) -> Any:
    """Return the state reached by applying the action texts of ``log`` from the start."""
    state = game.new_game(decks, options, seed)
    for text in log:
        state = game.apply(state, game.parse_action(text), inplace=True)
    return state
