"""Database-enforced invariants that Django constraints cannot express.

PostgreSQL: transfers, postings and round closures refuse UPDATE and DELETE (history is
append-only; corrections are new transfers), and an account's identity columns cannot
change. SQLite (development only) gets the UPDATE guards; DELETE stays allowed there
because Django's test flush empties SQLite tables with DELETE (on PostgreSQL it uses
TRUNCATE, which row triggers do not see; production revokes TRUNCATE from the app role).
"""

from django.db import migrations

APPEND_ONLY = ["ledger_transfer", "ledger_posting", "ledger_roundclosure"]

PG_FORWARD = [
    """
    CREATE OR REPLACE FUNCTION ledger_refuse_change() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'ledger: % on % refused: ledger history is append-only',
            TG_OP, TG_TABLE_NAME
            USING ERRCODE = 'integrity_constraint_violation';
    END
    $$;
    """,
    *[
        f"""
        CREATE TRIGGER {table}_append_only
        BEFORE UPDATE OR DELETE ON {table}
        FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
        """
        for table in APPEND_ONLY
    ],
    """
    CREATE TRIGGER ledger_account_identity_fixed
    BEFORE UPDATE ON ledger_account
    FOR EACH ROW
    WHEN (OLD.key IS DISTINCT FROM NEW.key OR OLD.kind IS DISTINCT FROM NEW.kind
          OR OLD.user_id IS DISTINCT FROM NEW.user_id
          OR OLD.round_id IS DISTINCT FROM NEW.round_id
          OR OLD.shard IS DISTINCT FROM NEW.shard)
    EXECUTE FUNCTION ledger_refuse_change();
    """,
]
PG_BACKWARD = [
    *[f"DROP TRIGGER IF EXISTS {table}_append_only ON {table};" for table in APPEND_ONLY],
    "DROP TRIGGER IF EXISTS ledger_account_identity_fixed ON ledger_account;",
    "DROP FUNCTION IF EXISTS ledger_refuse_change();",
]
SQLITE_FORWARD = [
    f"""
    CREATE TRIGGER {table}_append_only BEFORE UPDATE ON {table}
    BEGIN SELECT RAISE(ABORT, 'ledger: UPDATE on {table} refused: ledger history is append-only'); END;
    """
    for table in APPEND_ONLY
]
SQLITE_BACKWARD = [f"DROP TRIGGER IF EXISTS {table}_append_only;" for table in APPEND_ONLY]


def forward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    statements = {"postgresql": PG_FORWARD, "sqlite": SQLITE_FORWARD}.get(vendor, [])
    for sql in statements:
        schema_editor.execute(sql, params=None)


def backward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    statements = {"postgresql": PG_BACKWARD, "sqlite": SQLITE_BACKWARD}.get(vendor, [])
    for sql in statements:
        schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [("ledger", "0001_initial")]

    operations = [migrations.RunPython(forward, backward, elidable=False)]
