"""Time deck validation: median and p95 per game over many runs, no database."""

import statistics
import time

from django.core.management.base import BaseCommand

from decks.rules import validate_deck


def _card(card_id: int, **fields) -> dict:
    return {"id": card_id, "name": f"Card {card_id}", **fields}


def sample_decks(size: int = 100) -> dict[str, list[dict]]:
    """Return one plain-data deck of about ``size`` cards per game."""
    colours = ("red", "yellow", "green", "blue")
    collision = [
        {
            "card": _card(1, card_type="blade", title="Dragoon"),
            "quantity": 1,
            "zone": "blade",
        }
    ]
    # Single copies, so every title group is walked (the slow case).
    collision += [
        {
            "card": _card(
                100 + i,
                card_type="action",
                title=f"Title {i // 3}",
                colour=colours[i % 4],
            ),
            "quantity": 1,
            "zone": "deck",
        }
        for i in range(size - 1)
    ]
    lineup = [
        {"card": _card(2, card_type=t, number=n), "quantity": 1, "zone": "lineup"}
        for n, t in enumerate(("character", "beyblade", "customizer"), start=1)
    ]
    metal_fusion = lineup + [
        {
            "card": _card(200 + i, card_type="effect", number=i),
            "quantity": 1,
            "zone": "deck",
        }
        for i in range(size - 3)
    ]
    bakugan = [
        {"card": _card(300 + i, card_type="bakugan"), "quantity": 1, "zone": "bakugan"}
        for i in range(3)
    ]
    bakugan += [
        {
            "card": _card(310 + i, card_type="gate", gate_class=c),
            "quantity": 1,
            "zone": "gate",
        }
        for i, c in enumerate(("gold", "silver", "copper"))
    ]
    bakugan += [
        {
            "card": _card(320 + i, card_type="ability", colour=c),
            "quantity": 1,
            "zone": "ability",
        }
        for i, c in enumerate(("red", "blue", "green"))
    ]
    bakugan += [
        {
            "card": _card(400 + i, card_type="ability", colour="red"),
            "quantity": 1,
            "zone": "ability",
        }
        for i in range(size - 9)
    ]
    collide_o = [
        {"card": _card(500 + i, card_type="sections"), "quantity": 1, "zone": "pack"}
        for i in range(size)
    ]
    return {
        "collision": collision,
        "metal-fusion": metal_fusion,
        "bakugan": bakugan,
        "collide-o": collide_o,
    }


class Command(BaseCommand):
    help = "Print the median and p95 time to validate a 100-card deck of each game."

    def add_arguments(self, parser):
        parser.add_argument("--runs", type=int, default=2000)
        parser.add_argument("--size", type=int, default=100)

    def handle(self, *args, runs, size, **options):
        runs = max(1, runs)
        for game, entries in sample_decks(size).items():
            cards = sum(e["quantity"] for e in entries)
            wall, cpu = [], []
            for _ in range(runs):
                start, start_cpu = time.perf_counter(), time.process_time()
                validate_deck(game, entries)
                cpu.append((time.process_time() - start_cpu) * 1000)
                wall.append((time.perf_counter() - start) * 1000)
            # CPU time leaves out the waits of a machine shared with other work.
            self.stdout.write(
                f"{game:13} {cards:4} cards  wall median {_median(wall):.3f} ms "
                f"p95 {_p95(wall):.3f} ms  cpu median {_median(cpu):.3f} ms "
                f"p95 {_p95(cpu):.3f} ms  ({runs} runs)"
            )


def _median(values: list[float]) -> float:
    return statistics.median(values)


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
