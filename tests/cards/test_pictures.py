"""One battle-edge picture everywhere, and no empty headings on card pages."""

import pytest
from django.template import Context, Template

from cards.games.spec import PALETTE
from tests.factories import B, C, make_card

pytestmark = pytest.mark.django_db


def test_the_card_page_draws_the_edge_in_its_table_never_the_raw_codes(client):
    card = make_card(C, title="Tyson", card_type="character", battle_edge="L.L..L")
    page = client.get(f"/cards/{card.pk}/").content.decode()
    assert "L.L..L" not in page
    assert 'aria-label="Battle edge: live, bare, live, bare, bare, live"' in page


def test_a_bakugan_figure_page_has_no_empty_pictures_heading(client):
    card = make_card(B, name="Dragonoid", card_type="bakugan")
    page = client.get(f"/cards/{card.pk}/").content.decode()
    assert "<h2>Pictures</h2>" not in page


def test_the_board_draws_an_edge_with_the_card_pages_picture():
    board = Template('{% include "play/boards/_edge.html" with edge="L....." %}')
    page = Template("{% load cards_tags %}{% edge_picture 'L.....' 12 %}")
    drawn = board.render(Context({}))
    assert page.render(Context({})) in drawn
    assert f'fill="{PALETTE["green"]}"' in drawn
