from django.urls import path

from . import views

app_name = "cards"
urlpatterns = [
    path("", views.home, name="home"),
    path("search/", views.search, name="search"),
    path("search/help/", views.search_help, name="search_help"),
    path("palette.css", views.palette_css, name="palette"),
    path("games/<slug:game>/", views.game_detail, name="game"),
    path("games/<slug:game>/sets/<slug:set>/", views.set_detail, name="set"),
    path("cards/<int:pk>/", views.card_detail, name="card"),
    path("cards/<int:pk>/image.png", views.card_image, name="card-image"),
]
