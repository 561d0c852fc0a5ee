"""Two collectors confirming one card at the same moment give one confirmation."""

import threading

import pytest
from django.db import connection

from cards.community import readings
from cards.models import Card, CardChange, FieldVerification
from tests.community.conftest import trust
from tests.factories import C, make_card, make_set


@pytest.mark.django_db(transaction=True)
def test_concurrent_confirmations_give_one_confirmation(user, django_user_model):
    assert connection.vendor != "sqlite" or "memory" not in str(
        connection.settings_dict["NAME"]
    )
    official = make_set(C, slug="base-race", name="Base race", source="test")
    card = make_card(
        C, card_set=official, key="dragoon", name="Dragoon", title="Dragoon",
        card_type="blade", spin_strength=6, source="the rules text",
    )  # fmt: skip
    others = [
        django_user_model.objects.create_user(n, f"{n}@example.com", "horse-battery-9")
        for n in ("bob", "carol")
    ]
    for who in (user, *others):
        trust(who)  # established collectors: their readings confirm
    readings.card_reading_save(user=user, card=card, fields={"battle_edge": "LS.E.L"})
    barrier = threading.Barrier(2)
    outcomes = []

    def confirm(who):
        try:
            barrier.wait(timeout=10)
            readings.card_reading_save(
                user=who,
                card=Card.objects.get(pk=card.pk),
                fields={"battle_edge": "LS.E.L"},
            )
            outcomes.append("saved")
        finally:
            connection.close()

    threads = [threading.Thread(target=confirm, args=(u,)) for u in others]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert outcomes == ["saved", "saved"]
    rows = FieldVerification.objects.filter(card=card)
    assert [(r.field, r.level, r.value) for r in rows] == [
        ("battle_edge", "confirmed", "LS.E.L")
    ]
    assert rows[0].readings.count() == 3
    # One change wrote the agreed edge; the later confirmation changed nothing.
    assert CardChange.objects.filter(card=card).count() == 1
    stored = Card.objects.get(pk=card.pk)
    assert stored.battle_edge == "LS.E.L"
    # The name came from the rules text and nobody confirmed it: the card stays
    # unverified, its battle edge alone is confirmed.
    assert readings.card_verification(stored)["level"] == "unverified"
    assert readings.card_verification(stored)["fields"]["battle_edge"]["level"] == (
        "confirmed"
    )
