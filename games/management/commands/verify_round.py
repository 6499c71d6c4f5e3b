"""Recompute the deal of a finished round from its seeds (provably fair)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Round
from games.rules.fair import FairnessError
from games.selectors import verify_round


class Command(BaseCommand):
    help = "Verify that a finished round's cards follow from its published seeds."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("round_id", type=int)

    def handle(self, *args: Any, round_id: int, **options: Any) -> None:
        round_ = Round.objects.filter(pk=round_id).first()
        if round_ is None:
            raise CommandError(f"no round {round_id}")
        try:
            verify_round(round_)
        except FairnessError as exc:
            raise CommandError(f"round {round_id} does NOT verify: {exc}") from exc
        self.stdout.write(
            f"round {round_id} verifies: sha256(server seed) = {round_.server_seed_hash}, "
            f"client seeds {round_.client_seeds}, {round_.players.count()} hands match"
        )
