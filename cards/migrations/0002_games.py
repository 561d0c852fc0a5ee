from django.db import migrations

GAMES = [
    ("collision", "Beyblade Collision", "Decipher", "2002", 1),
    ("metal-fusion", "Beyblade Metal Fusion", "DeAgostini", "c. 2010", 2),
    ("collide-o", "Collide-O!", "Playroom Entertainment", "2004", 3),
    ("bakugan", "Bakugan Battle Brawlers", "Spin Master", "2007-2012", 4),
]


def add_games(apps, schema_editor):
    Game = apps.get_model("cards", "Game")
    for slug, name, publisher, year, order in GAMES:
        Game.objects.update_or_create(
            slug=slug, defaults={"name": name, "publisher": publisher, "year": year, "sort_order": order}
        )


class Migration(migrations.Migration):
    dependencies = [("cards", "0001_initial")]
    operations = [migrations.RunPython(add_games, migrations.RunPython.noop)]
