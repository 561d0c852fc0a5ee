"""Visitors: players without an account, known by a key kept in their browser session.

A visitor's game belongs to that key (``Playtest.visitor_key``); budgets count a
visitor by address. The key is data in the session, not the session's own key,
which Django changes at log-in: so when the visitor signs up or logs in,
``adopt_on_login`` still finds it and their games become the user's
(``services.playtest_adopt``). Games nobody adopts go after a day
(``models.VISITOR_GAME_LIFE``; ``manage.py purge_visitor_games``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.urls import reverse

from collection.accounts import client_address

from .services import playtest_adopt

SESSION_KEY = "play_visitor"


@dataclass(frozen=True)
class Visitor:
    """A player without an account: the key in their session and their address."""

    key: str
    address: str | None

    # Read as an anonymous user wherever a user is read (budgets, readings, decks).
    is_authenticated = False
    pk = None


def visitor_of(request, *, create: bool = False) -> Visitor | None:
    """Return the request's visitor (a new key with ``create``), or None."""
    key = request.session.get(SESSION_KEY, "")
    if not key and create:
        key = secrets.token_urlsafe(24)
        request.session[SESSION_KEY] = key
    if not key:
        return None
    return Visitor(key=key, address=client_address(request))


def player_of(request, *, create: bool = False):
    """Return who plays: the user, else the visitor (None for neither)."""
    if request.user.is_authenticated:
        return request.user
    return visitor_of(request, create=create)


def adopt_on_login(sender, request, user, **kwargs) -> None:
    """Give the user who just signed up or logged in the games of their visit."""
    if request is None or not hasattr(request, "session"):
        return
    key = request.session.pop(SESSION_KEY, "")
    playtest_adopt(visitor_key=key, user=user)


def player_required(view):
    """Let in a user or a visitor; send anyone else to log in, as ``login_required``."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if player_of(request) is None:
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return wrapped


def account_required(view):
    """Send anyone without an account to log in, then back to the game's board.

    What a visitor may not do (a match, a restart, a share link) needs an
    account; the game comes with them when they sign up or log in.
    """

    @wraps(view)
    def wrapped(request, pk, *args, **kwargs):
        if not request.user.is_authenticated:
            if visitor_of(request) is not None:
                messages.info(
                    request,
                    "Sign up or log in to restart or share a game: "
                    "this game comes with you.",
                )
            return redirect_to_login(reverse("play:detail", kwargs={"pk": pk}))
        return view(request, pk, *args, **kwargs)

    return wrapped
