"""The admin covers every model of the site, with working lists and search."""

import pytest
from django.apps import apps
from django.contrib import admin

APPS = ("cards", "collection", "decks")


def site_models():
    return [m for name in APPS for m in apps.get_app_config(name).get_models()]


def test_every_model_of_the_site_is_in_the_admin():
    missing = [m.__name__ for m in site_models() if m not in admin.site._registry]
    assert missing == []


@pytest.mark.django_db
@pytest.mark.parametrize("model", site_models(), ids=lambda m: m.__name__)
def test_each_admin_list_and_its_search_answer(admin_client, model):
    url = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
    assert admin_client.get(url).status_code == 200
    model_admin = admin.site._registry[model]
    if model_admin.search_fields:
        assert admin_client.get(url, {"q": "x"}).status_code == 200
