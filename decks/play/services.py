"""Playtests: whole games stored as seed and action log, played through the engines.

Seats are human (the deck's owner), hot-seat humans, or bots (ruling E1: the
rules apply the same to all). Bots move by themselves after every human action.
Chance steps (where a rolled Bakugan lands) are drawn from the seed with the
engine's stated odds, or entered by the player when the game was started with
``chance="choose"``. Every change bumps ``version``: an action chosen from an
older version is refused as stale. Undo replays the log minus its tail and keeps
the tail in ``undone``, so nothing is ever lost.

Matches (``Game.match`` in ``cards.games``; the rule itself is the engine's
``Match``, ``match_winner``, ``next_game_first``): ``playtest_create`` with
``match=True`` starts game 1, ``match_next_game`` starts the next once a game
is over, passing on who goes first (Collision: the loser, ruling C13). The
score is read from the games' winners. Once the next game has started, the
game before it is settled: undo refuses to change its result, and a second
"next game" from a stale tab is refused. Restarting or branching the match's
latest game puts the new game in its place (the old one stays, as a single
game); a branch of an earlier game is a single game.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction
from django.utils import timezone

from cards.choices import SetKind
from cards.games import GAMES

from ..budgets import (
    BOT_THINKING,
    VISITOR_GAMES,
    BudgetSpent,
    Stopwatch,
    budget_charge,
    budget_check,
)
from ..copies import takes_copy, unrecorded_copies
from ..engine import engine_for
from ..engine.bots import BOT_NAMES, make_bot
from ..engine.core import CHANCE, EngineError, Rng, replay, resolve_chance, seed_state
from ..models import Deck
from .adapter import (
    PlaytestError,
    blocked_cards,
    engine_decks,
    entries_to_engine,
    read_deck,
)
from .models import VISITOR_GAME_LIFE, DeckReport, Playtest, PlaytestMatch
from .opponents import (
    available_presets,
    default_opponent,
    opponent_groups,
    played,
    resolve_opponent,
)

BOT_KINDS = BOT_NAMES
HUMAN_KINDS = ("human", "hotseat")
SEED_CHANCE = "chance:seed"


@dataclass
class Choice:
    id: str
    label: str


def _seat_is_human(seats, seat: int) -> bool:
    return 0 <= seat < len(seats) and seats[seat]["kind"] in HUMAN_KINDS


def _advance(
    game,
    state,
    pt_seed: int,
    seats,
    chance_mode: str,
    log: list,
    steps: list,
    *,
    thinker,
):
    """Play bot seats and seed-drawn chance steps until a human must act or the game ends.

    The bots' thinking is charged to ``thinker`` (``budgets.BOT_THINKING``), whose
    budget is checked before the first bot move: when spent, the request is
    refused (429) and nothing is played.
    """
    watch = None
    while not game.is_over(state):
        seat = game.to_act(state)
        turn = game.length(state)
        if seat == CHANCE:
            if chance_mode == "choose" and any(s["kind"] in HUMAN_KINDS for s in seats):
                break
            action = resolve_chance(
                game, state, Rng(seed_state(pt_seed, 50_000 + len(log)))
            )
        elif _seat_is_human(seats, seat):
            # "Play forced moves for me": a move that is the seat's only legal
            # one is played for it, logged like any other and undone with the
            # player's last real choice (marked as not the player's own).
            if not seats[seat].get("auto"):
                break
            actions = game.legal_actions(state)
            if len(actions) != 1:
                break
            action = actions[0]
        else:
            if watch is None:
                _check_thinking(thinker)
                watch = Stopwatch()
            with watch:
                bot = make_bot(
                    seats[seat]["kind"], (pt_seed * 1_000_003 + len(log)) & 0x7FFFFFFF
                )
                action = bot.choose(game, state)
        state = game.apply(state, action, inplace=True)
        log.append(action.text)
        steps.append([seat, turn, False])
    if watch is not None:
        budget_charge(
            budget=BOT_THINKING,
            user=thinker,
            address=_address(thinker),
            amount=watch.seconds,
        )
    return state


def hints_offered(pt: Playtest) -> bool:
    """Return whether the coach's hints are offered: a practice game, hints on.

    A practice game has a human seat and a bot seat; hot-seat players teach
    each other.
    """
    return pt.hints and practice_game(pt)


def practice_game(pt: Playtest) -> bool:
    """Return whether ``pt`` is a practice game: a human seat against bots."""
    kinds = [s["kind"] for s in pt.seats]
    return any(k in BOT_KINDS for k in kinds) and any(k in HUMAN_KINDS for k in kinds)


def _address(player) -> str | None:
    """Return a visitor's address (budgets count a visitor by it), None for a user."""
    return getattr(player, "address", None)


def _check_thinking(user) -> None:
    """Refuse (429, with when to retry) once ``user`` has spent the bots' budget."""
    _check_budget(BOT_THINKING, user, "bot_budget")


def _check_budget(budget, player, code: str) -> None:
    """Refuse (429, with when to retry) once ``player`` has spent ``budget``."""
    try:
        budget_check(budget=budget, user=player, address=_address(player))
    except BudgetSpent as spent:
        raise PlaytestError(
            code, spent.message, status=429, retry_after=spent.retry_after
        ) from None


def _player(owner, *, match: bool = False) -> dict:
    """Return the fields that make a new game ``owner``'s: a user's, or a visitor's.

    A visitor (no account) starts a few games per address per hour, and no match.
    """
    if getattr(owner, "is_authenticated", False):
        return {"owner": owner}
    if not getattr(owner, "key", ""):
        raise PlaytestError("not_found", "No such player.", status=404)
    if match:
        raise PlaytestError(
            "sign_up", "A match is kept for players with an account.", status=403
        )
    _check_budget(VISITOR_GAMES, owner, "visitor_games")
    return {"owner": None, "visitor_key": owner.key}


def _visitor_started(visitor) -> None:
    """Count a visitor's new game against their address; remove the day-old ones."""
    budget_charge(budget=VISITOR_GAMES, address=visitor.address, amount=1)
    # Visitors' games go a day after they start, whether or not a cron runs.
    playtest_purge_visitors()


MAX_NAME = 30


def hotseat_names(names, players: int) -> list[str]:
    """Return the hot-seat players' names, one per seat: "Player N" where none is given.

    A name is trimmed to one line of at most ``MAX_NAME`` characters; two
    players may not share a name (the log would not say who did what).
    """
    if isinstance(names, str) or not isinstance(names, (list, tuple)):
        raise PlaytestError("bad_names", "The players' names are a list.")
    result = []
    for i in range(players):
        raw = names[i] if i < len(names) else ""
        name = " ".join(str(raw or "").split())
        if any(not ch.isprintable() for ch in name):
            raise PlaytestError(
                "bad_names", "A player's name holds a control character."
            )
        if len(name) > MAX_NAME:
            raise PlaytestError(
                "bad_names", f"A player's name is at most {MAX_NAME} characters."
            )
        result.append(name or f"Player {i + 1}")
    if len({n.casefold() for n in result}) < len(result):
        raise PlaytestError("bad_names", "Each player needs a name of their own.")
    return result


def playtest_create(
    *,
    owner,
    deck,
    opponent: str = "random",
    opponent_decks=(),
    players: int = 2,
    seed: int | None = None,
    options: dict | None = None,
    chance: str = "seed",
    autoplay: bool = False,
    names=(),
    match: bool = False,
) -> Playtest:
    """Start a game of ``deck`` against bots or hot-seat and store it.

    ``owner`` is a user or a ``visitors.Visitor`` (``_player``); ``deck`` is a
    Deck or an ``opponents.Starter`` (a starter deck, kept as its cards alone).

    In hot-seat, ``names`` are the players' names by seat (names.py speaks
    them on the board, in the log, the buttons and the replay).

    With ``match``, the game is game 1 of a match (the game's ``Game.match``
    mode, for the seat counts it names); ``match_next_game`` starts the next.

    With ``autoplay`` ("play forced moves for me"), a human seat's move that is
    its only legal one is played for it (the start page ticks it by default).

    The engine checks the options (``bad_options``); the adapter checks the decks.
    """
    game_slug = deck.game.slug
    game = engine_for(game_slug)
    _check_start(game, game_slug, opponent, chance, players, match)
    player = _player(owner, match=match)
    if seed is None:
        seed = secrets.randbelow(2**31)
    if not isinstance(seed, int) or not 0 <= seed < 2**53:
        raise PlaytestError("bad_seed", "The seed is a whole number from 0 to 2^53.")
    if options is not None and not isinstance(options, dict):
        raise PlaytestError("bad_options", "Options must be an object.")
    engine_options = dict(options or {})
    for d in opponent_decks:
        if isinstance(d, Deck) and d.game_id != deck.game_id:
            raise PlaytestError("bad_deck", f"The deck {d.name!r} is for another game.")
    decks, labels, deck_ids = _field(owner, deck, opponent_decks, seed)
    if GAMES[game_slug].shared_pack:
        seat_index = [0]
        engine_options["players"] = players
    else:
        # Seat 0 is the deck; the others take the opponents' decks in turn, the last
        # repeating (the deck itself when none is given).
        others = list(range(1, len(decks))) or [0]
        seat_index = [0] + [others[min(i, len(others) - 1)] for i in range(players - 1)]
    built = engine_decks(
        game_slug, decks, players=players, seats=seat_index, reader=owner
    )
    try:
        state = game.new_game(built, engine_options, seed)
    except EngineError as exc:
        raise PlaytestError(exc.code, exc.message) from exc
    labels_entered = hotseat_names(names, players) if opponent == "hotseat" else []
    seats = []
    for i, kind in enumerate(_seat_kinds(opponent, players)):
        index = seat_index[min(i, len(seat_index) - 1)]
        seats.append(
            {
                "kind": kind,
                "deck": deck_ids[index],
                "name": labels[index],
                **({"auto": bool(autoplay)} if kind in HUMAN_KINDS else {}),
                **({"label": labels_entered[i]} if i < len(labels_entered) else {}),
            }
        )
    log, steps = [], []
    state = _advance(game, state, seed, seats, chance, log, steps, thinker=owner)
    if player["owner"] is None:
        _visitor_started(owner)
    with transaction.atomic():
        held = (
            PlaytestMatch.objects.create(owner=owner, game=game_slug, seed=seed)
            if match
            else None
        )
        return _stored(
            game,
            state,
            **player,
            deck=deck if isinstance(deck, Deck) else None,
            game=game_slug,
            engine_version=game.VERSION,
            seats=seats,
            options=engine_options,
            chance=chance,
            seed=seed,
            decks=built,
            log=log,
            steps=steps,
            match=held,
            match_game=1 if held else None,
        )


def _check_start(game, game_slug: str, opponent, chance, players, match) -> None:
    """Refuse a start whose opponent, chance mode, player count or match is not offered."""
    if opponent not in BOT_KINDS + ("hotseat",):
        raise PlaytestError(
            "bad_opponent",
            f"The opponent is hotseat or a bot: {', '.join(BOT_KINDS)}.",
        )
    if chance not in ("seed", "choose"):
        raise PlaytestError(
            "bad_options",
            "Chance steps are drawn from the seed or chosen by the player.",
        )
    if (
        not isinstance(players, int)
        or not game.MIN_PLAYERS <= players <= game.MAX_PLAYERS
    ):
        raise PlaytestError(
            "bad_players",
            f"{game.NAME} takes {game.MIN_PLAYERS} to {game.MAX_PLAYERS} players.",
        )
    mode = GAMES[game_slug].match
    if not isinstance(match, bool):
        raise PlaytestError("bad_match", "A match is chosen or not (true or false).")
    if match and mode is None:
        raise PlaytestError(
            "no_match",
            f"{game.NAME} has no match mode: its how-to-play page says why.",
        )
    if match and players not in mode.seats:
        counts = " or ".join(str(n) for n in mode.seats)
        raise PlaytestError(
            "bad_match", f"{mode.label} is a match of {counts} players."
        )


def _field(owner, deck, opponent_decks, seed: int):
    """Return the decks in play, their labels and their ids: ``deck`` first, then the opponents'.

    Each opponent is a Deck or a value of ``opponents`` (a preset, a random
    deck drawn by the seed, a deck id, the mirror); none given: the first preset.
    """
    if GAMES[deck.game.slug].shared_pack:
        wanted = []  # one pack dealt among the seats: no opposing decks
    else:
        wanted = list(opponent_decks) or [default_opponent(deck)]
    field = [
        resolve_opponent(owner, deck, value, seed + index)
        for index, value in enumerate(wanted)
    ]
    decks = [played(deck), *(o.deck for o in field)]
    labels = [deck.name, *(o.label for o in field)]
    deck_ids = [deck.pk, *(o.deck_id for o in field)]
    return decks, labels, deck_ids


def _seat_kinds(opponent: str, players: int) -> list[str]:
    """Return each seat's kind: the deck's owner, then the opponent (all hot-seat in hot-seat)."""
    if opponent == "hotseat":
        return ["hotseat"] * players
    return ["human"] + [opponent] * (players - 1)


def _stored(engine, state, **fields) -> Playtest:
    """Create a playtest at ``state``: the caller's fields and what the state says.

    The one place a playtest row is made (a new game, a branch, a match's next
    game): the saved state, version 1, and whether and by whom it was won.
    """
    pt = Playtest.objects.create(
        state=engine.to_json(state),
        version=1,
        over=engine.is_over(state),
        winner=engine.winner(state),
        **fields,
    )
    # The caller's answer (``playtest_page_after``) needs them: no second look-up.
    pt.engine, pt.engine_state = engine, state
    return pt


def load_state(pt: Playtest):
    """Return the engine state at the end of the stored log, events and all.

    The log (seed, options, decks, action texts) is the game. Its replay is as
    quick as loading the saved form (0.4 to 1.5 ms for the longest of 200 random
    games of each set-up, against 0.3 to 0.8 ms; about 7 ms at a 300-turn cap)
    and gives the event text the saved form leaves out; a saved game of an older
    schema or engine loads the same way.
    """
    return _replay(engine_for(pt.game), pt)


def replay_to(pt: Playtest, step: int | None = None):
    """Return the state after the first ``step`` logged actions (all when None)."""
    return _replay(engine_for(pt.game), pt, step)


def _replay(engine, pt: Playtest, step: int | None = None):
    """Return ``pt``'s state after ``step`` logged actions (all when None) on ``engine``."""
    log = pt.log if step is None else pt.log[: max(0, step)]
    return replay(engine, pt.decks, pt.options, pt.seed, log)


def acting_seat(pt: Playtest, state) -> int | None:
    """Return the human seat that acts now (CHANCE for a chosen chance step), or None."""
    return _acting(engine_for(pt.game), pt, state)


def _acting(engine, pt: Playtest, state) -> int | None:
    """Return ``acting_seat`` on the engine the caller has looked up."""
    if engine.is_over(state):
        return None
    seat = engine.to_act(state)
    if seat == CHANCE:
        return CHANCE if pt.chance == "choose" else None
    return seat if _seat_is_human(pt.seats, seat) else None


def choices(pt: Playtest, state) -> list[Choice]:
    """Return the actions the player may click now, each with a stable id and a label."""
    engine = engine_for(pt.game)
    return _choices(engine, state, _acting(engine, pt, state))


def _choices(engine, state, seat: int | None) -> list[Choice]:
    """Return the choices of ``seat`` (``_acting``'s answer) on ``engine``."""
    if seat is None:
        return []
    if seat == CHANCE:
        result = [
            Choice(a.text, f"{engine.describe(state, a)} ({p:.0%})")
            for a, p in engine.chance_outcomes(state)
        ]
        return result + [Choice(SEED_CHANCE, "Let the seed decide (odds as shown)")]
    return [
        Choice(a.text, engine.describe(state, a)) for a in engine.legal_actions(state)
    ]


def _locked(playtest_id: int, user, *, full: bool = False) -> Playtest:
    # Acting replays the log: the saved form (written for readers of the row) and
    # the undone tails are not read.
    query = Playtest.objects.select_for_update()
    if not full:
        query = query.defer("state", "undone")
    try:
        return query.of(user).get(pk=playtest_id)
    except (Playtest.DoesNotExist, ValueError, TypeError):
        raise PlaytestError("not_found", "No such game.", status=404) from None


def _check_version(pt: Playtest, version: int) -> None:
    """Refuse a change asked from a page older than the game's ``version``."""
    if version != pt.version:
        raise PlaytestError(
            "stale_state",
            "This game has moved on since that page was loaded. It has been refreshed.",
            status=409,
        )


def _save(pt: Playtest, game, state, log, steps, *, undone: bool = False) -> Playtest:
    pt.log, pt.steps = log, steps
    pt.state = game.to_json(state)
    pt.version += 1
    pt.over = game.is_over(state)
    pt.winner = game.winner(state)
    fields = ["log", "steps", "state", "version", "over", "winner", "updated_at"]
    pt.save(update_fields=fields + (["undone"] if undone else []))
    # The caller's answer (``playtest_page_after``) needs them: no second look-up.
    pt.engine, pt.engine_state = game, state
    return pt


def playtest_act(
    *, playtest_id: int, user, action: str, version: int, hint: bool = False
) -> Playtest:
    """Apply the player's action chosen at ``version``; bots then move.

    ``hint``: the move was chosen from the coach's hint list, and its log step
    says so (a fourth entry, ``"hint"``), in a game that offers hints.
    """
    with transaction.atomic():
        pt = _locked(playtest_id, user)
        _check_version(pt, version)
        game = engine_for(pt.game)
        state = _replay(game, pt)
        if game.is_over(state):
            raise PlaytestError("game_over", "The game is over.")
        seat = _acting(game, pt, state)
        if seat is None:
            raise PlaytestError("not_your_turn", "It is not a player's turn to act.")
        if not isinstance(action, str) or len(action) > 200:
            raise PlaytestError("bad_action", "That is not an action of this game.")
        try:
            if seat == CHANCE and action == SEED_CHANCE:
                move = resolve_chance(
                    game, state, Rng(seed_state(pt.seed, 50_000 + len(pt.log)))
                )
            else:
                move = game.parse_action(action)
            turn = game.length(state)
            state = game.apply(state, move, inplace=True)
        except EngineError as exc:
            raise PlaytestError(exc.code, exc.message) from exc
        log, steps = list(pt.log), list(pt.steps)
        log.append(move.text)
        hinted = hint and seat != CHANCE and hints_offered(pt)
        steps.append([seat, turn, True, "hint"] if hinted else [seat, turn, True])
        state = _advance(
            game, state, pt.seed, pt.seats, pt.chance, log, steps, thinker=user
        )
        return _save(pt, game, state, log, steps)


def playtest_undo(
    *, playtest_id: int, user, to: str = "last", version: int | None = None
) -> Playtest:
    """Take back the last player action (or the player's whole turn); keep the tail."""
    with transaction.atomic():
        pt = _locked(playtest_id, user, full=True)
        if version is not None:
            _check_version(pt, version)
        _refuse_if_settled(pt)
        human = [i for i, step in enumerate(pt.steps) if step[2]]
        if not human:
            raise PlaytestError(
                "nothing_to_undo", "There is no move of yours to take back."
            )
        cut = human[-1]
        if to == "turn":
            turn = pt.steps[cut][1]
            while cut > 0 and pt.steps[cut - 1][1] == turn:
                cut -= 1
            while not pt.steps[cut][2]:
                cut += 1
        elif to != "last":
            raise PlaytestError(
                "bad_undo", "Undo takes back the last move or the whole turn."
            )
        pt.undone = [
            *pt.undone,
            {"from": cut, "log": pt.log[cut:], "steps": pt.steps[cut:]},
        ]
        game = engine_for(pt.game)
        state = _replay(game, pt, cut)
        return _save(pt, game, state, pt.log[:cut], pt.steps[:cut], undone=True)


def playtest_branch(*, playtest: Playtest, user, step: int | None = None) -> Playtest:
    """Start a new game from step ``step`` of ``playtest`` (from the start when 0, same seed)."""
    step = len(playtest.log) if step is None else step
    if not isinstance(step, int) or not 0 <= step <= len(playtest.log):
        raise PlaytestError("bad_step", "That step is not in this game.")
    game = engine_for(playtest.game)
    log, steps = playtest.log[:step], playtest.steps[:step]
    state = replay(game, playtest.decks, playtest.options, playtest.seed, log)
    log, steps = list(log), list(steps)
    state = _advance(
        game,
        state,
        playtest.seed,
        playtest.seats,
        playtest.chance,
        log,
        steps,
        thinker=user,
    )
    with transaction.atomic():
        # The latest game of a match is replaced in it by its restart or branch.
        held, place = None, None
        if playtest.match_id is not None and playtest.owner_id == user.pk:
            held = PlaytestMatch.objects.select_for_update().get(pk=playtest.match_id)
            if playtest.match_game == held.games:
                place = playtest.match_game
                Playtest.objects.filter(pk=playtest.pk).update(
                    match=None, match_game=None
                )
            else:
                held = None
        return _stored(
            game,
            state,
            owner=user,
            deck=playtest.deck,
            game=playtest.game,
            engine_version=playtest.engine_version,
            seats=playtest.seats,
            options=playtest.options,
            chance=playtest.chance,
            seed=playtest.seed,
            decks=playtest.decks,
            log=log,
            steps=steps,
            parent=playtest,
            match=held,
            match_game=place,
        )


def playtest_adopt(*, visitor_key: str, user) -> int:
    """Make a visitor's games of the last day ``user``'s own; return how many."""
    if not visitor_key or not getattr(user, "is_authenticated", False):
        return 0
    cutoff = timezone.now() - VISITOR_GAME_LIFE
    return Playtest.objects.filter(
        owner=None, visitor_key=visitor_key, created_at__gt=cutoff
    ).update(owner=user, visitor_key="")


def playtest_purge_visitors(*, now=None) -> int:
    """Remove the visitors' games that started over a day ago; return how many."""
    cutoff = (now or timezone.now()) - VISITOR_GAME_LIFE
    _, removed = Playtest.objects.filter(owner=None, created_at__lte=cutoff).delete()
    return removed.get(Playtest._meta.label, 0)


def playtest_share(*, playtest: Playtest, on: bool = True) -> Playtest:
    """Turn the read-only replay link on (a fresh token) or off."""
    playtest.share_token = secrets.token_urlsafe(24) if on else None
    playtest.save(update_fields=["share_token", "updated_at"])
    return playtest


# --- matches -----------------------------------------------------------------


@dataclass
class MatchSummary:
    """What the board and the list say of a game's match."""

    label: str  # "Best of three"
    source: str  # "ruling C13"
    draw_word: str  # "drawn", "tied"
    number: int  # this game's place in the match
    games: int  # games started
    wins: list  # per seat, games won (finished games of the match)
    draws: int
    winner: int | None  # the seat that has taken the match
    latest: int | None  # the latest game's id, when it is not this one
    links: list  # [(number, playtest id, result seat or None, over)]

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def under_way(self) -> int | None:
        """Return the number of the match's game being played, when not this one."""
        if self.latest is None or self.links[-1][3]:
            return None
        return self.links[-1][0]


def match_games(match_id: int) -> list[Playtest]:
    """Return the games of a match in order, with what the score needs."""
    return list(
        Playtest.objects.filter(match_id=match_id)
        .only("id", "match_id", "match_game", "over", "winner", "seats", "game")
        .order_by("match_game")
    )


def _match_record(engine, pt: Playtest, games: list[Playtest], state=None):
    """Return the engine's ``Match`` of ``pt``'s ``games``; ``state`` is ``pt``'s, when at hand."""
    record = engine.Match()
    for g in games:
        if not g.over:
            continue
        if g.pk == pt.pk and state is not None:
            first = engine.first_player(state)
        else:
            # Who went first is in the game's state: the other games are replayed.
            other = pt if g.pk == pt.pk else Playtest.objects.get(pk=g.pk)
            first = engine.first_player(_replay(engine, other))
        record = engine.match_record(record, first, g.winner)
    return record


def match_summary(pt: Playtest, games: list[Playtest] | None = None):
    """Return the score of ``pt``'s match as the board and the list show it (None: no match)."""
    if pt.match_id is None or GAMES[pt.game].match is None:
        return None
    games = match_games(pt.match_id) if games is None else games
    return _match_summary(engine_for(pt.game), pt, games)


def _match_summary(engine, pt: Playtest, games: list[Playtest]) -> MatchSummary:
    """Return the score of ``pt``'s match from its ``games``, in order."""
    mode = GAMES[pt.game].match
    seats = len(pt.seats or [])
    wins = [0] * seats
    draws = 0
    winners = []
    for g in games:
        if not g.over:
            continue
        winners.append(g.winner)
        if g.winner is None:
            draws += 1
        elif 0 <= g.winner < seats:
            wins[g.winner] += 1
    winner = engine.match_winner(engine.Match(winners=tuple(winners)))
    latest = games[-1].pk if games and games[-1].pk != pt.pk else None
    return MatchSummary(
        label=mode.label,
        source=mode.source,
        draw_word=mode.draw_word,
        number=pt.match_game or 0,
        games=len(games),
        wins=wins,
        draws=draws,
        winner=winner,
        latest=latest,
        links=[(g.match_game, g.pk, g.winner, g.over) for g in games],
    )


def _next_seed(match: PlaytestMatch, number: int) -> int:
    """Return game ``number``'s seed: drawn from the match's, so a match replays."""
    return (match.seed + 1_000_003 * (number - 1)) % 2**53


def _refuse_if_settled(pt: Playtest) -> None:
    """Refuse to change a game of a match once the match's next game has started."""
    if pt.match_id is None:
        return
    games = PlaytestMatch.objects.filter(pk=pt.match_id).values_list("games", flat=True)
    started = next(iter(games), 0)
    if pt.match_game is not None and started > pt.match_game:
        raise PlaytestError(
            "match_moved_on",
            f"Game {pt.match_game + 1} of this match has started: "
            "this game's result stands.",
            status=409,
        )


def match_next_game(*, playtest_id: int, user, version: int) -> Playtest:
    """Start the next game of the match ``playtest`` is the latest game of.

    Refused when the game is not over, when the match is over, and (409, as a
    stale tab) when the next game has started already or the game moved on
    since ``version`` was shown.
    """
    with transaction.atomic():
        pt = _locked(playtest_id, user)
        if pt.match_id is None:
            raise PlaytestError("not_a_match", "This game is not part of a match.")
        mode, engine = GAMES[pt.game].match, engine_for(pt.game)
        if mode is None:
            raise PlaytestError("no_match", "This game has no match mode.")
        held = PlaytestMatch.objects.select_for_update().get(pk=pt.match_id)
        if pt.match_game != held.games:
            raise PlaytestError(
                "stale_state",
                f"Game {held.games} of this match has already started.",
                status=409,
            )
        _check_version(pt, version)
        if not pt.over:
            raise PlaytestError(
                "game_not_over", "This game of the match is still being played."
            )
        games = match_games(pt.match_id)
        record = _match_record(engine, pt, games)
        if engine.match_winner(record) is not None:
            raise PlaytestError("match_over", "The match is over.")
        options = dict(pt.options)
        if mode.first_option:
            options[mode.first_option] = engine.next_game_first(record)
        number = held.games + 1
        seed = _next_seed(held, number)
        try:
            state = engine.new_game(pt.decks, options, seed)
        except EngineError as exc:
            raise PlaytestError(exc.code, exc.message) from exc
        log, steps = [], []
        state = _advance(
            engine, state, seed, pt.seats, pt.chance, log, steps, thinker=user
        )
        held.games = number
        held.save(update_fields=["games", "updated_at"])
        return _stored(
            engine,
            state,
            owner=user,
            deck_id=pt.deck_id,
            game=pt.game,
            engine_version=engine.VERSION,
            seats=pt.seats,
            options=options,
            chance=pt.chance,
            seed=seed,
            decks=pt.decks,
            log=log,
            steps=steps,
            match=held,
            match_game=number,
        )


# --- pages -------------------------------------------------------------------


@dataclass(frozen=True)
class PlaytestPage:
    """What one page (or API answer) of a playtest shows, read with one replay."""

    playtest: Playtest
    engine: Any
    state: Any
    step: int | None  # a replay's step; None: the game as it stands
    acting: int | None  # the human seat to act (CHANCE: a chosen chance step)
    viewer: int  # the seat whose view is shown
    view: Any
    choices: list[Choice]
    over: bool
    winner: int | None
    hotseat: bool
    pass_screen: bool  # hot-seat: hand the screen to ``acting`` first
    match: MatchSummary | None
    match_next: bool  # the owner may start the match's next game
    match_next_first: int | None  # who goes first in it (a seat, or None)
    error: str | None = None


def playtest_page(
    *,
    playtest: Playtest,
    step: int | None = None,
    seat: int | None = None,
    board: bool = False,
    shown: int | None = None,
) -> PlaytestPage:
    """Return ``playtest``'s page after ``step`` logged actions (the game as it stands when None).

    ``seat`` is the seat to show (the acting one when None). ``board`` is the
    owner's own board: hot-seat hands the screen to the acting seat unless
    ``shown`` is that seat, and a finished game of a match offers the next.
    """
    engine = engine_for(playtest.game)
    state = _replay(engine, playtest, step)
    return _page(
        engine, playtest, state, step=step, seat=seat, board=board, shown=shown
    )


def playtest_page_after(
    change: str,
    *,
    board: bool = False,
    shown: int | None = None,
    refused: Playtest | None = None,
    **fields,
) -> PlaytestPage:
    """Run one change ("create", "act", "undo", "next") and return the page of its game.

    ``fields`` are the change's service's arguments; ``board`` and ``shown`` are
    ``playtest_page``'s. With ``refused``, a refusal other than a stale version
    (409) or a spent bots' budget (429) answers with that game's page and the
    refusal's message instead of raising.
    """
    service = {
        "create": playtest_create,
        "act": playtest_act,
        "undo": playtest_undo,
        "next": match_next_game,
    }[change]
    try:
        pt = service(**fields)
    except PlaytestError as exc:
        # A stale tab and a spent bots' budget are answered as such (409, 429).
        if refused is None or exc.status in (409, 429):
            raise
        page = playtest_page(playtest=refused, board=board, shown=shown)
        return replace(page, error=exc.message)
    return _page(pt.engine, pt, pt.engine_state, board=board, shown=shown)


def _page(
    engine,
    pt: Playtest,
    state,
    *,
    step: int | None = None,
    seat: int | None = None,
    board: bool = False,
    shown: int | None = None,
) -> PlaytestPage:
    """Return the page of ``pt`` at ``state`` (``playtest_page`` says what the rest mean)."""
    acting = _acting(engine, pt, state) if step is None else None
    hotseat = all(s["kind"] != "human" for s in pt.seats)
    player = acting not in (None, CHANCE)
    viewer = seat if seat is not None else (acting if player else 0)
    pass_screen = False
    if hotseat and player and board and step is None:
        pass_screen = shown != acting
        viewer = acting
    over = engine.is_over(state)
    summary, offer, first = None, False, None
    if pt.match_id is not None and GAMES[pt.game].match is not None:
        games = match_games(pt.match_id)
        summary = _match_summary(engine, pt, games)
        # A replay shows the score, never the button.
        offer = board and step is None and over and not summary.over
        offer = offer and summary.latest is None
        if offer:
            first = engine.next_game_first(_match_record(engine, pt, games, state))
    return PlaytestPage(
        playtest=pt,
        engine=engine,
        state=state,
        step=step,
        acting=acting,
        viewer=viewer,
        view=engine.view(state, viewer),
        choices=_choices(engine, state, acting) if step is None else [],
        over=over,
        winner=engine.winner(state),
        hotseat=hotseat,
        pass_screen=pass_screen,
        match=summary,
        match_next=offer,
        match_next_first=first,
    )


@dataclass(frozen=True)
class PlaytestStartPage:
    """What the start form of a deck offers: opponents, other decks, the cards that block it."""

    deck: Deck
    engine: Any
    other_decks: Any  # the decks of the game the user may play against
    opponent_groups: list[dict]
    default_opponent: str
    presets: list
    # Cards whose play data is unknown, each ``can_transcribe`` or ``record_copy``.
    blocked: list[dict]


def playtest_start_page(*, user, deck: Deck) -> PlaytestStartPage:
    """Return what the start form of ``deck`` offers ``user``."""
    others = (
        Deck.objects.visible_to(user)
        .filter(game=deck.game)
        .select_related("owner")
        .order_by("name")[:200]
    )
    # Read as a playtest reads it (adapter.read_deck), so the two never disagree.
    _, lines = read_deck(deck, user)
    blocked = blocked_cards(deck.game.slug, [entries_to_engine(lines)])
    by_id = {line.card_id: line for line in lines}
    # A figure plays its owner's copies: its G-Power is recorded on a copy in
    # the collection, never on the card (copies of one figure differ).
    unplayed = {line.card_id for line in lines if takes_copy(line)}
    unrecorded = unrecorded_copies(user, unplayed) if deck.owner_id == user.pk else {}
    for b in blocked:
        b["record_copy"] = b["id"] in unplayed and deck.owner_id == user.pk
        b["copy_entry"] = unrecorded.get(b["id"])
        # Printed cards are filled in by readings; custom ones by their owner.
        b["can_transcribe"] = (
            by_id[b["id"]].card.card_set.kind != SetKind.CUSTOM
            and b["id"] not in unplayed
        )
    return PlaytestStartPage(
        deck=deck,
        engine=engine_for(deck.game.slug),
        other_decks=others,
        opponent_groups=opponent_groups(user, deck),
        default_opponent=default_opponent(deck),
        presets=available_presets(deck.game.slug),
        blocked=blocked,
    )


@dataclass(frozen=True)
class PlaytestListPage:
    """The owner's latest games (each with its ``match_summary``) and deck reports."""

    games: list[Playtest]
    reports: Any


def playtest_list_page(*, owner) -> PlaytestListPage:
    """Return ``owner``'s latest games, each with its match's score, and their reports."""
    games = list(
        Playtest.objects.filter(owner=owner).only(
            "id", "game", "over", "winner", "updated_at", "seats", "match", "match_game"
        )[:100]
    )
    # A game of a match shows the match's score: one query for all their games.
    in_matches: dict[int, list] = {}
    for g in Playtest.objects.filter(
        match_id__in={g.match_id for g in games if g.match_id}
    ).only("id", "match_id", "match_game", "over", "winner", "seats", "game"):
        in_matches.setdefault(g.match_id, []).append(g)
    for g in games:
        g.match_summary = None
        if g.match_id in in_matches:
            held = sorted(in_matches[g.match_id], key=lambda x: x.match_game or 0)
            g.match_summary = match_summary(g, held)
    reports = DeckReport.objects.filter(owner=owner).select_related("deck")[:50]
    return PlaytestListPage(games=games, reports=reports)
