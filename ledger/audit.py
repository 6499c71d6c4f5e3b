"""The ledger audit: recompute everything from history and compare with what is stored.

Read-only. `manage.py ledger_check` and the beat task run it; each problem is one line.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, F, Max, Q, Sum
from django.db.models.functions import Coalesce

from ledger.models import (
    Account,
    AccountKind,
    HoldOutcome,
    PoolClosure,
    PoolOutcome,
    Posting,
    PrizeHold,
    PrizeHoldDecision,
    RoundClosure,
    RoundOutcome,
    Transfer,
    TransferKind,
)

LIMIT = 20  # problems listed per check; the count says how many there were


@dataclass
class CheckReport:
    problems: list[str] = field(default_factory=list)
    figures: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems


def run_checks() -> CheckReport:
    """Every check, on one consistent snapshot when run on its own on PostgreSQL."""
    if connection.vendor == "postgresql" and not connection.in_atomic_block:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                # A read-only audit of the whole history takes no locks and may take long
                # on a large ledger: the app's per-statement and idle limits are not for it.
                cursor.execute("SET LOCAL statement_timeout = 0")
                cursor.execute("SET LOCAL idle_in_transaction_session_timeout = 0")
            return _run()
    return _run()


def _run() -> CheckReport:
    report = CheckReport()
    _balances_match_postings(report)
    _posting_chains_are_unbroken(report)
    _transfers_have_both_sides(report)
    _totals(report)
    _rounds(report)
    _pools(report)
    _prize_holds(report)
    return report


def _add(report: CheckReport, title: str, items: list[str], count: int | None = None) -> None:
    if not items:
        return
    total = count if count is not None else len(items)
    report.problems.append(f"{title} ({total}): " + "; ".join(items[:LIMIT]))


def _balances_match_postings(report: CheckReport) -> None:
    accounts = Account.objects.annotate(
        recomputed=Coalesce(Sum("postings__delta"), 0),
        postings_count=Count("postings"),
        top_version=Coalesce(Max("postings__account_version"), 0),
    ).filter(
        ~Q(balance=F("recomputed")) | ~Q(version=F("postings_count")) | ~Q(version=F("top_version"))
    )
    _add(
        report,
        "stored balance or version differs from history",
        [
            f"{a.key}: stored {a.balance} v{a.version}, history {a.recomputed} "
            f"v{a.top_version} ({a.postings_count} postings)"
            for a in accounts[: LIMIT + 1]
        ],
    )


def _posting_chains_are_unbroken(report: CheckReport) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT account_id, account_version, balance_after, previous FROM (
                SELECT account_id, account_version, balance_after, delta,
                       LAG(balance_after, 1, 0) OVER (
                           PARTITION BY account_id ORDER BY account_version) AS previous,
                       LAG(account_version, 1, 0) OVER (
                           PARTITION BY account_id ORDER BY account_version) AS previous_version
                FROM ledger_posting
            ) chain
            WHERE balance_after - delta <> previous OR account_version <> previous_version + 1
            """
        )
        rows = cursor.fetchall()
    _add(
        report,
        "posting does not follow the previous one",
        [f"account {a} v{v}: after {b}, previous {p}" for a, v, b, p in rows],
    )


def _transfers_have_both_sides(report: CheckReport) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT t.id FROM ledger_transfer t
            LEFT JOIN ledger_posting d
              ON d.transfer_id = t.id AND d.account_id = t.debit_id AND d.delta = -t.amount
            LEFT JOIN ledger_posting c
              ON c.transfer_id = t.id AND c.account_id = t.credit_id AND c.delta = t.amount
            WHERE d.id IS NULL OR c.id IS NULL
            UNION
            SELECT transfer_id FROM ledger_posting GROUP BY transfer_id HAVING COUNT(*) <> 2
            """
        )
        rows = [row[0] for row in cursor.fetchall()]
    _add(report, "transfer without exactly its two postings", [f"#{t}" for t in sorted(rows)])


def _totals(report: CheckReport) -> None:
    by_kind = {
        row["kind"]: int(row["total"] or 0)
        for row in Account.objects.values("kind").annotate(total=Sum("balance"))
    }
    issuance = by_kind.get(AccountKind.ISSUANCE, 0)
    in_circulation = sum(v for k, v in by_kind.items() if k != AccountKind.ISSUANCE)
    report.figures.update(
        {
            "circulation": in_circulation,
            "issuance": issuance,
            "wallets": by_kind.get(AccountKind.WALLET, 0),
            "escrow": by_kind.get(AccountKind.ESCROW, 0),
            "house": by_kind.get(AccountKind.HOUSE, 0),
            "pools": by_kind.get(AccountKind.POOL, 0),
            "prize_holds": by_kind.get(AccountKind.PRIZE_HOLD, 0),
            "accounts": Account.objects.count(),
            "transfers": Transfer.objects.count(),
        }
    )
    if issuance != -in_circulation:
        report.problems.append(
            f"issuance {issuance} is not minus the xu in circulation {in_circulation}"
        )
    negative = Account.objects.filter(balance__lt=0).exclude(kind=AccountKind.ISSUANCE)
    _add(report, "negative balance", [f"{a.key}: {a.balance}" for a in negative[: LIMIT + 1]])


def _rounds(report: CheckReport) -> None:
    flows: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for row in (
        Transfer.objects.filter(round_id__isnull=False)
        .values("round_id", "kind")
        .annotate(total=Sum("amount"))
    ):
        flows[row["round_id"]][row["kind"]] = int(row["total"])
    closures = {c.round_id: c for c in RoundClosure.objects.all()}
    report.figures["rounds_closed"] = len(closures)

    open_escrows = Account.objects.filter(
        kind=AccountKind.ESCROW, round_id__in=list(closures), balance__gt=0
    ).values_list("round_id", "balance")
    _add(
        report, "closed round with xu left in escrow", [f"round {r}: {b}" for r, b in open_escrows]
    )

    wrong: list[str] = []
    for round_id, flow in sorted(flows.items()):
        held, settled = flow[TransferKind.HOLD], flow[TransferKind.SETTLE]
        fees, released = flow[TransferKind.FEE], flow[TransferKind.RELEASE]
        closure = closures.get(round_id)
        if closure is None:
            if settled or fees or released:
                wrong.append(f"round {round_id}: paid out but never closed")
        elif closure.outcome == RoundOutcome.SETTLED:
            deltas = sum(int(v) for v in closure.deltas.values())
            if deltas != 0 or settled - held != -fees or fees != closure.fee or released:
                wrong.append(
                    f"round {round_id}: held {held}, paid {settled}, fee {fees} "
                    f"(recorded {closure.fee}), deltas sum {deltas}"
                )
        elif released != held or settled or fees:
            wrong.append(f"round {round_id}: voided, held {held}, returned {released}")
    _add(report, "round settlement does not sum to zero less fees", wrong)


def _pools(report: CheckReport) -> None:
    """A closed pool is empty and paid out exactly its buy-ins less their refunds: in
    prizes, or (held) in one move into its prize hold."""
    flows: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for row in (
        Posting.objects.filter(account__kind=AccountKind.POOL)
        .values("account__tournament_id", "transfer__kind")
        .annotate(total=Sum("delta"))
    ):
        flows[row["account__tournament_id"]][row["transfer__kind"]] = abs(int(row["total"]))
    closures = {c.tournament_id: c for c in PoolClosure.objects.all()}
    report.figures["pools_closed"] = len(closures)
    wrong: list[str] = []
    for tournament_id in sorted(set(flows) | set(closures)):
        flow, closure = flows[tournament_id], closures.get(tournament_id)
        paid_in = flow[TransferKind.BUY_IN]
        refunded, prizes = flow[TransferKind.BUY_IN_REFUND], flow[TransferKind.PRIZE]
        held = flow[TransferKind.PRIZE_HOLD]
        if closure is None:
            if prizes or held:
                wrong.append(f"tournament {tournament_id}: prizes paid, pool never closed")
            continue
        recorded = sum(int(v) for v in closure.prizes.values())
        if closure.outcome == PoolOutcome.PAID:
            ok = paid_in - refunded == prizes == recorded and not held
        elif closure.outcome == PoolOutcome.HELD:
            ok = paid_in - refunded == held == recorded and not prizes
        else:
            ok = paid_in == refunded and not prizes and not recorded and not held
        if not ok:
            wrong.append(
                f"tournament {tournament_id}: {closure.outcome}, bought in {paid_in}, "
                f"refunded {refunded}, prizes {prizes} (recorded {recorded})"
            )
    _add(report, "tournament pool does not net to zero", wrong)


def _prize_holds(report: CheckReport) -> None:
    """A prize hold took in exactly what its record says; undecided, it keeps all of it;
    decided, it is empty and paid out the recorded prizes (released) or refunds (returned)
    that add up to it, the recorded payouts exactly."""
    flows: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    balances: dict[int, int] = {}
    for account in Account.objects.filter(kind=AccountKind.PRIZE_HOLD):
        balances[int(account.tournament_id or 0)] = account.balance
    for row in (
        Posting.objects.filter(account__kind=AccountKind.PRIZE_HOLD)
        .values("account__tournament_id", "transfer__kind")
        .annotate(total=Sum("delta"))
    ):
        flows[row["account__tournament_id"]][row["transfer__kind"]] = abs(int(row["total"]))
    holds = {h.tournament_id: h for h in PrizeHold.objects.all()}
    decisions = {d.hold.tournament_id: d for d in PrizeHoldDecision.objects.select_related("hold")}
    report.figures["prize_holds_pending"] = len(holds) - len(decisions)
    wrong: list[str] = []
    for tournament_id in sorted(set(flows) | set(holds) | set(balances)):
        flow, hold = flows[tournament_id], holds.get(tournament_id)
        taken = flow[TransferKind.PRIZE_HOLD]
        out = {kind: flow[kind] for kind in (TransferKind.PRIZE, TransferKind.BUY_IN_REFUND)}
        balance = balances.get(tournament_id, 0)
        if hold is None:
            wrong.append(f"tournament {tournament_id}: xu in a prize hold with no record")
            continue
        decision = decisions.get(tournament_id)
        recorded = sum(int(v) for v in hold.prizes.values())
        ok = taken == hold.amount == recorded
        if decision is None:
            ok = ok and balance == taken and not any(out.values())
        else:
            paid = sum(int(v) for v in decision.paid.values())
            kind = (
                TransferKind.PRIZE
                if decision.outcome == HoldOutcome.RELEASED
                else TransferKind.BUY_IN_REFUND
            )
            other = sum(v for k, v in out.items() if k != kind)
            ok = ok and balance == 0 and out[kind] == taken == paid and not other
            if decision.outcome == HoldOutcome.RELEASED:
                ok = ok and decision.paid == hold.prizes
        if not ok:
            wrong.append(
                f"tournament {tournament_id}: held {taken} (recorded {hold.amount}, prizes "
                f"{recorded}), balance {balance}, paid out {dict(out)}, "
                f"decision {decision.outcome if decision else 'none'}"
            )
    _add(report, "prize hold does not net to zero", wrong)


def format_report(report: CheckReport) -> str:
    lines = [f"{name}: {value}" for name, value in report.figures.items()]
    if report.ok:
        lines.append("OK: every balance matches its history")
    else:
        lines.extend(f"PROBLEM: {problem}" for problem in report.problems)
    return "\n".join(lines)
