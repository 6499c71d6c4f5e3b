from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from ledger import services
from ledger.audit import CheckReport, format_report, run_checks


class Command(BaseCommand):
    help = (
        "Recompute every balance from its postings and check the ledger's invariants; "
        "exit 1 on any mismatch."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--no-record",
            action="store_true",
            help="Do not store the result for the admin dashboard.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["no_record"]:
            report = run_checks()
        else:
            run = services.record_ledger_check()
            report = CheckReport(problems=run.problems, figures=run.figures)
        self.stdout.write(format_report(report))
        if not report.ok:
            raise CommandError(
                f"ledger check failed: {len(report.problems)} problem(s)", returncode=1
            )
