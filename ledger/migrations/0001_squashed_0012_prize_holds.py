"""The ledger's tables, and the invariants the database itself holds.

Squashes 0001-0012 (their steps, and the measurements behind the two functions, are in
git history and docs/ledger.md). On top of Django's tables:

- History is append-only. PostgreSQL: transfers, postings, round and pool closures, prize
  holds and their decisions refuse UPDATE and DELETE (corrections are new transfers), and
  an account's identity columns cannot change. SQLite (development only) gets the UPDATE
  guards; DELETE stays allowed there because Django's test flush empties SQLite tables
  with DELETE (on PostgreSQL it uses TRUNCATE, which row triggers do not see; production
  revokes TRUNCATE from the app role).
- ``ledger_account`` has fillfactor 70: a balance update touches no indexed column, so
  PostgreSQL keeps it on its page (a HOT update, no new index entries) when the page has
  room.
- ``reverses`` stays a OneToOneField in Django's state (``reversed_by`` is one transfer);
  on PostgreSQL its unique constraint is a partial unique index of the same name over the
  transfers that reverse one (most reverse nothing; NULLs never collided). SQLite keeps
  the full one.
- The hot path on PostgreSQL: ``ledger_post_transfers`` posts a batch in a fixed handful
  of statements, ``ledger_post_transfer`` one transfer from scalar arguments; both do
  what the Python path in ledger/services/posting.py does (the SQLite fallback): answer
  repeated keys idempotently (or refuse different content), create missing accounts,
  lock the touched accounts in id order, check funds, insert transfers and postings,
  update balances and versions. With ``open_round`` (a hold) the round's escrow is locked
  first and the round must not be closed yet. Errors use SQLSTATE class LD: LD001
  insufficient funds (DETAIL "balance:amount"), LD002 idempotency conflict (DETAIL the
  key), LD003 unknown account (DETAIL the keys), LD004 round already closed (DETAIL the
  outcome).
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ('ledger', '0001_initial'),
        ('ledger', '0002_append_only_triggers'),
        ('ledger', '0003_post_transfers_function'),
        ('ledger', '0004_correct_balance_permission'),
        ('ledger', '0005_posting_indexes_from_unique_constraints'),
        ('ledger', '0006_compensation_and_resettlement_kinds'),
        ('ledger', '0007_account_indexes_and_fillfactor'),
        ('ledger', '0008_post_transfers_set_based'),
        ('ledger', '0009_tournament_pools'),
        ('ledger', '0010_transfer_optional_columns_partial_indexes'),
        ('ledger', '0011_post_single_transfer_function'),
        ('ledger', '0012_prize_holds'),
    ]

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='LedgerCheckRun',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('created_at', models.DateTimeField(db_index=True, default=django.utils.timezone.now, verbose_name='time')),
                ('ok', models.BooleanField(verbose_name='passed')),
                ('problems', models.JSONField(default=list, verbose_name='problems')),
                ('figures', models.JSONField(default=dict, verbose_name='figures')),
                ('duration_ms', models.PositiveIntegerField(default=0, verbose_name='duration (ms)')),
            ],
            options={
                'verbose_name': 'ledger check',
                'verbose_name_plural': 'ledger checks',
                'ordering': ['-created_at'],
            },
        ),
        migrations.CreateModel(
            name='PoolClosure',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('tournament_id', models.BigIntegerField(unique=True, verbose_name='tournament')),
                ('outcome', models.CharField(choices=[('paid', 'Prizes paid'), ('refunded', 'Refunded'), ('held', 'Prizes held for review')], max_length=8, verbose_name='outcome')),
                ('prizes', models.JSONField(default=dict, verbose_name='prizes')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='time')),
            ],
            options={
                'verbose_name': 'pool closure',
                'verbose_name_plural': 'pool closures',
            },
        ),
        migrations.CreateModel(
            name='Account',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.CharField(max_length=64, verbose_name='key')),
                ('kind', models.CharField(choices=[('wallet', 'Wallet'), ('house', 'House'), ('issuance', 'Issuance'), ('escrow', 'Round escrow'), ('pool', 'Tournament pool'), ('prize_hold', 'Tournament prizes under review')], max_length=16, verbose_name='kind')),
                ('round_id', models.BigIntegerField(blank=True, null=True, verbose_name='round')),
                ('tournament_id', models.BigIntegerField(blank=True, null=True, verbose_name='tournament')),
                ('shard', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='shard')),
                ('is_bot', models.BooleanField(default=False, verbose_name='bot')),
                ('balance', models.BigIntegerField(default=0, verbose_name='balance')),
                ('version', models.BigIntegerField(default=0, verbose_name='version')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='created')),
                ('user', models.ForeignKey(blank=True, db_index=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='ledger_accounts', to=settings.AUTH_USER_MODEL, verbose_name='user')),
            ],
            options={
                'verbose_name': 'account',
                'verbose_name_plural': 'accounts',
            },
        ),
        migrations.CreateModel(
            name='PrizeHold',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('tournament_id', models.BigIntegerField(unique=True, verbose_name='tournament')),
                ('title', models.CharField(max_length=120, verbose_name='tournament')),
                ('url', models.CharField(max_length=200, verbose_name='page')),
                ('prizes', models.JSONField(default=dict, verbose_name='prizes')),
                ('findings', models.JSONField(default=list, verbose_name='signals')),
                ('amount', models.BigIntegerField(verbose_name='amount')),
                ('created_at', models.DateTimeField(db_index=True, default=django.utils.timezone.now, verbose_name='time')),
            ],
            options={
                'verbose_name': 'prize hold',
                'verbose_name_plural': 'prize holds',
                'constraints': [models.CheckConstraint(condition=models.Q(('amount__gt', 0)), name='ledger_prize_hold_positive')],
            },
        ),
        migrations.CreateModel(
            name='PrizeHoldDecision',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('outcome', models.CharField(choices=[('released', 'Prizes released'), ('returned', 'Buy-ins returned')], max_length=8, verbose_name='outcome')),
                ('paid', models.JSONField(default=dict, verbose_name='paid')),
                ('reason', models.TextField(verbose_name='reason')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='time')),
                ('actor', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='staff member')),
                ('hold', models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='decision', to='ledger.prizehold', verbose_name='prize hold')),
            ],
            options={
                'verbose_name': 'prize hold decision',
                'verbose_name_plural': 'prize hold decisions',
            },
        ),
        migrations.CreateModel(
            name='RoundClosure',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('round_id', models.BigIntegerField(unique=True, verbose_name='round')),
                ('outcome', models.CharField(choices=[('settled', 'Settled'), ('voided', 'Voided')], max_length=8, verbose_name='outcome')),
                ('deltas', models.JSONField(default=dict, verbose_name='deltas')),
                ('fee', models.BigIntegerField(default=0, verbose_name='house fee')),
                ('fee_percent', models.CharField(default='0', max_length=16, verbose_name='fee percent')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='time')),
            ],
            options={
                'verbose_name': 'round closure',
                'verbose_name_plural': 'round closures',
                'constraints': [models.CheckConstraint(condition=models.Q(('fee__gte', 0)), name='ledger_closure_fee_not_negative')],
            },
        ),
        migrations.CreateModel(
            name='Transfer',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('idempotency_key', models.CharField(max_length=200, verbose_name='idempotency key')),
                ('kind', models.CharField(choices=[('signup_grant', 'Sign-up grant'), ('daily_bonus', 'Daily bonus'), ('hold', 'Round stake held'), ('settle', 'Round settlement'), ('release', 'Round cancelled, stake returned'), ('fee', 'House fee'), ('adjustment', 'Staff adjustment'), ('reversal', 'Reversal'), ('bot_topup', 'Bot top-up'), ('compensation', 'Compensation'), ('house_funding', 'House funded from issuance'), ('resettlement', 'Round re-settled'), ('buy_in', 'Tournament buy-in'), ('buy_in_refund', 'Tournament buy-in refunded'), ('prize', 'Tournament prize'), ('prize_hold', 'Tournament prizes held for review')], max_length=16, verbose_name='kind')),
                ('amount', models.BigIntegerField(verbose_name='amount')),
                ('round_id', models.BigIntegerField(blank=True, null=True, verbose_name='round')),
                ('reason', models.TextField(blank=True, verbose_name='reason')),
                ('created_at', models.DateTimeField(db_index=True, default=django.utils.timezone.now, verbose_name='time')),
                ('actor', models.ForeignKey(blank=True, db_index=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='staff member')),
                ('credit', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='ledger.account', verbose_name='to')),
                ('debit', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='ledger.account', verbose_name='from')),
                ('reverses', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='reversed_by', to='ledger.transfer', verbose_name='reverses')),
            ],
            options={
                'verbose_name': 'transfer',
                'verbose_name_plural': 'transfers',
                'permissions': [('correct_balance', 'Can adjust balances and reverse transfers')],
            },
        ),
        migrations.CreateModel(
            name='Posting',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('delta', models.BigIntegerField(verbose_name='change')),
                ('balance_after', models.BigIntegerField(verbose_name='balance after')),
                ('account_version', models.BigIntegerField(verbose_name='account version')),
                ('account', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.PROTECT, related_name='postings', to='ledger.account')),
                ('transfer', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.PROTECT, related_name='postings', to='ledger.transfer')),
            ],
            options={
                'verbose_name': 'posting',
                'verbose_name_plural': 'postings',
            },
        ),
        migrations.AddConstraint(
            model_name='account',
            constraint=models.UniqueConstraint(fields=('key',), name='ledger_account_key_unique'),
        ),
        migrations.AddConstraint(
            model_name='account',
            constraint=models.CheckConstraint(condition=models.Q(('balance__gte', 0), ('kind', 'issuance'), _connector='OR'), name='ledger_account_balance_not_negative', violation_error_message='Only the issuance account may go below zero.'),
        ),
        migrations.AddConstraint(
            model_name='account',
            constraint=models.CheckConstraint(condition=models.Q(('version__gte', 0)), name='ledger_account_version'),
        ),
        migrations.AddConstraint(
            model_name='account',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('kind', 'wallet'), ('round_id__isnull', True), ('tournament_id__isnull', True), ('user__isnull', False)), models.Q(('kind', 'escrow'), ('round_id__isnull', False), ('tournament_id__isnull', True), ('user__isnull', True)), models.Q(('kind__in', ['house', 'issuance']), ('round_id__isnull', True), ('shard__isnull', False), ('tournament_id__isnull', True), ('user__isnull', True)), models.Q(('kind__in', ['pool', 'prize_hold']), ('round_id__isnull', True), ('shard__isnull', True), ('tournament_id__isnull', False), ('user__isnull', True)), _connector='OR'), name='ledger_account_owner_matches_kind'),
        ),
        migrations.AddConstraint(
            model_name='account',
            constraint=models.UniqueConstraint(condition=models.Q(('kind', 'wallet')), fields=('user',), name='ledger_one_wallet_per_user'),
        ),
        migrations.AddConstraint(
            model_name='account',
            constraint=models.UniqueConstraint(condition=models.Q(('kind', 'escrow')), fields=('round_id',), name='ledger_one_escrow_per_round'),
        ),
        migrations.AddConstraint(
            model_name='account',
            constraint=models.UniqueConstraint(condition=models.Q(('kind', 'pool')), fields=('tournament_id',), name='ledger_one_pool_per_tournament'),
        ),
        migrations.AddConstraint(
            model_name='account',
            constraint=models.UniqueConstraint(condition=models.Q(('kind', 'prize_hold')), fields=('tournament_id',), name='ledger_one_prize_hold_per_tournament'),
        ),
        migrations.AddIndex(
            model_name='transfer',
            index=models.Index(fields=['kind', 'created_at'], name='ledger_transfer_kind_time'),
        ),
        migrations.AddIndex(
            model_name='transfer',
            index=models.Index(condition=models.Q(('round_id__isnull', False)), fields=['round_id'], name='ledger_transfer_round'),
        ),
        migrations.AddIndex(
            model_name='transfer',
            index=models.Index(condition=models.Q(('actor__isnull', False)), fields=['actor'], name='ledger_transfer_actor'),
        ),
        migrations.AddConstraint(
            model_name='transfer',
            constraint=models.UniqueConstraint(fields=('idempotency_key',), name='ledger_transfer_key_unique'),
        ),
        migrations.AddConstraint(
            model_name='transfer',
            constraint=models.CheckConstraint(condition=models.Q(('amount__gt', 0)), name='ledger_transfer_amount_positive'),
        ),
        migrations.AddConstraint(
            model_name='transfer',
            constraint=models.CheckConstraint(condition=models.Q(('debit', models.F('credit')), _negated=True), name='ledger_transfer_two_accounts'),
        ),
        migrations.AddConstraint(
            model_name='posting',
            constraint=models.CheckConstraint(condition=models.Q(('delta', 0), _negated=True), name='ledger_posting_delta_not_zero'),
        ),
        migrations.AddConstraint(
            model_name='posting',
            constraint=models.CheckConstraint(condition=models.Q(('account_version__gt', 0)), name='ledger_posting_version_positive'),
        ),
        migrations.AddConstraint(
            model_name='posting',
            constraint=models.UniqueConstraint(fields=('account', 'account_version'), name='ledger_posting_account_version'),
        ),
        migrations.AddConstraint(
            model_name='posting',
            constraint=models.UniqueConstraint(fields=('transfer', 'account'), name='ledger_posting_once'),
        ),
    ]


APPEND_ONLY = [
    "ledger_transfer",
    "ledger_posting",
    "ledger_roundclosure",
    "ledger_poolclosure",
    "ledger_prizehold",
    "ledger_prizeholddecision",
]
REVERSES = "ledger_transfer_reverses_id_key"

REFUSE_CHANGE = """
    CREATE OR REPLACE FUNCTION ledger_refuse_change() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'ledger: % on % refused: ledger history is append-only',
            TG_OP, TG_TABLE_NAME
            USING ERRCODE = 'integrity_constraint_violation';
    END
    $$;
    """
IDENTITY_FIXED = """
CREATE TRIGGER ledger_account_identity_fixed
BEFORE UPDATE ON ledger_account
FOR EACH ROW
WHEN (OLD.key IS DISTINCT FROM NEW.key OR OLD.kind IS DISTINCT FROM NEW.kind
      OR OLD.user_id IS DISTINCT FROM NEW.user_id
      OR OLD.round_id IS DISTINCT FROM NEW.round_id
      OR OLD.tournament_id IS DISTINCT FROM NEW.tournament_id
      OR OLD.shard IS DISTINCT FROM NEW.shard)
EXECUTE FUNCTION ledger_refuse_change();
"""

POST_TRANSFERS = r"""
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

POST_TRANSFER = r"""
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

PG_FORWARD = [
    REFUSE_CHANGE,
    *[
        f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table}"
        " FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();"
        for table in APPEND_ONLY
    ],
    IDENTITY_FIXED,
    "ALTER TABLE ledger_account SET (fillfactor = 70)",
    f"ALTER TABLE ledger_transfer DROP CONSTRAINT {REVERSES}",
    f"CREATE UNIQUE INDEX {REVERSES} ON ledger_transfer (reverses_id)"
    " WHERE reverses_id IS NOT NULL",
    POST_TRANSFERS,
    POST_TRANSFER,
]
PG_BACKWARD = [
    "DROP FUNCTION IF EXISTS ledger_post_transfer("
    "text, text, text, text, bigint, timestamptz, bigint, bigint, text, bigint, bigint);",
    "DROP FUNCTION IF EXISTS ledger_post_transfers(jsonb, timestamptz, bigint);",
    f"DROP INDEX {REVERSES}",
    f"ALTER TABLE ledger_transfer ADD CONSTRAINT {REVERSES} UNIQUE (reverses_id)",
    "ALTER TABLE ledger_account RESET (fillfactor)",
    "DROP TRIGGER IF EXISTS ledger_account_identity_fixed ON ledger_account;",
    *[f"DROP TRIGGER IF EXISTS {table}_append_only ON {table};" for table in APPEND_ONLY],
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
    for sql in {"postgresql": PG_FORWARD, "sqlite": SQLITE_FORWARD}.get(vendor, []):
        schema_editor.execute(sql, params=None)


def backward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for sql in {"postgresql": PG_BACKWARD, "sqlite": SQLITE_BACKWARD}.get(vendor, []):
        schema_editor.execute(sql, params=None)


# Last, once every table exists.
Migration.operations.append(migrations.RunPython(forward, backward, elidable=False))
