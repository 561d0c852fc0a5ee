from django.urls import path

from . import views

app_name = "cards"
urlpatterns = [
    path("", views.home, name="home"),
    path("games/<slug:game>/", views.game_detail, name="game"),
]
