from django.apps import AppConfig


class CardsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "cards"

    def ready(self):
        from django.db.models.signals import post_delete, post_init, post_save, pre_save

        # The admin autodiscovers cards/admin.py only; the community package's
        # admin is a module of a sub-package, so it is imported here.
        from .community import admin  # noqa: F401
        from .models import Card
        from .signals import (
            bump_card_list_version,
            refresh_on_card_write,
            refresh_on_set_save,
            remember_audience,
            remember_set,
        )
        from .words import refresh_on_save

        # Any write to what the card list shows marks its kept answers stale
        # (before refresh_on_card_write, which forgets where a card was).
        pre_save.connect(
            remember_audience, sender=self.get_model("CardSet"), dispatch_uid="audience"
        )
        for model in ("GameRecord", "CardSet", "Card"):
            sender = self.get_model(model)
            post_save.connect(bump_card_list_version, sender=sender)
            post_delete.connect(bump_card_list_version, sender=sender)
        # Every save of a card refreshes its word index rows (cards/words.py).
        post_save.connect(refresh_on_save, sender=Card, dispatch_uid="card_words")
        # Each set's cards_total follows its cards (cards/signals.py).
        post_init.connect(remember_set, sender=Card, dispatch_uid="set_totals")
        post_save.connect(refresh_on_card_write, sender=Card, dispatch_uid="set_totals")
        post_delete.connect(
            refresh_on_card_write, sender=Card, dispatch_uid="set_totals"
        )
        post_save.connect(
            refresh_on_set_save,
            sender=self.get_model("CardSet"),
            dispatch_uid="set_totals",
        )
