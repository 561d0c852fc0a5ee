"""One name per seat: board, log, buttons and replay say "You", "Greedy bot"..."""

import re

import pytest

from decks.playtest.names import seat_names, speak
from decks.playtest.services import playtest_create, playtest_share

pytestmark = pytest.mark.django_db

NAMES = ["You", "Greedy bot"]


@pytest.mark.parametrize(
    "engine, spoken",
    [
        ("Player 1 plays Quick Strike.", "You play Quick Strike."),
        ("Player 1 has won three gates.", "You have won three gates."),
        ("Player 1 passes", "You pass"),
        ("Player 1 is out.", "You are out."),
        ("Player 1's Dragonoid wins.", "Your Dragonoid wins."),
        (
            "Battle: Player 2's Preyas against Player 1's Gorem.",
            "Battle: Greedy bot's Preyas against your Gorem.",
        ),
        ("The seed picks Player 1 to go first.", "The seed picks you to go first."),
        ("Player 2 discards 1.", "Greedy bot discards 1."),
    ],
)
def test_an_engine_sentence_is_spoken_with_the_seats_names(engine, spoken):
    assert speak(engine, NAMES) == spoken


def test_several_bots_are_numbered_and_a_watcher_never_reads_you(user, deck_for):
    deck = deck_for("collide-o")
    pt = playtest_create(owner=user, deck=deck, players=3, opponent="greedy", seed=2)
    assert seat_names(pt) == ["You", "Greedy bot 1", "Greedy bot 2"]
    assert seat_names(pt, watcher=True)[0] == user.get_username()


def test_the_board_log_and_buttons_never_say_player_n(client, user, deck_for):
    deck = deck_for("collision")
    pt = playtest_create(owner=user, deck=deck, opponent="greedy", seed=5)
    client.force_login(user)
    page = client.get(f"/play/{pt.pk}/")
    events, choices = page.context["events"], page.context["choices"]
    assert events and choices
    assert not [e for e in events if re.search(r"\bPlayer [12]\b", e)]
    assert not [c.label for c in choices if re.search(r"\bPlayer [12]\b", c.label)]
    html = page.content.decode()
    assert "You · " in html and "Greedy bot · " in html


def test_a_shared_replay_watched_by_someone_else_never_says_you(
    client, user, other_user, deck_for
):
    deck = deck_for("bakugan")
    pt = playtest_create(owner=user, deck=deck, opponent="greedy", seed=5)
    playtest_share(playtest=pt, on=True)
    client.force_login(other_user)
    page = client.get(f"/play/shared/{pt.share_token}/?step={len(pt.log)}")
    assert page.status_code == 200
    text = " ".join(page.context["events"])
    assert not re.search(r"\b[Yy]ou(r)?\b", text)
    assert user.get_username() in text
