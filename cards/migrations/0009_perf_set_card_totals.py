from django.db import migrations, models
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce


def count_sets(apps, schema_editor):
    Card = apps.get_model("cards", "Card")
    CardSet = apps.get_model("cards", "CardSet")
    counted = (
        Card.objects.filter(card_set_id=OuterRef("pk"))
        .order_by()
        .values("card_set_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    CardSet.objects.update(cards_total=Coalesce(Subquery(counted), 0))


class Migration(migrations.Migration):
    dependencies = [
        ("cards", "0008_community_readings"),
    ]

    operations = [
        migrations.AddField(
            model_name="cardset",
            name="cards_total",
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.RunPython(count_sets, migrations.RunPython.noop),
    ]
