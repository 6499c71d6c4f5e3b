"""Index round_id, actor and reverses only where a transfer has one.

Most transfers (grants, bonuses, adjustments, top-ups; every wallet-to-wallet transfer)
have no actor and reverse nothing, and only round flows carry a round: every such NULL
still cost each insert an entry in three indexes, all at the right-hand edge where
concurrent inserts meet. Partial indexes (``WHERE col IS NOT NULL``) answer the same
queries - ``col = x`` implies ``col IS NOT NULL``, so the planner uses them for the
look-ups, the admin filters and the foreign keys' ON DELETE checks - and uniqueness of
``reverses`` is unchanged (NULLs never collided). ``reverses`` stays a OneToOneField in
Django's state (so ``reversed_by`` is still one transfer); only PostgreSQL's unique
constraint becomes a partial unique index of the same name. SQLite keeps the full one.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

REVERSES = "ledger_transfer_reverses_id_key"


def partial_reverses_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"ALTER TABLE ledger_transfer DROP CONSTRAINT {REVERSES}")
        schema_editor.execute(
            f"CREATE UNIQUE INDEX {REVERSES} ON ledger_transfer (reverses_id)"
            " WHERE reverses_id IS NOT NULL"
        )


def full_reverses_constraint(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX {REVERSES}")
        schema_editor.execute(
            f"ALTER TABLE ledger_transfer ADD CONSTRAINT {REVERSES} UNIQUE (reverses_id)"
        )


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0009_tournament_pools'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name='transfer',
            name='actor',
            field=models.ForeignKey(blank=True, db_index=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='staff member'),
        ),
        migrations.AlterField(
            model_name='transfer',
            name='round_id',
            field=models.BigIntegerField(blank=True, null=True, verbose_name='round'),
        ),
        migrations.AddIndex(
            model_name='transfer',
            index=models.Index(condition=models.Q(('round_id__isnull', False)), fields=['round_id'], name='ledger_transfer_round'),
        ),
        migrations.AddIndex(
            model_name='transfer',
            index=models.Index(condition=models.Q(('actor__isnull', False)), fields=['actor'], name='ledger_transfer_actor'),
        ),
        migrations.RunPython(partial_reverses_index, full_reverses_constraint, elidable=False),
    ]
