"""Record a real round's messages for the floor's relay: ``round.json``.

    .venv/bin/python -m benchmarks.floor.record          # writes round.json
    .venv/bin/python -m benchmarks.floor.record --print  # prints it instead

Plays one round of bench_tables' table (4 players, the same rules) through the real
services on a scratch PostgreSQL database, in this process, and keeps, for each step a
client or a timer makes (connect, sit, start, submit, each timer step, each ready, the next
deal),
the messages it produced: every ``group_send`` (its group, as ``table``, ``private`` (a
seat's), ``user`` (a seat's), ``lobby``, and its payload; the showdown's later chi, which
the site's sockets hold until their time, as timer steps of their own) and what the
consumer sends the socket itself (the snapshot, the chat state, the ``ok`` reply's
fields, the chat role after a seat changes). The relay sends the same payloads (sizes
included), with its own table, round and version numbers, through the same channel layer.

The recording is made in a process of its own, on a database of its own: its steps are the
only actor on the round. In the test suite's process it once took an extra, empty timer
step on CI (an advance that found the round already moved on: something else on the test
database, whose teardown reported other sessions still connected, or another thread); a
fresh database and a process with no other thread leave nothing to race
(``tests/site/test_bench_floor.py`` runs ``--print``).
"""

from __future__ import annotations

import json
import os
import sys
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks.scratchdb import database_url, recreate  # noqa: E402
from tests.support.processes import site_env  # noqa: E402

OUT = Path(__file__).with_name("round.json")
BENCH_DB = f"maubinh_floor_record_{os.getpid()}"
SERVER = os.environ.get("TEST_DATABASE_URL", "postgres://maubinh:maubinh@127.0.0.1:5432/maubinh")
# bench_tables.py's table (``_prepare``): the relay keeps its timings too.
RULES = {"arrange_seconds": 60, "reveal_seconds": 2, "start_seconds": 5}


def play_round() -> dict[str, Any]:
    """One round through the real services (in a migrated database): what each step sent."""
    from accounts.models import User
    from games import events
    from games import services as games
    from ledger.services import grant_signup_bonus

    users = [User.objects.create_user(username=f"t0p{k}") for k in range(4)]
    for user in users:
        grant_signup_bonus(user)
    table = games.create_table(users[0], name="Bench 0", stake=10, rules_overrides=RULES)
    seat_of = {user.pk: k for k, user in enumerate(users)}
    group_send = events._group_send
    sent: list[dict[str, Any]] = []

    def group_of(group: str) -> dict[str, Any]:
        if group == events.table_group(table.pk):
            return {"to": "table"}
        for user in users:
            if group == events.private_group(table.pk, user.pk):
                return {"to": "private", "seat": seat_of[user.pk]}
            if group == events.user_group(user.pk):
                return {"to": "user", "seat": seat_of[user.pk]}
        if group == events.LOBBY:
            return {"to": "lobby"}
        raise ValueError(f"a group the relay does not know: {group}")

    def capture(layer: Any, group: str, message: dict[str, Any]) -> None:
        sent.append({**group_of(group), "private": message.get("private", False),
                     "payload": json.loads(message["text"])})  # fmt: skip
        # A showdown's later chi, sent ahead for the sockets to hold: the relay sends each
        # at its time instead (its own step, below), as the site's sockets do.
        for item in message.get("later", ()):
            sent.append({**group_of(group), "private": False, "later": True,
                         "payload": json.loads(item["text"])})  # fmt: skip

    events._group_send = capture  # until the round is played (below)
    try:
        steps = _steps(table, users, sent)
    finally:
        events._group_send = group_send
    return {
        "recorded_from": "benchmarks/floor/record.py (the real services, one round)",
        "rules": RULES,
        "summary_seconds": int(os.environ.get("TABLE_SUMMARY_SECONDS", "12")),
        "steps": steps,
    }


def _steps(table: Any, users: list[Any], sent: list[dict[str, Any]]) -> dict[str, Any]:
    from django.utils import timezone

    from chat import selectors as chat_selectors
    from games import selectors
    from games import services as games
    from games.models import Round, RoundState, Table
    from tests.support.arranging import naive_arrangement

    def step() -> list[dict[str, Any]]:
        taken = list(sent)
        sent.clear()
        return taken

    steps: dict[str, Any] = {}
    for k, user in enumerate(users):
        games.connected(user, table.pk, uuid.uuid4())
        snapshot = selectors.table_snapshot(Table.objects.get(pk=table.pk), user)
        state = chat_selectors.chat_state(user, table.pk, "vi")
        state.pop("hidden")
        steps[f"connect:{k}"] = {"send": [{**snapshot, "ref": None}, {**state, "ref": None}],
                                 "events": step()}  # fmt: skip
    for k, user in enumerate(users):
        seat = games.sit(user, table.pk, None)
        steps[f"sit:{k}"] = {"ok": {"position": seat.position}, "events": step()}
    steps["chat_role"] = [chat_selectors.chat_role(user, table.pk) for user in users]
    round_ = games.start_round(users[0], table.pk)
    steps["start"] = {"ok": {"round": round_.pk}, "events": step()}
    timers: list[list[dict[str, Any]]] = []
    for k, rp in enumerate(round_.players.select_related("user").order_by("position")):
        chi = naive_arrangement(rp.cards)
        games.submit_arrangement(rp.user, round_.pk, chi)
        taken = step()
        # The last submission begins the showdown in its own step (games.services.rounds);
        # the relay's clock sends the showdown after whichever seat submits last.
        mine = [m for m in taken if m["payload"]["type"] in ("submitted", "submission")]
        steps[f"submit:{k}"] = {"ok": {"round": round_.pk}, "events": mine}
        if len(mine) < len(taken):
            timers.extend(_timer_steps([m for m in taken if m not in mine]))
    for _ in range(6):
        round_.refresh_from_db()
        if round_.state == RoundState.SETTLED:
            break
        Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(seconds=5))
        games.advance_round(round_.pk, round_.state, round_.phase)
        timers.extend(_timer_steps(step()))
    steps["timers"] = timers
    # Each seat says ready after reading the summary (bench_tables' players do): the first
    # three are answered by the countdown with who is ready, the fourth deals at once.
    for k, user in enumerate(users):
        dealt = games.between_rounds(user, table.pk, round_.pk, "ready")
        if k < len(users) - 1:
            steps[f"ready:{k}"] = {"ok": {}, "events": step()}
    assert dealt is not None
    steps["deal"] = {"ok": {"round": dealt.pk}, "events": step()}
    return steps


def _timer_steps(taken: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """A step's messages as the relay's clock sends them: those sent at once, then each of
    the showdown's later chi as a step of its own (its time comes reveal_seconds apart)."""
    return [[m for m in taken if not m.get("later")]] + [
        [{k: v for k, v in m.items() if k != "later"}] for m in taken if m.get("later")
    ]


def shape(recorded: dict[str, Any]) -> dict[str, list[tuple[Any, ...]]]:
    """Each step's messages as (where, seat, type, size in bytes): what the relay's flow and
    load follow from (a test compares the committed recording with a fresh one)."""

    def row(to: str, seat: Any, payload: dict[str, Any]) -> tuple[Any, ...]:
        return (to, seat, payload["type"], len(json.dumps(payload)))

    shapes: dict[str, list[tuple[Any, ...]]] = {}
    for name, step in recorded["steps"].items():
        if name == "chat_role":
            shapes[name] = [row("socket", k, role) for k, role in enumerate(step)]
            continue
        for index, part in enumerate(step if name == "timers" else [step]):
            key = f"{name}:{index}" if name == "timers" else name
            sends = [] if name == "timers" else part.get("send", [])
            rows = [row("socket", None, m) for m in sends]
            events = part if name == "timers" else part["events"]
            shapes[key] = rows + [row(e["to"], e.get("seat"), e["payload"]) for e in events]
    return shapes


def main(argv: list[str]) -> None:
    recreate(SERVER, BENCH_DB, migrated=True)
    try:
        os.environ.update(
            site_env(DATABASE_URL=database_url(SERVER, BENCH_DB), LOG_LEVEL="WARNING")
        )
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        recorded = play_round()
        from django.db import connections

        connections.close_all()
    finally:
        recreate(SERVER, BENCH_DB, drop_only=True)
    text = json.dumps(recorded, indent=1, ensure_ascii=False) + "\n"
    if "--print" in argv:
        sys.stdout.write(text)
        return
    OUT.write_text(text)
    print(f"recorded {OUT}")


if __name__ == "__main__":
    main(sys.argv[1:])
