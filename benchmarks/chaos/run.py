"""A chaos run from its start to its report: the scratch database, the stack, the set-up,
the play under the faults' schedule, the analysis and the summary."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import time
from pathlib import Path

import psycopg

from benchmarks import scratchdb
from benchmarks.chaos import analysis, log, report, tournament_checks
from benchmarks.chaos.faults import Fault, Injector, make_schedule
from benchmarks.chaos.monitor import Monitor, TournamentWatch
from benchmarks.chaos.players import LoadStats, ScriptedPlayer, TournamentPlayer
from benchmarks.chaos.seating import Entered, Seating, prepare
from benchmarks.chaos.stack import Stack
from tests.support.processes import ROOT


async def play(
    options: argparse.Namespace,
    stack: Stack,
    seatings: list[Seating],
    entered: Entered | None,
    monitor: Monitor,
    database_url: str,
    faults: list[Fault],
    rng: random.Random,
) -> tuple[list[ScriptedPlayer], list[TournamentPlayer], Injector, float, float]:
    stats = LoadStats()
    players: list[ScriptedPlayer] = []
    for t, seating in enumerate(seatings):
        for k, (user_id, name, key) in enumerate(seating.players):
            home = 0 if (t == 0 and k == 3) else (t + k) % len(stack.bases)
            players.append(
                ScriptedPlayer(
                    user_id, name, key, seating.table_id, stack.bases, home,
                    random.Random(rng.random()), stats,
                )
            )  # fmt: skip
    entrants: list[TournamentPlayer] = []
    if entered is not None:
        # Their own random stream: the faults' choices stay those of runs without them.
        own = random.Random(f"entrants-{options.seed}")
        user_id, name, key = entered.sng_player
        entrants.append(
            TournamentPlayer(
                user_id, name, key, entered.sng_table, stack.bases, 1,
                random.Random(own.random()), stats, tournament_id=entered.sit_and_go, arena=False,
            )
        )  # fmt: skip
        for k, (user_id, name, key) in enumerate(entered.arena_players):
            entrants.append(
                TournamentPlayer(
                    user_id, name, key, None, stack.bases, k % len(stack.bases),
                    random.Random(own.random()), stats, tournament_id=entered.arena, arena=True,
                )
            )  # fmt: skip
        entrants[-1].drop_on_deal = True  # the arena's dropper: gone at its first board
    dropper = players[3] if len(players) >= 4 else None  # seat 4 of the first table, on daphne0
    injector = Injector(stack, monitor, database_url, rng, options)
    supervisor = asyncio.create_task(stack.supervise())
    start = time.time()
    stop_at = start + options.minutes * 60
    tasks = [asyncio.create_task(p.run(stop_at)) for p in [*players, *entrants]]
    log(
        f"playing {options.tables} bot tables and {len(seatings)} tables of scripted players "
        f"for {options.minutes:g} min; {len(faults)} faults"
    )
    drop_at = faults[0].at + 8 if faults else None
    pending = sorted(faults, key=lambda f: f.at)
    fault_tasks = []
    dropped = False
    while time.time() < stop_at:
        elapsed = time.time() - start
        while pending and pending[0].at <= elapsed:
            fault = pending.pop(0)
            first = 0 if fault is faults[0] else None
            fault_tasks.append(asyncio.create_task(injector.inject(fault, first)))
        if dropper and drop_at is not None and not dropped and elapsed >= drop_at:
            dropper.drop()
            dropped = True
            log(f"{dropper.name} dropped (connection aborted) and never returns")
        await asyncio.sleep(0.2)
    await asyncio.gather(*fault_tasks)
    end = time.time()
    for p in [*players, *entrants]:
        await p.close()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    for player, result in zip([*players, *entrants], results, strict=True):
        if isinstance(result, BaseException):
            stats.stopped_players.append(f"{player.name}: {result!r}")
    stack.supervising = False
    await supervisor
    return players, entrants, injector, start, end


def run(options: argparse.Namespace) -> int:
    """The whole run; 0 when every invariant held, else 1."""
    rng = random.Random(options.seed)
    faults = make_schedule(rng, options)
    logs = Path(options.logs or ROOT / "test-artifacts" / f"chaos-{options.seed}-{os.getpid()}")
    logs.mkdir(parents=True, exist_ok=True)
    name = f"maubinh_chaos_{os.getpid()}"
    scratchdb.recreate(options.database_url, name, migrated=True)
    database_url = scratchdb.database_url(options.database_url, name)
    stack = Stack(options, database_url, logs)
    log(
        f"seed {options.seed}; database {name}; redis :{stack.redis_port}; logs {logs}; "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}"
    )
    log("schedule: " + ", ".join(f"{f.at:.0f}s {f.kind}" for f in faults))
    monitor = Monitor(database_url)
    code = 1
    try:
        stack.start()
        _bot_tables, seatings, entered = prepare(stack.env, options)
        if entered is not None:
            monitor.tournaments = {
                entered.sit_and_go: TournamentWatch(),
                entered.arena: TournamentWatch(),
            }
        monitor.start()
        players, entrants, injector, start, end = asyncio.run(
            play(options, stack, seatings, entered, monitor, database_url, faults, rng)
        )
        load_end = os.getloadavg()
        episodes = monitor.finish()
        with psycopg.connect(database_url, autocommit=True, application_name="chaos-harness") as db:
            lines, broken = analysis.analyse(
                db, options, faults, episodes, players, entrants, start, end
            )
            if entered is not None:
                more, also = tournament_checks.analyse(
                    db, options, monitor.tournaments, entrants, start, end
                )
                lines += more
                broken += also
        stack.stop()
        ledger = analysis.ledger_check(stack.env)
        stats = players[0].stats
        deaths = [
            (s.name, when - start, rc)
            for s in stack.services
            for when, rc, planned in s.deaths
            if not planned
        ]
        broken += analysis.load_ran(stats)
        broken += analysis.no_unplanned_deaths(deaths)
        broken += analysis.ledger_balances(*ledger)
        report.summary(
            options, len(seatings), faults, lines, injector.timer_deliveries, stats, deaths,
            ledger, broken, load_end, start, end, logs,
        )  # fmt: skip
        code = 1 if broken else 0
    finally:
        monitor.stop_event.set()
        stack.stop()
        from django.db import connections

        with contextlib.suppress(Exception):
            connections.close_all()
        if not options.keep:
            scratchdb.recreate(options.database_url, name, drop_only=True)
    return code
