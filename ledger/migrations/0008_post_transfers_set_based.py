"""ledger_post_transfers does a batch in a fixed handful of statements, planned once.

Same signature, same answers, same refusals (SQLSTATE class LD, see 0003), same locks in
the same order; every CHECK, trigger and deferred foreign key still applies. What changed
(measured with pg_stat_statements, track = all, auto_explain and perf on the workload of
benchmarks/bench_ledger_pgbench.py; figures in docs/ledger.md):

- ``plan_cache_mode = force_generic_plan`` on the function. With the default (auto)
  PostgreSQL planned the account lock (``key = ANY (…)``) and the key collection again on
  every call, a custom plan for the actual array looking cheaper than the generic one.
  Every statement below is written so that its generic plan is an index scan (the
  repeated-key look-up reads the two account keys by primary key instead of joining the
  accounts, whose generic plan hashed the whole account table).
- The legs are read from JSON once, into typed arrays (one ``jsonb_to_recordset``),
  instead of ``leg ->> 'field'`` conversions per use.
- One look-up answers every repeated key of the batch; one statement locks the accounts
  and reads their ids, kinds, balances and versions (no per-leg look-ups); the funds
  checks and running balances are computed from those locked rows, leg by leg; and one
  statement writes everything: the transfers, one UPDATE of the touched accounts and
  all postings. PostgreSQL builds a table's CHECK expressions and executor state once
  per statement, so a batch of any size costs five statements instead of 3 + 5 per leg.
  Transfer ids are drawn from the sequence in leg order, so transfers and postings keep
  the order the per-leg version gave them.
"""

from django.db import migrations

FORWARD = r"""
CREATE OR REPLACE FUNCTION ledger_post_transfers(
    legs jsonb, posted_at timestamptz, open_round bigint DEFAULT NULL
)
RETURNS TABLE (transfer_id bigint, created boolean, debit_id bigint, credit_id bigint)
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
    n integer;
    -- the legs, in order
    l_key text[]; l_kind text[]; l_debit text[]; l_credit text[]; l_amount bigint[];
    l_round bigint[]; l_actor bigint[]; l_reason text[]; l_reverses bigint[];
    fresh boolean[];
    -- legs already posted: their place in the batch and what they were
    old_ord integer[]; old_id bigint[]; old_debit bigint[]; old_credit bigint[];
    conflict_ord integer;
    touched text[];
    -- the locked accounts (id order) with their running balances and versions; the new
    -- legs (in order) and their postings (in leg order, debit side first)
    a_key text[]; a_id bigint[]; a_kind text[]; a_balance bigint[]; a_version bigint[];
    d integer;
    c integer;
    amount bigint;
    attempt integer := 0;
    f_ord integer[] := '{}'; f_debit bigint[] := '{}'; f_credit bigint[] := '{}';
    f_id bigint[];
    p_account bigint[] := '{}'; p_delta bigint[] := '{}'; p_balance bigint[] := '{}';
    p_version bigint[] := '{}';
    -- the answer, per leg
    ids bigint[]; debits bigint[]; credits bigint[];
    i integer;
    escrow text;
    outcome text;
BEGIN
    -- (Aggregates below take their input in order from a sorted subquery or an array's
    -- own order: an ORDER BY inside each aggregate would sort once per aggregate.)
    SELECT count(*)::integer, array_agg(x.key), array_agg(x.kind), array_agg(x.debit),
           array_agg(x.credit), array_agg(x.amount), array_agg(x.round_id),
           array_agg(x.actor_id), array_agg(x.reason), array_agg(x.reverses_id)
      INTO n, l_key, l_kind, l_debit, l_credit, l_amount, l_round, l_actor, l_reason,
           l_reverses
      FROM (SELECT * FROM ROWS FROM (jsonb_to_recordset(legs) AS (
                key text, kind text, debit text, credit text, amount bigint,
                round_id bigint, actor_id bigint, reason text, reverses_id bigint))
                WITH ORDINALITY AS r(key, kind, debit, credit, amount, round_id, actor_id,
                                     reason, reverses_id, ord)
             ORDER BY r.ord) x;
    IF n = 0 THEN
        RETURN;
    END IF;

    -- Repeated keys: the same content answers with the original, other content is refused
    -- (the first such leg is named).
    SELECT array_agg(x.i), array_agg(t.id), array_agg(t.debit_id), array_agg(t.credit_id),
           min(x.i) FILTER (WHERE
                t.kind <> l_kind[x.i]
                OR (SELECT a.key FROM ledger_account a WHERE a.id = t.debit_id) <> l_debit[x.i]
                OR (SELECT a.key FROM ledger_account a WHERE a.id = t.credit_id)
                   <> l_credit[x.i]
                OR t.amount <> l_amount[x.i]
                OR t.round_id IS DISTINCT FROM l_round[x.i]
                OR t.actor_id IS DISTINCT FROM l_actor[x.i]
                OR t.reason <> l_reason[x.i]
                OR t.reverses_id IS DISTINCT FROM l_reverses[x.i])
      INTO old_ord, old_id, old_debit, old_credit, conflict_ord
      FROM ledger_transfer t
     CROSS JOIN LATERAL (SELECT array_position(l_key, t.idempotency_key::text) AS i) x
     WHERE t.idempotency_key = ANY (l_key);
    IF conflict_ord IS NOT NULL THEN
        RAISE EXCEPTION 'idempotency_conflict'
            USING ERRCODE = 'LD002', DETAIL = l_key[conflict_ord];
    END IF;
    fresh := array_fill(true, ARRAY[n]);
    IF old_ord IS NULL THEN
        touched := l_debit || l_credit;
    ELSE
        FOR i IN 1..array_length(old_ord, 1) LOOP
            fresh[old_ord[i]] := false;
        END LOOP;
        SELECT array_agg(k) INTO touched
          FROM unnest(l_debit || l_credit, fresh || fresh) AS u(k, f) WHERE f;
    END IF;

    IF touched IS NOT NULL THEN
        IF open_round IS NOT NULL THEN
            -- A hold: the round's escrow is locked first (as settlements and voids lock
            -- it), then a new statement - which sees a closure committed while we
            -- waited - checks that the round is still open.
            escrow := 'escrow:' || open_round;
            PERFORM 1 FROM ledger_account WHERE key = escrow FOR UPDATE;
            IF NOT FOUND THEN
                INSERT INTO ledger_account
                       (key, kind, user_id, round_id, shard, is_bot, balance, version,
                        created_at)
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

        LOOP
            -- Lock every touched account in id order (no interleaved balance checks, no
            -- deadlock between two batches that share accounts), reading what the
            -- checks need.
            SELECT array_agg(s.key), array_agg(s.id), array_agg(s.kind),
                   array_agg(s.balance), array_agg(s.version)
              INTO a_key, a_id, a_kind, a_balance, a_version
              FROM (SELECT a.key::text AS key, a.id, a.kind::text AS kind, a.balance,
                           a.version
                      FROM ledger_account a WHERE a.key = ANY (touched)
                     ORDER BY a.id FOR UPDATE) s;
            EXIT WHEN touched <@ a_key OR attempt > 0;
            attempt := 1;
            -- Accounts are created on first use, named by key ("wallet:42", "escrow:7").
            INSERT INTO ledger_account
                   (key, kind, user_id, round_id, shard, is_bot, balance, version, created_at)
            SELECT DISTINCT k, split_part(k, ':', 1),
                   CASE WHEN split_part(k, ':', 1) = 'wallet'
                        THEN split_part(k, ':', 2)::bigint END,
                   CASE WHEN split_part(k, ':', 1) = 'escrow'
                        THEN split_part(k, ':', 2)::bigint END,
                   CASE WHEN split_part(k, ':', 1) IN ('house', 'issuance')
                        THEN split_part(k, ':', 2)::smallint END,
                   false, 0, 0, posted_at
              FROM unnest(touched) k
             WHERE split_part(k, ':', 1) IN ('wallet', 'escrow', 'house', 'issuance')
            ON CONFLICT (key) DO NOTHING;
        END LOOP;

        -- The new legs in order over the locked balances: each funds check sees the legs
        -- before it, each posting gets its balance and version after it.
        FOR i IN 1..n LOOP
            CONTINUE WHEN NOT fresh[i];
            d := array_position(a_key, l_debit[i]);
            c := array_position(a_key, l_credit[i]);
            IF d IS NULL OR c IS NULL THEN
                RAISE EXCEPTION 'unknown_account'
                    USING ERRCODE = 'LD003', DETAIL = l_debit[i] || ' ' || l_credit[i];
            END IF;
            amount := l_amount[i];
            IF a_kind[d] <> 'issuance' AND a_balance[d] < amount THEN
                RAISE EXCEPTION 'insufficient_funds'
                    USING ERRCODE = 'LD001', DETAIL = a_balance[d] || ':' || amount;
            END IF;
            a_balance[d] := a_balance[d] - amount;
            a_version[d] := a_version[d] + 1;
            a_balance[c] := a_balance[c] + amount;
            a_version[c] := a_version[c] + 1;
            f_ord := f_ord || i;
            f_debit := f_debit || a_id[d];
            f_credit := f_credit || a_id[c];
            p_account := p_account || ARRAY[a_id[d], a_id[c]];
            p_delta := p_delta || ARRAY[-amount, amount];
            p_balance := p_balance || ARRAY[a_balance[d], a_balance[c]];
            p_version := p_version || ARRAY[a_version[d], a_version[c]];
        END LOOP;

        -- One statement writes the batch: transfers (ids drawn in leg order), the
        -- touched accounts' new balances and versions, and the postings. The accounts
        -- are locked, so the values computed above are theirs.
        WITH new AS MATERIALIZED (
            SELECT array_agg(nextval('ledger_transfer_id_seq'::regclass)) AS ids
              FROM unnest(f_ord)
        ), transfers AS (
            INSERT INTO ledger_transfer
                   (id, idempotency_key, kind, debit_id, credit_id, amount, round_id,
                    actor_id, reason, reverses_id, created_at)
            SELECT new.ids[u.k], l_key[u.ord], l_kind[u.ord], f_debit[u.k], f_credit[u.k],
                   l_amount[u.ord], l_round[u.ord], l_actor[u.ord], l_reason[u.ord],
                   l_reverses[u.ord], posted_at
              FROM new, unnest(f_ord) WITH ORDINALITY AS u(ord, k)
        ), balances AS (
            UPDATE ledger_account a
               SET (balance, version) = (
                       SELECT a.balance + sum(p.delta), a.version + count(*)
                         FROM unnest(p_account, p_delta) AS p(id, delta) WHERE p.id = a.id)
             WHERE a.id = ANY (p_account)
        ), postings AS (
            INSERT INTO ledger_posting
                   (transfer_id, account_id, delta, balance_after, account_version)
            SELECT new.ids[(p.j + 1) / 2], p.account, p.delta, p.balance, p.version
              FROM new, unnest(p_account, p_delta, p_balance, p_version)
                   WITH ORDINALITY AS p(account, delta, balance, version, j)
        )
        SELECT new.ids INTO f_id FROM new;
    END IF;

    IF old_ord IS NULL THEN
        RETURN QUERY SELECT * FROM unnest(f_id, fresh, f_debit, f_credit);
        RETURN;
    END IF;
    ids := array_fill(NULL::bigint, ARRAY[n]);
    debits := ids;
    credits := ids;
    FOR i IN 1..array_length(old_ord, 1) LOOP
        ids[old_ord[i]] := old_id[i];
        debits[old_ord[i]] := old_debit[i];
        credits[old_ord[i]] := old_credit[i];
    END LOOP;
    FOR i IN 1..coalesce(array_length(f_ord, 1), 0) LOOP
        ids[f_ord[i]] := f_id[i];
        debits[f_ord[i]] := f_debit[i];
        credits[f_ord[i]] := f_credit[i];
    END LOOP;
    RETURN QUERY SELECT * FROM unnest(ids, fresh, debits, credits);
END
$$;
"""

def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FORWARD, params=None)


def backward(apps, schema_editor):
    """The per-leg function of 0003 (CREATE OR REPLACE also drops the SET clause)."""
    if schema_editor.connection.vendor == "postgresql":
        from importlib import import_module

        previous = import_module("ledger.migrations.0003_post_transfers_function")
        schema_editor.execute(previous.FORWARD, params=None)


class Migration(migrations.Migration):
    dependencies = [("ledger", "0007_account_indexes_and_fillfactor")]

    operations = [migrations.RunPython(forward, backward, elidable=False)]
