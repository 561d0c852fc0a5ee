"""The deck doctor: "Improve this deck" by single-card swaps, played by the workers.

``doctor_start`` lists the legal single-card swaps of a deck (one copy of a card
out, one copy of another card in, in the same zone; the card in comes from the
owner's collection or from all the game's cards the owner may see), keeps at
most ``MAX_CANDIDATES`` of them (a seeded pick when there are more), and plays
them in rounds on the task workers, one ``run_doctor_candidate`` task per
candidate and round, so any number of workers play them in parallel. Every
candidate plays the same seeds (game i has seed ``seed + i``) against the same
opponent (the chosen deck, or the deck as it is for a mirror), so the
differences come from the swap, not the deal.

Rounds: the first plays ``games`` games of every swap and of the deck as it is
(candidate 0). When a round's last candidate ends, ``overlapping`` ranks the
swaps by win rate: those below the top ``TOP`` whose 95% interval still
reaches the top's, and those of the top whose interval reaches theirs, play
another ``games`` games (with the deck as it is, so the baseline keeps up),
until none overlaps (separated) or the next round would pass the budget
(``BUDGET_ROUNDS`` first rounds' worth of games) or ``MAX_ROUNDS``. The
decisions depend only on the results, so a seed gives the same rounds and the
same ranking however many workers played them. Then ``doctor_figures`` ranks
the swaps by win-rate gain over candidate 0 and keeps the top ``TOP``, each
with its 95% interval and its games, and says whether they separated.
``doctor_cancel`` stops a run between games; ``doctor_apply`` writes a
suggestion as the deck's next version through ``decks.services``. One user has
at most ``MAX_UNFINISHED`` runs waiting or running at once, and a run's budget
counts against the user's quota of worker time (``workload``), both checked
before the swaps are searched. A candidate whose worker died is queued again by
``watch_doctor`` or the run's page, as a report's slice is.

Decision: the swap keeps the card's zone, so a deck's shape (Collision's Blade,
Metal Fusion's line-up) stays as the rules want it; a swap that breaks a rule
(copies, size, a shared pack's minimum) is never offered, as every candidate is
checked by ``decks.rules`` exactly as a playtest checks a deck.

Decisions on the rounds, where the issue is silent: intervals that touch count
as overlapping (a tie is not a separation); the deck as it is plays every round,
so a gain is never measured against a baseline with fewer games than the swap;
swaps with equal win rates rank by their place in the list (the seeded order);
with five swaps or fewer there is nothing to separate and one round is played;
a round runs only whole (every racing swap its ``games`` more), so the budget
is never passed and a seed's rounds do not depend on timing.
"""

from __future__ import annotations

import math
import time

from django.db import transaction
from django.db.models import F
from django_tasks import task

from cards.community.readings import cards_as_read, entries_as_read
from cards.games import GAMES
from cards.models import Card
from collection.models import CollectionEntry

from ..engine import engine_for
from ..engine.bots import BOT_NAMES, make_bot, play_out
from ..engine.core import Rng, seed_state
from ..rules import is_legal, to_lines, validate_deck
from ..services import deck_set_entries
from .adapter import (
    PlaytestError,
    card_to_engine,
    deck_entries,
    engine_decks,
    read_deck,
)
from .models import DeckDoctor, DeckDoctorCandidate
from .reports import wilson_interval
from .workload import (
    UNFINISHED,
    JobStopped,
    Progress,
    claim_part,
    fair_priorities,
    game_cost,
    lock_owner,
    refuse_if_busy,
    refuse_over_quota,
    requeue_silent,
    watch_job,
    watch_later,
)

MAX_CANDIDATES = 40
MAX_GAMES = 1000  # per candidate and round
MIN_GAMES = 20
# A run plays at most this many first rounds' worth of games, in MAX_ROUNDS.
BUDGET_ROUNDS = 4
MAX_ROUNDS = 8
MAX_POOL = 300  # cards considered for the card in
MAX_TRIES = 3000  # swaps checked by the rules at most
MAX_UNFINISHED = 1
TOP = 5
SOURCES = {"game": "the game's cards", "collection": "your collection"}
CANCEL_EVERY = 0.5  # seconds between a running candidate's looks at the run's status


def _entry_dicts(entries) -> list[dict]:
    """Return ``{"card": Card, "quantity", "zone", "g_power"}`` for a deck's entries."""
    return [
        {
            "card": line.card,
            "quantity": line.quantity,
            "zone": line.zone,
            "g_power": line.g_power,
        }
        for line in to_lines(entries)
    ]


def _saved_slots(entries) -> list[dict]:
    """Return a deck's entries as the deck service takes them, each slot as saved
    (the copy it names, or its typed G-Power), so a swap keeps the other slots."""
    return [
        {
            "card": e.card,
            "quantity": e.quantity,
            "zone": e.zone,
            **(
                {"copy": e.copy_id}
                if e.named_copy() is not None
                else {"g_power": e.g_power}
            ),
        }
        for e in entries
    ]


def swapped(entries: list[dict], out: Card, card_in: Card, zone: str) -> list[dict]:
    """Return ``entries`` with one copy of ``out`` in ``zone`` swapped for ``card_in``."""
    result, added, taken = [], False, False
    for entry in entries:
        # One copy goes: a card may sit on two lines (two figure copies' G-Power).
        if not taken and entry["card"].pk == out.pk and entry["zone"] == zone:
            taken = True
            if entry["quantity"] > 1:
                result.append({**entry, "quantity": entry["quantity"] - 1})
        elif not added and entry["card"].pk == card_in.pk and entry["zone"] == zone:
            result.append({**entry, "quantity": entry["quantity"] + 1})
            added = True
        else:
            result.append(entry)
    if not added:
        result.append({"card": card_in, "quantity": 1, "zone": zone})
    return result


def _pool(owner, deck, source: str) -> list[Card]:
    """Return the cards that may come in, in a stable order."""
    cards = Card.objects.visible_to(owner).filter(card_set__game=deck.game)
    if source == "collection":
        owned = CollectionEntry.objects.of(owner).filter(quantity__gt=0)
        cards = cards.filter(pk__in=owned.values("card"))
    return list(cards.select_related("card_set__game").order_by("pk")[:MAX_POOL])


def swap_candidates(
    *, owner, deck, source: str = "game", seed: int = 1, limit: int = MAX_CANDIDATES
) -> list[tuple[Card, Card, str, list[dict]]]:
    """Return (card out, card in, zone, entries) for legal single-card swaps of ``deck``.

    Each candidate deck is legal by ``decks.rules`` and playable by the engine.
    The swaps are tried in an order seeded by ``seed`` until ``limit`` are found
    (at most ``MAX_TRIES`` tried), and returned in the deck's order.
    """
    slug = deck.game.slug
    engine = engine_for(slug)
    # The deck as its playtest reads it: the owner's readings, each figure slot
    # playing its copy.
    entries = _entry_dicts(read_deck(deck, owner)[1])
    lines = [
        entry
        for _, entry in sorted({(e["card"].pk, e["zone"]): e for e in entries}.items())
    ]
    pool = [
        c
        for c in cards_as_read(owner, _pool(owner, deck, source))
        if not engine.card_problems(card_to_engine(c))
    ]
    pairs = [
        (i, j)
        for i, line in enumerate(lines)
        for j, card_in in enumerate(pool)
        if card_in.pk != line["card"].pk
    ]
    Rng(seed_state(seed, 404)).shuffle(pairs)
    found = []
    for i, j in pairs[:MAX_TRIES]:
        line, card_in = lines[i], pool[j]
        candidate = swapped(entries, line["card"], card_in, line["zone"])
        if is_legal(validate_deck(slug, candidate, players=2)):
            found.append(((i, j), (line["card"], card_in, line["zone"], candidate)))
            if len(found) == limit:
                break
    return [swap for _, swap in sorted(found, key=lambda item: item[0])]


def doctor_start(
    *,
    owner,
    deck,
    opponent_deck=None,
    source: str = "game",
    games: int = 200,
    bot: str = "greedy",
    seed: int = 1,
) -> DeckDoctor:
    """Store a deck doctor run and queue its candidates for the workers."""
    if deck.owner_id != owner.pk:
        raise PlaytestError("not_owner", "Only the deck's owner can improve it.", 403)
    if bot not in BOT_NAMES:
        raise PlaytestError("bad_bot", f"The bots are one of: {', '.join(BOT_NAMES)}.")
    if source not in SOURCES:
        raise PlaytestError(
            "bad_source", "Cards come from the game or your collection."
        )
    if not isinstance(games, int) or not MIN_GAMES <= games <= MAX_GAMES:
        raise PlaytestError(
            "bad_games", f"Each candidate plays {MIN_GAMES} to {MAX_GAMES} games."
        )
    if not isinstance(seed, int) or not 0 <= seed < 2**53:
        raise PlaytestError("bad_seed", "The seed is a whole number from 0 to 2^53.")
    slug = deck.game.slug
    opponent = opponent_deck or deck
    if opponent.game_id != deck.game_id:
        raise PlaytestError("bad_deck", "The opponent's deck is for another game.")
    # The limits first: a refused start costs no search of the swaps.
    _refuse_over_limits(owner, slug, bot, games, candidates=2)
    shared = GAMES[slug].shared_pack
    players = 2
    seat_decks = [deck] if shared else [deck, opponent]
    checked = engine_decks(slug, seat_decks, players=players, reader=owner)
    swaps = swap_candidates(owner=owner, deck=deck, source=source, seed=seed)
    if not swaps:
        raise PlaytestError(
            "no_swaps",
            f"No single-card swap from {SOURCES[source]} keeps this deck legal.",
        )
    built = [(None, None, "", checked[0])]
    for out, card_in, zone, entries in swaps:
        built.append(
            (
                out,
                card_in,
                zone,
                engine_decks(slug, [(deck.name, entries)], players=2)[0],
            )
        )
    with transaction.atomic():
        # Again under the owner's row lock, with the real number of candidates:
        # two starts at once cannot both pass.
        lock_owner(owner)
        _refuse_over_limits(owner, slug, bot, games, candidates=len(built))
        priorities = fair_priorities(owner, len(built))
        doctor = DeckDoctor.objects.create(
            owner=owner,
            deck=deck,
            opponent_deck=opponent_deck,
            game=slug,
            bot=bot,
            source=source,
            games=games,
            seed=seed,
            options={"players": players} if shared else {},
            opponent={} if shared else checked[1],
            total_games=games * len(built),
            budget=games * len(built) * BUDGET_ROUNDS,
            rounds=[
                {
                    "round": 1,
                    "candidates": list(range(1, len(built))),
                    "games": games * len(built),
                }
            ],
        )
        candidates = DeckDoctorCandidate.objects.bulk_create(
            DeckDoctorCandidate(
                doctor=doctor,
                index=i,
                zone=zone,
                card_out=out,
                card_in=card_in,
                deck=engine_deck,
                target=games,
            )
            for i, (out, card_in, zone, engine_deck) in enumerate(built)
        )
        transaction.on_commit(lambda: enqueue_candidates(candidates, priorities))
        transaction.on_commit(lambda: watch_later(watch_doctor, doctor.pk))
    return doctor


def _refuse_over_limits(owner, slug: str, bot: str, games: int, candidates: int):
    """Refuse a run when one is unfinished or its budget passes the owner's quota."""
    refuse_if_busy(
        DeckDoctor,
        owner,
        MAX_UNFINISHED,
        "too_many_doctors",
        f"At most {MAX_UNFINISHED} deck doctor run of yours waits or runs at"
        " once; cancel it or wait for it to finish.",
    )
    per_game = game_cost(slug, bot) * candidates * BUDGET_ROUNDS

    def fits(room: float) -> str:
        most = math.floor(room / per_game)
        if most < MIN_GAMES:
            return "Nothing more fits until one of them finishes or you cancel it."
        return f"With this bot, at most {most} games per candidate fit now."

    refuse_over_quota(owner, games * per_game, fits)


def enqueue_candidates(candidates, priorities) -> None:
    """Put one task per candidate on the queue, at its place in its owner's queue."""
    for candidate, priority in zip(candidates, priorities, strict=True):
        run_doctor_candidate.using(priority=priority).enqueue(
            candidate.pk, candidate.attempt
        )


def candidate_play(
    candidate: DeckDoctorCandidate, start: int, end: int, stop=None, progress=None
) -> tuple[int, int, int]:
    """Play games ``start`` to ``end - 1`` of a candidate; return (games, wins, draws).

    Game i has the seed ``doctor.seed + i`` for every candidate, so all play the
    same deals. ``stop()`` is asked every ``CANCEL_EVERY`` seconds (when it says
    so, the games so far are returned); ``progress(n)`` after each game.
    """
    doctor = candidate.doctor
    game = engine_for(doctor.game)
    decks = (
        [candidate.deck] if not doctor.opponent else [candidate.deck, doctor.opponent]
    )
    wins = draws = 0
    looked = time.monotonic()
    for i in range(start, end):
        if stop is not None and time.monotonic() - looked >= CANCEL_EVERY:
            if stop():
                return i - start, wins, draws
            looked = time.monotonic()
        game_seed = doctor.seed + i
        state = game.new_game(decks, doctor.options, game_seed)
        seats = game.player_count(state)
        bots = [make_bot(doctor.bot, game_seed * 31 + s) for s in range(seats)]
        state = play_out(game, state, bots, Rng(seed_state(game_seed, 7)))
        winner = game.winner(state)
        wins += winner == 0
        draws += winner is None
        if progress is not None:
            progress(i - start + 1)
    return end - start, wins, draws


def _rate(c) -> float:
    return (c.wins + c.draws / 2) / c.games if c.games else 0.0


def overlapping(rows, top: int = TOP) -> list[int]:
    """Return the swaps still too close to tell from the top ``top``: the next round's.

    ``rows`` holds (index, games, points) per swap, points being wins + draws / 2.
    The swaps are ranked by win rate (then index); a swap below the top ``top``
    whose 95% interval reaches the lowest interval of the top (its high end at
    or above their lowest low end) is still in the race, and so is each of the
    top whose interval reaches the highest of those below. None: the top are
    separated from the rest (or there is no rest), and the rounds stop.
    """
    intervals = {i: wilson_interval(points, games) for i, games, points in rows}
    ranked = sorted(rows, key=lambda r: (-(r[2] / r[1] if r[1] else 0.0), r[0]))
    best, rest = [r[0] for r in ranked[:top]], [r[0] for r in ranked[top:]]
    if not best or not rest:
        return []
    floor = min(intervals[i][0] for i in best)
    ceiling = max(intervals[i][1] for i in rest)
    if ceiling < floor:
        return []
    return sorted(
        [i for i in best if intervals[i][0] <= ceiling]
        + [i for i in rest if intervals[i][1] >= floor]
    )


def doctor_figures(doctor: DeckDoctor, candidates, separated: bool = True) -> dict:
    """Return the baseline and the top swaps by win-rate gain, with 95% intervals."""
    base = candidates[0]
    p0 = _rate(base)
    rows = []
    # The swaps are named as the deck's owner reads the cards.
    cards_as_read(
        doctor.owner, [x for c in candidates[1:] for x in (c.card_out, c.card_in)]
    )
    for c in candidates[1:]:
        p = _rate(c)
        low, high = wilson_interval(c.wins + c.draws / 2, c.games)
        spread = 1.96 * math.sqrt(
            p * (1 - p) / max(1, c.games) + p0 * (1 - p0) / max(1, base.games)
        )
        gain = p - p0
        rows.append(
            {
                "index": c.index,
                "zone": c.zone,
                "out": {"id": c.card_out_id, "name": c.card_out.display_name},
                "in": {"id": c.card_in_id, "name": c.card_in.display_name},
                "games": c.games,
                "win_rate": round(p, 4),
                "interval": [round(low, 4), round(high, 4)],
                "gain": round(gain, 4),
                "gain_interval": [round(gain - spread, 4), round(gain + spread, 4)],
            }
        )
    rows.sort(key=lambda r: (-r["gain"], r["index"]))
    low, high = wilson_interval(base.wins + base.draws / 2, base.games)
    return {
        "baseline": {
            "games": base.games,
            "win_rate": round(p0, 4),
            "interval": [round(low, 4), round(high, 4)],
        },
        "candidates": len(candidates) - 1,
        "top": rows[:TOP],
        "rounds": doctor.rounds,
        "separated": separated,
        "games": sum(c.games for c in candidates),
        "budget": doctor.budget,
    }


def _stop(doctor_id: int) -> bool:
    status = DeckDoctor.objects.filter(pk=doctor_id).values_list("status", flat=True)
    return status.first() not in (DeckDoctor.Status.QUEUED, DeckDoctor.Status.RUNNING)


def candidate_run(candidate_id: int, attempt: int = 0) -> None:
    """Play one candidate's games of this round; the round's last one decides.

    A candidate plays from the games it has to its ``target``. It writes once
    when it ends (and its progress every ``DECK_JOB_PROGRESS_MS`` on the way),
    under the run's row lock, so the ends come one at a time and exactly one
    finds the round over. That one either starts the next round (``next_round``)
    or ranks the candidates. A candidate already done (its task run twice), or
    of a run cancelled or failed, or of an attempt since superseded (its worker
    was thought dead), is skipped; cancelled, it stops between games.
    """
    candidate = DeckDoctorCandidate.objects.select_related("doctor").get(
        pk=candidate_id
    )
    doctor = candidate.doctor
    if candidate.done or candidate.attempt != attempt or not doctor.unfinished:
        return
    if not claim_part(candidate):
        return
    if doctor.status == DeckDoctor.Status.QUEUED:
        DeckDoctor.objects.filter(pk=doctor.pk, status=DeckDoctor.Status.QUEUED).update(
            status=DeckDoctor.Status.RUNNING
        )
    start, end = candidate.games, candidate.target
    progress = Progress(DeckDoctor, doctor.pk, candidate)
    try:
        games, wins, draws = candidate_play(
            candidate, start, end, lambda: _stop(doctor.pk), progress.step
        )
    except JobStopped:
        return
    except Exception as exc:  # the page must say what went wrong
        DeckDoctor.objects.filter(pk=doctor.pk).update(
            status=DeckDoctor.Status.FAILED, error=str(exc)[:2000]
        )
        raise
    if games < end - start:  # cancelled: the run is over, nothing more to rank
        return
    with transaction.atomic():
        doctor = DeckDoctor.objects.select_for_update().get(pk=doctor.pk)
        stored = DeckDoctorCandidate.objects.filter(
            pk=candidate.pk, done=False, games=start, attempt=attempt
        ).update(
            done=True,
            games=end,
            wins=F("wins") + wins,
            draws=F("draws") + draws,
            progress=0,
        )
        if not stored:
            return
        if doctor.candidates.filter(done=False).exists():
            DeckDoctor.objects.filter(pk=doctor.pk).update(
                done_games=F("done_games") + progress.rest(games)
            )
            return
        candidates = list(
            doctor.candidates.select_related("card_out", "card_in").order_by("index")
        )
        next_round(doctor, candidates)


def next_round(doctor: DeckDoctor, candidates: list[DeckDoctorCandidate]) -> None:
    """After a round: play another for the swaps still in the race, or rank them.

    Another round plays ``doctor.games`` more games of each swap ``overlapping``
    names and of the deck as it is (so every gain is measured against a baseline
    with at least its own games), when it fits in the budget and ``MAX_ROUNDS``.
    Called under the run's row lock by the round's last candidate; what it
    decides depends only on the games' results, so a seed gives the same rounds
    and ranking whatever the number of workers.
    """
    race = overlapping(
        [(c.index, c.games, c.wins + c.draws / 2) for c in candidates[1:]]
    )
    more = doctor.games * (len(race) + 1)
    if (
        race
        and doctor.round < MAX_ROUNDS
        and doctor.total_games + more <= doctor.budget
    ):
        playing = [0, *race]
        rounds = [
            *doctor.rounds,
            {"round": doctor.round + 1, "candidates": race, "games": more},
        ]
        started = DeckDoctor.objects.filter(
            pk=doctor.pk, status=DeckDoctor.Status.RUNNING
        ).update(
            round=doctor.round + 1,
            rounds=rounds,
            total_games=doctor.total_games + more,
            done_games=doctor.total_games,
        )
        if not started:  # cancelled meanwhile
            return
        again = [c for c in candidates if c.index in playing]
        priorities = fair_priorities(doctor.owner, len(again))
        DeckDoctorCandidate.objects.filter(pk__in=[c.pk for c in again]).update(
            done=False, target=F("target") + doctor.games, heartbeat=None
        )
        transaction.on_commit(lambda: enqueue_candidates(again, priorities))
        return
    DeckDoctor.objects.filter(pk=doctor.pk, status=DeckDoctor.Status.RUNNING).update(
        status=DeckDoctor.Status.DONE,
        result=doctor_figures(doctor, candidates, separated=not race),
        done_games=doctor.total_games,
    )


def doctor_requeue_stale(doctor: DeckDoctor, taken: bool = False) -> int:
    """Queue again the candidates of ``doctor`` whose worker fell silent."""
    return requeue_silent(
        doctor, doctor.candidates.all(), run_doctor_candidate, enqueue_candidates, taken
    )


def doctor_watch(doctor_id: int) -> None:
    """Queue again a run's silent candidates, and look again later while it lasts."""
    doctor = DeckDoctor.objects.filter(pk=doctor_id).first()
    watch_job(doctor, watch_doctor, doctor_requeue_stale)


@task()
def run_doctor_candidate(candidate_id: int, attempt: int = 0) -> None:
    """Play one deck doctor candidate's round (any worker; see ``candidate_run``)."""
    candidate_run(candidate_id, attempt)


@task()
def watch_doctor(doctor_id: int) -> None:
    """Look for candidates left by a dead worker (see ``doctor_watch``)."""
    doctor_watch(doctor_id)


def doctor_cancel(*, doctor: DeckDoctor) -> DeckDoctor:
    """Stop a run: its queued candidates are skipped, running ones stop between games."""
    DeckDoctor.objects.filter(pk=doctor.pk, status__in=UNFINISHED).update(
        status=DeckDoctor.Status.CANCELLED
    )
    doctor.refresh_from_db()
    return doctor


def doctor_apply(*, doctor: DeckDoctor, index: int, user):
    """Write suggestion ``index`` onto the deck as it is now, as its next version, once."""
    with transaction.atomic():
        # Applies of one run queue on its row; the first marks the suggestion
        # applied, so a double click or four tabs make one swap and one version.
        doctor = (
            DeckDoctor.objects.select_for_update()
            .select_related("deck__game")
            .get(pk=doctor.pk)
        )
        return _apply(doctor, index, user)


def _apply(doctor: DeckDoctor, index: int, user):
    if doctor.owner_id != user.pk or doctor.deck.owner_id != user.pk:
        raise PlaytestError("not_owner", "Only the deck's owner can change it.", 403)
    if doctor.status != DeckDoctor.Status.DONE or not any(
        row["index"] == index for row in doctor.result.get("top", [])
    ):
        raise PlaytestError("bad_suggestion", "There is no such suggestion.")
    applied = doctor.result.get("applied", [])
    if index in applied:
        raise PlaytestError(
            "applied", "This swap has been applied to the deck already.", status=409
        )
    candidate = doctor.candidates.select_related("card_out", "card_in").get(index=index)
    deck = doctor.deck
    entries = _saved_slots(entries_as_read(user, deck_entries(deck)))
    if not any(
        e["card"].pk == candidate.card_out_id and e["zone"] == candidate.zone
        for e in entries
    ):
        raise PlaytestError(
            "deck_changed",
            f"The deck no longer holds {candidate.card_out.display_name} in its"
            f" {candidate.zone}; run the deck doctor again.",
            status=409,
        )
    card_in = cards_as_read(user, [candidate.card_in])[0]
    changed = swapped(entries, candidate.card_out, card_in, candidate.zone)
    problems = validate_deck(deck.game.slug, changed, players=2)
    if not is_legal(problems):
        raise PlaytestError(
            "illegal_deck",
            "The deck has changed since, and this swap would make it illegal.",
            status=409,
        )
    deck = deck_set_entries(
        deck=deck,
        entries=[{**e, "card": e["card"].pk} for e in changed],
    )
    doctor.result = {**doctor.result, "applied": [*applied, index]}
    doctor.save(update_fields=["result"])
    return deck
