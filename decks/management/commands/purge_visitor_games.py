"""Remove the games visitors without an account started over a day ago.

Starting a visitor's game removes the old ones too; this command is for a site
where no visitor has played for a while (run it daily, e.g. from cron).
"""

from django.core.management.base import BaseCommand

from decks.play.services import playtest_purge_visitors


class Command(BaseCommand):
    help = "Remove visitors' games older than a day."

    def handle(self, *args, **options):
        removed = playtest_purge_visitors()
        self.stdout.write(
            f"{removed} visitor game{'s' if removed != 1 else ''} removed."
        )
