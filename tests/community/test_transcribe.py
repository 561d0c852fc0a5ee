"""The transcribe page: controls shaped like the card, refusals field by field."""

import re

import pytest

from cards.models import CardSubmission
from tests.factories import CO, MF, B, C, make_card, make_deck, make_set


@pytest.fixture
def signed_in(client, user):
    client.force_login(user)
    return client


def card_of(game, slug="t", **fields):
    card_set = make_set(game, slug=f"{slug}-{game}", name=f"T {game}", source="t")
    fields.setdefault("source", "test")
    return make_card(game, card_set=card_set, **fields)


def url(card, tail=""):
    return f"/community/cards/{card.pk}/transcribe/{tail}"


@pytest.mark.django_db
def test_a_blade_gets_six_notch_buttons_and_no_colour(signed_in):
    card = card_of(C, key="1", number=1, card_type="blade")
    html = signed_in.get(url(card)).content.decode()
    assert html.count("data-notch=") == 6
    assert 'name="colour"' not in html
    assert 'name="spin_strength"' in html
    assert "★</span> rare" in html  # the rarity with its printed symbol


@pytest.mark.django_db
def test_the_edge_is_typed_in_the_games_keys_as_the_companion_takes_them(
    signed_in, user
):
    card = card_of(C, key="1", number=1, card_type="blade")
    html = signed_in.get(url(card)).content.decode()
    assert "Or type six keys (b bare, l live, s strike, e empty)" in html
    assert (
        'data-keys="{&quot;b&quot;: &quot;.&quot;, &quot;l&quot;: &quot;L&quot;' in html
    )
    signed_in.post(url(card), {"card_type": "blade", "battle_edge": "LSbEbl"})
    reading = CardSubmission.objects.get(card=card, submitter=user)
    assert reading.fields == {"card_type": "blade", "battle_edge": "LS.E.L"}


@pytest.mark.django_db
def test_a_metal_fusion_beyblade_gets_a_pip_stepper_per_colour(signed_in):
    card = card_of(MF, key="1", number=1, card_type="beyblade")
    html = signed_in.get(url(card)).content.decode()
    assert len(re.findall(r'class="control control-pips', html)) == 4
    assert 'name="emblem"' in html and 'name="move_red"' in html


@pytest.mark.django_db
def test_metal_fusion_boosters_are_picked_as_colour_toggles(signed_in):
    card = card_of(MF, key="1", number=1, card_type="beyblade", boosters="RY")
    html = signed_in.get(url(card)).content.decode()
    toggles = re.findall(
        r'<input type="checkbox" name="boosters" value="(\w)"( checked)?', html
    )
    assert toggles == [("R", " checked"), ("B", ""), ("G", ""), ("Y", " checked")]
    assert '<input name="boosters"' not in html  # no box to type letters into


@pytest.mark.django_db
def test_ticked_booster_colours_are_saved_as_letters_in_the_games_order(
    signed_in, user
):
    card = card_of(MF, key="1", number=1, card_type="character")
    response = signed_in.post(
        url(card), {"card_type": "character", "boosters": ["Y", "B"]}
    )
    assert response.status_code == 302
    reading = CardSubmission.objects.get(card=card, submitter=user)
    assert reading.fields == {"card_type": "character", "boosters": "BY"}


@pytest.mark.django_db
def test_three_booster_colours_are_refused_with_the_validators_message(signed_in):
    card = card_of(MF, key="1", number=1, card_type="character")
    response = signed_in.post(
        url(card), {"card_type": "character", "boosters": ["R", "B", "G"]}
    )
    assert response.status_code == 400
    assert "Boosters are one colour, two colours, or all four" in (
        response.content.decode()
    )
    assert CardSubmission.objects.count() == 0


@pytest.mark.django_db
def test_a_collide_o_card_gets_three_section_pickers(signed_in):
    card = card_of(CO, key="1", number=1, card_type="sections")
    html = signed_in.get(url(card)).content.decode()
    assert len(re.findall(r"<select[^>]+name=\"section_\d\"", html)) == 3
    assert 'label="Two-colour stripe"' in html
    assert '<option value="BYRGK"' in html


@pytest.mark.django_db
def test_a_bakugan_gate_gets_the_six_attribute_bonus_grid(signed_in):
    card = card_of(
        B, key="1/48", number=1, card_type="gate", name="G", gate_class="gold"
    )
    html = signed_in.get(url(card)).content.decode()
    assert len(re.findall(r'name="bonus_\w+__not_printed"', html)) == 6


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("game", "card_fields", "posted", "field", "message"),
    [
        (C, {"card_type": "blade"}, {"battle_edge": "LS.E.LL"}, "battle_edge",
         "A battle edge is exactly six notches"),
        (MF, {"card_type": "beyblade"}, {"stat_red": "6"}, "stat_red",
         "Ensure this value is less than or equal to 5."),
        (C, {"card_type": "blade"}, {"colour": "red"}, "colour",
         "Blades have no colour."),
    ],
)  # fmt: skip
def test_an_impossible_value_is_refused_with_the_validators_message(
    signed_in, game, card_fields, posted, field, message
):
    card = card_of(game, key="1", number=1, **card_fields)
    response = signed_in.post(url(card), {"card_type": card.card_type, **posted})
    assert response.status_code == 400
    html = response.content.decode()
    if f'data-control="{field}"' in html:
        shown = html.split(f'data-control="{field}"', 1)[1].split("data-control=")[0]
    else:  # A field this type does not print: named above the controls.
        shown = html.split('field-problems"', 1)[1].split("</ul>")[0]
    assert message in shown
    assert CardSubmission.objects.count() == 0


@pytest.mark.django_db
def test_the_preview_draws_the_face_from_the_values_entered(signed_in):
    card = card_of(C, key="1", number=1, card_type="blade")
    response = signed_in.post(
        url(card, "preview/"), {"card_type": "blade", "battle_edge": "lsbebl"}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.startswith('<figure class="card-face"><img src="data:image/png;base64,')
    assert "<html" not in html
    assert CardSubmission.objects.count() == 0


@pytest.mark.django_db
def test_saving_goes_to_the_next_unknown_card_in_number_order(signed_in, user):
    card_set = make_set(C, slug="walk", name="Walk", source="t")
    first, known, third = (
        make_card(C, card_set=card_set, key=str(n), number=n, source="t", **extra)
        for n, extra in (
            (1, {}),
            (2, {"card_type": "event", "rarity": "common", "title": "X",
                 "name": "X", "colour": "red", "battle_edge": "......",
                 "not_printed": ["text"]}),
            (3, {}),
        )
    )  # fmt: skip
    response = signed_in.post(
        url(first), {"card_type": "event", "rarity": "common", "next_unknown": "1"}
    )
    assert response.status_code == 302
    assert response["Location"] == url(third)
    assert CardSubmission.objects.get(card=first).fields == {
        "card_type": "event",
        "rarity": "common",
    }


@pytest.mark.django_db
def test_saving_returns_to_the_playtest_it_came_from(signed_in):
    card = card_of(C, key="1", number=1, card_type="blade")
    response = signed_in.post(
        url(card), {"battle_edge": "LS.E.L", "next": "/play/new/?deck=4"}
    )
    assert response.status_code == 302
    assert response["Location"] == "/play/new/?deck=4"
    response = signed_in.post(
        url(card), {"battle_edge": "LS.E.L", "next": "https://evil.example/"}
    )
    assert response["Location"] == f"/cards/{card.pk}/"


@pytest.mark.django_db
def test_the_page_needs_a_signed_in_collector(client):
    card = card_of(C, key="1", number=1)
    response = client.get(url(card))
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def _unknown_cards(count, slug="walk"):
    card_set = make_set(C, slug=slug, name=slug.title(), source="t")
    return [
        make_card(C, card_set=card_set, key=str(n), number=n, source="t")
        for n in range(1, count + 1)
    ]


def _deck_of(user, cards):
    entries = [{"card": c.pk, "zone": "deck", "quantity": 1} for c in cards]
    return make_deck(user, entries=entries)


@pytest.mark.django_db
def test_enter_presses_save_and_open_the_next_unknown_card(signed_in):
    (card,) = _unknown_cards(1)
    html = signed_in.get(url(card)).content.decode()
    # With the script on (every browser but a few), <noscript> is not there.
    html = re.sub(r"<noscript>.*?</noscript>", "", html)
    buttons = re.findall(r'<button type="submit" name="(\w+)"', html)
    # Implicit submission (Enter in a field) presses the form's first button.
    assert buttons[0] == "next_unknown"
    assert re.search(r'<input id="f-title" name="title" value="" autofocus>', html)
    # Tab goes from field to field: the notch buttons are for fingers.
    blade = card_of(C, slug="b", key="9", number=9, card_type="blade")
    html = signed_in.get(url(blade)).content.decode()
    assert len(re.findall(r'data-notch="\d" tabindex="-1"', html)) == 6


@pytest.mark.django_db
def test_from_a_deck_the_page_counts_its_unknown_cards_and_walks_only_them(
    signed_in, user
):
    first, outside, third, fourth = _unknown_cards(4)
    deck = _deck_of(user, [first, third, fourth])
    back = f"/play/new/?deck={deck.pk}"
    page = signed_in.get(url(first), {"deck": deck.pk, "next": back})
    assert "<strong>3 of its 3 different cards</strong> still unknown" in (
        page.content.decode()
    )
    response = signed_in.post(
        url(first),
        {"card_type": "event", "deck": deck.pk, "next": back, "next_unknown": "1"},
    )
    assert response["Location"] == (
        f"{url(third)}?deck={deck.pk}&next=%2Fplay%2Fnew%2F%3Fdeck%3D{deck.pk}"
    )
    page = signed_in.get(response["Location"]).content.decode()
    assert "<strong>2 of its 3 different cards</strong> still unknown" in page
    assert f'<input type="hidden" name="deck" value="{deck.pk}">' in page
    for card in (third, fourth):
        response = signed_in.post(
            url(card),
            {"card_type": "event", "deck": deck.pk, "next": back, "next_unknown": "1"},
        )
    assert response["Location"] == back
    assert not CardSubmission.objects.filter(card=outside).exists()


@pytest.mark.django_db
def test_someone_elses_deck_is_not_walked(signed_in, other_user):
    first, second = _unknown_cards(2)
    deck = _deck_of(other_user, [first])
    page = signed_in.get(url(first), {"deck": deck.pk}).content.decode()
    assert "Your deck:" not in page
    response = signed_in.post(
        url(first), {"card_type": "event", "deck": deck.pk, "next_unknown": "1"}
    )
    assert response["Location"] == url(second)


@pytest.mark.django_db
def test_the_walk_through_a_set_goes_round_to_the_cards_before(signed_in, user):
    first, second, third = _unknown_cards(3)
    signed_in.post(url(second), {"card_type": "event"})
    response = signed_in.post(url(third), {"card_type": "event", "next_unknown": "1"})
    assert response["Location"] == url(first)
    response = signed_in.post(url(first), {"card_type": "event", "next_unknown": "1"})
    assert response["Location"] == "/community/help-wanted/collision/walk/"


@pytest.mark.django_db
def test_the_next_card_suggests_the_type_and_colour_read_before(signed_in):
    first, second, third = _unknown_cards(3)
    signed_in.post(
        url(first),
        {"card_type": "action", "colour": "red", "title": "Dash", "next_unknown": "1"},
    )
    html = signed_in.get(url(second)).content.decode()
    assert 'name="card_type" value="action" checked' in html
    assert 'name="colour" value="red" checked' in html
    assert (
        "Suggested from the card you read before: card type action, colour red. "
        "Change them if this card differs."
    ) in html
    assert 'name="title" value="" autofocus' in html  # the title is never suggested
    # A card opened another way (not the one the walk opened) gets none.
    html = signed_in.get(url(third)).content.decode()
    assert 'name="card_type" value="" checked' in html
    assert "Suggested from the card you read before" not in html


@pytest.mark.django_db
def test_a_card_that_knows_its_type_gets_no_other_types_colour(signed_in):
    first = _unknown_cards(1)[0]
    character = make_card(
        C, card_set=first.card_set, key="2", number=2, card_type="character",
        source="t",
    )  # fmt: skip
    response = signed_in.post(
        url(first), {"card_type": "action", "colour": "red", "next_unknown": "1"}
    )
    assert response["Location"] == url(character)
    html = signed_in.get(url(character)).content.decode()
    assert 'name="colour" value="" checked' in html
    assert "as on the card you read before" not in html


@pytest.mark.django_db
def test_a_read_stat_shows_in_the_card_pages_stats_table_for_its_author_only(
    signed_in, client, other_user
):
    card = card_of(MF, key="1", number=1, card_type="character", stat_yellow=4)
    signed_in.post(url(card), {"card_type": "character", "stat_red": "2"})

    def stats(page):
        html = page.get(card.get_absolute_url()).content.decode()
        table = html[html.index('<table class="mf-stat-table">') :]
        return table[: table.index("</table>")]

    mine = stats(signed_in)
    assert 'aria-label="red 2"' in mine
    assert 'aria-label="yellow 4"' in mine
    client.force_login(other_user)
    theirs = stats(client)
    assert 'aria-label="red' not in theirs
    assert 'aria-label="yellow 4"' in theirs
