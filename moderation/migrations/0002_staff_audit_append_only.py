"""The staff audit log and the re-settlement records are history: no UPDATE, no DELETE."""

from django.db import migrations

from core.dbguards import append_only


class Migration(migrations.Migration):
    dependencies = [("moderation", "0001_initial")]

    operations = [append_only("moderation_staffaction", "moderation_resettlement")]
