from django.urls import path

from . import coach_views, doctor_views, quick, views

app_name = "play"
urlpatterns = [
    path("", views.playtest_list, name="list"),
    path("new/", views.playtest_new, name="new"),
    path("now/", quick.play_now, name="now"),
    path("now/<slug:game>/", quick.play_now_game, name="now-game"),
    path(
        "starters/<slug:game>/<slug:slug>/copy/",
        quick.starter_copy,
        name="starter-copy",
    ),
    path("<int:pk>/", views.playtest_detail, name="detail"),
    path("<int:pk>/act/", views.playtest_act_view, name="act"),
    path("<int:pk>/undo/", views.playtest_undo_view, name="undo"),
    path("<int:pk>/next/", views.match_next_view, name="next"),
    path("<int:pk>/branch/", views.playtest_branch_view, name="branch"),
    path("<int:pk>/share/", views.playtest_share_view, name="share"),
    path("shared/<str:token>/", views.playtest_shared, name="shared"),
    path("<int:pk>/hint/", coach_views.hint_view, name="hint"),
    path("<int:pk>/hint/act/", coach_views.hint_act_view, name="hint-act"),
    path("<int:pk>/hints/", coach_views.hints_set_view, name="hints"),
    path("<int:pk>/review/", coach_views.review_new, name="review-new"),
    path("shared/<str:token>/review/", coach_views.review_shared, name="review-shared"),
    path("review/<int:pk>/", coach_views.review_detail, name="review"),
    path("help/<slug:game>/", views.how_to_play, name="help"),
    path("reports/new/", views.report_new, name="report-new"),
    path("reports/<int:pk>/", views.report_detail, name="report"),
    path("reports/<int:pk>/cancel/", views.report_cancel_view, name="report-cancel"),
    path("doctor/new/", doctor_views.doctor_new, name="doctor-new"),
    path("doctor/<int:pk>/", doctor_views.doctor_detail, name="doctor"),
    path(
        "doctor/<int:pk>/cancel/", doctor_views.doctor_cancel_view, name="doctor-cancel"
    ),
    path(
        "doctor/<int:pk>/apply/<int:index>/",
        doctor_views.doctor_apply_view,
        name="doctor-apply",
    ),
]
