"""The API: each app registers its own endpoints in ``<app>/api/urls.py``."""

from django.urls import include, path

urlpatterns = [
    path("", include("cards.api.urls")),
    path("", include("collection.api.urls")),
    path("", include("decks.api.urls")),
    path("", include("decks.play.api.urls")),
    path("", include("cards.community.api.urls")),
]
