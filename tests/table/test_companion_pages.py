"""The table companion's pages: start, enter, undo, survive a reload, share read-only."""

import pytest
from django.urls import reverse

from cards.games import GAMES
from decks.table.companion.models import TableGame

pytestmark = pytest.mark.django_db


def _start(client, game, **fields):
    data = {"game": game, **fields}
    return client.post(f"{reverse('table:companion-new')}?game={game}", data)


def _act(client, table_game, **fields):
    table_game.refresh_from_db()
    data = {"version": table_game.version, **fields}
    return client.post(reverse("table:companion-act", args=[table_game.pk]), data)


def test_a_collision_game_from_two_decks_reads_the_blades_spin_strength(
    client, user, deck_for
):
    a, b = deck_for("collision"), deck_for("collision", variant=1)
    client.force_login(user)
    response = _start(client, "collision", players=2, deck_0=a.pk, deck_1=b.pk)
    table_game = TableGame.objects.get()
    assert response.status_code == 302
    blade = a.entries.get(zone="blade").card
    assert table_game.setup["strength"][0] == blade.spin_strength
    _act(client, table_game, event="battle", defender=1, hits=2)
    page = client.get(table_game.get_absolute_url()).content.decode()
    strength = table_game.setup["strength"][1]
    assert f"<strong>{strength - 2}</strong> / {strength}" in page


def test_undo_takes_back_the_last_entry_and_the_score_survives_a_reload(client, user):
    client.force_login(user)
    _start(client, "collision", players=2, strength_0=6, strength_1=6)
    table_game = TableGame.objects.get()
    _act(client, table_game, event="battle", defender=1, hits=2)
    _act(client, table_game, event="battle", defender=1, hits=1)
    table_game.refresh_from_db()
    assert len(table_game.log) == 2
    client.post(
        reverse("table:companion-undo", args=[table_game.pk]),
        {"version": table_game.version},
    )
    table_game.refresh_from_db()
    assert table_game.log == [{"kind": "battle", "defender": 1, "hits": "2"}]
    page = client.get(table_game.get_absolute_url()).content.decode()
    assert "<strong>4</strong> / 6" in page


def test_an_entry_on_an_old_page_is_refused_and_changes_nothing(client, user):
    client.force_login(user)
    _start(client, "collide-o", players=2, pack=90)
    table_game = TableGame.objects.get()
    old = table_game.version
    _act(client, table_game, event="play", player=0)
    response = client.post(
        reverse("table:companion-act", args=[table_game.pk]),
        {"version": old, "event": "play", "player": 1},
        follow=True,
    )
    table_game.refresh_from_db()
    assert len(table_game.log) == 1
    assert "changed on another screen" in response.content.decode()


def test_a_bad_entry_is_a_message_and_stores_nothing(client, user):
    client.force_login(user)
    _start(client, "collision", players=2, strength_0=6, strength_1=6)
    table_game = TableGame.objects.get()
    response = _act(client, table_game, event="battle", defender=1, hits=9)
    table_game.refresh_from_db()
    assert table_game.log == []
    page = client.get(response["Location"]).content.decode()
    assert "Hits is from 0 to 6." in page


def test_battle_edges_are_typed_in_the_transcribe_pages_keys(client, user):
    client.force_login(user)
    _start(client, "collision", players=2, strength_0=6, strength_1=6)
    table_game = TableGame.objects.get()
    page = client.get(table_game.get_absolute_url()).content.decode()
    assert "one key each: b bare, l live, s strike, e empty" in page
    # The rules' worked battle: live at 1, 2 and 5 against live at 2, 4 and 6.
    _act(client, table_game, event="battle", defender=1,
         attacker_edge="llbslb", defender_edge="BLBLEL")  # fmt: skip
    table_game.refresh_from_db()
    assert table_game.log[0]["attacker_edge"] == "LL.SL."
    assert table_game.log[0]["defender_edge"] == ".L.LEL"
    page = client.get(table_game.get_absolute_url()).content.decode()
    assert "<strong>3</strong> / 6" in page


def test_the_shared_link_shows_the_score_read_only_to_anyone(client, user):
    client.force_login(user)
    _start(client, "collide-o", players=3, pack=90)
    table_game = TableGame.objects.get()
    _act(client, table_game, event="play", player=2)
    client.logout()
    page = client.get(table_game.get_shared_url()).content.decode()
    assert "<strong>28</strong>" in page  # 89 dealt three ways: 29 each, one played
    assert "<form" not in page.split('<main id="main"')[1]
    assert client.get(table_game.get_absolute_url()).status_code == 302


def test_another_user_cannot_see_or_change_a_table_game(client, user, other_user):
    client.force_login(user)
    _start(client, "collide-o", players=2, pack=90)
    table_game = TableGame.objects.get()
    client.force_login(other_user)
    assert client.get(table_game.get_absolute_url()).status_code == 404
    response = _act(client, table_game, event="play", player=0)
    assert response.status_code == 404
    table_game.refresh_from_db()
    assert table_game.log == []


def test_a_metal_fusion_game_from_decks_counts_power_from_their_line_ups(
    client, user, deck_for
):
    a, b = deck_for("metal-fusion"), deck_for("metal-fusion", variant=1)
    client.force_login(user)
    response = _start(client, "metal-fusion", players=2, deck_0=a.pk, deck_1=b.pk)
    assert response.status_code == 302, response.content.decode()[:2000]
    table_game = TableGame.objects.get()
    assert [c["card_type"] for c in table_game.setup["lineups"][0]] == [
        "character",
        "beyblade",
        "customizer",
    ]
    page = client.get(table_game.get_absolute_url()).content.decode()
    assert "Battle power per launcher colour" in page


def test_a_bakugan_battle_from_a_deck_reads_the_gate_bonus(client, user, deck_for):
    a, b = deck_for("bakugan"), deck_for("bakugan", variant=1)
    client.force_login(user)
    _start(client, "bakugan", players=2, deck_0=a.pk, deck_1=b.pk)
    table_game = TableGame.objects.get()
    gate = table_game.setup["cards"][0]["gates"][0]
    figure = GAMES["bakugan"].not_cards[0]
    assert table_game.setup["cards"][0]["figures"]
    attribute = "pyrus"
    bonus = gate[f"bonus_{attribute}"] or 0
    _act(
        client,
        table_game,
        event="battle",
        gate=gate["id"],
        player_0=0,
        attribute_0=attribute,
        g_power_0=500,
        abilities_0="50",
        player_1=1,
        attribute_1=attribute,
        g_power_1=300,
    )
    table_game.refresh_from_db()
    assert len(table_game.log) == 1, figure
    page = client.get(table_game.get_absolute_url()).content.decode()
    assert f"Player 1 {500 + bonus + 50} against Player 2 {300 + bonus}" in page


def test_the_start_form_refuses_a_wrong_player_count(client, user):
    client.force_login(user)
    response = _start(client, "bakugan", players=3)
    assert response.status_code == 400
    assert "Bakugan is for 2 or 4 players." in response.content.decode()
    assert not TableGame.objects.exists()


def test_a_nul_in_a_typed_name_is_dropped(client, user):
    client.force_login(user)
    _start(client, "collide-o", players=2, pack=90, title="Friday\x00 game")
    assert TableGame.objects.get().name == "Friday game"


def test_a_metal_fusion_line_up_can_be_typed_and_counts_the_worked_example(
    client, user
):
    client.force_login(user)
    fields = {}
    worked = {"character": 4, "beyblade": 2, "customizer": 5}
    for p in (0, 1):
        for slot, yellow in worked.items():
            for colour in ("red", "blue", "green"):
                fields[f"{slot}_{colour}_{p}"] = 1
            fields[f"{slot}_yellow_{p}"] = yellow
        fields[f"move_yellow_{p}"] = -1
    fields["emblems_0"] = "1"
    response = _start(client, "metal-fusion", players=2, **fields)
    assert response.status_code == 302, response.content.decode()[:3000]
    table_game = TableGame.objects.get()
    for _ in range(2):
        _act(client, table_game, event="turn", attacker=0, defender=1,
             colour="yellow", keep="booster", booster="Y")  # fmt: skip
    page = client.get(table_game.get_absolute_url()).content.decode()
    # 4 + 1 (emblems) + 2 + 5 + 2 boosters - 1 (landing): the rules' 13.
    assert "<th>Player 1</th><td>4</td><td>4</td><td>4</td><td>13</td>" in page


def test_a_four_player_bakugan_battle_names_its_two_battlers(client, user):
    client.force_login(user)
    _start(client, "bakugan", players=4)
    table_game = TableGame.objects.get()
    _act(client, table_game, event="battle", player_0=3, attribute_0="haos",
         g_power_0=350, bonus_haos=50, player_1=2, attribute_1="darkus",
         g_power_1=390)  # fmt: skip
    table_game.refresh_from_db()
    assert len(table_game.log) == 1
    page = client.get(table_game.get_absolute_url()).content.decode()
    assert "Player 4 400 against Player 3 390: Player 4 wins the gate" in page


def test_the_start_form_offers_every_metal_fusion_variant_the_engine_plays(
    client, user
):
    from decks.engine import metal_fusion

    client.force_login(user)
    page = client.get(reverse("table:companion-new"), {"game": "metal-fusion"})
    offered = page.content.decode()
    for variant in metal_fusion.VARIANTS:
        assert f'<option value="{variant}"' in offered


def test_a_metal_fusion_attack_on_everyone_needs_more_than_each_and_two_win(
    client, user
):
    client.force_login(user)
    fields = {}
    for p, red in enumerate((3, 1, 2)):
        for slot in ("character", "beyblade", "customizer"):
            for colour in ("red", "blue", "green", "yellow"):
                fields[f"{slot}_{colour}_{p}"] = red if colour == "red" else 1
    response = _start(client, "metal-fusion", players=3, variant="all", **fields)
    assert response.status_code == 302, response.content.decode()[:3000]
    table_game = TableGame.objects.get()
    page = client.get(table_game.get_absolute_url()).content.decode()
    assert 'name="defender"' not in page
    assert 'name="adjust_2"' in page
    # Player 3 (6 on red) against 9 and 3: the attack fails.
    _act(client, table_game, event="turn", attacker=2, colour="red")
    # Player 1 (9) against 3 and 6, then again: two in hand win.
    _act(client, table_game, event="turn", attacker=0, colour="red")
    _act(client, table_game, event="turn", attacker=0, colour="red")
    table_game.refresh_from_db()
    assert len(table_game.log) == 3
    page = client.get(table_game.get_absolute_url()).content.decode()
    assert (
        "Red: Player 3 6 against Player 1 9 against Player 2 3; the attack fails"
        in page
    )
    assert "Player 1 wins." in page
    assert "<strong>2</strong> / 2" in page


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("", "The character&#x27;s red stat is a whole number."),
        ("four", "The character&#x27;s red stat is a whole number."),
        ("6", "The character&#x27;s red stat is from 0 to 5."),
    ],
)
def test_a_blank_or_wrong_metal_fusion_stat_is_a_form_error(
    client, user, typed, message
):
    client.force_login(user)
    fields = {
        f"{slot}_{colour}_{p}": 1
        for p in (0, 1)
        for slot in ("character", "beyblade", "customizer")
        for colour in ("red", "blue", "green", "yellow")
    }
    fields["character_red_0"] = typed
    response = _start(client, "metal-fusion", players=2, **fields)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not TableGame.objects.exists()


def _shared_game(client, user):
    client.force_login(user)
    _start(client, "collide-o", players=2, pack=90)
    return TableGame.objects.get()


def test_the_owner_turns_the_shared_link_off_and_it_then_404s(client, user):
    table_game = _shared_game(client, user)
    old = table_game.get_shared_url()
    assert client.get(old).status_code == 200
    url = reverse("table:companion-share", args=[table_game.pk])
    response = client.post(url, {"on": "0", "confirm": "1"})
    assert response.status_code == 302
    assert client.get(old).status_code == 404
    table_game.refresh_from_db()
    assert table_game.shared is False
    assert client.get(table_game.get_shared_url()).status_code == 404
    # Turned on again, it is a new link; the old one stays dead.
    client.post(url, {"on": "1"})
    table_game.refresh_from_db()
    assert table_game.get_shared_url() != old
    assert client.get(table_game.get_shared_url()).status_code == 200
    assert client.get(old).status_code == 404


def test_turning_the_link_off_needs_the_box_ticked(client, user):
    table_game = _shared_game(client, user)
    url = reverse("table:companion-share", args=[table_game.pk])
    client.post(url, {"on": "0"})
    assert client.get(table_game.get_shared_url()).status_code == 200


def test_the_owner_deletes_a_table_game_and_its_link_then_404s(client, user):
    table_game = _shared_game(client, user)
    shared = table_game.get_shared_url()
    url = reverse("table:companion-delete", args=[table_game.pk])
    client.post(url)  # not confirmed: kept
    assert TableGame.objects.filter(pk=table_game.pk).exists()
    response = client.post(url, {"confirm": "1"})
    assert response.status_code == 302
    assert not TableGame.objects.filter(pk=table_game.pk).exists()
    assert client.get(shared).status_code == 404
    assert client.get(table_game.get_absolute_url()).status_code == 404


def test_another_user_cannot_turn_off_or_delete_a_table_game(client, user, other_user):
    table_game = _shared_game(client, user)
    client.force_login(other_user)
    share = reverse("table:companion-share", args=[table_game.pk])
    delete = reverse("table:companion-delete", args=[table_game.pk])
    assert client.post(share, {"on": "0", "confirm": "1"}).status_code == 404
    assert client.post(delete, {"confirm": "1"}).status_code == 404
    table_game.refresh_from_db()
    assert table_game.shared is True
    assert client.get(table_game.get_shared_url()).status_code == 200


def test_the_log_and_its_refusals_use_the_names_entered(client, user):
    client.force_login(user)
    _start(client, "collision", players=2, name_0="Ana", name_1="Ben",
           strength_0=3, strength_1=6)  # fmt: skip
    table_game = TableGame.objects.get()
    _act(client, table_game, event="battle", defender=1, hits=2)
    _act(client, table_game, event="lose", player=0, amount=3)
    response = _act(client, table_game, event="gain", player=0, amount=1)
    page = client.get(response["Location"]).content.decode()
    assert "<li>Ben takes 2 hits: spin pile 6 → 4</li>" in page
    assert "<li>Ana loses 3 spin: 3 → 0</li>" in page
    assert "Ana is already out." in page
    assert "Player 2" not in page and "Player 1" not in page


def test_a_bakugan_log_names_the_players_entered(client, user):
    client.force_login(user)
    _start(client, "bakugan", players=2, name_0="Dan", name_1="Shun")
    table_game = TableGame.objects.get()
    _act(client, table_game, event="battle", player_0=1, attribute_0="haos",
         g_power_0=350, player_1=0, attribute_1="darkus", g_power_1=390)  # fmt: skip
    _act(client, table_game, event="gate", player=1)
    page = client.get(table_game.get_absolute_url()).content.decode()
    assert "<li>Shun 350 against Dan 390: Dan wins the gate</li>" in page
    assert "<li>Shun wins a gate without a battle</li>" in page


def test_collide_o_and_metal_fusion_logs_name_the_players_entered(client, user):
    client.force_login(user)
    _start(client, "collide-o", players=2, pack=90, name_0="Kai", name_1="Max")
    table_game = TableGame.objects.get()
    _act(client, table_game, event="play", player=1)
    page = client.get(table_game.get_absolute_url()).content.decode()
    assert "<li>Max plays a card: 43 left</li>" in page
    fields = {"name_0": "Gingka", "name_1": "Kyoya"}
    for p in (0, 1):
        for slot in ("character", "beyblade", "customizer"):
            for colour in ("red", "blue", "green", "yellow"):
                fields[f"{slot}_{colour}_{p}"] = 1 + p
    _start(client, "metal-fusion", players=2, **fields)
    table_game = TableGame.objects.get(game__slug="metal-fusion")
    _act(client, table_game, event="turn", attacker=1, defender=0, colour="red")
    page = client.get(table_game.get_absolute_url()).content.decode()
    assert (
        "<li>Red: Kyoya 6 against Gingka 3; Kyoya keeps the card (1 in hand)</li>"
        in page
    )
