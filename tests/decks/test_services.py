"""Deck services: create, entries, versions and their diff, clone, wishlist."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from decks import services
from decks.models import Deck, DeckEntry, DeckVersion

pytestmark = pytest.mark.django_db


def test_deck_create_saves_entries_and_a_first_version(user, legal_collision_entries):
    deck = services.deck_create(
        owner=user, game="collision", name="Storm", entries=legal_collision_entries
    )
    assert sum(e.quantity for e in deck.entries.all()) == 60
    assert list(deck.versions.values_list("number", flat=True)) == [1]
    assert len(deck.versions.get().entries) == 16


def test_an_illegal_deck_is_still_saved(user, collision_cards):
    blade, _ = collision_cards
    deck = services.deck_create(
        owner=user,
        game="collision",
        name="Short",
        entries=[{"card": blade.pk, "zone": "blade", "quantity": 1}],
    )
    assert deck.entries.count() == 1


def test_a_card_of_another_game_writes_nothing(user, card_factory):
    other = card_factory("bakugan", card_type="gate", gate_class="gold")
    with pytest.raises(ValidationError) as info:
        services.deck_create(
            owner=user,
            game="collision",
            name="X",
            entries=[{"card": other.pk, "zone": "deck", "quantity": 1}],
        )
    assert "is a Bakugan Battle Brawlers card, not a Beyblade Collision card" in str(
        info.value
    )
    assert Deck.objects.count() == 0
    assert DeckEntry.objects.count() == 0


@pytest.mark.parametrize(
    "change,message",
    [
        (
            {"zone": "gate"},
            "'gate' is not a zone of a Beyblade Collision deck (blade, deck).",
        ),
        ({"quantity": 0}, "Entry 1: the quantity must be at least 1."),
        ({"quantity": 1000}, "Entry 1: at most 99 copies per entry."),
        ({"card": 999999}, "Entry 1: there is no card with id 999999."),
    ],
)
def test_bad_entries_write_nothing(user, collision_cards, change, message):
    _, actions = collision_cards
    item = {"card": actions[0].pk, "zone": "deck", "quantity": 1, **change}
    with pytest.raises(ValidationError) as info:
        services.deck_create(owner=user, game="collision", name="X", entries=[item])
    assert any(message in m for m in info.value.messages)
    assert Deck.objects.count() == 0


def test_another_users_private_custom_card_cannot_be_used(
    user, other_user, card_factory
):
    card = card_factory("collide-o", kind="custom", card_type="sections")
    card.card_set.owner = other_user
    card.card_set.is_public = False
    card.card_set.save()
    with pytest.raises(ValidationError):
        services.deck_create(
            owner=user,
            game="collide-o",
            name="X",
            entries=[{"card": card.pk, "zone": "pack", "quantity": 1}],
        )


def test_entry_clean_refuses_a_card_of_another_game_and_a_zone_of_another_game(
    user, card_factory
):
    deck = services.deck_create(owner=user, game="collision", name="X")
    gate = card_factory("bakugan", card_type="gate", gate_class="gold")
    with pytest.raises(ValidationError) as info:
        DeckEntry(deck=deck, card=gate, zone="deck", quantity=1).full_clean()
    assert info.value.message_dict == {
        "card": [f"{gate} is not a Beyblade Collision card."]
    }
    action = card_factory("collision", card_type="action", title="Spin")
    with pytest.raises(ValidationError) as info:
        DeckEntry(deck=deck, card=action, zone="pack", quantity=1).full_clean()
    assert info.value.message_dict == {
        "zone": ["A Beyblade Collision deck's zones are: blade, deck."]
    }


def test_one_entry_per_deck_card_and_zone(user, collision_cards):
    _, actions = collision_cards
    deck = services.deck_create(
        owner=user,
        game="collision",
        name="X",
        entries=[{"card": actions[0].pk, "zone": "deck", "quantity": 1}],
    )
    with pytest.raises(ValidationError) as info:
        DeckEntry(deck=deck, card=actions[0], zone="deck", quantity=2).full_clean()
    assert info.value.messages == [
        "This card already has an entry in this zone of the deck."
    ]


def test_duplicate_input_lines_are_merged(user, collision_cards):
    _, actions = collision_cards
    item = {"card": actions[0].pk, "zone": "deck", "quantity": 2}
    deck = services.deck_create(
        owner=user, game="collision", name="X", entries=[item, item]
    )
    assert list(deck.entries.values_list("quantity", flat=True)) == [4]


def test_add_and_remove_cards_within_minutes_are_one_version(user, collision_cards):
    blade, actions = collision_cards
    deck = services.deck_create(owner=user, game="collision", name="X")
    services.deck_add_card(deck=deck, card=blade)
    services.deck_add_card(deck=deck, card=actions[0], quantity=3)
    services.deck_add_card(deck=deck, card=actions[0])
    services.deck_remove_card(deck=deck, card=actions[0], zone="deck", quantity=2)
    assert {(e.card_id, e.zone, e.quantity) for e in deck.entries.all()} == {
        (blade.pk, "blade", 1),
        (actions[0].pk, "deck", 2),
    }
    assert list(deck.versions.order_by("number").values_list("number", flat=True)) == [
        1,
        2,
    ]
    latest = deck.versions.get(number=2)
    assert sorted((e["card"], e["quantity"]) for e in latest.entries) == sorted(
        [(blade.pk, 1), (actions[0].pk, 2)]
    )
    services.deck_remove_card(deck=deck, card=actions[0], zone="deck", quantity=2)
    assert not deck.entries.filter(card=actions[0]).exists()


def test_an_edit_after_the_merge_window_starts_a_new_version(user, collision_cards):
    blade, actions = collision_cards
    deck = services.deck_create(owner=user, game="collision", name="X")
    services.deck_add_card(deck=deck, card=blade)
    deck.versions.filter(number=2).update(
        created_at=timezone.now() - services.MERGE_WINDOW - timedelta(seconds=1)
    )
    services.deck_add_card(deck=deck, card=actions[0])
    assert deck.versions.count() == 3
    assert [e["card"] for e in deck.versions.get(number=2).entries] == [blade.pk]


def test_a_whole_save_is_always_a_new_version(user, collision_cards):
    blade, _ = collision_cards
    deck = services.deck_create(owner=user, game="collision", name="X")
    services.deck_add_card(deck=deck, card=blade)
    services.deck_update(deck=deck, name="Y")
    assert deck.versions.count() == 3


def test_removing_a_card_not_in_the_deck_is_refused(user, collision_cards):
    _, actions = collision_cards
    deck = services.deck_create(owner=user, game="collision", name="X")
    with pytest.raises(ValidationError):
        services.deck_remove_card(deck=deck, card=actions[0], zone="deck")
    assert deck.versions.count() == 1


def test_version_diff_counts_added_removed_and_changed(user, collision_cards):
    blade, actions = collision_cards
    deck = services.deck_create(
        owner=user,
        game="collision",
        name="X",
        entries=[
            {"card": actions[0].pk, "zone": "deck", "quantity": 4},
            {"card": actions[1].pk, "zone": "deck", "quantity": 2},
        ],
    )
    services.deck_update(
        deck=deck,
        name="Y",
        entries=[
            {"card": actions[0].pk, "zone": "deck", "quantity": 3},
            {"card": blade.pk, "zone": "blade", "quantity": 1},
        ],
    )
    v1, v2 = (
        DeckVersion.objects.get(deck=deck, number=1),
        DeckVersion.objects.get(deck=deck, number=2),
    )
    assert (v1.name, v2.name) == ("X", "Y")
    diff = v1.diff_to(v2)
    assert diff == {
        "added": [
            {
                "card": blade.pk,
                "zone": "blade",
                "name": "Dragoon, Storm",
                "before": 0,
                "after": 1,
            }
        ],
        "removed": [
            {
                "card": actions[1].pk,
                "zone": "deck",
                "name": "Move 1",
                "before": 2,
                "after": 0,
            }
        ],
        "changed": [
            {
                "card": actions[0].pk,
                "zone": "deck",
                "name": "Move 0",
                "before": 4,
                "after": 3,
            }
        ],
    }
    assert v2.diff_to(v1)["added"][0]["card"] == actions[1].pk


def test_clone_copies_entries_into_a_private_deck_of_the_new_owner(
    user, other_user, legal_collision_entries
):
    deck = services.deck_create(
        owner=user,
        game="collision",
        name="Storm",
        is_public=True,
        entries=legal_collision_entries,
        notes="n",
    )
    copy = services.deck_clone(deck=deck, owner=other_user)
    assert (copy.owner, copy.name, copy.is_public, copy.notes) == (
        other_user,
        "Copy of Storm",
        False,
        "n",
    )
    assert sorted(copy.entries.values_list("card_id", "zone", "quantity")) == sorted(
        deck.entries.values_list("card_id", "zone", "quantity")
    )
    assert copy.versions.count() == 1
    assert deck.entries.count() == 16


def test_import_with_a_bad_line_writes_nothing(user, collision_cards):
    _, actions = collision_cards
    deck = services.deck_create(
        owner=user,
        game="collision",
        name="X",
        entries=[{"card": actions[0].pk, "zone": "deck", "quantity": 4}],
    )
    with pytest.raises(ValidationError) as info:
        services.deck_import_text(deck=deck, text="Deck:\n4 Move 1\n2 Mvoe 2\n")
    assert info.value.message_dict["text"] == [
        "Line 3: No card named “Mvoe 2” in this game. Did you mean: Move 2; Move 12; Move 9?"
    ]
    assert list(deck.entries.values_list("card_id", "quantity")) == [(actions[0].pk, 4)]
    assert deck.versions.count() == 1


def test_blank_name_is_refused(user):
    with pytest.raises(ValidationError):
        services.deck_create(owner=user, game="collision", name="  ")
    assert Deck.objects.count() == 0


def test_wishlist_raises_wanted_to_the_missing_copies(user, collision_cards):
    from collection.models import CollectionEntry
    from collection.services import collection_change_quantity

    blade, actions = collision_cards
    deck = services.deck_create(
        owner=user,
        game="collision",
        name="X",
        entries=[
            {"card": blade.pk, "zone": "blade", "quantity": 1},
            {"card": actions[0].pk, "zone": "deck", "quantity": 4},
        ],
    )
    collection_change_quantity(user=user, card=blade, owned_delta=1)
    collection_change_quantity(user=user, card=actions[0], owned_delta=1)
    assert services.deck_add_missing_to_wishlist(deck=deck, user=user) == 3
    assert services.deck_add_missing_to_wishlist(deck=deck, user=user) == 0
    wanted = {
        e.card_id: e.wanted_quantity for e in CollectionEntry.objects.filter(user=user)
    }
    assert wanted == {blade.pk: 0, actions[0].pk: 3}
