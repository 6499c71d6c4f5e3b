"""What a chaos run's rounds, faults and load did, read from its database once the play is
over, and its invariants: one function per invariant, each returning the lines of what it
found broken (none when it held). The tournaments' invariants: benchmarks.chaos.tournament_checks;
the lines printed: benchmarks.chaos.report."""

from __future__ import annotations

import argparse
import itertools
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

import psycopg

from benchmarks.chaos import AWAY_SECONDS, LIVE, SWEEP_SECONDS, report
from benchmarks.chaos.faults import GLOBAL_KINDS, KINDS, Fault
from benchmarks.chaos.monitor import Episode
from benchmarks.chaos.players import LoadStats, ScriptedPlayer, TournamentPlayer
from tests.support.processes import manage


@dataclass
class RoundRow:
    id: int
    table_id: int
    state: str
    dealt: float
    ended: float | None  # settled, or voided
    outcome: str  # settled / voided / live


def load_rounds(db: psycopg.Connection[Any]) -> list[RoundRow]:
    rows = db.execute(
        """
        SELECT r.id, r.table_id, r.state, extract(epoch FROM r.dealt_at),
               extract(epoch FROM coalesce(r.settled_at, c.created_at)), c.outcome
        FROM games_round r LEFT JOIN ledger_roundclosure c ON c.round_id = r.id
        """
    ).fetchall()
    result = []
    for rid, table_id, state, dealt, ended, outcome in rows:
        if state in LIVE:
            kind = "live"
        elif state == "settled":
            kind = "settled"
        else:
            kind = "voided"  # cancelled, voided: any end other than a settlement
        if outcome == "voided":
            kind = "voided"
        result.append(
            RoundRow(
                rid, table_id, state, float(dealt), None if ended is None else float(ended), kind
            )
        )
    return result


@dataclass
class Figure:
    """A recovery time, or at least ``value`` when the next fault came first."""

    value: float
    cut: bool
    culprit: str

    @classmethod
    def of(cls, seconds: float | None, horizon: float, culprit: str) -> Figure:
        if seconds is None:
            return cls(0.0, False, "")
        if seconds > horizon:
            return cls(horizon, True, culprit)
        return cls(seconds, False, culprit)

    def text(self) -> str:
        return f"{'>' if self.cut else ''}{self.value:.1f} s"

    def late(self, limit: float) -> bool:
        return self.value > limit


@dataclass
class Measure:
    fault: Fault
    live: Figure
    tables: Figure
    quiet: float
    overdue: float
    overdue_table: int
    untouched: list[tuple[float, int]]


def longest_gap(times: list[float], start: float, end: float) -> float:
    points = [start, *sorted(t for t in times if start < t < end), end]
    return max(b - a for a, b in itertools.pairwise(points))


# --- The rounds and the faults ---------------------------------------------------------


@dataclass
class Rounds:
    """The run's rounds, read once for every measure and check."""

    rows: list[RoundRow]
    by_table: dict[int, list[RoundRow]]
    settlements: list[float]
    waiting_for_absent: set[int]  # waiting for an absent player's deadline: slow by design
    tournament_tables: set[int]
    cycle: float  # a table's usual gap between settlements (the "new round" yardstick)


def read_rounds(
    db: psycopg.Connection[Any],
    players: list[ScriptedPlayer],
    entrants: list[TournamentPlayer],
    run_end: float,
) -> Rounds:
    rounds = load_rounds(db)
    by_table: dict[int, list[RoundRow]] = defaultdict(list)
    for r in rounds:
        by_table[r.table_id].append(r)
    settlements = sorted(r.ended for r in rounds if r.outcome == "settled" and r.ended)
    scripted = {p.user_id: p for p in [*players, *entrants]}
    unsubmitted = db.execute(
        "SELECT round_id, user_id FROM games_roundplayer "
        "WHERE submitted_at IS NULL AND user_id = ANY(%s)",
        (list(scripted),),
    ).fetchall()
    round_by_id = {r.id: r for r in rounds}
    waiting_for_absent: set[int] = set()
    for round_id, user_id in unsubmitted:
        found = round_by_id.get(round_id)
        player = scripted[user_id]
        if found is None:
            continue
        end = found.ended or run_end
        for start, stop in player.absences:
            if start is not None and start < end and (stop is None or stop > found.dealt):
                waiting_for_absent.add(round_id)
    tournament_tables = {
        t for (t,) in db.execute("SELECT table_id FROM tournaments_tournamenttable").fetchall()
    }
    gaps = []
    for table_rounds in by_table.values():
        times = sorted(r.ended for r in table_rounds if r.outcome == "settled" and r.ended)
        gaps += [b - a for a, b in itertools.pairwise(times)]
    cycle = statistics.median(gaps) if gaps else 0.0
    return Rounds(rounds, by_table, settlements, waiting_for_absent, tournament_tables, cycle)


def measure_fault(
    rounds: Rounds,
    fault: Fault,
    horizon: float,
    episodes: list[Episode],
    options: argparse.Namespace,
    run_end: float,
) -> Measure:
    """How long the rounds live at the fault took to end and the tables playing then to
    settle again, the longest stretch with no settlement, the tables overdue after it. A
    later fault cuts the measures (``horizon``): what is still pending then is reported as
    "at least" that long and counts against this fault only if that is already late."""
    t = fault.started
    live = [
        r
        for r in rounds.rows
        if r.dealt <= t
        and (r.ended is None or r.ended > t)
        and r.id not in rounds.waiting_for_absent
    ]
    slowest = max(live, key=lambda r: r.ended or float("inf"), default=None)
    live_m = Figure.of(
        None if slowest is None else (slowest.ended or run_end + 1) - t,
        horizon,
        f"round {slowest.id} at table {slowest.table_id}" if slowest else "",
    )
    # Tables that were playing (a round live at t or ended in the minute before):
    # until each settles a round after t.
    waits: list[tuple[float, int]] = []
    for table_id, table_rounds in rounds.by_table.items():
        if table_id in rounds.tournament_tables:
            continue  # an arena table plays one board; a tournament's tables close
        if not any(r.dealt <= t and (r.ended is None or r.ended > t - 60) for r in table_rounds):
            continue
        after = sorted(
            (r for r in table_rounds if r.ended and r.ended > t), key=lambda r: r.ended or 0
        )
        if after and after[0].id in rounds.waiting_for_absent:
            continue
        if not after and any(r.id in rounds.waiting_for_absent for r in table_rounds):
            continue
        waits.append(((after[0].ended or 0) - t if after else run_end + 1 - t, table_id))
    wait, table = max(waits, default=(0.0, 0))
    tables_m = Figure.of(wait if waits else None, horizon, f"table {table}")
    quiet = longest_gap(rounds.settlements, t, t + min(horizon, max(live_m.value, 5.0)))
    # Tables overdue after this fault (from 2 s before it until the next one), each
    # overdue counted only until the next fault.
    mine = [
        (min(e.overdue, t + horizon - e.due), e.table_id)
        for e in episodes
        if t - 2 <= e.due < t + horizon
    ]
    overdue, overdue_table = max(mine, default=(0.0, 0))
    over = sorted((o for o in mine if o[0] > options.stall_limit), reverse=True)
    if fault.kind in GLOBAL_KINDS:
        untouched: list[tuple[float, int]] = []
    elif fault.kind == "worker_stop":
        untouched = over[options.concurrency :]  # a pool process holds one table's lock
    else:
        untouched = over
    return Measure(fault, live_m, tables_m, quiet, overdue, overdue_table, untouched)


def measure_faults(
    rounds: Rounds,
    faults: list[Fault],
    episodes: list[Episode],
    options: argparse.Namespace,
    run_end: float,
) -> dict[str, list[Measure]]:
    per_kind: dict[str, list[Measure]] = defaultdict(list)
    for index, fault in enumerate(faults):
        horizon = (
            faults[index + 1].started if index + 1 < len(faults) else run_end
        ) - fault.started
        per_kind[fault.kind].append(
            measure_fault(rounds, fault, horizon, episodes, options, run_end)
        )
    return per_kind


@dataclass
class Worst:
    """A fault kind's worst figures over its faults."""

    items: list[Measure]
    live: Figure
    tables: Figure
    quiet: float
    overdue: Measure
    untouched: list[tuple[float, int]]

    @classmethod
    def of(cls, items: list[Measure]) -> Worst:
        return cls(
            items,
            max((i.live for i in items), key=lambda f: f.value),
            max((i.tables for i in items), key=lambda f: f.value),
            max(i.quiet for i in items),
            max(items, key=lambda i: i.overdue),
            [u for i in items for u in i.untouched],
        )


def kind_injected(kind: str, items: list[Measure]) -> list[str]:
    return [] if items else [f"fault kind {kind} never injected"]


def live_rounds_end(kind: str, worst: Worst, limit: float) -> list[str]:
    if not worst.live.late(limit):
        return []
    return [
        f"{kind}: rounds live at the fault ended after {worst.live.text()} "
        f"(> {limit:.0f} s; {worst.live.culprit})"
    ]


def tables_settle_again(kind: str, worst: Worst, limit: float, cycle: float) -> list[str]:
    if not worst.tables.late(limit + cycle):
        return []
    return [
        f"{kind}: a table settled nothing new for {worst.tables.text()} "
        f"(> {limit:.0f} s + usual gap {cycle:.1f} s; {worst.tables.culprit})"
    ]


def no_table_overdue(kind: str, worst: Worst, limit: float) -> list[str]:
    if worst.overdue.overdue <= limit:
        return []
    return [
        f"{kind}: table {worst.overdue.overdue_table} overdue {worst.overdue.overdue:.1f} s "
        f"(> {limit:.0f} s)"
    ]


def untouched_tables_play_on(kind: str, worst: Worst, stall_limit: float) -> list[str]:
    if not worst.untouched:
        return []
    return [
        f"{kind}: {len(worst.untouched)} untouched table(s) stalled over "
        f"{stall_limit:.0f} s (max {max(worst.untouched)[0]:.1f} s, "
        f"table {max(worst.untouched)[1]})"
    ]


def faults_injected(kind: str, items: list[Measure]) -> list[str]:
    not_injected = [i.fault.detail for i in items if not i.fault.injected]
    if not not_injected:
        return []
    return [f"{kind}: {len(not_injected)} not injected ({not_injected[0]})"]


def stalls_follow_a_fault(
    episodes: list[Episode], faults: list[Fault], stall_limit: float
) -> list[str]:
    orphans = [
        e
        for e in episodes
        if e.overdue > stall_limit
        and not any(f.started - 2 <= e.due < f.started + 60 for f in faults)
    ]
    if not orphans:
        return []
    return [
        f"{len(orphans)} table(s) stalled over {stall_limit:.0f} s with no "
        f"fault (max {max(e.overdue for e in orphans):.1f} s)"
    ]


def fault_invariants(
    per_kind: dict[str, list[Measure]],
    episodes: list[Episode],
    faults: list[Fault],
    options: argparse.Namespace,
    cycle: float,
) -> list[str]:
    limit = options.recover_within
    broken: list[str] = []
    for kind in KINDS:
        items = per_kind.get(kind, [])
        broken += kind_injected(kind, items)
        if not items:
            continue
        worst = Worst.of(items)
        broken += live_rounds_end(kind, worst, limit)
        broken += tables_settle_again(kind, worst, limit, cycle)
        broken += no_table_overdue(kind, worst, limit)
        broken += untouched_tables_play_on(kind, worst, options.stall_limit)
        broken += faults_injected(kind, items)
    return broken + stalls_follow_a_fault(episodes, faults, options.stall_limit)


# --- The whole run ---------------------------------------------------------------------


@dataclass
class Totals:
    """The run's rounds, ledger and absent players, counted at its end."""

    measured: int  # rounds dealt during the run
    settled: int
    voided: int
    voided_states: Counter[str]
    live_at_end: int
    closures_voided: int
    stuck_rounds: int
    stuck_tables: int
    twice_events: int
    twice_ledger: int
    twice_clients: int
    orphan_escrows: int
    orphan_xu: int
    dealt_absent: int
    lost: int
    absent_lines: list[str]
    dropped: int
    still_seated: int
    longest_quiet: float


def _count(db: psycopg.Connection[Any], sql: str, params: tuple[Any, ...] = ()) -> int:
    return int(db.execute(sql, params).fetchone()[0])  # type: ignore[index]


def read_totals(
    db: psycopg.Connection[Any],
    rounds: Rounds,
    options: argparse.Namespace,
    players: list[ScriptedPlayer],
    run_start: float,
    run_end: float,
) -> Totals:
    rows = rounds.rows
    stuck_rounds = _count(
        db,
        "SELECT count(*) FROM games_round WHERE state IN ('arranging', 'showdown') "
        "AND (deadline IS NULL OR deadline < clock_timestamp() - make_interval(secs => %s))",
        (options.recover_within,),
    )
    stuck_tables = _count(
        db,
        "SELECT count(*) FROM games_table t WHERE start_at < clock_timestamp() - "
        "make_interval(secs => %s) AND NOT EXISTS (SELECT 1 FROM games_round r WHERE "
        "r.table_id = t.id AND r.state IN ('arranging', 'showdown'))",
        (options.recover_within,),
    )
    twice_events = _count(
        db,
        "SELECT count(*) FROM (SELECT round_id FROM games_roundevent WHERE kind = 'settled' "
        "GROUP BY round_id HAVING count(*) > 1) x",
    )
    twice_ledger = _count(
        db,
        "SELECT count(DISTINCT round_id) FROM (SELECT round_id, credit_id FROM ledger_transfer "
        "WHERE kind IN ('settle', 'release') GROUP BY round_id, credit_id HAVING count(*) > 1) x",
    )
    orphans = db.execute(
        "SELECT count(*), coalesce(sum(a.balance), 0) FROM ledger_account a "
        "LEFT JOIN games_round r ON r.id = a.round_id WHERE a.kind = 'escrow' "
        "AND a.balance <> 0 AND (r.id IS NULL OR r.state NOT IN ('arranging', 'showdown'))"
    ).fetchone()
    assert orphans is not None
    closures_voided = _count(
        db, "SELECT count(*) FROM ledger_roundclosure WHERE outcome = 'voided'"
    )
    dealt_absent, lost, absent_lines = _absent_players_dealt_in(db, players)
    dropped = [p for p in players if p.dropped]
    still_seated = _count(
        db,
        "SELECT count(*) FROM games_seat WHERE user_id = ANY(%s)",
        ([p.user_id for p in dropped],),
    )
    return Totals(
        measured=sum(r.dealt >= run_start for r in rows),
        settled=sum(r.outcome == "settled" for r in rows),
        voided=sum(r.outcome == "voided" for r in rows),
        voided_states=Counter(r.state for r in rows if r.outcome == "voided"),
        live_at_end=sum(r.outcome == "live" for r in rows),
        closures_voided=closures_voided,
        stuck_rounds=stuck_rounds,
        stuck_tables=stuck_tables,
        twice_events=twice_events,
        twice_ledger=twice_ledger,
        twice_clients=players[0].stats.settled_seen_twice,
        orphan_escrows=orphans[0],
        orphan_xu=orphans[1],
        dealt_absent=dealt_absent,
        lost=lost,
        absent_lines=absent_lines,
        dropped=len(dropped),
        still_seated=still_seated,
        longest_quiet=longest_gap(rounds.settlements, run_start + options.warmup, run_end - 1),
    )


def _absent_players_dealt_in(
    db: psycopg.Connection[Any], players: list[ScriptedPlayer]
) -> tuple[int, int, list[str]]:
    """Rounds dealt to a scripted player gone longer than the presence timeout and a sweep,
    the xu they lost in them, and a line for each."""
    limit = AWAY_SECONDS + SWEEP_SECONDS + 1.0
    by_user = {p.user_id: p for p in players}
    dealt_absent = lost = 0
    lines = []
    rp = db.execute(
        "SELECT p.round_id, p.user_id, coalesce(p.xu, 0), extract(epoch FROM r.dealt_at) "
        "FROM games_roundplayer p JOIN games_round r ON r.id = p.round_id "
        "WHERE p.user_id = ANY(%s)",
        (list(by_user),),
    ).fetchall()
    for round_id, user_id, xu, dealt in rp:
        player = by_user[user_id]
        for start, stop in player.absences:
            if (
                start is not None
                and float(dealt) > start + limit
                and (stop is None or stop > float(dealt))
            ):
                dealt_absent += 1
                lost += max(0, -int(xu))
                lines.append(
                    f"  {player.name}: round {round_id} dealt {float(dealt) - start:.0f} s "
                    f"after they left, xu {int(xu):+d}"
                )
                break
    return dealt_absent, lost, lines


def nothing_stuck(totals: Totals) -> list[str]:
    if not (totals.stuck_rounds or totals.stuck_tables):
        return []
    return [f"stuck: {totals.stuck_rounds} rounds, {totals.stuck_tables} countdowns"]


def settled_once(totals: Totals) -> list[str]:
    if not (totals.twice_events or totals.twice_ledger or totals.twice_clients):
        return []
    return [f"settled twice: {totals.twice_events} (log) / {totals.twice_ledger} (ledger)"]


def holds_have_a_live_round(totals: Totals) -> list[str]:
    if not totals.orphan_escrows:
        return []
    return [f"{totals.orphan_escrows} holds without a live round ({totals.orphan_xu} xu)"]


def absent_players_sit_out(totals: Totals) -> list[str]:
    if not (totals.dealt_absent or totals.lost):
        return []
    return [f"absent players dealt in {totals.dealt_absent} rounds and lost {totals.lost} xu"]


def rounds_settle(totals: Totals) -> list[str]:
    return ["no round was settled"] if totals.settled == 0 or not totals.measured else []


def scripted_tables_settle(
    rounds: Rounds, players: list[ScriptedPlayer], run_start: float
) -> list[str]:
    return [
        f"scripted table {table} settled no round"
        for table in {p.table_id for p in players if p.table_id is not None}
        if not any(r.outcome == "settled" and r.dealt >= run_start for r in rounds.by_table[table])
    ]


def analyse(
    db: psycopg.Connection[Any],
    options: argparse.Namespace,
    faults: list[Fault],
    episodes: list[Episode],
    players: list[ScriptedPlayer],
    entrants: list[TournamentPlayer],
    run_start: float,
    run_end: float,
) -> tuple[list[str], list[str]]:
    """The report lines and the broken invariants (the tournaments': tournament_checks.analyse)."""
    rounds = read_rounds(db, players, entrants, run_end)
    per_kind = measure_faults(rounds, faults, episodes, options, run_end)
    worst = {kind: Worst.of(per_kind[kind]) if per_kind.get(kind) else None for kind in KINDS}
    totals = read_totals(db, rounds, options, players, run_start, run_end)
    lines = report.fault_table(worst, rounds.cycle) + report.totals(totals, options)
    broken = fault_invariants(per_kind, episodes, faults, options, rounds.cycle)
    broken += nothing_stuck(totals)
    broken += settled_once(totals)
    broken += holds_have_a_live_round(totals)
    broken += absent_players_sit_out(totals)
    broken += rounds_settle(totals)
    broken += scripted_tables_settle(rounds, players, run_start)
    return lines, broken


# --- The load and the processes --------------------------------------------------------


def load_ran(stats: LoadStats) -> list[str]:
    """Every part of the load ran: connections, players, replies, submissions, seats."""
    broken = []
    if stats.failed_connections:
        broken.append(f"{stats.failed_connections} failed connections (none for 30 s)")
    if stats.stopped_players:
        broken.append(f"players stopped: {stats.stopped_players[:3]}")
    if stats.errors:
        broken.append(f"error replies: {dict(stats.errors)}")
    if stats.lost_submissions:
        broken.append(f"{stats.lost_submissions} submissions never acknowledged")
    if stats.stood_up:
        broken.append(f"present players stood up: {dict(stats.stood_up)}")
    return broken


def no_unplanned_deaths(deaths: list[tuple[str, float, int | None]]) -> list[str]:
    return [f"{len(deaths)} processes died without a fault: {deaths[:4]}"] if deaths else []


def ledger_check(env: dict[str, str]) -> tuple[int, str]:
    done = manage(env, "ledger_check")
    out = (done.stdout.strip() or done.stderr.strip()).splitlines()
    return done.returncode, " / ".join(out[-3:])


def ledger_balances(code: int, out: str) -> list[str]:
    return [f"ledger_check failed: {out}"] if code != 0 else []
