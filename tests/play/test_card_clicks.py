"""A card is played by tapping it: the board's card buttons are the moves' buttons.

Each card a legal move plays carries a ``button[data-play-card]`` in a form that
posts the same action and version as the move's button below the board (or,
with several moves, opens their list); a card in hand no move plays is faded
with the engine's reason; the card's post makes the move.
"""

from html.parser import HTMLParser

import pytest

from decks.play.models import Playtest
from decks.play.services import playtest_create

pytestmark = pytest.mark.django_db


class _Board(HTMLParser):
    """Collect the board's forms: their fields and their buttons."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []
        self.faded: list[dict] = []
        self.menus: list[dict] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append(
                {"action": attrs.get("action"), "fields": {}, "buttons": []}
            )
        elif tag == "input" and self.forms and attrs.get("type") == "hidden":
            self.forms[-1]["fields"][attrs.get("name")] = attrs.get("value")
        elif tag == "button":
            if "pc-why" in (attrs.get("class") or ""):
                self.faded.append(attrs)
            elif "data-moves" in attrs:
                self.menus.append(attrs)
            elif self.forms:
                self.forms[-1]["buttons"].append(attrs)


def _board(client, pt):
    board = _Board()
    board.feed(client.get(f"/play/{pt.pk}/").content.decode())
    return board


@pytest.mark.parametrize("game", ["collision", "metal-fusion", "collide-o", "bakugan"])
def test_every_card_button_posts_a_move_of_the_move_buttons(
    client, user, deck_for, game
):
    pt = playtest_create(
        owner=user,
        deck=deck_for(game),
        opponent="greedy",
        seed=7,
        players=3 if game == "collide-o" else 2,
        autoplay=True,  # Metal Fusion's reveals: on to the won card's choice
    )
    client.force_login(user)
    board = _board(client, pt)
    moves = {
        f["fields"]["action"]: f
        for f in board.forms
        for b in f["buttons"]
        if "choice" in (b.get("class") or "") and "data-play-choice" not in b
    }
    cards = [(f, b) for f in board.forms for b in f["buttons"] if "data-play-card" in b]
    assert cards or board.menus
    for form, button in cards:
        assert button["data-action"] == form["fields"]["action"]
        assert form["fields"]["action"] in moves
        assert form["fields"]["version"] == str(pt.version)
        assert form["action"] == moves[form["fields"]["action"]]["action"]
        assert button["aria-label"]
    for faded in board.faded:
        assert faded["data-why"] and faded["aria-disabled"] == "true"
    if cards:
        form, _ = cards[0]
        client.post(form["action"], form["fields"])
        after = Playtest.objects.get(pk=pt.pk)
        assert after.version == pt.version + 1
        assert after.log[len(pt.log)] == form["fields"]["action"]


def test_a_card_with_several_moves_opens_their_list(client, user, deck_for):
    # Three Collision players: each card in hand is played against either bot.
    pt = playtest_create(
        owner=user, deck=deck_for("collision"), opponent="greedy", seed=7, players=3
    )
    client.force_login(user)
    board = _board(client, pt)
    assert len(board.menus) == 5
    listed = [
        (b["data-play-choice"], f["fields"]["action"])
        for f in board.forms
        for b in f["buttons"]
        if "data-play-choice" in b
    ]
    assert len(listed) == 10
    for menu in board.menus:
        key = menu["data-play-card"]
        assert [a for k, a in listed if k == key] == [
            f"play {key} vs 1",
            f"play {key} vs 2",
        ]


def test_the_board_speaks_its_own_sentences_as_the_log_does(client, user, deck_for):
    pt = playtest_create(
        owner=user, deck=deck_for("collision"), opponent="greedy", seed=7
    )
    client.force_login(user)
    html = client.get(f"/play/{pt.pk}/").content.decode()
    assert "You have the turn" in html and "You has" not in html
