"""The deck doctor: legal single-card swaps, played by the workers, applied in one click."""

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from django.db import transaction

from cards.games import GAMES
from collection.models import CollectionEntry
from decks.play.doctor import (
    BUDGET_ROUNDS,
    MAX_CANDIDATES,
    MAX_ROUNDS,
    TOP,
    candidate_run,
    doctor_apply,
    doctor_cancel,
    doctor_start,
    next_round,
    overlapping,
    swap_candidates,
)
from decks.play.models import DeckDoctor
from decks.play.services import PlaytestError
from decks.rules import is_legal, to_lines, validate_deck
from tests.utils import subprocess_env

ROOT = Path(__file__).resolve().parents[2]


def _counts(entries) -> dict:
    counts = {}
    for line in to_lines(entries):
        key = (line.card.pk, line.zone)
        counts[key] = counts.get(key, 0) + line.quantity
    return counts


@pytest.mark.django_db
@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_suggested_swap_is_a_legal_deck_one_card_away(slug, user, deck_for):
    deck = deck_for(slug)
    before = _counts(deck.entries.select_related("card__card_set__game"))
    swaps = swap_candidates(owner=user, deck=deck, seed=3)
    assert 0 < len(swaps) <= MAX_CANDIDATES
    for out, card_in, zone, entries in swaps:
        assert is_legal(validate_deck(slug, entries, players=2))
        after = _counts(entries)
        assert after.get((out.pk, zone), 0) == before[(out.pk, zone)] - 1
        assert after[(card_in.pk, zone)] == before.get((card_in.pk, zone), 0) + 1
        changed = {
            k for k in before.keys() | after.keys() if before.get(k) != after.get(k)
        }
        assert changed == {(out.pk, zone), (card_in.pk, zone)}


@pytest.mark.django_db
def test_only_cards_of_the_owners_collection_come_in_when_asked(user, deck_for):
    deck = deck_for("bakugan")
    with pytest.raises(PlaytestError) as refusal:
        doctor_start(owner=user, deck=deck, source="collection", games=20)
    assert refusal.value.code == "no_swaps"
    card = deck.entries.first().card
    others = card.card_set.cards.exclude(pk__in=deck.entries.values("card"))
    owned = list(others[:3])
    for c in owned:
        CollectionEntry.objects.create(user=user, card=c, quantity=1)
    swaps = swap_candidates(owner=user, deck=deck, source="collection")
    assert {card_in.pk for _, card_in, _, _ in swaps} <= {c.pk for c in owned}


def _run(doctor, order=None):
    """Play the run's rounds here, each round's candidates in the order given."""
    for _ in range(MAX_ROUNDS + 1):
        candidates = list(doctor.candidates.filter(done=False).order_by("index"))
        for candidate in reversed(candidates) if order == "backwards" else candidates:
            candidate_run(candidate.pk)
        doctor.refresh_from_db()
        if not doctor.unfinished or not candidates:
            break
    return doctor


@pytest.mark.django_db
def test_a_run_ranks_the_top_swaps_with_intervals_and_games(
    user, deck_for, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        doctor = doctor_start(
            owner=user, deck=deck_for("bakugan"), games=20, bot="random", seed=5
        )
    count = doctor.candidates.count()
    assert doctor.total_games == 20 * count
    doctor = _run(doctor, "backwards")
    played = sum(c.games for c in doctor.candidates.all())
    assert (doctor.status, doctor.done_games) == ("done", doctor.total_games)
    assert played == doctor.total_games == sum(r["games"] for r in doctor.rounds)
    assert doctor.result["games"] == played <= doctor.budget
    top = doctor.result["top"]
    assert len(top) == min(TOP, count - 1)
    assert [row["gain"] for row in top] == sorted(
        (r["gain"] for r in top), reverse=True
    )
    for row in top:
        assert (
            row["games"] % 20 == 0
            and 20 <= row["games"] <= doctor.result["baseline"]["games"]
        )
        assert row["interval"][0] <= row["win_rate"] <= row["interval"][1]
        assert row["gain_interval"][0] <= row["gain"] <= row["gain_interval"][1]
    # The same seed gives the same ranking, whatever order the workers took.
    with django_capture_on_commit_callbacks(execute=False):
        DeckDoctor.objects.filter(pk=doctor.pk).update(status="done")
        again = doctor_start(
            owner=user, deck=doctor.deck, games=20, bot="random", seed=5
        )
    assert _run(again).result == doctor.result


@pytest.mark.django_db
def test_a_suggestion_is_applied_as_the_decks_next_version(
    client, user, deck_for, django_capture_on_commit_callbacks
):
    deck = deck_for("collision")
    with django_capture_on_commit_callbacks(execute=False):
        doctor = doctor_start(owner=user, deck=deck, games=20, bot="random", seed=2)
    doctor = _run(doctor)
    row = doctor.result["top"][0]
    versions = deck.versions.count()
    client.force_login(user)
    page = client.get(f"/play/doctor/{doctor.pk}/").content.decode()
    assert (
        "Save the deck with this swap as its next version" in page
        and row["in"]["name"] in page
    )
    response = client.post(f"/play/doctor/{doctor.pk}/apply/{row['index']}/")
    assert response.status_code == 302
    assert deck.versions.count() == versions + 1
    entries = deck.entries.select_related("card__card_set__game")
    assert is_legal(validate_deck("collision", entries, players=2))
    assert (row["in"]["id"], row["zone"]) in _counts(entries)
    # Applied again and again, it is refused once the deck can take it no more.
    with pytest.raises(PlaytestError):
        for _ in range(5):
            doctor_apply(doctor=doctor, index=row["index"], user=user)
    assert is_legal(validate_deck("collision", deck.entries.all(), players=2))


@pytest.mark.django_db
def test_a_cancelled_run_plays_no_more_and_a_user_runs_one_at_a_time(
    user, other_user, deck_for, django_capture_on_commit_callbacks
):
    deck = deck_for("bakugan")
    with django_capture_on_commit_callbacks(execute=False):
        doctor = doctor_start(owner=user, deck=deck, games=20, bot="random")
        with pytest.raises(PlaytestError) as refusal:
            doctor_start(owner=user, deck=deck, games=20, bot="random")
        assert (refusal.value.code, refusal.value.status) == ("too_many_doctors", 429)
        doctor_start(
            owner=other_user, deck=deck_for("bakugan", owner=other_user), games=20
        )
    assert doctor_cancel(doctor=doctor).status == "cancelled"
    doctor = _run(doctor)
    assert (doctor.status, doctor.done_games, doctor.result) == ("cancelled", 0, {})
    with django_capture_on_commit_callbacks(execute=False):
        doctor_start(owner=user, deck=deck, games=20, bot="random")


@pytest.mark.django_db
def test_someone_elses_deck_or_run_is_not_theirs_to_doctor(
    client, user, other_user, deck_for, django_capture_on_commit_callbacks
):
    deck = deck_for("bakugan")
    with pytest.raises(PlaytestError):
        doctor_start(owner=other_user, deck=deck, games=20)
    with django_capture_on_commit_callbacks(execute=False):
        doctor = doctor_start(owner=user, deck=deck, games=20)
    client.force_login(other_user)
    assert client.get(f"/play/doctor/{doctor.pk}/").status_code == 404
    assert client.post(f"/play/doctor/{doctor.pk}/cancel/").status_code == 404
    assert client.post("/play/doctor/new/", {"deck": deck.pk}).status_code == 404
    doctor.refresh_from_db()
    assert doctor.status == "queued"


# --- adaptive rounds ------------------------------------------------------------


def test_the_rounds_stop_when_the_top_five_are_separated_from_the_rest():
    # (index, games, points): five clear winners, five clear losers.
    rows = [(i, 100, 80) for i in range(1, 6)] + [(i, 100, 20) for i in range(6, 11)]
    assert overlapping(rows) == []
    # Fewer swaps than the top five: nothing to separate.
    assert overlapping([(1, 20, 5), (2, 20, 15)]) == []


def test_only_the_swaps_whose_interval_overlaps_the_top_fives_play_on():
    rows = (
        [(1, 100, 90), (2, 100, 88)]  # clear of everything below the top five
        + [(3, 100, 60), (4, 100, 58), (5, 100, 56)]  # top five, but close
        + [(6, 100, 52), (7, 100, 50)]  # below, interval reaches the top's
        + [(8, 100, 10), (9, 100, 5)]  # far below
    )
    # Wilson 95%: 56/100 -> low 0.462; 52/100 -> high 0.615, 50/100 -> 0.596;
    # 60/100 -> low 0.502, 88/100 -> low 0.802.
    assert overlapping(rows) == [3, 4, 5, 6, 7]
    # More games narrow the intervals: the same rates over 5,000 games separate
    # (56% -> low 0.546, 52% -> high 0.534).
    wide = [(i, 5000, points * 50) for i, _, points in rows]
    assert overlapping(wide) == []


def _round_over(doctor, wins_of):
    """Store a round's results as if the workers had played it: wins per index."""
    for candidate in doctor.candidates.all():
        candidate.games = candidate.target
        candidate.wins = wins_of(candidate.index, candidate.games)
        candidate.draws = 0
        candidate.done = True
        candidate.save()
    DeckDoctor.objects.filter(pk=doctor.pk).update(status="running")
    doctor.refresh_from_db()
    with transaction.atomic():
        next_round(doctor, list(doctor.candidates.order_by("index")))
    doctor.refresh_from_db()
    return doctor


@pytest.mark.django_db
def test_a_run_stops_after_the_round_that_separates_them(
    user, deck_for, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        doctor = doctor_start(
            owner=user, deck=deck_for("bakugan"), games=20, bot="random", seed=5
        )
    count = doctor.candidates.count()
    assert count > TOP + 1
    # Round 1: every swap as good as any other: all of them play a second round.
    with django_capture_on_commit_callbacks(execute=False) as queued:
        doctor = _round_over(doctor, lambda i, n: n // 2)
    assert (doctor.status, doctor.round, doctor.total_games) == (
        "running",
        2,
        2 * 20 * count,
    )
    assert len(queued) == 1
    playing = doctor.candidates.filter(done=False)
    assert {c.index for c in playing} == set(range(count))
    assert {c.target for c in playing} == {40}
    # Round 2: swaps 1-5 win every game, the rest none: separated, so it ends.
    with django_capture_on_commit_callbacks(execute=False) as queued:
        doctor = _round_over(doctor, lambda i, n: n if 1 <= i <= TOP else 0)
    assert (doctor.status, doctor.round, queued) == ("done", 2, [])
    assert doctor.result["separated"] is True
    assert {row["index"] for row in doctor.result["top"]} == set(range(1, TOP + 1))
    assert [r["round"] for r in doctor.result["rounds"]] == [1, 2]


@pytest.mark.django_db
def test_a_run_stops_when_the_next_round_would_spend_more_than_its_budget(
    user, deck_for, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        doctor = doctor_start(
            owner=user, deck=deck_for("bakugan"), games=20, bot="random", seed=5
        )
    count = doctor.candidates.count()
    assert doctor.budget == BUDGET_ROUNDS * 20 * count
    rounds = 0
    while doctor.unfinished:
        with django_capture_on_commit_callbacks(execute=False):
            doctor = _round_over(doctor, lambda i, n: n // 2)  # never separated
        rounds += 1
    assert rounds == doctor.round == BUDGET_ROUNDS
    assert doctor.result["separated"] is False
    assert doctor.total_games == doctor.budget == doctor.result["games"]


def _workers_until(count: int, finished, timeout: float = 300) -> None:
    """Run ``count`` task worker processes at once until ``finished()``, then stop them.

    Running workers, not ``--batch`` ones: a round's last candidate queues the
    next round, which a batch worker that found the queue empty meanwhile would
    miss.
    """
    command = [
        sys.executable,
        "manage.py",
        "db_worker",
        "--no-startup-delay",
        "--no-reload",
        "--queue-name",
        "*",
        "--interval",
        "0.05",
    ]
    logs = [tempfile.TemporaryFile() for _ in range(count)]
    workers = [
        subprocess.Popen(
            command, cwd=ROOT, env=subprocess_env(), stdout=log, stderr=log
        )
        for log in logs
    ]
    try:
        deadline = time.monotonic() + timeout
        while not finished():
            for worker, log in zip(workers, logs, strict=True):
                if worker.poll() is not None:
                    log.seek(0)
                    pytest.fail("A worker stopped: " + log.read().decode()[-2000:])
            assert time.monotonic() < deadline, "the workers did not finish the run"
            time.sleep(0.1)
    finally:
        for worker in workers:
            worker.terminate()
        for worker, log in zip(workers, logs, strict=True):
            worker.wait(timeout=60)
            log.close()


@pytest.mark.django_db(transaction=True)
def test_one_and_three_worker_processes_give_the_same_rounds_and_ranking(
    user, deck_for
):
    deck = deck_for("bakugan")
    runs = []
    for workers in (1, 3):
        doctor = doctor_start(owner=user, deck=deck, games=20, bot="random", seed=7)
        _workers_until(
            workers,
            lambda pk=doctor.pk: not DeckDoctor.objects.get(pk=pk).unfinished,
        )
        doctor.refresh_from_db()
        assert doctor.status == "done", doctor.error
        assert doctor.done_games == doctor.total_games
        runs.append(doctor)
    one, three = runs
    assert len(one.rounds) > 1  # the adaptive rounds were played by the workers
    assert one.result == three.result
    assert one.rounds == three.rounds
    stats = [
        list(d.candidates.order_by("index").values_list("games", "wins", "draws"))
        for d in runs
    ]
    assert stats[0] == stats[1]


@pytest.mark.django_db
def test_a_run_cancelled_as_a_round_ends_starts_no_other_round(
    user, deck_for, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        doctor = doctor_start(
            owner=user, deck=deck_for("bakugan"), games=20, bot="random", seed=5
        )
    doctor.candidates.update(done=True, games=20, wins=10)
    doctor_cancel(doctor=doctor)
    with django_capture_on_commit_callbacks(execute=False) as queued:
        with transaction.atomic():
            next_round(doctor, list(doctor.candidates.order_by("index")))
    doctor.refresh_from_db()
    assert (doctor.status, doctor.round, doctor.result, queued) == (
        "cancelled",
        1,
        {},
        [],
    )
    assert not doctor.candidates.filter(done=False).exists()


def _done_run(user, deck_for, capture):
    deck = deck_for("collision")
    with capture(execute=False):
        doctor = doctor_start(owner=user, deck=deck, games=20, bot="random", seed=2)
    return deck, _run(doctor)


@pytest.mark.django_db
def test_a_suggestion_applied_twice_makes_one_swap_and_one_version(
    user, deck_for, django_capture_on_commit_callbacks
):
    deck, doctor = _done_run(user, deck_for, django_capture_on_commit_callbacks)
    row = doctor.result["top"][0]
    versions = deck.versions.count()
    doctor_apply(doctor=doctor, index=row["index"], user=user)
    after = _counts(deck.entries.select_related("card__card_set__game"))
    with pytest.raises(PlaytestError) as refusal:
        doctor_apply(doctor=doctor, index=row["index"], user=user)
    assert (refusal.value.code, refusal.value.status) == ("applied", 409)
    assert deck.versions.count() == versions + 1
    assert _counts(deck.entries.select_related("card__card_set__game")) == after


@pytest.mark.django_db(transaction=True)
def test_four_simultaneous_applies_of_one_suggestion_make_one_version(
    user, deck_for, django_capture_on_commit_callbacks
):
    import threading

    from django.db import connection

    deck, doctor = _done_run(user, deck_for, django_capture_on_commit_callbacks)
    row = doctor.result["top"][0]
    versions = deck.versions.count()
    barrier, results = threading.Barrier(4), []

    def apply():
        try:
            barrier.wait()
            doctor_apply(doctor=doctor, index=row["index"], user=user)
            results.append("ok")
        except PlaytestError as exc:
            results.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=apply) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["applied", "applied", "applied", "ok"]
    assert deck.versions.count() == versions + 1
