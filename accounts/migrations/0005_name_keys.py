"""Each user's name keys (accounts.text.name_key), for look-alike names; filled for the
users who exist. Names that already look alike keep their rows: only new names are held to
it (accounts.services)."""

from typing import Any

from django.db import migrations, models

from accounts.text import name_key


def fill_keys(apps: Any, schema_editor: Any) -> None:
    User = apps.get_model("accounts", "User")
    users = User.objects.only("pk", "username", "display_name").order_by("pk")
    batch = []
    for user in users.iterator(chunk_size=1000):
        user.display_key = name_key(user.display_name) if user.display_name else ""
        user.username_key = name_key(user.username)
        batch.append(user)
        if len(batch) == 1000:
            User.objects.bulk_update(batch, ["display_key", "username_key"])
            batch = []
    User.objects.bulk_update(batch, ["display_key", "username_key"])


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_signup_address"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="display_key",
            field=models.TextField(blank=True, db_index=True, editable=False),
        ),
        migrations.AddField(
            model_name="user",
            name="username_key",
            field=models.TextField(blank=True, db_index=True, editable=False),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
    ]
