"""Open bot-only tables whose bots play round after round (load tests, a busy lobby)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from bots import services
from games.errors import GameError


class Command(BaseCommand):
    help = (
        "Open N bot-only tables and seat bots there; with Celery workers running they play "
        "continuously (the auto-start countdown deals each round). --stop lets them finish."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--tables", type=int, default=10, help="how many tables (1-500)")
        parser.add_argument("--seats", type=int, default=4, choices=[2, 3, 4])
        parser.add_argument("--stake", type=int, default=10, help="xu per chi")
        parser.add_argument("--reveal-seconds", type=int, default=2, help="2-10")
        parser.add_argument("--arrange-seconds", type=int, default=30, help="30-180")
        parser.add_argument(
            "--stop",
            action="store_true",
            help="close every bot-only table; bots leave after their current round",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["stop"]:
            closed = services.stop_bot_only_tables()
            self.stdout.write(f"Closed {closed} bot-only tables; bots leave after this round.")
            return
        count = options["tables"]
        if not 1 <= count <= 500:
            raise CommandError("--tables must be between 1 and 500")
        rules = {
            "reveal_seconds": options["reveal_seconds"],
            "arrange_seconds": options["arrange_seconds"],
            "start_seconds": 5,
        }
        opened = []
        for number in range(1, count + 1):
            try:
                table = services.open_bot_only_table(
                    f"Bàn máy {number}",
                    stake=options["stake"],
                    seats=options["seats"],
                    rules_overrides=rules,
                )
            except GameError as exc:
                raise CommandError(exc.message) from exc
            services.fill_table(table.pk, [])
            opened.append(table.pk)
        self.stdout.write(
            f"Opened {len(opened)} bot-only tables (ids {opened[0]}-{opened[-1]}); "
            "rounds start when a Celery worker runs."
        )
