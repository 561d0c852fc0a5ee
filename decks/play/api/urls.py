from rest_framework.routers import DefaultRouter

from .views import PlaytestViewSet, ReportViewSet

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("playtests", PlaytestViewSet, basename="playtest")
router.register("reports", ReportViewSet, basename="report")

urlpatterns = router.urls
