"""Keep a Metal Fusion card number in ``number`` only (issue 31, item 2).

Readings used to write the number into ``printed_number``, which the engine and
the deck rules do not compare: a whole number found there on a card without a
``number``, or in a pending reading, moves to ``number``.
"""

from django.db import migrations

GAME = "metal-fusion"


def _whole(text):
    text = (text or "").strip() if isinstance(text, str) else ""
    return int(text) if text.isdigit() and len(text) <= 9 else None


def move_numbers(apps, schema_editor):
    Card = apps.get_model("cards", "Card")
    CardSubmission = apps.get_model("cards", "CardSubmission")
    cards = Card.objects.filter(card_set__game__slug=GAME, number__isnull=True)
    for card in cards.exclude(printed_number=""):
        number = _whole(card.printed_number)
        if number is not None:
            card.number = number
            card.save(update_fields=["number"])
    readings = CardSubmission.objects.filter(
        game__slug=GAME, status="pending", is_new=False
    )
    for reading in readings:
        fields = dict(reading.fields or {})
        number = _whole(fields.get("printed_number"))
        if number is None or "number" in fields:
            continue
        del fields["printed_number"]
        fields["number"] = number
        reading.fields = fields
        reading.save(update_fields=["fields"])


class Migration(migrations.Migration):
    dependencies = [
        ("cards", "0009_perf_set_card_totals"),
    ]

    operations = [
        migrations.RunPython(move_numbers, migrations.RunPython.noop),
    ]
