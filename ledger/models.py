"""The xu ledger: accounts, immutable transfers, and one posting per account per transfer.

Modelled on TigerBeetle's invariants: every transfer moves a positive whole number of xu
from one account to another; every posting records the account's balance and version
after it, so a statement is one indexed query and every balance can be recomputed from
history. PostgreSQL enforces the rules that matter (see migrations and docs/ledger.md).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# House and issuance accounts are touched by many transfers at once; each is split into
# this many shard rows, picked by a hash of the transfer's idempotency key, and summed by
# the selectors. Raising it later is safe: new shards are created on first use.
SYSTEM_SHARDS = 16


KEY_CONSTRAINT = "ledger_transfer_key_unique"


class AccountKind(models.TextChoices):
    WALLET = "wallet", _("Wallet")
    HOUSE = "house", _("House")
    ISSUANCE = "issuance", _("Issuance")
    ESCROW = "escrow", _("Round escrow")
    POOL = "pool", _("Tournament pool")
    PRIZE_HOLD = "prize_hold", _("Tournament prizes under review")


class TransferKind(models.TextChoices):
    SIGNUP_GRANT = "signup_grant", _("Sign-up grant")
    DAILY_BONUS = "daily_bonus", _("Daily bonus")
    HOLD = "hold", _("Round stake held")
    SETTLE = "settle", _("Round settlement")
    RELEASE = "release", _("Round cancelled, stake returned")
    FEE = "fee", _("House fee")
    ADJUSTMENT = "adjustment", _("Staff adjustment")
    REVERSAL = "reversal", _("Reversal")
    BOT_TOPUP = "bot_topup", _("Bot top-up")
    COMPENSATION = "compensation", _("Compensation")
    HOUSE_FUNDING = "house_funding", _("House funded from issuance")
    RESETTLEMENT = "resettlement", _("Round re-settled")
    BUY_IN = "buy_in", _("Tournament buy-in")
    BUY_IN_REFUND = "buy_in_refund", _("Tournament buy-in refunded")
    PRIZE = "prize", _("Tournament prize")
    PRIZE_HOLD = "prize_hold", _("Tournament prizes held for review")


# Round flows: reversing one would reopen a closed escrow, so they are never reversed.
# A re-settlement corrects a closed round through its escrow, so it is final in the same way.
ROUND_KINDS = frozenset(
    {
        TransferKind.HOLD,
        TransferKind.SETTLE,
        TransferKind.RELEASE,
        TransferKind.FEE,
        TransferKind.RESETTLEMENT,
    }
)

# Tournament pool flows: the pool closes once (PoolClosure), like a round's escrow.
POOL_KINDS = frozenset(
    {
        TransferKind.BUY_IN,
        TransferKind.BUY_IN_REFUND,
        TransferKind.PRIZE,
        TransferKind.PRIZE_HOLD,
    }
)


class Account(models.Model):
    """Where xu sit. `key` is the natural name ("wallet:42", "escrow:1001", "house:3")."""

    # Every index here is written again by each balance update that cannot stay on its
    # page, so the table keeps only those a query needs: the key (unique, as a constraint:
    # a unique field would add a LIKE index nobody uses), the one wallet per user and the
    # one escrow per round. Wallets are found by user through the partial wallet index.
    key = models.CharField(_("key"), max_length=64)
    kind = models.CharField(_("kind"), max_length=16, choices=AccountKind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="ledger_accounts",
        db_index=False,
    )
    round_id = models.BigIntegerField(_("round"), null=True, blank=True)
    # A tournament pool's tournament (a plain id: the ledger knows nothing of tournaments).
    tournament_id = models.BigIntegerField(_("tournament"), null=True, blank=True)
    shard = models.PositiveSmallIntegerField(_("shard"), null=True, blank=True)
    # Bots are flagged on their wallet so the dashboard can show their net result.
    is_bot = models.BooleanField(_("bot"), default=False)
    balance = models.BigIntegerField(_("balance"), default=0)
    version = models.BigIntegerField(_("version"), default=0)
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("account")
        verbose_name_plural = _("accounts")
        constraints = [
            models.UniqueConstraint(fields=["key"], name="ledger_account_key_unique"),
            models.CheckConstraint(
                condition=Q(balance__gte=0) | Q(kind=AccountKind.ISSUANCE),
                name="ledger_account_balance_not_negative",
                violation_error_message="Only the issuance account may go below zero.",
            ),
            models.CheckConstraint(condition=Q(version__gte=0), name="ledger_account_version"),
            models.CheckConstraint(
                condition=(
                    Q(
                        kind=AccountKind.WALLET,
                        user__isnull=False,
                        round_id__isnull=True,
                        tournament_id__isnull=True,
                    )
                    | Q(
                        kind=AccountKind.ESCROW,
                        user__isnull=True,
                        round_id__isnull=False,
                        tournament_id__isnull=True,
                    )
                    | Q(
                        kind__in=[AccountKind.HOUSE, AccountKind.ISSUANCE],
                        user__isnull=True,
                        round_id__isnull=True,
                        tournament_id__isnull=True,
                        shard__isnull=False,
                    )
                    | Q(
                        kind__in=[AccountKind.POOL, AccountKind.PRIZE_HOLD],
                        user__isnull=True,
                        round_id__isnull=True,
                        shard__isnull=True,
                        tournament_id__isnull=False,
                    )
                ),
                name="ledger_account_owner_matches_kind",
            ),
            models.UniqueConstraint(
                fields=["user"],
                condition=Q(kind=AccountKind.WALLET),
                name="ledger_one_wallet_per_user",
            ),
            models.UniqueConstraint(
                fields=["round_id"],
                condition=Q(kind=AccountKind.ESCROW),
                name="ledger_one_escrow_per_round",
            ),
            models.UniqueConstraint(
                fields=["tournament_id"],
                condition=Q(kind=AccountKind.POOL),
                name="ledger_one_pool_per_tournament",
            ),
            models.UniqueConstraint(
                fields=["tournament_id"],
                condition=Q(kind=AccountKind.PRIZE_HOLD),
                name="ledger_one_prize_hold_per_tournament",
            ),
        ]

    def __str__(self) -> str:
        if self.kind == AccountKind.WALLET and self.user is not None:
            return f"{self.key} ({self.user})"
        return self.key


class Transfer(models.Model):
    """An immutable movement of xu from `debit` to `credit`. Never updated, never deleted."""

    idempotency_key = models.CharField(_("idempotency key"), max_length=200)
    kind = models.CharField(_("kind"), max_length=16, choices=TransferKind.choices)
    debit = models.ForeignKey(
        Account, verbose_name=_("from"), on_delete=models.PROTECT, related_name="+"
    )
    credit = models.ForeignKey(
        Account, verbose_name=_("to"), on_delete=models.PROTECT, related_name="+"
    )
    amount = models.BigIntegerField(_("amount"))
    # round_id, actor and reverses are empty on most transfers: their indexes (Meta) hold
    # only the rows that have one, so a transfer without them writes no entry there.
    round_id = models.BigIntegerField(_("round"), null=True, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("staff member"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        db_index=False,
    )
    reason = models.TextField(_("reason"), blank=True)
    # The transfer this one undoes; unique, so a transfer is reversed at most once.
    reverses = models.OneToOneField(
        "self",
        verbose_name=_("reverses"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reversed_by",
    )
    created_at = models.DateTimeField(_("time"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("transfer")
        verbose_name_plural = _("transfers")
        permissions = [("correct_balance", "Can adjust balances and reverse transfers")]
        constraints = [
            # Named, so a key race can be told apart from other unique violations.
            models.UniqueConstraint(fields=["idempotency_key"], name=KEY_CONSTRAINT),
            models.CheckConstraint(
                condition=Q(amount__gt=0), name="ledger_transfer_amount_positive"
            ),
            models.CheckConstraint(
                condition=~Q(debit=models.F("credit")), name="ledger_transfer_two_accounts"
            ),
        ]
        indexes = [
            models.Index(fields=["kind", "created_at"], name="ledger_transfer_kind_time"),
            models.Index(
                fields=["round_id"],
                name="ledger_transfer_round",
                condition=Q(round_id__isnull=False),
            ),
            models.Index(
                fields=["actor"], name="ledger_transfer_actor", condition=Q(actor__isnull=False)
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.kind} {self.amount} xu"


class Posting(models.Model):
    """One side of a transfer on one account: the signed change and what it left behind."""

    # No separate FK indexes: the unique (transfer, account) and (account, version)
    # indexes below lead with these columns, and each index costs every posting a write.
    transfer = models.ForeignKey(
        Transfer, on_delete=models.PROTECT, related_name="postings", db_index=False
    )
    account = models.ForeignKey(
        Account, on_delete=models.PROTECT, related_name="postings", db_index=False
    )
    delta = models.BigIntegerField(_("change"))
    balance_after = models.BigIntegerField(_("balance after"))
    account_version = models.BigIntegerField(_("account version"))

    class Meta:
        verbose_name = _("posting")
        verbose_name_plural = _("postings")
        constraints = [
            models.CheckConstraint(condition=~Q(delta=0), name="ledger_posting_delta_not_zero"),
            models.CheckConstraint(
                condition=Q(account_version__gt=0), name="ledger_posting_version_positive"
            ),
            # One posting per account version: a statement has no gaps and no forks.
            models.UniqueConstraint(
                fields=["account", "account_version"], name="ledger_posting_account_version"
            ),
            models.UniqueConstraint(fields=["transfer", "account"], name="ledger_posting_once"),
        ]

    def __str__(self) -> str:
        return f"{self.account_id} v{self.account_version}: {self.delta:+d} → {self.balance_after}"


class RoundOutcome(models.TextChoices):
    SETTLED = "settled", _("Settled")
    VOIDED = "voided", _("Voided")


class RoundClosure(models.Model):
    """How a round's escrow was emptied: settled with these deltas, or voided. Immutable."""

    round_id = models.BigIntegerField(_("round"), unique=True)
    outcome = models.CharField(_("outcome"), max_length=8, choices=RoundOutcome.choices)
    # {"<user id>": signed net xu}; sums to zero. Empty for a voided round.
    deltas = models.JSONField(_("deltas"), default=dict)
    fee = models.BigIntegerField(_("house fee"), default=0)
    fee_percent = models.CharField(_("fee percent"), max_length=16, default="0")
    created_at = models.DateTimeField(_("time"), default=timezone.now)

    class Meta:
        verbose_name = _("round closure")
        verbose_name_plural = _("round closures")
        constraints = [
            models.CheckConstraint(condition=Q(fee__gte=0), name="ledger_closure_fee_not_negative")
        ]

    def __str__(self) -> str:
        return f"round {self.round_id}: {self.outcome}"


class PoolOutcome(models.TextChoices):
    PAID = "paid", _("Prizes paid")
    REFUNDED = "refunded", _("Refunded")
    HELD = "held", _("Prizes held for review")


class PoolClosure(models.Model):
    """How a tournament's pool was emptied: prizes paid as listed, every buy-in refunded
    (the tournament was cancelled or voided), or held: the pool moved whole into the
    tournament's prize hold (``prize_hold:<t>``) for a moderator to decide, with the prizes
    it would have paid. Immutable; a pool closes once."""

    tournament_id = models.BigIntegerField(_("tournament"), unique=True)
    outcome = models.CharField(_("outcome"), max_length=8, choices=PoolOutcome.choices)
    # {"<user id>": xu}; sums to what the pool held: paid, or (held) the prizes recorded to
    # pay if a moderator releases them. Empty for a refunded pool.
    prizes = models.JSONField(_("prizes"), default=dict)
    created_at = models.DateTimeField(_("time"), default=timezone.now)

    class Meta:
        verbose_name = _("pool closure")
        verbose_name_plural = _("pool closures")

    def __str__(self) -> str:
        return f"tournament {self.tournament_id}: {self.outcome}"


class PrizeHold(models.Model):
    """A tournament's prizes held for a moderator: the collusion signals fired among its
    entrants (``findings``). Written with the pool's ``held`` closure; immutable. The xu
    sit in the hold account until the decision (``PrizeHoldDecision``)."""

    tournament_id = models.BigIntegerField(_("tournament"), unique=True)
    title = models.CharField(_("tournament"), max_length=120)
    """The tournament's name, for the pages of apps that may not read tournaments."""
    url = models.CharField(_("page"), max_length=200)
    """Where its entrants follow it (the tournament's page)."""
    prizes = models.JSONField(_("prizes"), default=dict)
    """{"<user id>": xu}: what a release pays (the prizes as the tournament ranked them)."""
    findings = models.JSONField(_("signals"), default=list)
    """The signals that fired: [{"signal": code, "users": [ids], ...details}]."""
    amount = models.BigIntegerField(_("amount"))
    """What moved from the pool into the hold (the pool, whole)."""
    created_at = models.DateTimeField(_("time"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("prize hold")
        verbose_name_plural = _("prize holds")
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="ledger_prize_hold_positive")
        ]

    def __str__(self) -> str:
        return f"prizes of tournament {self.tournament_id} held"


class HoldOutcome(models.TextChoices):
    RELEASED = "released", _("Prizes released")
    RETURNED = "returned", _("Buy-ins returned")


class PrizeHoldDecision(models.Model):
    """How a prize hold was emptied, once: the recorded prizes paid (released), or every
    buy-in still in it returned to whoever paid it. Immutable, with the staff member and
    the reason."""

    hold = models.OneToOneField(
        PrizeHold, verbose_name=_("prize hold"), on_delete=models.PROTECT, related_name="decision"
    )
    outcome = models.CharField(_("outcome"), max_length=8, choices=HoldOutcome.choices)
    # {"<user id>": xu}: what each wallet got back from the hold; sums to the hold's amount.
    paid = models.JSONField(_("paid"), default=dict)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("staff member"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    reason = models.TextField(_("reason"))
    created_at = models.DateTimeField(_("time"), default=timezone.now)

    class Meta:
        verbose_name = _("prize hold decision")
        verbose_name_plural = _("prize hold decisions")

    def __str__(self) -> str:
        return f"prizes of tournament {self.hold.tournament_id}: {self.outcome}"


class LedgerCheckRun(models.Model):
    """The result of one `ledger_check` run (the beat task keeps these for the dashboard)."""

    created_at = models.DateTimeField(_("time"), default=timezone.now, db_index=True)
    ok = models.BooleanField(_("passed"))
    problems = models.JSONField(_("problems"), default=list)
    figures = models.JSONField(_("figures"), default=dict)
    duration_ms = models.PositiveIntegerField(_("duration (ms)"), default=0)

    class Meta:
        verbose_name = _("ledger check")
        verbose_name_plural = _("ledger checks")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {'ok' if self.ok else 'FAILED'}"
