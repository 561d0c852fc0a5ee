from django.apps import AppConfig


class CollectionConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "collection"

    def ready(self):
        # Every card list the cards app shows carries the viewer's owned and
        # wanted counts; cards does not import collection, so it is told here.
        # Imported in ready(): models are not loaded when this module is.
        from cards.selectors import register_card_list_annotator

        from .selectors import annotate_cards

        register_card_list_annotator(annotate_cards)
