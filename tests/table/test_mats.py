"""Play mats: every game's mats print, at true size, with the places its rules name."""

import pytest
from django.urls import reverse

from cards.games import GAMES
from tests.table.pdf import pages

pytestmark = pytest.mark.django_db


def _mat(client, game, mat, **params):
    response = client.get(reverse("table:mat", args=[game, mat]), params)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    return pages(response.content)


def test_the_collision_mat_marks_the_six_places_one_sheet_per_player(client):
    sheets = _mat(client, "collision", "player", players=3)
    assert len(sheets) == 3
    for n, sheet in enumerate(sheets, 1):
        assert sheet["size"] == pytest.approx((297, 210), abs=0.1)
        assert f"player {n}" in sheet["text"]
        for place in (
            "Blade",
            "Spin pile",
            "Deck",
            "Battle pile",
            "Discard pile",
            "Characters in play",
        ):
            assert place in sheet["text"]


def test_the_metal_fusion_mat_has_the_line_up_and_the_four_launcher_colours(client):
    (sheet,) = _mat(client, "metal-fusion", "lineup", players=1)
    for place in ("Character", "Beyblade", "Customizer", "Boosters", "Deck"):
        assert place in sheet["text"]
    for colour in ("Red", "Blue", "Green", "Yellow"):
        assert colour in sheet["text"]


def test_the_bakugan_player_mat_has_the_used_pile_left_and_unused_pile_right(
    client,
):
    (sheet,) = _mat(client, "bakugan", "player", players=1)
    assert sheet["text"].index("Used pile") < sheet["text"].index("Unused pile")
    place = {p.label: p for p in GAMES["bakugan"].mat("player").places}
    assert place["Used pile"].x < place["Unused pile"].x


def test_the_bakugan_two_player_field_is_tiled_and_the_four_player_field_is_one_sheet(
    client,
):
    two = _mat(client, "bakugan", "field-2")
    assert len(two) == 2
    assert "sheet 1 of 2" in two[0]["text"]
    assert "sheet 2 of 2" in two[1]["text"]
    four = _mat(client, "bakugan", "field-4", paper="a4")
    assert len(four) == 1
    assert four[0]["text"].count("Gate card") == 4


def test_the_four_player_gates_touch_only_at_the_corners():
    gates = [p for p in GAMES["bakugan"].mat("field-4").places]
    for a in gates:
        for b in gates:
            if a is b:
                continue
            overlap_x = min(a.x + a.w, b.x + b.w) - max(a.x, b.x)
            overlap_y = min(a.y + a.h, b.y + b.h) - max(a.y, b.y)
            # Neither overlapping nor sharing a stretch of edge.
            assert not (overlap_x > 0 and overlap_y >= 0)
            assert not (overlap_y > 0 and overlap_x >= 0)
    corners = {
        (round(x, 3), round(y, 3))
        for p in gates
        for x in (p.x, p.x + p.w)
        for y in (p.y, p.y + p.h)
    }
    shared = sum(
        1
        for c in corners
        if sum(
            1
            for p in gates
            if c
            in {
                (round(x, 3), round(y, 3))
                for x in (p.x, p.x + p.w)
                for y in (p.y, p.y + p.h)
            }
        )
        == 2
    )
    assert shared == 4


def test_the_collide_o_line_guide_steps_one_section_each_card(client):
    (sheet,) = _mat(client, "collide-o", "line", players=4)
    assert "Centre card" in sheet["text"]
    mat = GAMES["collide-o"].mat("line")
    centre = next(p for p in mat.places if p.label == "Centre card")
    right = sorted(
        (p for p in mat.places if p.label.endswith("on the right")), key=lambda p: p.x
    )
    steps = [round(p.x - centre.x, 3) for p in right]
    third = round(centre.w / 3, 3)
    assert steps == [third, round(2 * centre.w / 3, 3), round(centre.w, 3)]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_one_player_mat_fits_one_landscape_sheet(client, paper):
    for game in GAMES.values():
        for mat in game.mats:
            if mat.per_player:
                sheets = _mat(client, game.slug, mat.slug, players=1, paper=paper)
                assert len(sheets) == 1, (game.slug, mat.slug, paper)


def test_an_unknown_mat_is_404_and_too_many_players_a_message(client):
    assert (
        client.get(reverse("table:mat", args=["collision", "nope"])).status_code == 404
    )
    response = client.get(
        reverse("table:mat", args=["collision", "player"]), {"players": 9}
    )
    assert response.status_code == 400
    assert "Collision is for up to 4 players." in response.content.decode()
