from django.apps import AppConfig


class CardsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "cards"

    def ready(self):
        # The admin autodiscovers cards/admin.py only; the community package's
        # admin is a module of a sub-package, so it is imported here.
        from .community import admin  # noqa: F401
