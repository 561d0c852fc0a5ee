"""URLs for taking a game to the table: proxy sheets, deck lists, mats, companion."""

from django.urls import path

from . import views
from .companion import views as companion

app_name = "table"
urlpatterns = [
    path("", views.table_index, name="index"),
    path("decks/<int:pk>/proxies/", views.deck_proxies, name="deck-proxies"),
    path("decks/<int:pk>/proxies.pdf", views.deck_proxies_pdf, name="deck-proxies-pdf"),
    path("decks/<int:pk>/decklist.pdf", views.deck_list_pdf, name="deck-list"),
    path("sets/<slug:game>/<slug:set>/proxies/", views.set_proxies, name="set-proxies"),
    path(
        "sets/<slug:game>/<slug:set>/proxies.pdf",
        views.set_proxies_pdf,
        name="set-proxies-pdf",
    ),
    path("cards/proxies/", views.card_proxies, name="card-proxies"),
    path("cards/proxies.pdf", views.card_proxies_pdf, name="card-proxies-pdf"),
    path("mats/", views.mat_index, name="mats"),
    path("mats/<slug:game>/<slug:mat>.pdf", views.mat_pdf, name="mat"),
    path("companion/", companion.companion_new, name="companion-new"),
    path("companion/<int:pk>/", companion.companion_detail, name="companion"),
    path("companion/<int:pk>/act/", companion.companion_act, name="companion-act"),
    path("companion/<int:pk>/undo/", companion.companion_undo, name="companion-undo"),
    path(
        "companion/<int:pk>/share/", companion.companion_share, name="companion-share"
    ),
    path(
        "companion/<int:pk>/delete/",
        companion.companion_delete,
        name="companion-delete",
    ),
    path("shared/<str:token>/", companion.companion_shared, name="companion-shared"),
]
