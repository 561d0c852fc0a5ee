from django.db import migrations

MODERATORS = "moderators"


def add_group(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Group.objects.get_or_create(name=MODERATORS)


def remove_group(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Group.objects.filter(name=MODERATORS).delete()


class Migration(migrations.Migration):
    dependencies = [("cards", "0003_community"), ("auth", "0012_alter_user_first_name_max_length")]
    operations = [migrations.RunPython(add_group, remove_group)]
