"""Report how many official Gate and Ability cards have their effect encoded.

A card counts as encoded when its ``effects`` hold steps (``no_effect`` is an
encoding: the card does nothing beyond its printed numbers); a card with no
steps shows as "not encoded" on its page and the board, and plays as its
bonus alone. Counted per set (series), from the database.
"""

from django.core.management.base import BaseCommand

from cards.games import bakugan
from cards.models import Card

KINDS = ("gate", "ability")


def coverage() -> list[tuple[str, int, int]]:
    """Return (set slug, encoded, total) per official set, in set order."""
    rows: dict[str, list[int]] = {}
    cards = (
        Card.objects.filter(
            card_set__game__slug=bakugan.GAME.slug,
            card_set__kind="official",
            card_type__in=KINDS,
        )
        .order_by("card_set__sort_order", "card_set__slug")
        .values_list("card_set__slug", "effects")
    )
    for slug, effects in cards:
        row = rows.setdefault(slug, [0, 0])
        row[0] += bool(effects)
        row[1] += 1
    return [(slug, e, t) for slug, (e, t) in rows.items()]


def _percent(encoded: int, total: int) -> str:
    return f"{100 * encoded / total:.0f}%" if total else "-"


class Command(BaseCommand):
    help = "Report the official Bakugan Gate and Ability cards encoded, by series."

    def handle(self, *args, **options):
        rows = coverage()
        for slug, encoded, total in rows:
            self.stdout.write(
                f"{slug:<10} {encoded:>3} of {total:>3} encoded  {_percent(encoded, total):>4}"
            )
        encoded = sum(r[1] for r in rows)
        total = sum(r[2] for r in rows)
        self.stdout.write(
            f"{'all':<10} {encoded:>3} of {total:>3} encoded  {_percent(encoded, total):>4}"
        )
