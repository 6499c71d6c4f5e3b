"""Recompute the deal of a finished round from its seeds (provably fair)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Round
from games.rules.fair import FairnessError
from games.selectors.engine import verify_round


class Command(BaseCommand):
    help = "Verify that a finished round's cards follow from its published seeds."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("round_id", type=int)

    def handle(self, *args: Any, round_id: int, **options: Any) -> None:
        round_ = Round.objects.filter(pk=round_id).select_related("board__schedule").first()
        if round_ is None:
            raise CommandError(f"no round {round_id}")
        board = round_.board
        try:
            verify_round(round_)
        except FairnessError as exc:
            if exc.code == "board_not_revealed" and board is not None:
                # Not a failure: the proof is pending until the board's play is over.
                self.stdout.write(
                    f"round {round_id} played duplicate board {board.number} of schedule "
                    f"{board.schedule_id} ({board.schedule.name}); its seed is not revealed "
                    f"yet (published sha256 {board.seed_hash}). Verify again once the board "
                    "is revealed."
                )
                return
            raise CommandError(f"round {round_id} does NOT verify: {exc}") from exc
        source = (
            f"duplicate board {board.number} of schedule {board.schedule_id}, "
            if board is not None
            else ""
        )
        self.stdout.write(
            f"round {round_id} verifies: {source}sha256(server seed) = {round_.server_seed_hash}, "
            f"client seeds {round_.client_seeds}, {round_.players.count()} hands match"
        )
