"""The demo's bot tables (idempotent): a newcomer sits and bots join within seconds."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from bots import services
from games import services as games
from games.models import Table

DEMO_TABLES = [("Bàn Hoa Sen", 10), ("Bàn Hoa Mai", 20), ("Bàn Hoa Đào", 50)]
"""Names and stakes of the demo tables where bots are allowed."""


class Command(BaseCommand):
    help = "Open the demo tables where bots join a waiting player (safe to run again)."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        made = 0
        for name, stake in DEMO_TABLES:
            if Table.objects.filter(name=name, allow_bots=True, is_open=True).exists():
                continue
            host = services.create_bot()
            games.create_table(
                host.user,
                name=name,
                stake=stake,
                allow_bots=True,
                rules_overrides=dict(services.QUICK_PLAY_RULES),
            )
            made += 1
        self.stdout.write(
            f"Demo bot tables: {len(DEMO_TABLES)} ({made} new). Sit at one, or press quick "
            "play, and bots join after a few seconds."
        )
