"""The ledger check's runs: the audit (``ledger.audit``) run and its result kept for the
admin dashboard."""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from ledger.models import LedgerCheckRun

logger = logging.getLogger(__name__)
CHECK_RUNS_KEPT = timedelta(days=30)


def record_ledger_check() -> LedgerCheckRun:
    """Run the audit and keep its result for the admin dashboard."""
    from ledger import audit

    started = time.monotonic()
    report = audit.run_checks()
    run = LedgerCheckRun.objects.create(
        ok=report.ok,
        problems=report.problems,
        figures=report.figures,
        duration_ms=int((time.monotonic() - started) * 1000),
    )
    # Every 10 minutes adds up; a month of results is plenty (failures are also logged).
    LedgerCheckRun.objects.filter(created_at__lt=run.created_at - CHECK_RUNS_KEPT).delete()
    if not report.ok:
        logger.error("ledger check failed: %s", "; ".join(report.problems))
    return run
