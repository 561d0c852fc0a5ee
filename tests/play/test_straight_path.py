"""A playtest request takes a straight path: one state load, one engine look-up."""

import sys
from collections import Counter
from contextlib import contextmanager

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from decks.engine import core, engine_for
from decks.play.models import Playtest
from decks.play.services import (
    choices,
    load_state,
    match_summary,
    playtest_act,
    playtest_create,
)

# The functions counted: the engine look-up and the replay every state load is.
COUNTED = {engine_for.__code__: "engine_for", core.replay.__code__: "replay"}


@contextmanager
def counting():
    """Count the calls of ``COUNTED`` made in this thread (the test client's too)."""
    calls = Counter()
    before = sys.getprofile()

    def hook(frame, event, arg):
        if event == "call" and frame.f_code in COUNTED:
            calls[COUNTED[frame.f_code]] += 1

    sys.setprofile(hook)
    try:
        yield calls
    finally:
        sys.setprofile(before)


def start(user, deck_for, **kw) -> Playtest:
    return playtest_create(
        owner=user, deck=deck_for("collision"), opponent="random", seed=2, **kw
    )


@pytest.mark.django_db
def test_an_htmx_action_loads_the_state_once_and_looks_the_engine_up_once(
    client, user, deck_for
):
    pt = start(user, deck_for)
    client.force_login(user)
    action = choices(pt, load_state(pt))[0].id
    with counting() as calls:
        response = client.post(
            f"/play/{pt.pk}/act/",
            {"action": action, "version": pt.version},
            HTTP_HX_REQUEST="true",
        )
    assert response.status_code == 200
    assert b'id="board"' in response.content
    assert calls == Counter(engine_for=1, replay=1)


@pytest.mark.django_db
def test_the_board_page_loads_the_state_once_and_looks_the_engine_up_once(
    client, user, deck_for
):
    pt = start(user, deck_for)
    client.force_login(user)
    with counting() as calls:
        response = client.get(f"/play/{pt.pk}/")
    assert response.status_code == 200
    assert calls == Counter(engine_for=1, replay=1)


@pytest.mark.django_db
def test_a_shared_replay_loads_the_state_once_and_looks_the_engine_up_once(
    client, user, deck_for
):
    pt = start(user, deck_for)
    client.force_login(user)
    client.post(f"/play/{pt.pk}/share/", {"on": "1"})
    token = Playtest.objects.get(pk=pt.pk).share_token
    with counting() as calls:
        response = client.get(f"/play/shared/{token}/?step=1")
    assert response.status_code == 200
    assert calls == Counter(engine_for=1, replay=1)


@pytest.mark.django_db
def test_an_api_action_loads_the_state_once_and_looks_the_engine_up_once(
    client, user, deck_for
):
    pt = start(user, deck_for)
    client.force_login(user)
    action = choices(pt, load_state(pt))[0].id
    with counting() as calls:
        response = client.post(
            f"/api/playtests/{pt.pk}/actions/",
            {"action": action, "version": pt.version},
            content_type="application/json",
        )
    assert response.status_code == 200
    assert response.json()["version"] == pt.version + 1
    assert calls == Counter(engine_for=1, replay=1)


@pytest.mark.django_db
def test_the_sql_of_an_htmx_action_is_the_same_from_one_action_to_the_next(
    client, user, deck_for
):
    pt = start(user, deck_for)
    client.force_login(user)
    counts = []
    for _ in range(3):
        action = choices(pt, load_state(pt))[0].id
        with CaptureQueriesContext(connection) as queries:
            response = client.post(
                f"/play/{pt.pk}/act/",
                {"action": action, "version": pt.version},
                HTTP_HX_REQUEST="true",
            )
        assert response.status_code == 200
        counts.append(len(queries))
        pt = Playtest.objects.get(pk=pt.pk)
    assert counts[1:] == counts[:-1]


@pytest.mark.django_db
def test_a_finished_match_game_offers_the_next_with_one_state_load(
    client, user, deck_for
):
    pt = start(user, deck_for, match=True)
    for _ in range(2000):
        if pt.over:
            break
        offered = choices(pt, load_state(pt))
        pt = playtest_act(
            playtest_id=pt.pk, user=user, action=offered[0].id, version=pt.version
        )
    assert pt.over and match_summary(pt).winner is None
    client.force_login(user)
    with counting() as calls:
        response = client.get(f"/play/{pt.pk}/")
    assert b"data-next-game" in response.content
    assert calls == Counter(engine_for=1, replay=1)
