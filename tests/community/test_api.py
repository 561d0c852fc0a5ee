"""The submissions API and card history API: owners, moderators, others, anonymous."""

import pytest

from cards.community import services as community
from cards.models import Card, CardChange, CardSubmission

URL = "/api/submissions/"


def _submit(user, card, **fields):
    return community.card_submission_create(
        user=user, game="bakugan", card=card, fields=fields, source="my copy"
    )


@pytest.mark.django_db
def test_post_correction_creates_a_pending_submission(client, user, gate):
    client.force_login(user)

    response = client.post(
        URL,
        {
            "card": gate.pk,
            "game": "bakugan",
            "fields": {"bonus_haos": 20},
            "source": "my own copy",
        },
        content_type="application/json",
    )

    assert response.status_code == 201
    body = response.json()
    assert (body["card"], body["status"], body["fields"], body["submitter"]) == (
        gate.pk,
        "pending",
        {"bonus_haos": 20},
        "alice",
    )
    assert CardSubmission.objects.get().fields == {"bonus_haos": 20}


@pytest.mark.django_db
def test_post_new_card_needs_its_set(client, user, bakugan_set):
    client.force_login(user)

    response = client.post(
        URL,
        {"card": None, "game": "bakugan", "fields": {"key": "9"}, "source": "x"},
        content_type="application/json",
    )

    assert response.status_code == 400
    assert response.json() == {"set": ["A new card needs its set (the set's slug)."]}
    assert CardSubmission.objects.count() == 0


@pytest.mark.django_db
def test_post_bad_values_get_field_errors(client, user, gate):
    client.force_login(user)

    response = client.post(
        URL,
        {
            "card": gate.pk,
            "game": "bakugan",
            "fields": {"colour": "red"},
            "source": "x",
        },
        content_type="application/json",
    )

    assert response.status_code == 400
    assert response.json() == {"colour": ["Only Ability cards have a colour."]}


@pytest.mark.django_db
def test_post_garbage_bodies_get_400(client, user, gate):
    client.force_login(user)
    for body in (
        {"card": "abc", "game": "bakugan", "fields": {}, "source": "x"},
        {"card": gate.pk, "game": "nope", "fields": {"name": "x"}, "source": "x"},
        {"card": gate.pk, "game": "bakugan", "fields": [1], "source": "x"},
        {"card": 999999, "game": "bakugan", "fields": {"name": "x"}, "source": "x"},
        {"card": gate.pk, "game": "bakugan", "fields": {"name": "x"}, "source": ""},
    ):
        response = client.post(URL, body, content_type="application/json")
        assert response.status_code == 400, body
    assert CardSubmission.objects.count() == 0


@pytest.mark.django_db
def test_anonymous_cannot_list_or_post(client, gate):
    assert client.get(URL).status_code == 403
    response = client.post(
        URL,
        {"card": gate.pk, "game": "bakugan", "fields": {"name": "x"}, "source": "x"},
        content_type="application/json",
    )
    assert response.status_code == 403
    assert CardSubmission.objects.count() == 0


@pytest.mark.django_db
def test_another_users_submissions_are_404(client, user, other_user, gate):
    submission = _submit(user, gate, bonus_haos=5)
    client.force_login(other_user)

    assert client.get(URL).json()["count"] == 0
    assert client.get(f"{URL}{submission.pk}/").status_code == 404
    assert client.post(f"{URL}{submission.pk}/accept/").status_code == 404
    assert (
        client.post(f"{URL}{submission.pk}/reject/", {"reason": "x"}).status_code == 404
    )
    assert CardSubmission.objects.get().status == "pending"


@pytest.mark.django_db
def test_owner_sees_own_but_cannot_accept_or_reject(client, user, gate):
    submission = _submit(user, gate, bonus_haos=5)
    client.force_login(user)

    assert client.get(URL).json()["count"] == 1
    assert client.get(f"{URL}{submission.pk}/").json()["status"] == "pending"
    assert client.post(f"{URL}{submission.pk}/accept/").status_code == 403
    reject = client.post(
        f"{URL}{submission.pk}/reject/",
        {"reason": "x"},
        content_type="application/json",
    )
    assert reject.status_code == 403
    assert CardSubmission.objects.get().status == "pending"
    assert Card.objects.get(pk=gate.pk).bonus_haos is None


@pytest.mark.django_db
def test_moderator_sees_all_and_accepts_with_verification(
    client, user, moderator, gate
):
    submission = _submit(user, gate, bonus_haos=5)
    client.force_login(moderator)

    assert client.get(URL).json()["count"] == 1
    response = client.post(
        f"{URL}{submission.pk}/accept/",
        {"verification": "disputed"},
        content_type="application/json",
    )

    assert response.status_code == 200
    assert (response.json()["status"], response.json()["reviewer"]) == (
        "accepted",
        "mod",
    )
    card = Card.objects.get(pk=gate.pk)
    assert (card.bonus_haos, card.verification) == (5, "disputed")
    again = client.post(f"{URL}{submission.pk}/accept/")
    assert again.status_code == 400
    assert again.json() == {
        "non_field_errors": ["This submission was already reviewed (accepted)."]
    }


@pytest.mark.django_db
def test_moderator_rejects_with_a_reason(client, user, moderator, gate):
    submission = _submit(user, gate, bonus_haos=5)
    client.force_login(moderator)

    empty = client.post(
        f"{URL}{submission.pk}/reject/", {}, content_type="application/json"
    )
    response = client.post(
        f"{URL}{submission.pk}/reject/",
        {"reason": "Not what my copy says."},
        content_type="application/json",
    )

    assert empty.status_code == 400
    assert response.status_code == 200
    assert (response.json()["status"], response.json()["reason"]) == (
        "rejected",
        "Not what my copy says.",
    )


@pytest.mark.django_db
def test_card_history_is_public_for_visible_cards(client, user, moderator, gate):
    submission = _submit(user, gate, bonus_haos=5)
    community.card_submission_accept(submission=submission, moderator=moderator)

    response = client.get(f"/api/cards/{gate.pk}/history/")

    assert response.status_code == 200
    (row,) = response.json()["results"]
    assert (row["user"], row["created"], row["submission"]) == (
        "alice",
        False,
        submission.pk,
    )
    assert row["changes"] == [{"field": "bonus_haos", "old": None, "new": 5}]


@pytest.mark.django_db
def test_history_of_a_private_custom_card_is_404_to_others(client, user, other_user):
    custom = community.custom_set_create(user=user, game="bakugan", name="Private")
    card = community.custom_card_create(
        user=user, card_set=custom, fields={"card_type": "ability"}
    )
    assert CardChange.objects.filter(card=card).count() == 1

    assert client.get(f"/api/cards/{card.pk}/history/").status_code == 404
    client.force_login(other_user)
    assert client.get(f"/api/cards/{card.pk}/history/").status_code == 404
    client.force_login(user)
    assert client.get(f"/api/cards/{card.pk}/history/").json()["count"] == 1


@pytest.mark.django_db
def test_post_text_longer_than_a_card_prints_is_refused(client, user, gate):
    client.force_login(user)

    response = client.post(
        URL,
        {"card": gate.pk, "game": "bakugan", "fields": {"text": "x" * 2_100_000},
         "source": "my own copy"},
        content_type="application/json",
    )  # fmt: skip

    assert response.status_code == 400
    assert response.json() == {
        "text": [
            "Keep this to 2,000 characters (it has 2,100,000); no printed card holds "
            "more."
        ]
    }
    assert CardSubmission.objects.count() == 0
