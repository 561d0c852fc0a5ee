"""Decklists as text: export a deck, and read one back (all lines or none).

A line is a count and a card: ``4 Tyson, Eager Champion``, ``4x Name``,
``Name x4``, or a number within the deck's game, ``2 #96`` (the card's key or
printed number; ``practice#7`` names the set too). A line with no count is one
copy. A game whose copies each print a value (a Bakugan figure's G-Power, the
registry's ``copy_check``) takes it after the card: ``1 Pyrus Dragonoid (B1)
@ 350 G``; a decklist names values, never whose copy (a collection entry is
not portable), so it reads back as typed values. Zone headings (``Blade:``, ``Deck:``, ``# Line-up``) put the lines below
them in that zone; without one, each card goes to its usual zone. Blank lines
and ``//`` comments are skipped. Export writes names where they are unique in
the game and ``set#key`` otherwise, so export then import gives the same deck.
"""

import difflib
import re
from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import F, Q
from django.db.models.functions import Lower, Trim

from cards.choices import SetKind
from cards.community.readings import cards_as_read, read_card_ids
from cards.games import GAMES
from cards.lookup import folded_match
from cards.models import Card, CardSet, CardWord
from cards.selectors import PRIVATE_CARD_NAME, hide_private_cards
from cards.words import Prefix, search_prefix

from .choices import MAX_QUANTITY, Zone, default_zone, zones_for

# The headings a decklist may give each zone: its value, its label, its aliases.
ZONE_ALIASES = {
    word: zone.value
    for game in GAMES.values()
    for zone in game.zones
    for word in (zone.value, zone.label.casefold(), *zone.aliases)
}
HEADING_RE = re.compile(r"^(?:#+\s*(?P<a>.+?)\s*:?|(?P<b>[^#\d].*?)\s*:)$")
COUNT_FIRST_RE = re.compile(r"^(?P<n>\d+)\s*[xX×]?\s+(?P<ref>\S.*)$")
COUNT_PLAIN_RE = re.compile(r"^(?P<n>\d+)\s+(?P<ref>\S.*)$")
# Each probe for names close to a misspelt one reads at most this many names.
CLOSE_NAME_PROBE = 100
WORD_RE = re.compile(r"\w{3,}")
COUNT_LAST_RE = re.compile(r"^(?P<ref>\S.*?)\s+[xX×]\s*(?P<n>\d+)$")
G_POWER_RE = re.compile(r"^(?P<line>.*\S)\s*@\s*(?P<g>\d{1,6})\s*(?:g)?$", re.I)
NUMBER_RE = re.compile(r"^(?:(?P<set>[\w-]+))?#(?P<key>\S+)$")
MAX_LINES = 1000


@dataclass
class LineError:
    line: int
    text: str
    message: str
    suggestions: list[str] = field(default_factory=list)


@dataclass
class ParsedDeck:
    entries: list[dict] = field(default_factory=list)
    errors: list[LineError] = field(default_factory=list)


def _reads_back(name: str) -> bool:
    """Return whether the line ``1 <name>`` is read back as that name."""
    line = f"1 {name}"
    if line.strip() != line or len(line.splitlines()) != 1:
        return False
    if NUMBER_RE.match(name) or COUNT_LAST_RE.match(name):
        return False
    # "1 X Ray" reads as one "Ray": the x after the count is taken as "times".
    match = COUNT_FIRST_RE.match(line)
    return match is not None and match["ref"].strip() == name


class CardIndex:
    """The cards of one game a user may use, looked up by name and by number.

    It reads only the cards it is asked about: ``load(refs)`` before a decklist
    is read, ``load_names(names)`` before one is written, in a fixed number of
    queries whatever the size of the card table.
    """

    def __init__(self, game_slug: str, user=None):
        self.user = user
        self.cards = (
            Card.objects.visible_to(user)
            .filter(card_set__game__slug=game_slug)
            .select_related("card_set")
            .only("id", "name", "key", "printed_number", "card_type", "card_set__slug")
        )
        self.by_name = defaultdict(list)
        self.by_number = defaultdict(list)
        self.by_set_key = {}
        self.names = None
        self._seen = set()

    @classmethod
    def for_game(cls, game_slug: str, user=None):
        return cls(game_slug, user)

    def _add(self, cards) -> None:
        for card in cards:
            if card.pk in self._seen:
                continue
            self._seen.add(card.pk)
            if card.name:
                self.by_name[card.name.casefold()].append(card)
            numbers = {card.key.casefold()}
            if card.printed_number:
                numbers.add(card.printed_number.casefold())
            for number in numbers:
                self.by_number[number].append(card)
            self.by_set_key[(card.card_set.slug.casefold(), card.key.casefold())] = card

    def load_names(self, names) -> None:
        """Read the cards named ``names`` (to tell unique names from shared ones).

        A card the user read goes by the name they read (``cards_as_read``).
        """
        self._add(self._read_named(names))
        self._add(folded_match(self.cards, ("name",), names, fold=str.casefold))

    def _read_named(self, names) -> list[Card]:
        """Return the cards the user read under one of ``names``."""
        read = read_card_ids(self.user)
        if not read or not names:
            return []
        wanted = {name.casefold() for name in names}
        return [
            card
            for card in cards_as_read(self.user, self.cards.filter(pk__in=read))
            if card.name and card.name.casefold() in wanted
        ]

    def load(self, refs) -> None:
        """Read the cards that ``refs`` (names, ``#key``, ``set#key``) may mean."""
        names, keys, set_keys = set(), set(), defaultdict(set)
        for ref in refs:
            number = NUMBER_RE.match(ref)
            if number and number["set"]:
                set_keys[number["set"].casefold()].add(number["key"])
            elif number:
                keys.add(number["key"])
            else:
                names.add(ref)
        self.load_names(names)
        self._add(
            folded_match(self.cards, ("key", "printed_number"), keys, fold=str.casefold)
        )
        # ``set#key`` reads only that set's card, not every set's card of that key.
        for_sets = self.cards.alias(_set=Lower("card_set__slug")).filter(
            _set__in=set_keys
        )
        named_sets = (
            CardSet.objects.alias(_slug=Lower("slug"))
            .filter(_slug__in=set_keys)
            .values("pk")
        )
        self._add(
            card
            for card in folded_match(
                for_sets,
                ("key",),
                set().union(*set_keys.values()),
                fold=str.casefold,
                narrow=Q(card_set_id__in=named_sets),
            )
            if card.key.casefold() in set_keys[card.card_set.slug.casefold()]
        )

    def close_names(self, ref: str) -> list[str]:
        """Return up to three names close to ``ref``, among the names sharing its first letter.

        The candidates are bounded, so a misspelt line costs no more on a large
        site than a small one: the printed, practice and the user's own cards
        only, and of those the names either side of ``ref`` in order and those
        with a word starting as one of its words does (the word index).
        """
        folded = ref.casefold()
        if not folded:
            return []
        first = folded[0]
        # Printed and practice cards and the user's own: other collectors' public
        # custom sets grow with the site, so their cards are found by exact name
        # only, never suggested.
        signed_in = getattr(self.user, "is_authenticated", False)
        mine = Q(card_set__owner=self.user) if signed_in else Q(pk__in=[])
        named = (
            self.cards.filter(~Q(card_set__kind=SetKind.CUSTOM) | mine)
            .alias(_folded=Lower(Trim("name")))
            .filter(_folded__gte=first, _folded__lt=first + "\U0010ffff")
        )
        typed = ref.strip().lower()
        probes = [
            named.filter(_folded__gte=typed).order_by("_folded"),
            named.filter(_folded__lt=typed).order_by("-_folded"),
        ]
        starts = Q()
        for word in {search_prefix(w[:3]) for w in WORD_RE.findall(ref)}:
            starts |= Q(Prefix(F("word"), word))
        if starts:
            words = CardWord.objects.filter(starts, field="name").values("card_id")
            probes.append(named.filter(pk__in=words).order_by("_folded"))
        names = {}
        for probe in probes:
            for name in probe.values_list("name", flat=True)[:CLOSE_NAME_PROBE]:
                names.setdefault(name.casefold(), name)
        close = difflib.get_close_matches(folded, list(names), n=3, cutoff=0.6)
        return [names[c] for c in close]

    def reference(self, card) -> str:
        """Return the shortest text that names this card and no other."""
        if card.name and len(self.by_name[card.name.casefold()]) == 1:
            if _reads_back(card.name):
                return card.name
        return f"{card.card_set.slug}#{card.key}"

    def lookup(self, ref: str):
        """Return (card, None) or (None, (message, suggestions))."""
        number = NUMBER_RE.match(ref)
        if number:
            key = number["key"].casefold()
            if number["set"]:
                card = self.by_set_key.get((number["set"].casefold(), key))
                if card:
                    return card, None
                return None, (f"No card {ref} in this game.", [])
            matches = self.by_number.get(key, [])
            if len(matches) == 1:
                return matches[0], None
            if matches:
                options = [self.reference(c) for c in matches][:5]
                return None, (
                    f"#{number['key']} matches {len(matches)} cards; name the set.",
                    options,
                )
            return None, (f"No card numbered #{number['key']} in this game.", [])
        matches = self.by_name.get(ref.casefold(), [])
        if len(matches) == 1:
            return matches[0], None
        if matches:
            options = [f"{c.card_set.slug}#{c.key}" for c in matches][:5]
            return None, (
                f"“{ref}” names {len(matches)} cards; use one of these.",
                options,
            )
        return None, (f"No card named “{ref}” in this game.", self.close_names(ref))


def _heading_zone(line: str, zones: tuple[str, ...]):
    """Return (is_heading, zone or None) for one stripped line."""
    match = HEADING_RE.match(line)
    if not match:
        return False, None
    word = (match["a"] or match["b"] or "").strip().rstrip(":").strip().casefold()
    zone = ZONE_ALIASES.get(word)
    return True, (zone if zone in zones else None)


def parse_decklist(text: str, *, game_slug: str, user=None, index=None) -> ParsedDeck:
    """Read a decklist into entries ``{card, zone, quantity}`` and per-line errors."""
    index = index or CardIndex.for_game(game_slug, user)
    zones = zones_for(game_slug)
    parsed = ParsedDeck()
    lines = (text or "").splitlines()
    if len(lines) > MAX_LINES:
        parsed.errors.append(
            LineError(0, "", f"A decklist has at most {MAX_LINES} lines.")
        )
        return parsed
    # Every line is read first, so the index loads only the cards they name.
    steps = []
    zone = None
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("//"):
            continue
        if "\x00" in line:
            # No card name holds one, and PostgreSQL cannot even look one up.
            steps.append(
                _error(
                    number,
                    raw.replace("\x00", ""),
                    "this line holds a NUL character, which no card name has.",
                )
            )
            continue
        if not NUMBER_RE.match(line):
            is_heading, heading_zone = _heading_zone(line, zones)
            if is_heading:
                if heading_zone is None:
                    close = difflib.get_close_matches(
                        line.strip("#: ").casefold(), list(zones), n=3, cutoff=0.5
                    )
                    steps.append(
                        _error(
                            number,
                            raw,
                            f"“{line}” is not a zone of this game's decks "
                            f"({', '.join(zones)}).",
                            close,
                        )
                    )
                zone = heading_zone
                continue
        g_power = None
        valued = GAMES[game_slug].copy_check and G_POWER_RE.match(line)
        if valued:
            line, g_power = valued["line"], int(valued["g"])
        match = COUNT_FIRST_RE.match(line) or COUNT_LAST_RE.match(line)
        quantity, ref = (int(match["n"]), match["ref"].strip()) if match else (1, line)
        if not 1 <= quantity <= MAX_QUANTITY:
            steps.append(
                _error(number, raw, f"the count must be between 1 and {MAX_QUANTITY}.")
            )
            continue
        plain = COUNT_PLAIN_RE.match(line)
        # "4 X Ray" is four of "X Ray" when no card is named "Ray"; a name may
        # itself end in "x 2" or start with a number.
        others = []
        if plain and plain["ref"].strip() != ref:
            others.append(plain["ref"].strip())
        steps.append(
            (number, raw, line, zone, quantity, ref, others, bool(match), g_power)
        )
    index.load(
        ref
        for step in steps
        if isinstance(step, tuple)
        for ref in (step[5], *step[6], *([step[2]] if step[7] else []))
    )
    for step in steps:
        if isinstance(step, LineError):
            parsed.errors.append(step)
            continue
        number, raw, line, zone, quantity, ref, others, counted, g_power = step
        card, problem = index.lookup(ref)
        for other in others:
            if card is None:
                card, _ = index.lookup(other)
        if card is None and counted:
            card, _ = index.lookup(line)
            quantity = 1 if card is not None else quantity
        if card is None:
            parsed.errors.append(_error(number, raw, problem[0], problem[1]))
            continue
        parsed.entries.append(
            {
                "card": card.pk,
                "zone": zone or default_zone(game_slug, card.card_type),
                "quantity": quantity,
                **({"g_power": g_power} if g_power is not None else {}),
            }
        )
    return parsed


def _error(number: int, raw: str, message: str, suggestions=()) -> LineError:
    text = f"Line {number}: {message}"
    if suggestions:
        text += " Did you mean: " + "; ".join(suggestions) + "?"
    return LineError(number, raw, text, list(suggestions))


def export_decklist(deck, *, reader=None, index=None) -> str:
    """Return the deck as text, one heading per zone, that imports back the same.

    A card ``reader`` (the owner when None) may not see is written as a stand-in.
    """
    index = index or CardIndex.for_game(deck.game.slug, deck.owner)
    entries = list(deck.entries.select_related("card__card_set__game", "copy", "deck"))
    index.load_names(e.card.name for e in entries if e.card.name)
    hidden = hide_private_cards(entries, deck.owner if reader is None else reader)
    labels = dict(Zone.choices)
    blocks = []
    for zone in zones_for(deck.game.slug):
        in_zone = [e for e in entries if e.zone == zone]
        if not in_zone:
            continue
        in_zone.sort(
            key=lambda e: (
                e.card.number is None,
                e.card.number or 0,
                e.card.key,
                e.play_g_power() is not None,
                e.play_g_power() or 0,
            )
        )
        lines = [f"{labels[zone]}:"]
        lines += [
            f"{e.quantity} "
            + (PRIVATE_CARD_NAME if e.card_id in hidden else index.reference(e.card))
            + ("" if e.play_g_power() is None else f" @ {e.play_g_power()} G")
            for e in in_zone
        ]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"
