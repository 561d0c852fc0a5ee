"""Edits of cards through the admin leave history."""

import json

import pytest

from cards.models import Card, CardChange


@pytest.mark.django_db
def test_admin_change_page_saves_and_records(client, gate, django_user_model):
    staff = django_user_model.objects.create_superuser(
        "boss", "boss@example.com", "correct-horse-battery-5"
    )
    client.force_login(staff)
    page = client.get(f"/admin/cards/card/{gate.pk}/change/")
    assert page.status_code == 200
    form = page.context["adminform"].form
    data = {}
    for name in form.fields:
        value = form[name].value()
        if value is None:
            value = ""
        elif isinstance(value, list):
            value = json.dumps(value)
        data[name] = value
    data["bonus_ventus"] = "15"

    response = client.post(f"/admin/cards/card/{gate.pk}/change/", data)

    assert response.status_code == 302, response.context["adminform"].form.errors
    assert Card.objects.get(pk=gate.pk).bonus_ventus == 15
    assert CardChange.objects.get(card=gate).changes == [
        {"field": "bonus_ventus", "old": None, "new": 15}
    ]
