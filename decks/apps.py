from django.apps import AppConfig


class DecksConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "decks"

    def ready(self):
        # A census (cards) plays as its owner's pack deck (decks): cards does
        # not import decks, so it is told here. Models load after this module.
        from cards.community.collide_o_census import register_census_listener

        from .census import census_deck_refresh

        register_census_listener(census_deck_refresh)

        # A visitor who signs up or logs in keeps the games of their visit.
        from django.contrib.auth.signals import user_logged_in

        from .play.visitors import adopt_on_login

        user_logged_in.connect(adopt_on_login, dispatch_uid="play_adopt_on_login")
