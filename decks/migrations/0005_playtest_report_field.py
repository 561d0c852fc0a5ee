from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("decks", "0005_bots_chunks_and_doctor")]

    operations = [
        migrations.AddField(
            model_name="deckreport",
            name="field",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text="The opposing field: one label per opponent deck (decks[1:]).",
            ),
        ),
    ]
