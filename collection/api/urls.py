from rest_framework.routers import DefaultRouter

from .views import CollectionEntryViewSet

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("collection", CollectionEntryViewSet, basename="collection-entry")

urlpatterns = router.urls
