"""The hot path in PostgreSQL: post a batch of transfers in one statement (as pgledger does).

`ledger_post_transfers(legs jsonb, posted_at timestamptz, open_round bigint)` does exactly
what the Python path in
ledger/services.py does (the SQLite fallback): answer repeated keys idempotently (or
refuse different content), create missing accounts, lock the touched accounts in id
order, check funds, insert transfers and postings, update balances and versions. One
round trip instead of seven; the CHECK constraints and triggers still apply.

With `open_round` (a hold) the round's escrow is locked first and the round must not be
closed yet.

Errors use SQLSTATE class LD: LD001 insufficient funds (DETAIL "balance:amount"),
LD002 idempotency conflict (DETAIL the key), LD003 unknown account (DETAIL the keys),
LD004 round already closed (DETAIL the outcome).
"""

from django.db import migrations

FORWARD = r"""
CREATE OR REPLACE FUNCTION ledger_post_transfers(
    legs jsonb, posted_at timestamptz, open_round bigint DEFAULT NULL
)
RETURNS TABLE (transfer_id bigint, created boolean, debit_id bigint, credit_id bigint)
LANGUAGE plpgsql AS $$
DECLARE
    leg jsonb;
    n integer := jsonb_array_length(legs);
    i integer;
    ids bigint[] := array_fill(NULL::bigint, ARRAY[n]);
    debits bigint[] := array_fill(NULL::bigint, ARRAY[n]);
    credits bigint[] := array_fill(NULL::bigint, ARRAY[n]);
    fresh boolean[] := array_fill(false, ARRAY[n]);
    old record;
    account_keys text[];
    amount bigint;
    debit record;
    credit record;
    new_id bigint;
    locked integer;
    escrow text;
    outcome text;
BEGIN
    -- Repeated keys: the same content answers with the original, other content is refused.
    FOR i IN 1..n LOOP
        leg := legs -> (i - 1);
        SELECT t.id, t.kind, t.amount, t.round_id, t.actor_id, t.reason, t.reverses_id,
               t.debit_id, t.credit_id, da.key AS debit_key, ca.key AS credit_key
          INTO old
          FROM ledger_transfer t
          JOIN ledger_account da ON da.id = t.debit_id
          JOIN ledger_account ca ON ca.id = t.credit_id
         WHERE t.idempotency_key = leg ->> 'key';
        IF FOUND THEN
            IF old.kind <> leg ->> 'kind'
               OR old.debit_key <> leg ->> 'debit'
               OR old.credit_key <> leg ->> 'credit'
               OR old.amount <> (leg ->> 'amount')::bigint
               OR old.round_id IS DISTINCT FROM (leg ->> 'round_id')::bigint
               OR old.actor_id IS DISTINCT FROM (leg ->> 'actor_id')::bigint
               OR old.reason <> leg ->> 'reason'
               OR old.reverses_id IS DISTINCT FROM (leg ->> 'reverses_id')::bigint THEN
                RAISE EXCEPTION 'idempotency_conflict'
                    USING ERRCODE = 'LD002', DETAIL = leg ->> 'key';
            END IF;
            ids[i] := old.id;
            debits[i] := old.debit_id;
            credits[i] := old.credit_id;
        END IF;
    END LOOP;

    SELECT array_agg(DISTINCT k ORDER BY k) INTO account_keys
      FROM (
        SELECT legs -> (j - 1) ->> 'debit' AS k FROM generate_series(1, n) j WHERE ids[j] IS NULL
        UNION
        SELECT legs -> (j - 1) ->> 'credit' FROM generate_series(1, n) j WHERE ids[j] IS NULL
      ) touched;

    IF account_keys IS NOT NULL AND open_round IS NOT NULL THEN
        -- A hold: the round's escrow is locked first (as settlements and voids lock it),
        -- then a new statement - which sees a closure committed while we waited - checks
        -- that the round is still open.
        escrow := 'escrow:' || open_round;
        PERFORM 1 FROM ledger_account WHERE key = escrow FOR UPDATE;
        IF NOT FOUND THEN
            INSERT INTO ledger_account
                   (key, kind, user_id, round_id, shard, is_bot, balance, version, created_at)
            VALUES (escrow, 'escrow', NULL, open_round, NULL, false, 0, 0, posted_at)
            ON CONFLICT (key) DO NOTHING;
            PERFORM 1 FROM ledger_account WHERE key = escrow FOR UPDATE;
        END IF;
        SELECT c.outcome INTO outcome FROM ledger_roundclosure c WHERE c.round_id = open_round;
        IF FOUND THEN
            RAISE EXCEPTION 'round_closed' USING ERRCODE = 'LD004', DETAIL = outcome;
        END IF;
    END IF;

    IF account_keys IS NOT NULL THEN
        -- Lock every touched account in id order: no interleaved balance checks, no
        -- deadlock between two batches that share accounts.
        SELECT count(*) INTO locked
          FROM (SELECT 1 FROM ledger_account WHERE key = ANY (account_keys)
                ORDER BY id FOR UPDATE) rows;
        IF locked < array_length(account_keys, 1) THEN
            -- Accounts are created on first use, named by key ("wallet:42", "escrow:7").
            INSERT INTO ledger_account
                   (key, kind, user_id, round_id, shard, is_bot, balance, version, created_at)
            SELECT k, split_part(k, ':', 1),
                   CASE WHEN split_part(k, ':', 1) = 'wallet'
                        THEN split_part(k, ':', 2)::bigint END,
                   CASE WHEN split_part(k, ':', 1) = 'escrow'
                        THEN split_part(k, ':', 2)::bigint END,
                   CASE WHEN split_part(k, ':', 1) IN ('house', 'issuance')
                        THEN split_part(k, ':', 2)::smallint END,
                   false, 0, 0, posted_at
              FROM unnest(account_keys) k
             WHERE split_part(k, ':', 1) IN ('wallet', 'escrow', 'house', 'issuance')
            ON CONFLICT (key) DO NOTHING;
            PERFORM 1 FROM ledger_account WHERE key = ANY (account_keys) ORDER BY id FOR UPDATE;
        END IF;

        FOR i IN 1..n LOOP
            CONTINUE WHEN ids[i] IS NOT NULL;
            leg := legs -> (i - 1);
            amount := (leg ->> 'amount')::bigint;
            SELECT a.id, a.kind, a.balance INTO debit
              FROM ledger_account a WHERE a.key = leg ->> 'debit';
            SELECT a.id INTO credit FROM ledger_account a WHERE a.key = leg ->> 'credit';
            IF debit.id IS NULL OR credit.id IS NULL THEN
                RAISE EXCEPTION 'unknown_account'
                    USING ERRCODE = 'LD003', DETAIL = (leg ->> 'debit') || ' ' || (leg ->> 'credit');
            END IF;
            IF debit.kind <> 'issuance' AND debit.balance < amount THEN
                RAISE EXCEPTION 'insufficient_funds'
                    USING ERRCODE = 'LD001', DETAIL = debit.balance || ':' || amount;
            END IF;
            INSERT INTO ledger_transfer
                   (idempotency_key, kind, debit_id, credit_id, amount, round_id, actor_id,
                    reason, reverses_id, created_at)
            VALUES (leg ->> 'key', leg ->> 'kind', debit.id, credit.id, amount,
                    (leg ->> 'round_id')::bigint, (leg ->> 'actor_id')::bigint,
                    leg ->> 'reason', (leg ->> 'reverses_id')::bigint, posted_at)
            RETURNING id INTO new_id;
            WITH moved AS (
                UPDATE ledger_account SET balance = balance - amount, version = version + 1
                 WHERE id = debit.id RETURNING id, balance, version
            )
            INSERT INTO ledger_posting
                   (transfer_id, account_id, delta, balance_after, account_version)
            SELECT new_id, moved.id, -amount, moved.balance, moved.version FROM moved;
            WITH moved AS (
                UPDATE ledger_account SET balance = balance + amount, version = version + 1
                 WHERE id = credit.id RETURNING id, balance, version
            )
            INSERT INTO ledger_posting
                   (transfer_id, account_id, delta, balance_after, account_version)
            SELECT new_id, moved.id, amount, moved.balance, moved.version FROM moved;
            ids[i] := new_id;
            fresh[i] := true;
            debits[i] := debit.id;
            credits[i] := credit.id;
        END LOOP;
    END IF;

    FOR i IN 1..n LOOP
        transfer_id := ids[i];
        created := fresh[i];
        debit_id := debits[i];
        credit_id := credits[i];
        RETURN NEXT;
    END LOOP;
END
$$;
"""

BACKWARD = "DROP FUNCTION IF EXISTS ledger_post_transfers(jsonb, timestamptz, bigint);"


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FORWARD, params=None)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(BACKWARD, params=None)


class Migration(migrations.Migration):
    dependencies = [("ledger", "0002_append_only_triggers")]

    operations = [migrations.RunPython(forward, backward, elidable=False)]
