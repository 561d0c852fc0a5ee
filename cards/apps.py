from django.apps import AppConfig


class CardsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "cards"

    def ready(self):
        from django.db.models.signals import post_save

        # The admin autodiscovers cards/admin.py only; the community package's
        # admin is a module of a sub-package, so it is imported here.
        from .community import admin  # noqa: F401
        from .models import Card
        from .words import refresh_on_save

        # Every save of a card refreshes its word index rows (cards/words.py).
        post_save.connect(refresh_on_save, sender=Card, dispatch_uid="card_words")
