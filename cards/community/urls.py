"""URLs of the community pages, under /community/."""

from django.urls import path

from . import census_views, views

app_name = "community"
urlpatterns = [
    path("submissions/", views.my_submissions, name="submissions"),
    path("submissions/<int:pk>/", views.submission_detail, name="submission"),
    path(
        "submissions/<int:pk>/accept/",
        views.submission_accept,
        name="submission-accept",
    ),
    path(
        "submissions/<int:pk>/reject/",
        views.submission_reject,
        name="submission-reject",
    ),
    path("review/", views.review_queue, name="review"),
    path("disputes/", views.disputes, name="disputes"),
    path("contributors/<str:username>/", views.contributor, name="contributor"),
    path("accounts/<str:username>/", views.account, name="account"),
    path(
        "accounts/<str:username>/roll-back/",
        views.account_roll_back,
        name="account-roll-back",
    ),
    path("games/<slug:game>/suggest/", views.suggest, name="suggest-new"),
    path("cards/<int:pk>/suggest/", views.suggest, {"game": ""}, name="suggest"),
    path("cards/<int:pk>/transcribe/", views.transcribe, name="transcribe"),
    path(
        "cards/<int:pk>/transcribe/preview/",
        views.transcribe_preview,
        name="transcribe-preview",
    ),
    path(
        "cards/<int:pk>/reading/withdraw/",
        views.reading_withdraw,
        name="reading-withdraw",
    ),
    path("cards/<int:pk>/history/", views.card_history, name="history"),
    path("scans/<int:pk>/", views.scan_image, name="scan"),
    path(
        "scans/<int:pk>/thumb/", views.scan_image, {"size": "thumb"}, name="scan-thumb"
    ),
    path("help-wanted/", views.help_wanted_index, name="help-wanted-index"),
    path("help-wanted/<slug:game>/", views.help_wanted, name="help-wanted"),
    path(
        "help-wanted/<slug:game>/<slug:set>/",
        views.help_wanted,
        name="help-wanted-set",
    ),
    path("custom/", views.custom_sets, name="custom-sets"),
    path("custom/sets/<int:pk>/", views.custom_set, name="custom-set"),
    path("custom/sets/<int:pk>/new/", views.custom_card_new, name="custom-card-new"),
    path(
        "custom/cards/<int:pk>/edit/", views.custom_card_edit, name="custom-card-edit"
    ),
    path("census/", census_views.census_page, name="census"),
    path("census/count/", census_views.census_count, name="census-count"),
    path("census/compare/", census_views.census_compare, name="census-compare"),
    path("census/<int:pk>/settle/", census_views.census_settle, name="census-settle"),
    path("import/", views.data_import, name="import"),
    path("import/<str:token>/", views.data_import_preview, name="import-preview"),
]
