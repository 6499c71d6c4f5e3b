"""Staff's duplicate deals: create a schedule, open a table on it, reveal, close, scores.

manage.py duplicate create "Giải tối" --boards 12 [--preset classic]
manage.py duplicate table <schedule> --host <username> --name "Bàn lặp 1" --stake 100
manage.py duplicate assign <table> <schedule> <board>
manage.py duplicate reveal <schedule> <board>
manage.py duplicate close <schedule>
manage.py duplicate scores <schedule> [--board N]
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import User
from games.errors import GameError
from games.models import DuplicateSchedule
from games.selectors import duplicate as reads
from games.services import create_table
from games.services import duplicate as writes


class Command(BaseCommand):
    help = "Duplicate deals: schedules of committed boards, their tables and scores."

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True)
        create = actions.add_parser("create", help="a schedule whose board seeds are committed")
        create.add_argument("name")
        create.add_argument("--boards", type=int, required=True)
        create.add_argument("--preset", default="portal")
        table = actions.add_parser("table", help="open a duplicate table on a schedule")
        table.add_argument("schedule", type=int)
        table.add_argument("--host", required=True, help="the host's username")
        table.add_argument("--name", required=True)
        table.add_argument("--stake", type=int, required=True)
        table.add_argument("--seats", type=int, default=4)
        table.add_argument("--bots", action="store_true", help="allow bots")
        assign = actions.add_parser("assign", help="make a table's next deal a board")
        assign.add_argument("table", type=int)
        assign.add_argument("schedule", type=int)
        assign.add_argument("board", type=int)
        reveal = actions.add_parser("reveal", help="reveal one board's seed (none in play)")
        reveal.add_argument("schedule", type=int)
        reveal.add_argument("board", type=int)
        close = actions.add_parser("close", help="no more deals; reveal the boards")
        close.add_argument("schedule", type=int)
        scores = actions.add_parser("scores", help="duplicate scores of a board, or totals")
        scores.add_argument("schedule", type=int)
        scores.add_argument("--board", type=int)

    def handle(self, *args: Any, action: str, **options: Any) -> None:
        try:
            getattr(self, f"_{action}")(**options)
        except GameError as exc:
            raise CommandError(exc.message) from exc

    def _create(self, *, name: str, boards: int, preset: str, **_: Any) -> None:
        schedule = writes.create_schedule(name=name, boards=boards, preset=preset)
        self.stdout.write(f"schedule {schedule.pk} “{schedule.name}”: {boards} boards committed")
        for board in schedule.boards.order_by("number"):
            self.stdout.write(f"  board {board.number}: sha256 {board.seed_hash}")

    def _table(
        self, *, schedule: int, host: str, name: str, stake: int, seats: int, bots: bool, **_: Any
    ) -> None:
        found = DuplicateSchedule.objects.filter(pk=schedule).first()
        owner = User.objects.filter(username=host).first()
        if found is None or owner is None:
            raise CommandError("no such schedule or host")
        table = create_table(
            owner, name=name, stake=stake, seats=seats, allow_bots=bots, duplicate_schedule=found
        )
        self.stdout.write(f"table {table.pk} “{table.name}” deals schedule {schedule}")

    def _assign(self, *, table: int, schedule: int, board: int, **_: Any) -> None:
        writes.assign_board(table, schedule, board)
        self.stdout.write(f"table {table}: next deal is board {board} of schedule {schedule}")

    def _reveal(self, *, schedule: int, board: int, **_: Any) -> None:
        revealed = writes.reveal_board(schedule, board)
        self.stdout.write(f"board {board}: seed {revealed.seed}")

    def _close(self, *, schedule: int, **_: Any) -> None:
        writes.close_schedule(schedule)
        pending = reads.board_commitments(DuplicateSchedule.objects.get(pk=schedule))
        waiting = [b.number for b in pending if not b.seed]
        self.stdout.write(
            f"schedule {schedule} closed; boards still in play (revealed when they end): "
            f"{waiting or 'none'}"
        )

    def _scores(self, *, schedule: int, board: int | None, **_: Any) -> None:
        if board is not None:
            for r in reads.duplicate_scores(schedule, board):
                score = "—" if r.score is None else f"{r.score:+.2f}"
                self.stdout.write(
                    f"round {r.round_id} hand {r.slot + 1}/{r.players} {r.name}: "
                    f"{r.units:+d} units, duplicate {score} vs {r.others}"
                )
            return
        for rank, t in enumerate(reads.schedule_totals(schedule), start=1):
            self.stdout.write(
                f"{rank}. {t.name}: {t.score:+.2f} over {t.compared}/{t.boards} boards"
            )
