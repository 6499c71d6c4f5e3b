"""ledger_post_transfer: one transfer, scalar arguments, the same rules as the batch function.

Most ledger calls post one transfer (a hold, a grant, a bonus, an adjustment, a top-up).
``ledger_post_transfers`` (0003, 0008) serves them through its batch machinery: the leg as
JSON, parsed into arrays by ``jsonb_to_recordset``, every statement an aggregate over
arrays (each aggregate is set up again per statement), and ``SET plan_cache_mode`` on the
function, which makes every call go through PostgreSQL's GUC save/restore. Profiled under
the pgbench workload (perf on the backends, benchmarks/bench_ledger_pgbench.py): setting
up those aggregates alone took 6 % of the backend's CPU.

This function takes the leg as plain arguments and does the same in five statements that
plan generically as index scans (scalar parameters give the plan cache nothing to
re-plan for):

1. one look-up finds the key and the ids of both accounts (ids and keys never change:
   a trigger refuses it), so a repeated key is compared by account id;
2. with ``open_round`` (a hold), the round's escrow is locked first and the round must
   not be closed (a new statement, so it sees a closure committed while it waited);
   missing accounts are created (``INSERT ... ON CONFLICT DO NOTHING``);
3. the two accounts are locked **in id order** with two ``SELECT ... FOR UPDATE`` by
   primary key - the order every other writer uses, so no deadlock - reading kind,
   balance and version; the funds check is made on the locked balance;
4. one statement inserts the transfer (id drawn from its sequence), updates both
   balances and versions and inserts the two postings.

Same answers, same refusals (SQLSTATE class LD, see 0003), same locks in the same order
as ``ledger_post_transfers`` with one leg; every CHECK, trigger and deferred foreign key
still applies (the CHECK on balances backs the funds check). The batch function stays for
batches (a settlement, a void, a compensation with its funding).
"""

from django.db import migrations

FORWARD = r"""
CREATE OR REPLACE FUNCTION ledger_post_transfer(
    p_key text, p_kind text, p_debit text, p_credit text, p_amount bigint,
    posted_at timestamptz, p_round_id bigint DEFAULT NULL, p_actor_id bigint DEFAULT NULL,
    p_reason text DEFAULT '', p_reverses_id bigint DEFAULT NULL,
    open_round bigint DEFAULT NULL,
    OUT transfer_id bigint, OUT created boolean, OUT debit_id bigint, OUT credit_id bigint
)
LANGUAGE plpgsql
AS $$
DECLARE
    same boolean;
    d_id bigint;
    c_id bigint;
    d_kind text;
    d_balance bigint;
    d_version bigint;
    c_balance bigint;
    c_version bigint;
    escrow text;
    outcome text;
BEGIN
    -- The key, and the two accounts a repeated key is compared with (by id: keys are
    -- unique and never change).
    SELECT (SELECT a.id FROM ledger_account a WHERE a.key = p_debit),
           (SELECT a.id FROM ledger_account a WHERE a.key = p_credit),
           t.id, t.debit_id, t.credit_id,
           t.kind = p_kind AND t.amount = p_amount AND t.reason = p_reason
           AND t.round_id IS NOT DISTINCT FROM p_round_id
           AND t.actor_id IS NOT DISTINCT FROM p_actor_id
           AND t.reverses_id IS NOT DISTINCT FROM p_reverses_id
      INTO d_id, c_id, transfer_id, debit_id, credit_id, same
      FROM (SELECT) AS one
      LEFT JOIN ledger_transfer t ON t.idempotency_key = p_key;
    IF transfer_id IS NOT NULL THEN
        IF same AND debit_id = d_id AND credit_id = c_id THEN
            created := false;
            RETURN;
        END IF;
        RAISE EXCEPTION 'idempotency_conflict' USING ERRCODE = 'LD002', DETAIL = p_key;
    END IF;

    IF open_round IS NOT NULL THEN
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
        SELECT cl.outcome INTO outcome FROM ledger_roundclosure cl
         WHERE cl.round_id = open_round;
        IF FOUND THEN
            RAISE EXCEPTION 'round_closed' USING ERRCODE = 'LD004', DETAIL = outcome;
        END IF;
    END IF;

    IF d_id IS NULL OR c_id IS NULL THEN
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
          FROM unnest(ARRAY[p_debit, p_credit]) k
         WHERE split_part(k, ':', 1) IN ('wallet', 'escrow', 'house', 'issuance')
        ON CONFLICT (key) DO NOTHING;
        SELECT (SELECT a.id FROM ledger_account a WHERE a.key = p_debit),
               (SELECT a.id FROM ledger_account a WHERE a.key = p_credit)
          INTO d_id, c_id;
        IF d_id IS NULL OR c_id IS NULL THEN
            RAISE EXCEPTION 'unknown_account'
                USING ERRCODE = 'LD003', DETAIL = p_debit || ' ' || p_credit;
        END IF;
    END IF;
    debit_id := d_id;
    credit_id := c_id;

    -- Lock both accounts in id order (no interleaved balance checks, no deadlock with
    -- another writer that shares them), reading what the check and the postings need.
    IF d_id < c_id THEN
        SELECT a.kind, a.balance, a.version INTO d_kind, d_balance, d_version
          FROM ledger_account a WHERE a.id = d_id FOR UPDATE;
        SELECT a.balance, a.version INTO c_balance, c_version
          FROM ledger_account a WHERE a.id = c_id FOR UPDATE;
    ELSE
        SELECT a.balance, a.version INTO c_balance, c_version
          FROM ledger_account a WHERE a.id = c_id FOR UPDATE;
        SELECT a.kind, a.balance, a.version INTO d_kind, d_balance, d_version
          FROM ledger_account a WHERE a.id = d_id FOR UPDATE;
    END IF;
    IF d_kind <> 'issuance' AND d_balance < p_amount THEN
        RAISE EXCEPTION 'insufficient_funds'
            USING ERRCODE = 'LD001', DETAIL = d_balance || ':' || p_amount;
    END IF;
    d_balance := d_balance - p_amount;
    d_version := d_version + 1;
    c_balance := c_balance + p_amount;
    c_version := c_version + 1;

    -- One statement writes the transfer, both balances and both postings; the accounts
    -- are locked, so the values computed above are theirs.
    transfer_id := nextval('ledger_transfer_id_seq'::regclass);
    WITH transfer AS (
        INSERT INTO ledger_transfer
               (id, idempotency_key, kind, debit_id, credit_id, amount, round_id, actor_id,
                reason, reverses_id, created_at)
        VALUES (transfer_id, p_key, p_kind, d_id, c_id, p_amount, p_round_id, p_actor_id,
                p_reason, p_reverses_id, posted_at)
    ), balances AS (
        UPDATE ledger_account a
           SET balance = CASE WHEN a.id = d_id THEN d_balance ELSE c_balance END,
               version = CASE WHEN a.id = d_id THEN d_version ELSE c_version END
         WHERE a.id IN (d_id, c_id)
    )
    INSERT INTO ledger_posting (transfer_id, account_id, delta, balance_after, account_version)
    VALUES (transfer_id, d_id, -p_amount, d_balance, d_version),
           (transfer_id, c_id, p_amount, c_balance, c_version);
    created := true;
END
$$;
"""

BACKWARD = """
DROP FUNCTION IF EXISTS ledger_post_transfer(
    text, text, text, text, bigint, timestamptz, bigint, bigint, text, bigint, bigint
);
"""


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FORWARD, params=None)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(BACKWARD, params=None)


class Migration(migrations.Migration):
    dependencies = [("ledger", "0010_transfer_optional_columns_partial_indexes")]

    operations = [migrations.RunPython(forward, backward, elidable=False)]
