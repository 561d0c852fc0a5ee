"""Writes of the table companion: start a table game, record, undo, share, delete.

Each write checks the whole log still counts (``score.score``) before saving, so
no event the arithmetic cannot count is ever stored; an event or undo posted
against an old version is refused (``stale``), so two phones never lose one
another's entries.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from cards.games import GAMES
from cards.models import GameRecord
from cards.selectors import hidden_card_ids

from ...copies import slot_plays
from ...play.adapter import card_to_engine
from ...selectors import deck_entries
from . import score
from .models import TableGame, new_share_token


def _check(game_slug: str, setup: dict, log: list) -> dict:
    try:
        return score.score(game_slug, setup, log)
    except score.ScoreError as error:
        raise ValidationError(str(error), code="bad_event") from None


def deck_cards(deck, user) -> dict[str, list[dict]]:
    """Return the deck's cards by zone as engine card dicts (one per entry).

    A deck holding a card ``user`` may not see is refused: the page would show it.
    """
    entries = deck_entries(deck)
    if hidden_card_ids(user, {e.card_id for e in entries}):
        raise ValidationError(
            f"“{deck.name}” holds a private card you may not see.", code="private"
        )
    zones: dict[str, list[dict]] = {}
    # Each figure slot plays the owner's copy, as in a playtest (decks.copies).
    for entry, (_, values) in zip(
        entries, slot_plays(owner=deck.owner, entries=entries), strict=True
    ):
        card = card_to_engine(entry.card)
        card["copies"] = entry.quantity
        # Copies of one entry at different G-Powers are typed at the table.
        if card.get("g_power") is None and len(values) == 1 and values[0][0]:
            card["g_power"] = values[0][0]
        zones.setdefault(entry.zone, []).append(card)
    return zones


@transaction.atomic
def table_game_create(*, owner, game_slug: str, name: str, setup: dict) -> TableGame:
    """Start a table game of ``game_slug`` from ``setup``; refuse one it cannot count."""
    spec = GAMES[game_slug]
    _check(spec.slug, setup, [])
    table_game = TableGame(
        owner=owner,
        game=GameRecord.objects.get(slug=game_slug),
        name=(name or "").strip()[:120] or f"{spec.short_name} at the table",
        setup=setup,
        log=[],
    )
    table_game.full_clean()
    table_game.save()
    return table_game


def _locked(table_game: TableGame, version: int) -> TableGame:
    current = TableGame.objects.select_for_update().get(pk=table_game.pk)
    if current.version != version:
        raise ValidationError(
            "The score changed on another screen since this page was loaded; "
            "it is shown as it is now.",
            code="stale",
        )
    return current


@transaction.atomic
def table_game_record(*, table_game: TableGame, event: dict, version: int) -> TableGame:
    """Add ``event`` to the game's log, if the score still counts with it."""
    current = _locked(table_game, version)
    log = [*current.log, event]
    _check(current.game.slug, current.setup, log)
    current.log = log
    current.version += 1
    current.full_clean()
    current.save()
    return current


@transaction.atomic
def table_game_undo(*, table_game: TableGame, version: int) -> TableGame:
    """Take the last event off the log."""
    current = _locked(table_game, version)
    if not current.log:
        raise ValidationError("There is nothing to undo.", code="nothing")
    current.log = current.log[:-1]
    current.version += 1
    current.save()
    return current


@transaction.atomic
def table_game_share(*, table_game: TableGame, on: bool) -> TableGame:
    """Turn the read-only link on or off; either way the old link stops working.

    A new token each time: a link handed out before it was turned off never
    shows the score again.
    """
    current = TableGame.objects.select_for_update().get(pk=table_game.pk)
    current.shared = on
    current.share_token = new_share_token()
    current.save(update_fields=["shared", "share_token", "updated_at"])
    return current


def table_game_delete(*, table_game: TableGame) -> None:
    """Delete the table game with its log; its link stops working."""
    TableGame.objects.filter(pk=table_game.pk).delete()
