"""Edits of cards through the admin leave history."""

import json

import pytest
from django.contrib import admin
from django.test import RequestFactory

from cards.admin import CardAdmin
from cards.models import Card, CardChange


@pytest.mark.django_db
def test_admin_edit_of_a_card_records_history(gate, django_user_model):
    staff = django_user_model.objects.create_superuser(
        "boss", "boss@example.com", "correct-horse-battery-5"
    )
    card_admin = admin.site._registry[Card]
    request = RequestFactory().post("/admin/")
    request.user = staff
    card = Card.objects.get(pk=gate.pk)
    card.bonus_darkus = -20

    card_admin.save_model(request, card, form=None, change=True)

    assert isinstance(card_admin, CardAdmin)
    change = CardChange.objects.get(card=gate)
    assert change.changes == [{"field": "bonus_darkus", "old": None, "new": -20}]
    assert (change.user, change.source) == (staff, "Edited in the admin by boss")


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
