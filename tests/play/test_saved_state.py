"""A stored playtest loads by replaying its log; the saved form holds no event text."""

import pytest

from decks.engine import engine_for
from decks.engine.core import replay
from decks.play.models import Playtest
from decks.play.names import seat_names, speak
from decks.play.services import choices, load_state, playtest_act, playtest_create

GAMES = ("collision", "metal-fusion", "collide-o", "bakugan")


@pytest.mark.parametrize("slug", GAMES)
def test_the_board_shows_the_replayed_events_the_saved_form_leaves_out(
    client, user, deck_for, slug
):
    pt = playtest_create(owner=user, deck=deck_for(slug), opponent="random", seed=7)
    for _ in range(3):
        pt = Playtest.objects.get(pk=pt.pk)
        state = load_state(pt)
        if pt.over:
            break
        playtest_act(
            playtest_id=pt.pk,
            user=user,
            action=choices(pt, state)[0].id,
            version=pt.version,
        )
    pt = Playtest.objects.get(pk=pt.pk)
    game = engine_for(slug)
    events = replay(game, pt.decks, pt.options, pt.seed, pt.log).events
    assert "events" not in pt.state
    assert events and load_state(pt).events == events
    client.force_login(user)
    page = client.get(f"/play/{pt.pk}/")
    # The board names each seat ("You", "Beginner bot"): the same events, spoken.
    names = seat_names(pt)
    assert page.context["events"] == [speak(e, names) for e in events[-60:]]
