"""Sample decks built from each game's practice set: legal, deterministic, playable.

New users start from them, and the tests, benchmarks and browser tests use them.
"""

from __future__ import annotations

from cards.choices import SetKind
from cards.models import Card


def _practice(game_slug: str):
    return list(
        Card.objects.filter(
            card_set__game__slug=game_slug, card_set__kind=SetKind.PRACTICE
        )
        .select_related("card_set__game")
        .order_by("card_set__sort_order", "number", "key")
    )


def sample_entries(game_slug: str, variant: int = 0) -> list[dict]:
    """Return ``{"card", "quantity", "zone"}`` entries of a legal practice deck.

    ``variant`` rotates the card choices, so two samples can face each other.
    """
    cards = _practice(game_slug)
    if not cards:
        raise LookupError(f"No practice set is loaded for {game_slug}.")
    rotate = lambda items: items[variant % len(items) :] + items[: variant % len(items)]  # noqa: E731
    if game_slug == "collision":
        blades = rotate([c for c in cards if c.card_type == "blade"])
        others = rotate([c for c in cards if c.card_type != "blade"])
        entries, per_title, total = (
            [{"card": blades[0].pk, "quantity": 1, "zone": "blade"}],
            {},
            1,
        )
        for card in others * 4:
            if total >= 60:
                break
            title = card.title or f"#{card.pk}"
            if per_title.get(title, 0) >= 4 or (title == blades[0].title):
                continue
            per_title[title] = per_title.get(title, 0) + 1
            total += 1
            entries.append({"card": card.pk, "quantity": 1, "zone": "deck"})
        return _merge(entries)
    if game_slug == "metal-fusion":
        lineup = [
            rotate([c for c in cards if c.card_type == t])[0]
            for t in ("character", "beyblade", "customizer")
        ]
        rest, numbers = [], set()
        for card in rotate([c for c in cards if c not in lineup]):
            if card.number in numbers or len(rest) == 15:
                continue
            numbers.add(card.number)
            rest.append(card)
        return [{"card": c.pk, "quantity": 1, "zone": "lineup"} for c in lineup] + [
            {"card": c.pk, "quantity": 1, "zone": "deck"} for c in rest
        ]
    if game_slug == "bakugan":
        figures = rotate([c for c in cards if c.card_type == "bakugan"])[:3]
        gates = [
            rotate([c for c in cards if c.gate_class == k])[0]
            for k in ("gold", "silver", "copper")
        ]
        abilities = [
            rotate([c for c in cards if c.card_type == "ability" and c.colour == k])[0]
            for k in ("red", "blue", "green")
        ]
        return (
            [{"card": c.pk, "quantity": 1, "zone": "bakugan"} for c in figures]
            + [{"card": c.pk, "quantity": 1, "zone": "gate"} for c in gates]
            + [{"card": c.pk, "quantity": 1, "zone": "ability"} for c in abilities]
        )
    if game_slug == "collide-o":
        return [{"card": c.pk, "quantity": 1, "zone": "pack"} for c in cards]
    raise LookupError(f"No sample deck for {game_slug}.")


def _merge(entries: list[dict]) -> list[dict]:
    merged: dict[tuple, int] = {}
    for e in entries:
        merged[(e["card"], e["zone"])] = (
            merged.get((e["card"], e["zone"]), 0) + e["quantity"]
        )
    return [
        {"card": card, "zone": zone, "quantity": q}
        for (card, zone), q in merged.items()
    ]


def sample_deck(
    *,
    owner,
    game_slug: str,
    variant: int = 0,
    name: str | None = None,
    is_public: bool = False,
):
    """Create and return a legal sample deck of ``game_slug`` for ``owner``."""
    from .services import deck_create

    return deck_create(
        owner=owner,
        game=game_slug,
        name=name or f"Practice sample {variant + 1}",
        is_public=is_public,
        entries=sample_entries(game_slug, variant),
    )
