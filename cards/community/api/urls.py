"""API routes of community card data: submissions and card history."""

from django.urls import path
from rest_framework.routers import DefaultRouter

from . import views as community

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("submissions", community.SubmissionViewSet, basename="submission")

urlpatterns = [
    path(
        "cards/<int:pk>/history/",
        community.CardHistoryView.as_view(),
        name="card-history",
    ),
    *router.urls,
]
