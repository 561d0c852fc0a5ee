from django.urls import path
from rest_framework.routers import DefaultRouter

from . import views

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("games", views.GameViewSet, basename="game")
router.register("sets", views.CardSetViewSet, basename="cardset")
router.register("cards", views.CardViewSet, basename="card")

urlpatterns = [path("ping/", views.ping, name="api-ping"), *router.urls]
