"""Keep only the account indexes a query needs, and room on each page for in-place updates.

A balance update touches no indexed column, so PostgreSQL can keep it on its page (a HOT
update, no new index entries) whenever the page has room. With the default fillfactor
(100) full pages pushed updates to new pages, each writing an entry into every index.
A fillfactor of 70 leaves that room on every new page; rows written before this
migration get it at the next table rewrite (VACUUM FULL or pg_repack).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def set_fillfactor(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE ledger_account SET (fillfactor = 70)")


def unset_fillfactor(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE ledger_account RESET (fillfactor)")


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0006_compensation_and_resettlement_kinds'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddConstraint(
            model_name='account',
            constraint=models.UniqueConstraint(fields=('key',), name='ledger_account_key_unique'),
        ),
        migrations.RemoveIndex(
            model_name='account',
            name='ledger_account_kind',
        ),
        migrations.AlterField(
            model_name='account',
            name='key',
            field=models.CharField(max_length=64, verbose_name='key'),
        ),
        # Not a plain AlterField: Django drops every index on user_id when db_index goes
        # off, the partial one-wallet-per-user unique index included. Drop only the plain one.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='account',
                    name='user',
                    field=models.ForeignKey(blank=True, db_index=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='ledger_accounts', to=settings.AUTH_USER_MODEL, verbose_name='user'),
                ),
            ],
            database_operations=[
                migrations.RunSQL(
                    "DROP INDEX IF EXISTS ledger_account_user_id_67fcb3fd",
                    "CREATE INDEX IF NOT EXISTS ledger_account_user_id_67fcb3fd"
                    " ON ledger_account (user_id)",
                ),
            ],
        ),
        migrations.RunPython(set_fillfactor, unset_fillfactor),
    ]
