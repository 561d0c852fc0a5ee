"""Make the users, decks, collections and sessions a load test drives; print them as JSON.

Run by ``tools/loadtest/run.py`` on a throwaway database, never on a real one: it
refuses to run without ``--i-know-this-is-a-throwaway-database``. The database is
the one the environment names (``SQLITE_PATH`` or ``DATABASE_URL``), as for
``manage.py``.
"""

import argparse
import json
import os
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEARCHES = (
    "dragoon",
    "is:practice",
    "is:official -colour:red",
    "type:blade",
    "pegasus",
    "colour:blue",
    "gate",
    "tyson",
)


def _session_for(user) -> str:
    """Return the key of a signed-in session of ``user`` (no password hashing)."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


def seed(*, users: int, entries: int, seed: int) -> dict:
    """Create ``users`` site users with sample decks, entries and sessions."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from cards.games import SLUGS
    from cards.models import Card, CardSet
    from collection.services import collection_entry_create
    from decks.samples import sample_deck

    rng = random.Random(seed)
    cards = list(
        Card.objects.visible_to(None).select_related("card_set__game").order_by("pk")
    )
    if not cards:
        raise SystemExit("No cards are loaded: run `manage.py load_cards` first.")
    User = get_user_model()
    people = []
    with transaction.atomic():
        for i in range(1, users + 1):
            user = User.objects.create_user(f"loadtest-{i}", password=None)
            decks = {
                slug: sample_deck(owner=user, game_slug=slug, variant=i).pk
                for slug in SLUGS
            }
            owned = rng.sample(cards, min(entries, len(cards)))
            entry_ids = [
                collection_entry_create(
                    user=user, card=card, quantity=rng.randint(1, 3)
                ).pk
                for card in owned
            ]
            people.append(
                {
                    "username": user.username,
                    "session": _session_for(user),
                    "decks": decks,
                    "entries": entry_ids,
                    "owned_cards": [c.pk for c in owned],
                }
            )
    sets = CardSet.objects.visible_to(None).select_related("game").order_by("pk")
    return {
        "users": people,
        "games": list(SLUGS),
        "sets": [{"game": s.game.slug, "set": s.slug} for s in sets],
        "cards": [
            {
                "id": c.pk,
                "game": c.card_set.game.slug,
                "set": c.card_set.slug,
                "number": c.key,
            }
            for c in cards
        ],
        "searches": list(SEARCHES),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--users", type=int, default=12)
    parser.add_argument("--entries", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--i-know-this-is-a-throwaway-database", action="store_true", dest="throwaway"
    )
    args = parser.parse_args(argv)
    if not args.throwaway:
        parser.error(
            "this adds load-test users; run it on a throwaway database with "
            "--i-know-this-is-a-throwaway-database"
        )
    if args.users < 1 or args.entries < 3:
        parser.error("--users must be at least 1 and --entries at least 3")
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")
    import django

    django.setup()
    print(json.dumps(seed(users=args.users, entries=args.entries, seed=args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
