from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from profiles.services import record_settled_rounds


class Command(BaseCommand):
    help = "Add every settled round not yet in the statistics summary (after a deploy)."

    def handle(self, *args: Any, **options: Any) -> None:
        total = 0
        while recorded := record_settled_rounds(limit=2_000):
            total += recorded
            self.stdout.write(f"{total} rounds recorded")
        self.stdout.write(self.style.SUCCESS(f"done: {total} rounds recorded"))
