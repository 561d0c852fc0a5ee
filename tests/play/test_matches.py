"""Matches: Collision's best of three (ruling C13) and Collide-O!'s play again after a tie.

A match is its games, each a playtest; the score is read from their winners.
"""

import re
import threading

import pytest
from django.db import connection

from cards.games import GAMES
from decks.engine import collide_o, collision
from decks.play.models import Playtest, PlaytestMatch
from decks.play.services import (
    PlaytestError,
    choices,
    load_state,
    match_next_game,
    match_summary,
    playtest_act,
    playtest_branch,
    playtest_create,
    playtest_undo,
)

COLLISION = "collision"


def play_out(pt: Playtest, user) -> Playtest:
    """Play the human seat's first offered move until the game is over."""
    for _ in range(2000):
        if pt.over:
            return pt
        offered = choices(pt, load_state(pt))
        pt = playtest_act(
            playtest_id=pt.pk, user=user, action=offered[0].id, version=pt.version
        )
    raise AssertionError("the game did not end")


def start_match(user, deck_for, seed=3, **kw) -> Playtest:
    return playtest_create(
        owner=user,
        deck=deck_for(COLLISION),
        opponent="greedy",
        seed=seed,
        match=True,
        **kw,
    )


@pytest.mark.django_db
def test_the_registry_names_the_games_with_a_match_mode():
    with_match = {slug for slug, game in GAMES.items() if game.match}
    assert with_match == {COLLISION, collide_o.SLUG}
    assert GAMES[COLLISION].match.seats == (2,)
    assert GAMES[COLLISION].match.first_option == "first"


@pytest.mark.django_db
def test_a_match_starts_as_game_one_of_a_stored_match(user, deck_for):
    pt = start_match(user, deck_for)
    assert pt.match_game == 1
    assert PlaytestMatch.objects.get().games == 1
    summary = match_summary(pt)
    assert (summary.label, summary.number, summary.wins, summary.over) == (
        "Best of three",
        1,
        [0, 0],
        False,
    )


@pytest.mark.django_db
def test_the_loser_of_a_game_goes_first_in_the_next(user, deck_for):
    pt = play_out(start_match(user, deck_for), user)
    assert pt.winner in (0, 1)
    second = match_next_game(playtest_id=pt.pk, user=user, version=pt.version)
    assert (second.match_id, second.match_game) == (pt.match_id, 2)
    assert second.options["first"] == 1 - pt.winner
    assert load_state(second).first == 1 - pt.winner
    assert second.seed != pt.seed
    summary = match_summary(second)
    expected = [0, 0]
    expected[pt.winner] = 1
    assert (summary.number, summary.wins) == (2, expected)


@pytest.mark.django_db
def test_the_match_ends_when_one_side_has_two_wins(user, deck_for):
    pt = play_out(start_match(user, deck_for, seed=8), user)
    while match_summary(pt).winner is None:
        pt = play_out(
            match_next_game(playtest_id=pt.pk, user=user, version=pt.version), user
        )
    summary = match_summary(pt)
    assert summary.wins[summary.winner] == 2
    assert summary.wins[1 - summary.winner] <= 1
    assert 2 <= summary.games <= 3 + summary.draws
    with pytest.raises(PlaytestError) as refused:
        match_next_game(playtest_id=pt.pk, user=user, version=pt.version)
    assert refused.value.code == "match_over"
    assert Playtest.objects.filter(match_id=pt.match_id).count() == summary.games


def _games_line(board: str) -> str:
    """Return the board's line listing the match's games, its tags dropped."""
    start = board.index('<p class="meta match-games">')
    line = board[start : board.index("</p>", start)]
    return " ".join(re.sub(r"<[^>]+>", "", line).split())


@pytest.mark.django_db
def test_a_finished_match_s_first_game_names_no_game_under_way(client, user, deck_for):
    client.force_login(user)
    first = play_out(start_match(user, deck_for), user)  # seed 3: three games
    second = play_out(
        match_next_game(playtest_id=first.pk, user=user, version=first.version), user
    )
    line = _games_line(client.get(f"/play/{first.pk}/").content.decode())
    assert line == (
        "Games of this match: game 1 (Casual bot) · game 2 (You) · "
        "game 2 is the latest: game 3 starts from there"
    )
    third = play_out(
        match_next_game(playtest_id=second.pk, user=user, version=second.version),
        user,
    )
    assert match_summary(third).over
    board = client.get(f"/play/{first.pk}/").content.decode()
    score = "game 1 · match score: <strong>You 1 – 2 Casual bot</strong>"
    assert f"Best of three, {score}" in board
    line = _games_line(board)
    assert line == (
        "Games of this match: game 1 (Casual bot) · game 2 (You) · game 3 (Casual bot)"
    )


@pytest.mark.django_db
def test_a_second_next_game_from_a_stale_tab_is_refused(user, deck_for):
    pt = play_out(start_match(user, deck_for), user)
    match_next_game(playtest_id=pt.pk, user=user, version=pt.version)
    with pytest.raises(PlaytestError) as refused:
        match_next_game(playtest_id=pt.pk, user=user, version=pt.version)
    assert (refused.value.code, refused.value.status) == ("stale_state", 409)
    assert Playtest.objects.filter(match_id=pt.match_id).count() == 2
    assert PlaytestMatch.objects.get().games == 2


@pytest.mark.django_db
def test_next_game_is_refused_while_the_game_is_being_played(user, deck_for):
    pt = start_match(user, deck_for)
    with pytest.raises(PlaytestError) as refused:
        match_next_game(playtest_id=pt.pk, user=user, version=pt.version)
    assert refused.value.code == "game_not_over"
    assert Playtest.objects.count() == 1


@pytest.mark.django_db
def test_next_game_from_an_older_version_of_the_finished_game_is_refused(
    user, deck_for
):
    pt = play_out(start_match(user, deck_for), user)
    with pytest.raises(PlaytestError) as refused:
        match_next_game(playtest_id=pt.pk, user=user, version=pt.version - 1)
    assert (refused.value.code, refused.value.status) == ("stale_state", 409)
    assert Playtest.objects.count() == 1


@pytest.mark.django_db
def test_undo_never_crosses_into_a_game_the_match_has_left(user, deck_for):
    pt = play_out(start_match(user, deck_for), user)
    match_next_game(playtest_id=pt.pk, user=user, version=pt.version)
    with pytest.raises(PlaytestError) as refused:
        playtest_undo(playtest_id=pt.pk, user=user, version=pt.version)
    assert (refused.value.code, refused.value.status) == ("match_moved_on", 409)
    again = Playtest.objects.get(pk=pt.pk)
    assert (again.over, again.winner, again.log) == (True, pt.winner, pt.log)


@pytest.mark.django_db
def test_undo_in_the_latest_game_stays_inside_it(user, deck_for):
    pt = play_out(start_match(user, deck_for), user)
    second = match_next_game(playtest_id=pt.pk, user=user, version=pt.version)
    offered = choices(second, load_state(second))
    moved = playtest_act(
        playtest_id=second.pk, user=user, action=offered[0].id, version=second.version
    )
    undone = playtest_undo(playtest_id=second.pk, user=user, version=moved.version)
    assert undone.log == second.log
    assert Playtest.objects.get(pk=pt.pk).log == pt.log


@pytest.mark.django_db
def test_restarting_the_latest_game_keeps_the_match_and_its_place(user, deck_for):
    pt = play_out(start_match(user, deck_for), user)
    second = match_next_game(playtest_id=pt.pk, user=user, version=pt.version)
    again = playtest_branch(playtest=second, user=user, step=0)
    assert (again.match_id, again.match_game) == (pt.match_id, 2)
    old = Playtest.objects.get(pk=second.pk)
    assert (old.match_id, old.match_game) == (None, None)
    # A branch of a game the match has left is a single game.
    single = playtest_branch(playtest=pt, user=user, step=0)
    assert single.match_id is None
    in_match = set(
        Playtest.objects.filter(match_id=pt.match_id).values_list("pk", flat=True)
    )
    assert in_match == {pt.pk, again.pk}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"players": 3}, "bad_match"),
        ({"match": "yes"}, "bad_match"),
    ],
)
def test_a_match_the_mode_does_not_take_is_refused_and_nothing_is_stored(
    user, deck_for, kwargs, code
):
    kw = {"match": True, **kwargs}
    with pytest.raises(PlaytestError) as refused:
        playtest_create(
            owner=user, deck=deck_for(COLLISION), opponent="greedy", seed=1, **kw
        )
    assert refused.value.code == code
    assert (Playtest.objects.count(), PlaytestMatch.objects.count()) == (0, 0)


@pytest.mark.django_db
@pytest.mark.parametrize("slug", [s for s, g in GAMES.items() if g.match is None])
def test_a_game_without_a_match_mode_refuses_one(user, deck_for, slug):
    with pytest.raises(PlaytestError) as refused:
        playtest_create(owner=user, deck=deck_for(slug), seed=1, match=True)
    assert refused.value.code == "no_match"
    assert PlaytestMatch.objects.count() == 0


@pytest.mark.django_db
def test_a_single_game_has_no_next_game(user, deck_for):
    pt = play_out(
        playtest_create(
            owner=user, deck=deck_for(COLLISION), opponent="greedy", seed=3
        ),
        user,
    )
    with pytest.raises(PlaytestError) as refused:
        match_next_game(playtest_id=pt.pk, user=user, version=pt.version)
    assert refused.value.code == "not_a_match"
    assert Playtest.objects.count() == 1


def test_collisions_next_first_after_a_drawn_game_is_who_went_second():
    record = collision.match_record(collision.Match(), 0, None)
    assert collision.next_game_first(record) == 1
    assert collision.match_winner(record) is None


def test_collide_o_plays_again_after_a_tie_and_ends_at_the_first_win():
    tied = collide_o.match_record(collide_o.Match(), None, None)
    assert collide_o.match_winner(tied) is None
    assert collide_o.next_game_first(tied) is None
    won = collide_o.match_record(tied, None, 2)
    assert collide_o.match_winner(won) == 2


@pytest.mark.django_db
def test_a_collide_o_match_whose_first_game_has_a_winner_is_over(user, deck_for):
    pt = playtest_create(
        owner=user,
        deck=deck_for(collide_o.SLUG),
        opponent="random",
        players=3,
        seed=4,
        match=True,
    )
    pt = play_out(pt, user)
    assert pt.winner is not None  # this seed's game has a winner
    summary = match_summary(pt)
    assert (summary.winner, summary.over, summary.games) == (pt.winner, True, 1)
    with pytest.raises(PlaytestError) as refused:
        match_next_game(playtest_id=pt.pk, user=user, version=pt.version)
    assert refused.value.code == "match_over"
    assert Playtest.objects.count() == 1


# --- pages ---------------------------------------------------------------------


@pytest.mark.django_db
def test_the_start_page_offers_single_game_or_best_of_three(client, user, deck_for):
    client.force_login(user)
    page = client.get(f"/play/new/?deck={deck_for(COLLISION).pk}").content.decode()
    assert 'name="match" value="single" checked' in page
    assert 'name="match" value="match"' in page and "Best of three" in page


@pytest.mark.django_db
@pytest.mark.parametrize("slug", [s for s, g in GAMES.items() if g.match is None])
def test_the_start_page_of_a_game_without_a_match_says_so(client, user, deck_for, slug):
    client.force_login(user)
    page = client.get(f"/play/new/?deck={deck_for(slug).pk}").content.decode()
    assert 'name="match"' not in page
    assert "its rules describe no match" in page


@pytest.mark.django_db
def test_a_match_started_from_the_form_shows_its_score_on_the_board(
    client, user, deck_for
):
    client.force_login(user)
    deck = deck_for(COLLISION)
    response = client.post(
        "/play/new/",
        {
            "deck": deck.pk,
            "opponent": "greedy",
            "players": 2,
            "seed": 3,
            "match": "match",
        },
    )
    pt = Playtest.objects.get()
    assert response["Location"] == f"/play/{pt.pk}/" and pt.match_game == 1
    board = client.get(f"/play/{pt.pk}/").content.decode()
    assert (
        "Best of three, game 1 · match score: <strong>You 0 – 0 Casual bot</strong>"
        in board
    )
    assert "data-next-game" not in board


@pytest.mark.django_db
def test_the_next_game_button_starts_game_two_and_a_stale_second_click_goes_to_it(
    client, user, deck_for
):
    client.force_login(user)
    pt = play_out(start_match(user, deck_for), user)
    board = client.get(f"/play/{pt.pk}/").content.decode()
    assert "data-next-game" in board and "Start game 2 of the match" in board
    loser = "You" if pt.winner == 1 else "Casual bot"
    assert f"{loser} go" in board and "ruling C13" in board
    first = client.post(f"/play/{pt.pk}/next/", {"version": pt.version})
    second = Playtest.objects.get(match_game=2)
    assert first["Location"] == f"/play/{second.pk}/"
    again = client.post(f"/play/{pt.pk}/next/", {"version": pt.version}, follow=True)
    assert again.redirect_chain[-1][0] == f"/play/{second.pk}/"
    assert "has already started" in again.content.decode()
    assert Playtest.objects.filter(match_id=pt.match_id).count() == 2
    score = "You 1 – 0 Casual bot" if pt.winner == 0 else "You 0 – 1 Casual bot"
    assert f"game 2 · match score: <strong>{score}</strong>" in again.content.decode()
    # The finished game's board points to the game under way and offers no button.
    old = client.get(f"/play/{pt.pk}/").content.decode()
    assert "data-next-game" not in old and "is the one under way now" in old
    listed = client.get("/play/").content.decode()
    assert f"Best of three, game 2 · match score: {score}" in listed


@pytest.mark.django_db
@pytest.mark.parametrize("version", ["", "abc", "-1", "99999999999999999999", "1e3"])
def test_a_bad_next_game_post_changes_nothing_and_answers_without_a_500(
    client, user, deck_for, version
):
    client.force_login(user)
    pt = play_out(start_match(user, deck_for), user)
    response = client.post(f"/play/{pt.pk}/next/", {"version": version})
    assert response.status_code == 302
    assert Playtest.objects.count() == 1


@pytest.mark.django_db
def test_next_game_of_another_users_match_answers_404(
    client, user, other_user, deck_for
):
    pt = play_out(start_match(user, deck_for), user)
    client.force_login(other_user)
    response = client.post(f"/play/{pt.pk}/next/", {"version": pt.version})
    assert response.status_code == 404
    assert Playtest.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("slug", list(GAMES))
def test_each_help_page_says_how_matches_go_or_why_there_are_none(client, slug):
    page = client.get(f"/play/help/{slug}/").content.decode()
    assert '<section id="match">' in page
    if GAMES[slug].match is None:
        assert "No match mode" in page and "does not invent a match format" in page
    else:
        assert GAMES[slug].match.label in page


# --- API -----------------------------------------------------------------------


@pytest.mark.django_db
def test_the_api_starts_a_match_and_its_next_game_once_and_only_once(
    client, user, deck_for
):
    client.force_login(user)
    deck = deck_for(COLLISION)
    created = client.post(
        "/api/playtests/",
        {"deck": deck.pk, "opponent": "greedy", "seed": 3, "match": True},
        content_type="application/json",
    )
    assert created.status_code == 201
    body = created.json()
    assert body["match"] == {
        "label": "Best of three",
        "game": 1,
        "games": 1,
        "wins": [0, 0],
        "draws": 0,
        "winner": None,
        "latest": None,
    }
    pt = play_out(Playtest.objects.get(pk=body["id"]), user)
    url = f"/api/playtests/{pt.pk}/next/"
    nxt = client.post(url, {"version": pt.version}, content_type="application/json")
    assert nxt.status_code == 201
    assert nxt.json()["match"]["game"] == 2
    again = client.post(url, {"version": pt.version}, content_type="application/json")
    assert (again.status_code, again.json()["code"]) == (409, "stale_state")
    bad = client.post(url, {"version": "x"}, content_type="application/json")
    assert bad.status_code == 400
    assert Playtest.objects.filter(match_id=pt.match_id).count() == 2


@pytest.mark.django_db(transaction=True)
def test_two_next_game_posts_at_once_start_one_game(user, deck_for):
    pt = play_out(start_match(user, deck_for), user)
    results = []
    barrier = threading.Barrier(2)

    def post():
        try:
            barrier.wait()
            match_next_game(playtest_id=pt.pk, user=user, version=pt.version)
            results.append("ok")
        except PlaytestError as exc:
            results.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=post) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["ok", "stale_state"]
    assert Playtest.objects.filter(match_id=pt.match_id).count() == 2
    assert PlaytestMatch.objects.get().games == 2
