from django.urls import path

from . import census_views, owned_views, views

app_name = "decks"
urlpatterns = [
    path("", views.deck_list, name="list"),
    path("games/<slug:game>/", views.deck_list, name="game"),
    path("new/", views.deck_create, name="create"),
    path("<int:pk>/", views.deck_detail, name="detail"),
    path("<int:pk>/search/", views.deck_search, name="search"),
    path("<int:pk>/add/", views.deck_add, name="add"),
    path("<int:pk>/remove/", views.deck_remove, name="remove"),
    path("<int:pk>/entries/<int:entry>/slot/", views.deck_slot, name="slot"),
    path("<int:pk>/edit/", views.deck_settings, name="settings"),
    path("<int:pk>/delete/", views.deck_delete, name="delete"),
    path("<int:pk>/clone/", views.deck_clone, name="clone"),
    path("<int:pk>/import/", views.deck_import, name="import"),
    path("<int:pk>/export.txt", views.deck_export, name="export"),
    path("<int:pk>/versions/", views.deck_versions, name="versions"),
    path("<int:pk>/versions/<int:number>/", views.version_detail, name="version"),
    path("<int:pk>/hand/", views.deck_hand, name="hand"),
    path("<int:pk>/wishlist/", views.deck_wishlist, name="wishlist"),
    path("official-pack/", census_views.official_pack_view, name="official-pack"),
    path(
        "from-collection/<slug:game>/",
        owned_views.from_collection,
        name="from-collection",
    ),
]
