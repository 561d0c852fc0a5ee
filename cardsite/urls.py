"""Root URLs: the pages of each app, the admin, and the API under /api/."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from . import views

urlpatterns = [
    path("", include("cards.urls")),
    path("accounts/", include("collection.account_urls")),
    path("collection/", include("collection.urls")),
    path("decks/", include("decks.urls")),
    path("play/", include("decks.play.urls")),
    path("table/", include("decks.table.urls")),
    path("community/", views.community, name="community"),
    path("community/", include("cards.community.urls")),
    path("admin/", admin.site.urls),
    path("api/", views.api_index, name="api-index"),
    path("api/", include("cardsite.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", views.api_docs, name="api-docs"),
    path("favicon.ico", views.favicon, name="favicon"),
]
