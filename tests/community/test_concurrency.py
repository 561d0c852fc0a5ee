"""Two moderators accepting one proposal at once apply it once."""

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from cards.community import services as community
from cards.models import Card, CardChange, CardSubmission


@pytest.mark.django_db(transaction=True)
def test_concurrent_acceptance_applies_once(user, moderator, gate, django_user_model):
    assert connection.vendor != "sqlite" or "memory" not in str(
        connection.settings_dict["NAME"]
    )
    second = django_user_model.objects.create_user(
        "mod2", "mod2@example.com", "correct-horse-battery-4", is_staff=True
    )
    submission = community.card_submission_create(
        user=user, game="bakugan", card=gate, fields={"bonus_aquos": 30}, source="copy"
    )
    barrier = threading.Barrier(2)
    outcomes = []

    def accept(who):
        try:
            barrier.wait(timeout=10)
            community.card_submission_accept(
                submission=CardSubmission.objects.get(pk=submission.pk), moderator=who
            )
            outcomes.append("applied")
        except ValidationError as error:
            outcomes.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=accept, args=(m,)) for m in (moderator, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert sorted(outcomes) == ["applied", "not_pending"]
    assert CardChange.objects.filter(card=gate).count() == 1
    assert Card.objects.get(pk=gate.pk).bonus_aquos == 30
    assert CardSubmission.objects.get(pk=submission.pk).status == "accepted"
