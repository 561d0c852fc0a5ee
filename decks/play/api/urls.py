from rest_framework.routers import DefaultRouter

from .views import PlaytestViewSet

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("playtests", PlaytestViewSet, basename="playtest")

urlpatterns = router.urls
