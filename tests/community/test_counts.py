"""The home and game pages count honestly: slots, names, fully known, confirmed, verified."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cards.community import counts, readings
from tests.community.conftest import trust
from tests.factories import C, make_card, make_set


@pytest.fixture
def collision_cards(db):
    base = make_set(C, slug="count-base", name="Count base", source="t")
    make_card(C, card_set=base, key="1", number=1, source="slot")
    make_card(C, card_set=base, key="2", number=2, source="slot", name="Dragoon",
              title="Dragoon", card_type="blade")  # fmt: skip
    make_card(C, card_set=base, key="3", number=3, source="t", name="Draciel, Max's",
              title="Draciel", subtitle="Max's", card_type="blade", rarity="rare",
              battle_edge="L.S.EL", spin_strength=5,
              verification="verified")  # fmt: skip
    make_card(C, kind="practice", source="site")
    return base


def test_the_home_page_counts_slots_names_known_confirmed_and_verified(
    client, collision_cards
):
    html = client.get("/").content.decode()
    tile = html.split("game-collision", 1)[1].split("</li>\n  \n")[0]
    assert (
        "3 printed cards on record: 2 with a known name, 1 fully known, 0 confirmed "
        "by two readings, 1 verified by a moderator. 1 practice card made by this "
        "site, to play today."
    ) in tile


def test_the_figures_are_counted_again_after_a_card_write_only(
    collision_cards, user, django_user_model
):
    first = counts.game_counts(C)
    with CaptureQueriesContext(connection) as queries:
        assert counts.game_counts(C) == first
    assert len(queries) == 2  # the two MAX stamps; no card is counted
    bob = django_user_model.objects.create_user("bob", "b@example.com", "horse-9-x")
    card = collision_cards.cards.get(key="1")
    for who in (user, bob):
        trust(who)  # established collectors: their readings confirm
        readings.card_reading_save(
            user=who,
            card=card,
            fields={"card_type": "event", "title": "Rain", "colour": "blue",
                    "rarity": "common", "battle_edge": "......",
                    "not_printed": ["text"]},
        )  # fmt: skip
    after = counts.game_counts(C)
    assert (after.named, after.fully_known, after.confirmed) == (3, 2, 1)
