"""The table companion's stored games (imported by ``decks.models``).

A table game is its game, its set-up (spin strengths, line-ups, the pack...) and
a log of what happened at the table; the score is a replay of the log
(``decks.table.companion.score``). ``version`` rises with every change, undo
included, so a second phone acting on an old page is refused, not lost.
"""

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse

from cards.games import GAMES


def new_share_token() -> str:
    return secrets.token_urlsafe(24)


class TableGame(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, related_name="table_games", on_delete=models.CASCADE
    )
    game = models.ForeignKey(
        "cards.GameRecord", related_name="table_games", on_delete=models.PROTECT
    )
    name = models.CharField(max_length=120)
    setup = models.JSONField(help_text="What the score starts from, by game.")
    log = models.JSONField(default=list, blank=True, help_text="Events, oldest first.")
    version = models.PositiveIntegerField(default=0)
    share_token = models.CharField(max_length=40, unique=True, default=new_share_token)
    shared = models.BooleanField(
        default=True, help_text="Whether the share link shows the score."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("table:companion", kwargs={"pk": self.pk})

    @property
    def spec(self):
        return GAMES[self.game.slug]

    def get_shared_url(self):
        return reverse("table:companion-shared", kwargs={"token": self.share_token})
