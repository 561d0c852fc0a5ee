from django.urls import path

from . import views

app_name = "collection"
urlpatterns = [
    path("", views.home, name="home"),
    path("entries/", views.entries, name="entries"),
    path("entries/add/<int:card_id>/", views.entry_add, name="entry_add"),
    path("entries/<int:pk>/", views.entry_edit, name="entry_edit"),
    path("entries/<int:pk>/delete/", views.entry_delete, name="entry_delete"),
    path("cards/<int:card_id>/change/", views.widget_change, name="widget_change"),
    path("sets/<slug:game>/<slug:set>/missing/", views.missing, name="missing"),
    path(
        "species/<slug:game>/<slug:species>/missing/",
        views.species_missing,
        name="species_missing",
    ),
    path("import/", views.import_start, name="import"),
    path("import/<str:token>/", views.import_preview, name="import_preview"),
    path("export.csv", views.export, name="export"),
    path("csv/", views.csv_help, name="csv_help"),
    path("sharing/", views.sharing, name="sharing"),
    path("shared/<str:token>/", views.shared, name="shared"),
]
