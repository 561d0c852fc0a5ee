from django.apps import AppConfig


class CardsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "cards"

    def ready(self):
        # The community admin wraps whichever Card admin cards/admin.py registered.
        from .community import admin  # noqa: F401
