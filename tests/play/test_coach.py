"""The coach at the table (issue 35): hints in practice games, marked in the log,
charged to the bots' budget and turned off per game; a game's review, stored,
identical for a seed and counted against the owner's quota of worker time."""

import pytest

from decks.choices import BudgetKind
from decks.engine import engine_for
from decks.engine.coach import coach_seed, move_chances
from decks.models import BudgetCharge
from decks.play.coach import (
    hint_marked,
    hinted_moves,
    playtest_hint,
    playtest_hints_set,
    review_run,
    review_start,
)
from decks.play.models import GameReview
from decks.play.services import (
    PlaytestError,
    choices,
    load_state,
    playtest_act,
    playtest_create,
)
from decks.play.workload import estimate_cost, queued_seconds

pytestmark = pytest.mark.django_db


def _game(user, deck_for, opponent="greedy", seed=11):
    return playtest_create(
        owner=user, deck=deck_for("collision"), opponent=opponent, seed=seed
    )


def _finish(pt, user):
    """Play the first choice on every turn until the game is over."""
    for _ in range(500):
        if pt.over:
            return pt
        first = choices(pt, load_state(pt))[0]
        pt = playtest_act(
            playtest_id=pt.pk, user=user, action=first.id, version=pt.version
        )
    raise AssertionError("The game did not end.")


def test_a_hint_lists_every_move_best_first_with_the_coachs_chances(user, deck_for):
    pt = _game(user, deck_for)
    hint = playtest_hint(playtest=pt, user=user, version=pt.version)
    game, state = engine_for("collision"), load_state(pt)
    expected = move_chances(game, state, coach_seed(pt.seed, len(pt.log)))
    assert [m.id for m in hint] == [c.text for c in expected]
    assert [m.percent for m in hint] == [round(100 * c.chance) for c in expected]
    assert [m.percent for m in hint] == sorted((m.percent for m in hint), reverse=True)
    assert hint == playtest_hint(playtest=pt, user=user, version=pt.version)


def test_a_hint_is_charged_to_the_bots_thinking_budget(user, deck_for):
    pt = _game(user, deck_for)
    before = BudgetCharge.objects.filter(kind=BudgetKind.BOT_THINKING).count()
    playtest_hint(playtest=pt, user=user, version=pt.version)
    assert (
        BudgetCharge.objects.filter(kind=BudgetKind.BOT_THINKING, user=user).count()
        == before + 1
    )


def test_the_move_taken_from_a_hint_is_marked_in_the_log(user, deck_for):
    pt = _game(user, deck_for)
    best = playtest_hint(playtest=pt, user=user, version=pt.version)[0]
    at = len(pt.log)
    pt = playtest_act(
        playtest_id=pt.pk, user=user, action=best.id, version=pt.version, hint=True
    )
    assert pt.steps[at][3:] == ["hint"]
    ((turn, label, line),) = hinted_moves(pt)
    assert (turn, label) == (pt.steps[at][1], best.label)
    events = load_state(pt).events
    assert (
        line is not None and hint_marked(pt, events)[line] == events[line] + " (hint)"
    )
    assert sum(text.endswith(" (hint)") for text in hint_marked(pt, events)) == 1
    assert all(step[3:] == [] for i, step in enumerate(pt.steps) if i != at)


def test_hints_turned_off_for_a_game_are_refused_and_mark_nothing(user, deck_for):
    pt = playtest_hints_set(playtest=_game(user, deck_for), on=False)
    with pytest.raises(PlaytestError) as refused:
        playtest_hint(playtest=pt, user=user, version=pt.version)
    assert refused.value.code == "no_hints"
    at = len(pt.log)
    first = choices(pt, load_state(pt))[0]
    pt = playtest_act(
        playtest_id=pt.pk, user=user, action=first.id, version=pt.version, hint=True
    )
    assert pt.steps[at] == [0, pt.steps[at][1], True]


def test_a_hot_seat_game_offers_no_hints(user, deck_for):
    pt = _game(user, deck_for, opponent="hotseat")
    with pytest.raises(PlaytestError) as refused:
        playtest_hint(playtest=pt, user=user, version=pt.version)
    assert refused.value.code == "no_hints"


def test_a_review_is_stored_and_identical_for_a_seed(
    user, other_user, deck_for, django_capture_on_commit_callbacks
):
    pt = _finish(_game(user, deck_for), user)
    with django_capture_on_commit_callbacks(execute=False):
        review = review_start(owner=user, playtest=pt)
        again = review_start(owner=user, playtest=pt)
    assert again.pk == review.pk
    review_run(review.pk)
    review.refresh_from_db()
    assert review.status == GameReview.Status.DONE
    assert review.done_games == review.moves == len(review.result["moves"])
    # Asked again once done, the stored review is the answer: nothing is queued.
    with django_capture_on_commit_callbacks(execute=False) as queued:
        assert review_start(owner=user, playtest=pt).pk == review.pk
    assert queued == []
    # Another person's review of the same game and seed has the same figures.
    pt.share_token = "shared-for-the-test"
    pt.save(update_fields=["share_token"])
    with django_capture_on_commit_callbacks(execute=False):
        theirs = review_start(owner=other_user, playtest=pt)
    review_run(theirs.pk)
    theirs.refresh_from_db()
    assert theirs.result == review.result
    sentence = review.result["sentence"]
    point = review.result["turning_point"]
    rows = review.result["moves"]
    assert all(r["costly"] == (r["lost"] > 10) for r in rows)
    costly = [r for r in rows if r["costly"]]
    assert point == (
        max(costly, key=lambda r: (r["lost"], -r["step"])) if costly else None
    )
    if point is None:
        assert sentence.startswith("No move cost more than 10 points")
    else:
        assert sentence.startswith(f"Turn {point['turn']}: playing ")
        assert sentence.endswith(f"cost about {point['lost']} points of win chance.")


def test_a_review_counts_against_the_owners_quota_until_it_is_done(
    user, deck_for, django_capture_on_commit_callbacks
):
    pt = _finish(_game(user, deck_for), user)
    with django_capture_on_commit_callbacks(execute=False):
        review = review_start(owner=user, playtest=pt)
    assert queued_seconds(user) == pytest.approx(
        review.moves * estimate_cost("collision")
    )
    review_run(review.pk)
    assert queued_seconds(user) == 0


def test_a_review_beyond_the_quota_is_refused(
    user, deck_for, django_capture_on_commit_callbacks, monkeypatch
):
    pt = _finish(_game(user, deck_for), user)
    monkeypatch.setattr("decks.play.workload.QUOTA_SECONDS", 0.001)
    with pytest.raises(PlaytestError) as refused:
        review_start(owner=user, playtest=pt)
    assert refused.value.code == "over_quota" and refused.value.status == 429
    assert not GameReview.objects.exists()


def test_the_board_offers_a_hint_and_the_hint_list_plays_a_marked_move(
    client, user, deck_for
):
    pt = _game(user, deck_for)
    client.force_login(user)
    board = client.get(pt.get_absolute_url()).content.decode()
    assert "data-hint>" in board and "Turn hints off for this game" in board
    answer = client.post(
        f"/play/{pt.pk}/hint/", {"version": pt.version}, HTTP_HX_REQUEST="true"
    )
    html = answer.content.decode()
    hint = playtest_hint(playtest=pt, user=user, version=pt.version)
    best = hint[0]
    # Every legal move is listed, each once.
    assert answer.status_code == 200 and html.count("data-hint-action=") == len(hint)
    assert f'data-hint-action="{best.id}"' in html and f"{best.percent}%" in html
    # Without htmx the list is a page of its own, with the same moves.
    page = client.post(f"/play/{pt.pk}/hint/", {"version": pt.version})
    assert page.status_code == 200
    assert page.content.decode().count("data-hint-action=") == html.count(
        "data-hint-action="
    )
    client.post(f"/play/{pt.pk}/hint/act/", {"action": best.id, "version": pt.version})
    pt.refresh_from_db()
    assert "(hint)" in client.get(pt.get_absolute_url()).content.decode()
    client.post(f"/play/{pt.pk}/hints/", {"on": "0"})
    pt.refresh_from_db()
    assert not pt.hints
    assert "data-hint>" not in client.get(pt.get_absolute_url()).content.decode()


def test_review_this_game_leads_to_the_graph_and_the_turning_point(
    client, user, deck_for, django_capture_on_commit_callbacks
):
    pt = _finish(_game(user, deck_for), user)
    client.force_login(user)
    assert "Review this game" in client.get(pt.get_absolute_url()).content.decode()
    with django_capture_on_commit_callbacks(execute=False):
        answer = client.post(f"/play/{pt.pk}/review/")
    review = GameReview.objects.get()
    assert (
        answer.status_code == 302 and answer["Location"] == f"/play/review/{review.pk}/"
    )
    assert "moves estimated" in client.get(answer["Location"]).content.decode()
    review_run(review.pk)
    review.refresh_from_db()
    html = client.get(answer["Location"]).content.decode()
    assert "<polyline" in html and "data-win-chance" in html
    assert review.result["sentence"][:20] in html
