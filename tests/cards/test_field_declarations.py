"""Every declared printed field reaches each place derived from it (issue 31).

In the manner of NetBox's missing-filter check: for every game and every field
it declares (``Game.printed``), the field is validated by its column, answered
by the API for the card types that print it, filtered, searched and sorted
when its declaration says so, listed on the card page, asked on the transcribe
page with its control, and carried in the game's card data files. ``missing``
names what lacks; the last tests take one derivation away and see it named, and
declare a new field of an existing kind on a game copy to see its filter and
search key made from the declaration alone.
"""

from dataclasses import dataclass, replace

import pytest

from cards.api.serializers import printed_fields
from cards.community.readings import reading_fields
from cards.community.transcribe import _bounds, _kind
from cards.data import card_fields
from cards.filtersets import (
    FILTER_MAKERS,
    CardFilterSet,
    DeclaredFilterSet,
    declared_filters,
)
from cards.games import COMMON_FIELDS, GAMES
from cards.games.spec import Field
from cards.models import Card
from cards.search import COMMON_KEYS, KEY_MAKERS, KEYS, SORT_KEYS, declared_keys
from cards.validation import validate_card
from tests.factories import MF, build_card, make_card


@dataclass(frozen=True)
class Parts:
    """What the site derives from the declarations, as the checks read it."""

    filters: dict
    keys: dict
    sort_keys: dict
    serialized: object  # (game slug, card type) -> the game columns answered
    asked: object  # (game slug, card type) -> the transcribe page's fields
    columns: object  # game slug -> the card data file's columns


SITE = Parts(CardFilterSet.base_filters, KEYS, SORT_KEYS, printed_fields,
             reading_fields, card_fields)  # fmt: skip


def _column_bounds(name: str) -> tuple[int | None, int | None]:
    low = high = None
    for validator in Card._meta.get_field(name).validators:
        if validator.code == "min_value":
            low = validator.limit_value
        elif validator.code == "max_value":
            high = validator.limit_value
    return low, high


def missing(game, field: Field, parts: Parts = SITE) -> list[str]:
    """Return each place ``field`` of ``game`` is declared for and missing from."""
    where = f"{game.slug} {field.name}"
    problems = []
    column = Card._meta.get_field(field.name)
    if field.minimum is not None or field.maximum is not None:
        if _column_bounds(field.name) != (field.minimum, field.maximum):
            problems.append(f"{where}: the column does not validate its range")
    allowed = {value for value, _ in column.choices or ()}
    if allowed and not set(field.choices) <= allowed:
        problems.append(f"{where}: a declared choice the column refuses")
    # A column whose own choices are the declared ones refuses the rest itself.
    if field.choices and not field.invalid and set(field.choices) != allowed:
        problems.append(f"{where}: choices without the message refusing others")
    for kind in game.kinds:
        answered = field.name in parts.serialized(game.slug, kind.value)
        is_game_field = field.name not in COMMON_FIELDS
        if is_game_field and answered != field.printed_by(kind.value):
            problems.append(f"{where}: not serialized as {kind.value} cards print it")
        asked = field.name in parts.asked(game.slug, kind.value)
        # A name made of the title is asked as its title (Collision).
        expected = field.transcribed and field.printed_by(kind.value)
        if field.name == "name" and game.name_from is not None:
            expected = False
        if asked != expected:
            problems.append(f"{where}: transcribed is {expected} for {kind.value}")
    for name in field.filters:
        if name not in parts.filters:
            problems.append(f"{where}: no filter {name}")
        elif parts.filters[name].field_name not in (field.name, name):
            problems.append(f"{where}: filter {name} reads another column")
    for name in (k.name for k in field.keys):
        if name not in parts.keys or game.slug not in parts.keys[name].games:
            problems.append(f"{where}: no search key {name} for this game")
    if field.sort is not None:
        if parts.sort_keys.get(field.sort, ())[:1] != (field.name,):
            problems.append(f"{where}: no sort key {field.sort}")
    if field.page is not None and (field.label, field.name) not in game.page_fields:
        problems.append(f"{where}: not on the card page")
    if field.name not in parts.columns(game.slug):
        problems.append(f"{where}: not a column of the card data files")
    return problems


DECLARED = [(game, field) for game in GAMES.values() for field in game.printed]


@pytest.mark.parametrize(
    ("game", "field"), DECLARED, ids=[f"{g.slug}-{f.name}" for g, f in DECLARED]
)
def test_every_declared_field_reaches_every_place_derived_from_it(game, field):
    assert missing(game, field) == []


@pytest.mark.parametrize("game", GAMES.values(), ids=list(GAMES))
def test_every_column_a_game_uses_is_declared_by_it(game):
    # Each kind's fields, the page and the filters come from the declarations;
    # what a card of another game must leave empty is the games' columns.
    declared = {f.name for f in game.printed}
    assert set(game.fields) <= declared
    assert {name for k in game.kinds for name in k.fields} == declared
    assert set(game.not_printable) <= declared | set(COMMON_FIELDS)


@pytest.mark.parametrize(
    ("game", "field"),
    [(g, f) for g, f in DECLARED if f.invalid],
    ids=[f"{g.slug}-{f.name}" for g, f in DECLARED if f.invalid],
)
@pytest.mark.django_db
def test_a_value_outside_the_declared_choices_is_refused_with_its_message(game, field):
    card_type = next(k.value for k in game.kinds if field.printed_by(k.value))
    card = build_card(game.slug, card_type=card_type, **{field.name: "nonesuch"})
    errors = validate_card(card)[field.name]
    assert (errors[0].code, errors[0].message) == (field.invalid_code, field.invalid)


@pytest.mark.parametrize(
    ("game", "field"), DECLARED, ids=[f"{g.slug}-{f.name}" for g, f in DECLARED]
)
def test_the_transcribe_control_and_its_bounds_are_the_declared_ones(game, field):
    assert _kind(field.name, game) == field.kind
    assert _bounds(field.name, game) == (field.minimum, field.maximum)


# --- the check fails when a derivation is missing ----------------------------------

COLLISION = GAMES["collision"]
SPIN = COLLISION.printed_field("spin_strength")


def _without(mapping: dict, name: str) -> dict:
    return {k: v for k, v in mapping.items() if k != name}


def test_a_missing_filter_is_named():
    parts = replace(SITE, filters=_without(SITE.filters, "spin_max"))
    assert missing(COLLISION, SPIN, parts) == [
        "collision spin_strength: no filter spin_max"
    ]


def test_a_missing_search_key_is_named():
    parts = replace(SITE, keys=_without(SITE.keys, "spin"))
    assert missing(COLLISION, SPIN, parts) == [
        "collision spin_strength: no search key spin for this game"
    ]


def test_a_missing_sort_key_is_named():
    parts = replace(SITE, sort_keys=_without(SITE.sort_keys, "spin"))
    assert missing(COLLISION, SPIN, parts) == [
        "collision spin_strength: no sort key spin"
    ]


def test_a_field_the_api_leaves_out_is_named():
    def serialized(game, card_type):
        return tuple(f for f in printed_fields(game, card_type) if f != SPIN.name)

    parts = replace(SITE, serialized=serialized)
    assert missing(COLLISION, SPIN, parts) == [
        "collision spin_strength: not serialized as blade cards print it"
    ]


def test_a_field_the_transcribe_page_leaves_out_is_named():
    def asked(game, card_type):
        return tuple(f for f in reading_fields(game, card_type) if f != SPIN.name)

    parts = replace(SITE, asked=asked)
    assert missing(COLLISION, SPIN, parts) == [
        "collision spin_strength: transcribed is True for blade"
    ]


def test_a_column_the_data_files_leave_out_is_named():
    def columns(game):
        return tuple(f for f in card_fields(game) if f != SPIN.name)

    parts = replace(SITE, columns=columns)
    assert missing(COLLISION, SPIN, parts) == [
        "collision spin_strength: not a column of the card data files"
    ]


def test_a_range_the_column_does_not_validate_is_named():
    wider = replace(SPIN, maximum=100)
    assert missing(COLLISION, wider) == [
        "collision spin_strength: the column does not validate its range"
    ]


def test_a_field_declared_for_the_page_and_not_on_it_is_named():
    relabelled = replace(SPIN, label="Spin")
    assert missing(COLLISION, relabelled) == [
        "collision spin_strength: not on the card page"
    ]


# --- a field of an existing kind needs no edit but its declaration -----------------

FUSION = GAMES[MF]
# Metal Fusion prints the kind of a Beyblade's move; declared filtered and searched.
MOVE_KIND = replace(
    FUSION.printed_field("move_kind"),
    choices=("launch", "landing"),
    filters=("move_kind",),
    search=("move",),
)
FUSION_MOVES = replace(
    FUSION,
    printed=tuple(MOVE_KIND if f.name == "move_kind" else f for f in FUSION.printed),
)


def _site_of(games, filter_makers=FILTER_MAKERS, key_makers=KEY_MAKERS) -> Parts:
    """Return the site's parts with the filters and keys derived from ``games``."""
    keys = COMMON_KEYS + declared_keys(games, key_makers)
    return replace(
        SITE,
        filters=declared_filters(games, filter_makers),
        keys={name: k for k in keys for name in k.names},
    )


def test_a_new_choice_field_is_filtered_and_searched_from_its_declaration():
    parts = _site_of([FUSION_MOVES])
    found = [
        p
        for p in missing(FUSION_MOVES, MOVE_KIND, parts)
        if "filter" in p or "key" in p
    ]
    assert found == []
    move_filter = parts.filters["move_kind"]
    assert (move_filter.field_name, move_filter.label) == ("move_kind", "Move kind")
    assert move_filter.extra["choices"] == [
        ("launch", "Launch"),
        ("landing", "Landing"),
    ]
    move = parts.keys["move"]
    assert (move.games, move.takes) == ((MF,), "a move: launch, landing")


@pytest.mark.django_db
def test_the_new_choice_fields_filter_and_key_keep_the_two_matching_rows_of_three():
    parts = _site_of([FUSION_MOVES])
    beyblade = {"card_type": "beyblade", "move_name": "Star Blast"}
    first, second, _third = (
        make_card(MF, **beyblade, move_kind=kind)
        for kind in ("launch", "launch", "landing")
    )
    cards = Card.objects.order_by("pk")
    chosen = parts.filters["move_kind"].filter(cards, "launch")
    q, said, negated = parts.keys["move"].handler("move", ":", "Launch")
    assert list(chosen) == list(cards.filter(q)) == [first, second]
    assert (said, negated) == ("whose move is launch", "whose move is not launch")


def test_a_choice_field_without_its_derivation_is_named_missing():
    without = {k: m for k, m in FILTER_MAKERS.items() if k != "choice"}
    no_keys = {k: m for k, m in KEY_MAKERS.items() if k != "choice"}
    parts = _site_of([FUSION_MOVES], without, no_keys)
    assert missing(FUSION_MOVES, MOVE_KIND, parts)[-2:] == [
        "metal-fusion move_kind: no filter move_kind",
        "metal-fusion move_kind: no search key move for this game",
    ]


def test_a_notch_field_without_its_derivation_is_named_missing():
    edge = COLLISION.printed_field("battle_edge")
    without = {k: m for k, m in FILTER_MAKERS.items() if k != "notches"}
    no_keys = {k: m for k, m in KEY_MAKERS.items() if k != "notches"}
    parts = _site_of(GAMES.values(), without, no_keys)
    assert missing(COLLISION, edge, parts) == [
        *(f"collision battle_edge: no filter {name}" for name in edge.filters),
        *(
            f"collision battle_edge: no search key {k.name} for this game"
            for k in edge.keys
        ),
    ]


def _shown(key) -> tuple:
    return (key.name, key.aliases, key.games, key.takes, key.operators)


def test_the_site_has_exactly_the_derived_filters_and_keys():
    derived = _site_of(GAMES.values())
    assert set(derived.filters) == set(DeclaredFilterSet.base_filters)
    assert set(DeclaredFilterSet.base_filters) <= set(CardFilterSet.base_filters)
    assert {n: _shown(k) for n, k in derived.keys.items()} == {
        n: _shown(k) for n, k in KEYS.items()
    }


def test_a_choice_declared_without_its_choices_is_named_missing():
    bare = replace(MOVE_KIND, choices=())
    game = replace(
        FUSION,
        printed=tuple(bare if f.name == "move_kind" else f for f in FUSION.printed),
    )
    assert missing(game, bare, _site_of([game]))[-2:] == [
        "metal-fusion move_kind: no filter move_kind",
        "metal-fusion move_kind: no search key move for this game",
    ]
