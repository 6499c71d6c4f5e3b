"""The round event log is the hand history and the moderators' replay: never edited."""

from django.db import migrations

from core.dbguards import append_only


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [append_only("games_roundevent")]
