from django.apps import AppConfig


class CardsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "cards"

    def ready(self):
        # The admin autodiscovers cards/admin.py only; the community package's
        # admin is a module of a sub-package, so it is imported here.
        # Any write to what the card list shows marks its kept answers stale.
        from django.db.models.signals import post_delete, post_save

        from .api.cache import bump_card_list_version
        from .community import admin  # noqa: F401

        for model in ("Game", "CardSet", "Card"):
            sender = self.get_model(model)
            post_save.connect(bump_card_list_version, sender=sender)
            post_delete.connect(bump_card_list_version, sender=sender)
