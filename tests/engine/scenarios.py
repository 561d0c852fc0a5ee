"""Scripted decks, deals and moves shared by the engine tests, one section a game.

The test modules import from here, never from each other. Names a second game
would also use carry their game's prefix (``collision_card``, ``mf_card``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from decks.engine import bakugan as bk
from decks.engine import collide_o as co
from decks.engine import collision as cl
from decks.engine import metal_fusion as mf
from decks.engine.core import (
    Rng,
    seed_state,
)

# --- Collision -------------------------------------------------------------


COLOURS = ("red", "yellow", "green", "blue")


EDGES = (
    "LL.SL.",
    ".L.LEL",
    "L.S..L",
    ".LL.E.",
    "S.L.L.",
    "..LLS.",
    "L..EL.",
    ".S.L.L",
    "LE.L..",
    "..L.SL",
    "L.L.L.",
    ".E.S.L",
    "L.....",
    "...L..",
)


KIND_CYCLE = ("action", "action", "character", "action", "event", "action")


ACTION_TEXT = (
    [{"op": "draw", "timing": "play", "amount": 1}],
    [{"op": "lose_spin", "timing": "win", "amount": 1, "target": "opponent"}],
    [{"op": "discard", "timing": "play", "target": "opponent", "random": True}],
    [{"op": "gain_spin", "timing": "win", "amount": 1}],
    [{"op": "remove", "timing": "play", "target": "opponent"}],
    [{"op": "discard", "timing": "play", "target": "opponent", "turn": "opponent"}],
    [],
    [{"op": "test", "timing": "play"}],
)


CHARACTER_TEXT = (
    [{"op": "draw", "timing": "passive", "amount": 1, "turn": "your"}],
    [
        {
            "op": "lose_spin",
            "timing": "passive",
            "target": "opponent",
            "turn": "opponent",
        }
    ],
    [{"op": "gain_spin", "timing": "play", "amount": 2}],
    [],
)


EVENT_TEXT = (
    [{"op": "draw", "timing": "play", "amount": 2}],
    [{"op": "lose_spin", "timing": "play", "target": "each_opponent"}],
    [{"op": "discard", "timing": "play", "amount": 2, "target": "all"}],
)


TEXTS = {"action": ACTION_TEXT, "character": CHARACTER_TEXT, "event": EVENT_TEXT}


def collision_card(
    cid, kind="action", colour="red", edge="......", title=None, **extra
):
    """Return a Collision card dict as the deck adapter hands it to the engine."""
    data = {
        "id": cid,
        "card_type": kind,
        "colour": None if kind == "blade" else colour,
        "battle_edge": edge,
        "title": title or cid,
        "name": cid,
        "spin_strength": None,
        "effects": [],
    }
    data.update(extra)
    return data


def blade(cid, edge="L.E.S.", spin=6, effects=()):
    return collision_card(
        cid, "blade", edge=edge, spin_strength=spin, effects=list(effects)
    )


def practice_deck(tag, text=False, specials=()):
    """Return a practice deck: a spin-6 Blade and 59 cards in four colours."""
    cards = list(specials)
    for i in range(59 - len(cards)):
        kind = KIND_CYCLE[i % len(KIND_CYCLE)]
        effects = TEXTS[kind][i % len(TEXTS[kind])] if text else []
        cards.append(
            collision_card(
                f"{tag}{i}",
                kind,
                COLOURS[i % 4],
                EDGES[i % len(EDGES)],
                f"{tag} {kind} {i // 4}",
                effects=effects,
            )
        )
    blade_text = [{"op": "draw", "timing": "passive", "turn": "your"}] if text else []
    return {"blade": [blade(f"{tag}-blade", effects=blade_text)], "deck": cards}


def uid_of(state, cid):
    return next(c.uid for c in state.cards if c.id == cid)


def take(state, cid):
    """Lift a card out of whatever zone holds it; return its uid."""
    uid = uid_of(state, cid)
    seat = state.cards[uid].owner
    for zone in (state.deck, state.hand, state.spin, state.discard, state.characters):
        if uid in zone[seat]:
            zone[seat].remove(uid)
            return uid
    raise AssertionError(f"{cid} is in no zone")


def arrange(state, seat, hand=None, spin=None, deck_top=(), characters=()):
    """Script a seat's zones: hand cards, spin pile size, deck top (last on top)."""
    size = len(state.spin[seat]) if spin is None else spin
    if hand is not None:
        wanted = [take(state, cid) for cid in hand]
        state.deck[seat][0:0] = state.hand[seat]
        state.hand[seat][:] = wanted
    for cid in deck_top:
        state.deck[seat].append(take(state, cid))
    for cid in characters:
        state.characters[seat].append(take(state, cid))
    while len(state.spin[seat]) > size:
        state.deck[seat].insert(0, state.spin[seat].pop())
    while len(state.spin[seat]) < size:  # a scripted card came off the pile
        state.spin[seat].insert(0, state.deck[seat].pop(0))
    state.cached = None


def collision_act(state, text):
    return cl.apply(state, cl.parse_action(text), inplace=True)


def play(state, cid, target):
    return collision_act(state, f"play {uid_of(state, cid)} vs {target}")


def collision_all_cards(s):
    found = []
    for p in range(s.n):
        for zone in (s.deck, s.hand, s.spin, s.discard, s.pile, s.characters):
            found += zone[p]
    return sorted(found + s.blade)


def junk_actions(s, rng):
    """Return a few actions of every kind, most of them not legal now."""
    kinds = ("pass", "nostop", "pick", "play", "test", "stop", "discard", "remove")
    return [
        cl.Action(kinds[rng.below(len(kinds))], rng.below(len(s.cards)), rng.below(s.n))
        for _ in range(4)
    ]


# --- Metal Fusion ----------------------------------------------------------


MF_KINDS = ("character", "beyblade", "customizer")


def mf_card(
    number, kind="character", launcher="red", boosters="R", effects=(), **extra
):
    """Return a deck card dict with every field a deck card needs."""
    data = {
        "id": 1000 + number,
        "name": f"{kind.title()} #{number}",
        "number": number,
        "card_type": kind,
        "launcher": launcher,
        "boosters": boosters,
        "effects": list(effects),
        "not_printed": [],
    }
    data.update(extra)
    return data


def stats(red=0, blue=0, green=0, yellow=0):
    return {
        "stat_red": red,
        "stat_blue": blue,
        "stat_green": green,
        "stat_yellow": yellow,
    }


def lineup(
    char=(1, 1, 1, 1),
    bey=(1, 1, 1, 1),
    cust=(1, 1, 1, 1),
    emblems=("a", "a"),
    move=None,
):
    """Return a line-up: Character, Beyblade, Customizer with the given stat rows."""
    character = dict(
        mf_card(901, "character"), name="Character", emblem=emblems[0], **stats(*char)
    )
    beyblade = dict(
        mf_card(902, "beyblade"), name="Beyblade", emblem=emblems[1], **stats(*bey)
    )
    beyblade.update(
        move_name="Test Move", **{f"move_{c}": v for c, v in (move or {}).items()}
    )
    customizer = dict(mf_card(903, "customizer"), name="Customizer", **stats(*cust))
    return [character, beyblade, customizer]


def deck_cards(base=1, launcher="red", boosters="R", count=15):
    return [
        mf_card(base + i, MF_KINDS[i % 3], launcher, boosters) for i in range(count)
    ]


def mf_deck(line=None, cards=None, **kw):
    return {"lineup": line or lineup(), "deck": cards or deck_cards(**kw)}


def varied_decks(players):
    """Return decks with effects, boosters of every kind and differing line-ups."""
    colours = mf.COLOURS
    codes = ("R", "B", "G", "Y", "RB", "GY", "RBGY", "BG")
    result = []
    for p in range(players):
        rows = [
            ((p + k) % 4, (p + 2 * k) % 5, (3 - p + k) % 4, (k + 1) % 5)
            for k in range(3)
        ]
        line = lineup(
            *rows,
            emblems=("pegasus", "pegasus" if p % 2 else "l-drago"),
            move={colours[p % 4]: 1 - p},
        )
        if p == 1:
            line[2]["effects"] = [
                {
                    "op": "add_power",
                    "timing": "in_lineup",
                    "amount": 1,
                    "turn": "opponent",
                }
            ]
        cards = []
        for i in range(15):
            kind = ("character", "beyblade", "customizer", "effect")[i % 4]
            c = mf_card(
                i + 1, kind, colours[(i * 3 + p) % 4], codes[(i + p) % len(codes)]
            )
            cards.append(c)
        cards[3]["effects"] = [
            {"op": "add_power", "timing": "revealed", "amount": 2},
            {"op": "as_booster", "timing": "revealed"},
        ]
        cards[7]["effects"] = [
            {"op": "add_power", "timing": "discard_from_hand", "amount": 2}
        ]
        cards[11]["effects"] = [
            {"op": "discard", "timing": "discard_from_hand", "target": "opponent"}
        ]
        cards[14]["effects"] = [
            {"op": "draw", "timing": "revealed"},
            {"op": "to_hand", "timing": "revealed"},
        ]
        result.append(mf_deck(line, cards))
    return result


def playout_decks(players):
    """Return ``varied_decks`` with a drawing Effect and a card of unknown text too."""
    result = varied_decks(players)
    for p, one in enumerate(result):
        cards = one["deck"]
        cards[14] = mf_card(
            15, "effect", mf.COLOURS[p % 4], "RBGY", effects=cards[14]["effects"]
        )
        cards[5] = dict(cards[5], effects=[{"op": "gain_spin", "timing": "play"}])
        cards[9] = mf_card(
            10,
            "effect",
            mf.COLOURS[(p + 1) % 4],
            "Y",
            effects=[{"op": "draw", "timing": "discard_from_hand"}],
        )
    return result


def mf_conserved(state):
    for seat in range(state.players):
        places = state.deck[seat] + state.hand[seat] + state.discard[seat]
        places += [i for pile in state.boosters[seat] for i in pile]
        if state.card >= 0 and seat == state.attacker:
            # The revealed card is on the table until the battle places it.
            places.append(state.card)
        assert sorted(places) == list(range(3, 18))


SAMPLE = [
    mf.REVEAL,
    mf.HAND,
    mf.PASS,
    *mf.BOOST.values(),
    mf.parse_action("use 1"),
    mf.parse_action("use 8"),
    mf.parse_action("discard 12"),
    mf.parse_action("discard 99"),
]


# --- Collide-O! ------------------------------------------------------------


CO_KINDS = [*"BYRGK", *(a + b for i, a in enumerate("BYRGK") for b in "BYRGK"[i + 1 :])]


WEIGHTS = [6] * 5 + [2] * 10


def collide_o_card(spec: str) -> dict:
    """Return a card dict from "s1 s2 s3", e.g. "B BY BYRGK"."""
    s1, s2, s3 = spec.split()
    return {"id": spec, "name": None, "section_1": s1, "section_2": s2, "section_3": s3}


def made_up_pack(size: int, seed: int = 5) -> list:
    """Return a made-up pack for tests (not the printed card mix, which is unknown)."""
    rng = Rng(seed_state(seed, 99))
    pool = [
        kind
        for kind, weight in zip(CO_KINDS, WEIGHTS, strict=True)
        for _ in range(weight)
    ]
    pool.append("BYRGK")
    return [
        collide_o_card(" ".join(rng.choice(pool) for _ in range(3)))
        for _ in range(size)
    ]


def collide_o_all_cards(state) -> list[int]:
    cards = [entry[0] for entry in state.line] + state.set_aside + state.removed
    for seat in range(co.player_count(state)):
        cards += state.hands[seat] + state.stacks[seat]
    return sorted(cards)


def refused_sample(state, rng: Rng, pack_size: int) -> list:
    legal = set(co.legal_actions(state))
    others = [
        co.Play(c, end, turned)
        for c in range(pack_size)
        for end in (0, 1)
        for turned in (False, True)
    ] + [co.CHALLENGE]
    others = [a for a in others if a not in legal]
    return [rng.choice(others) for _ in range(4)]


def check_invariants(state, pack_size: int) -> None:
    assert collide_o_all_cards(state) == list(range(pack_size))
    for seat in range(co.player_count(state)):
        hand, stack = state.hands[seat], state.stacks[seat]
        assert state.limits[seat] in (4, 5)
        assert len(hand) == state.limits[seat] or (not stack and len(hand) < 5)
    assert co.length(state) <= co.TURN_CAP
    assert co.from_json(json.loads(json.dumps(co.to_json(state)))) == state


# --- Bakugan ---------------------------------------------------------------


FIGURES = [
    [
        ("Dragonoid", "pyrus", 340),
        ("Gorem", "subterra", 330),
        ("Hydranoid", "darkus", 320),
    ],
    [("Tigrerra", "haos", 300), ("Preyas", "aquos", 310), ("Skyress", "ventus", 350)],
    [("Falconeer", "ventus", 320), ("Saurus", "pyrus", 300), ("Mantris", "haos", 330)],
    [
        ("Serpenoid", "darkus", 310),
        ("Juggernoid", "subterra", 340),
        ("Stinglash", "aquos", 300),
    ],
]


def figure(name, attribute, g_power, ident=0):
    return {
        "id": ident,
        "name": name,
        "card_type": "bakugan",
        "attribute": attribute,
        "g_power": g_power,
    }


def gate(name, bonus=0, effects=(), ident=0, **bonuses):
    card = {"id": ident, "name": name, "card_type": "gate", "gate_class": "gold"}
    for attribute in bk.ATTRIBUTES:
        card[f"bonus_{attribute}"] = bonuses.get(attribute, bonus)
    card["effects"] = list(effects)
    return card


def ability(name, timing="in-battle", effects=(), colour="red", ident=0, **printed):
    card = {
        "id": ident,
        "name": name,
        "card_type": "ability",
        "colour": colour,
        "timing": timing,
        "effects": list(effects),
    }
    for attribute in bk.ATTRIBUTES:
        card[f"bonus_{attribute}"] = printed.get(attribute)
    return card


def make_deck(seat, figures=None, gates=None, abilities=None):
    base = seat * 100
    figures = figures or FIGURES[seat]
    return {
        "bakugan": [figure(*f, ident=base + i) for i, f in enumerate(figures)],
        "gate": gates
        or [gate(f"Gate {seat + 1}.{i + 1}", ident=base + 10 + i) for i in range(3)],
        "ability": abilities
        or [
            ability(f"Plain {seat + 1}.{i + 1}", ident=base + 20 + i, colour=c)
            for i, c in enumerate(("red", "blue", "green"))
        ],
    }


def step(op, timing="in_battle", **rest):
    return {"op": op, "timing": timing, **rest}


def pass_windows(state):
    while state.phase == "window":
        state = bk.apply(state, bk.Action("pass", bk.to_act(state)))
    return state


def forced_passes(state):
    """Play the passes of seats holding no card for the open window (the only
    move they have), as the playtest does for a seat that asks it to."""
    while state.phase == "window" and bk.legal_actions(state) == [
        bk.Action("pass", bk.to_act(state))
    ]:
        state = bk.apply(state, bk.Action("pass", bk.to_act(state)))
    return state


def bakugan_act(state, text):
    """Apply the move ``text``, then the forced passes that follow it."""
    return forced_passes(bk.apply(state, bk.parse_action(text)))


ALL_ACTIONS = (
    [bk.MISS]
    + [bk.Action("land", -1, g) for g in range(12)]
    + [
        bk.Action(k, s, i)
        for k in ("place", "roll", "play")
        for s in range(4)
        for i in range(3)
    ]
    + [bk.Action(k, s) for k in ("pass", "skip") for s in range(4)]
    + [
        bk.Action(k, s, g)
        for k in ("move", "clear")
        for s in range(4)
        for g in range(12)
    ]
    + [
        bk.Action("shift", s, b, g)
        for s in range(4)
        for b in range(3)
        for g in range(12)
    ]
)


def check_conservation(state):
    n = state.n
    battle = state.battle
    in_battle = []
    if battle is not None and not battle.powers:
        in_battle = [
            b for b in (battle.attacker, battle.defender) if b not in battle.removed
        ]
    for seat in range(n):
        places = state.unused[seat] + state.used[seat] + state.removed[seat]
        places += [b % 3 for b in state.field_bakugan if b >= 0 and b // 3 == seat]
        places += [b % 3 for b in in_battle if b // 3 == seat]
        if state.rolling >= 0 and state.rolling // 3 == seat:
            places.append(state.rolling % 3)
        assert sorted(places) == [0, 1, 2]
        assert sorted(state.ability_hand[seat] + state.abilities_used[seat]) == [
            0,
            1,
            2,
        ]
    placed = list(state.field_gates) + [g for w in state.won for g in w]
    # A placed gate's code is its owner's placing order; gate_card names its card.
    assert sorted(placed) == sorted(g for g in range(3 * n) if state.gate_card[g] >= 0)
    gates = [g - g % 3 + state.gate_card[g] for g in placed]
    gates += [s * 3 + i for s in range(n) for i in state.gate_hand[s]]
    assert sorted(gates) == list(range(3 * n))
    assert len(state.field_open) == len(state.field_bakugan) == len(state.field_gates)


def secret_decks(players):
    """Return decks whose every gate and ability name is found nowhere else."""
    decks = []
    for seat in range(players):
        tag = f"S{seat + 1}Z"
        gates = [
            gate(f"Fire Pit {tag}", 20, pyrus=140, ident=seat * 100 + 10),
            gate(
                f"Exchange {tag}",
                50,
                effects=[step("swap_g_power", "gate_open")],
                ident=seat * 100 + 11,
            ),
            gate(
                f"Doom {tag}",
                -20,
                effects=[step("remove_bakugan", "after_battle", target="opponent")],
                ident=seat * 100 + 12,
            ),
        ]
        abilities = [
            # Decided or cancelled before the gate opens: it must stay unnamed.
            ability(f"Veto {tag}", "before-battle", [step("cancel_gate")]),
            ability(f"Strike {tag}", "before-battle", [step("win_gate")]),
            ability(f"Boost {tag}", "in-battle", [step("add_g_power", amount=80)]),
        ]
        decks.append(make_deck(seat, gates=gates, abilities=abilities))
    return decks


def hidden_names(state, player):
    """Return the names ``player`` may not know, read from the state itself."""
    names = set()
    for seat in range(state.n):
        deck = state.decks[seat]
        if seat == player:
            continue
        for i, card in enumerate(deck["gate"]):
            placed = [
                c for c in range(seat * 3, seat * 3 + 3) if state.gate_card[c] == i
            ]
            # Known once opened in a battle, or when taken unopened by the player.
            if not placed or (
                placed[0] not in state.opened and placed[0] not in state.won[player]
            ):
                names.add(card["name"])
        names.update(deck["ability"][i]["name"] for i in state.ability_hand[seat])
    return names


# --- Bakugan effects -------------------------------------------------------


FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "bakugan.json"


@cache
def _cards() -> dict:
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return {(s["slug"], c["key"]): c for s in data["sets"] for c in s["cards"]}


def real(slug: str, key: str, ident: int = 900) -> dict:
    """Return the official card as a deck holds it."""
    return {**_cards()[(slug, key)], "id": ident}


def plain_gate():
    return gate("Plain", 0)


def game(p1=None, p2=None, p1_gates=None, p2_gates=None, p1_ab=None, p2_ab=None):
    """Return a two-player game, P1 first, each player's G1 placed."""
    decks = [
        make_deck(0, p1, p1_gates or [plain_gate()] * 3, p1_ab or plain(3)),
        make_deck(1, p2, p2_gates or [plain_gate()] * 3, p2_ab or plain(3)),
    ]
    state = bk.new_game(decks, {"first": 0}, 7)
    return bakugan_act(bakugan_act(state, "P1 places G1"), "P2 places G1")


def plain(n=2):
    return [
        {
            "id": 50 + i,
            "name": f"Plain {i}",
            "card_type": "ability",
            "colour": "red",
            "timing": "after-battle",
            "effects": [],
        }
        for i in range(n)
    ]


def roll(state, text, outcome):
    """Roll and enter the outcome, every window before it passed."""
    return bakugan_act(pass_windows(bakugan_act(state, text)), outcome)


def p1_stands(state, gate_label="P1-G1"):
    """P1 rolls B1 onto the gate and stands there; every window passed."""
    return pass_windows(roll(state, "P1 rolls B1", f"landed on gate {gate_label}"))


def to_battle(state, gate_label="P1-G1"):
    """P1 stands B1 on the gate, P2 rolls B3 onto it: a battle, P2 attacking."""
    state = p1_stands(state, gate_label)
    return roll(state, "P2 rolls B3", f"landed on gate {gate_label}")


def result(state) -> str:
    return next(e for e in reversed(state.events) if " G against " in e)


HAOS = [
    ("Tigrerra", "haos", 300),
    ("Gorem", "subterra", 330),
    ("Hydranoid", "darkus", 320),
]


VENTUS = [
    ("Preyas", "aquos", 310),
    ("Saurus", "pyrus", 300),
    ("Skyress", "ventus", 350),
]


# --- The contract's cases --------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One game as the contract drives it."""

    game: object
    decks: Callable  # (players, seed) -> engine decks
    setups: tuple  # (players, options) pairs
    seeds: int  # playouts per set-up
    viewed: int  # of which this many check every seat's view at every step
    conserved: Callable  # state -> None, asserting the game's card count
    refused: Callable  # (state, rng) -> candidate actions, some not legal
    secrets: Callable  # (state, seat) -> {(key, value)} the seat's view must not show


def _cl_decks(players, seed):
    return [practice_deck(tag, text=True) for tag in "ABCD"[:players]]


def _cl_conserved(s):
    assert collision_all_cards(s) == list(range(len(s.cards)))
    for p in range(s.n):
        assert len(s.spin[p]) <= s.cards[s.blade[p]].spin
        if s.out[p]:
            assert s.spin[p] == []


def _cl_secrets(s, seat):
    hidden = {u for p in range(s.n) for u in s.deck[p] + s.spin[p]}
    hidden.update(u for p in range(s.n) if p != seat for u in s.hand[p])
    return {("uid", u) for u in hidden}


def _mf_decks(players, seed):
    # Half the games without the drawing Effect, which runs decks out (M6, E3).
    decks = (varied_decks, playout_decks)[seed % 2](players)
    for seat, one in enumerate(decks):
        for i, raw in enumerate(one["lineup"] + one["deck"]):
            raw["id"] = seat * 100 + i
    return decks


def _mf_secrets(s, seat):
    hidden = {(q, i) for q in range(s.players) for i in s.deck[q]}
    for q in range(s.players):
        if q != seat:
            hidden.update((q, i) for i in s.hand[q])
            hidden.update((q, i) for pile in s.boosters[q] for i in pile)
    return {("id", q * 100 + i) for q, i in hidden}


def _co_decks(players, seed):
    return [{"pack": made_up_pack(1 + 5 * players + seed % 9, seed)}]


def _co_conserved(state):
    check_invariants(state, len(state.decks[0]["pack"]))


def _co_refused(state, rng):
    return refused_sample(state, rng, len(state.decks[0]["pack"]))


def _co_secrets(state, seat):
    hidden = set(state.set_aside)
    for q in range(co.player_count(state)):
        hidden.update(state.stacks[q])
        if q != seat:
            hidden.update(state.hands[q])
    return {("card", c) for c in hidden}


def _bk_decks(players, seed):
    # Every gate and ability name is its card's own, so a name shown is a card shown.
    return secret_decks(players)


def _bk_refused(state, rng):
    return [rng.choice(ALL_ACTIONS) for _ in range(4)]


def _bk_secrets(state, seat):
    return {("name", name) for name in hidden_names(state, seat)}


CASES = {
    "collision": Case(
        cl,
        _cl_decks,
        ((2, {"advanced": False}), (2, {"advanced": True}), (3, {"advanced": True})),
        20,
        3,
        _cl_conserved,
        junk_actions,
        _cl_secrets,
    ),
    "metal-fusion": Case(
        mf,
        _mf_decks,
        ((2, {"variant": "left"}), (3, {"variant": "left"}), (4, {"variant": "all"})),
        25,
        4,
        mf_conserved,
        lambda state, rng: [rng.choice(SAMPLE) for _ in range(4)],
        _mf_secrets,
    ),
    "collide-o": Case(
        co,
        _co_decks,
        (
            (2, {"players": 2}),
            (3, {"players": 3, "challenges": True}),
            (5, {"players": 5}),
        ),
        40,
        6,
        _co_conserved,
        _co_refused,
        _co_secrets,
    ),
    "bakugan": Case(
        bk,
        _bk_decks,
        ((2, {"players": 2}), (4, {"players": 4})),
        40,
        6,
        check_conservation,
        _bk_refused,
        _bk_secrets,
    ),
}


SETUPS = [
    pytest.param(slug, players, options, id=f"{slug}-{players}-{i}")
    for slug, case in CASES.items()
    for i, (players, options) in enumerate(case.setups)
]
