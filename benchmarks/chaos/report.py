"""The lines a chaos run prints: per fault kind, overall, per tournament, and the summary
that ends with the broken invariants (or "every invariant held")."""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmarks.chaos import AWAY_SECONDS

if TYPE_CHECKING:
    from benchmarks.chaos.analysis import Totals, Worst
    from benchmarks.chaos.faults import Fault
    from benchmarks.chaos.monitor import TournamentWatch
    from benchmarks.chaos.players import LoadStats
    from benchmarks.chaos.tournament_checks import Absence, Pool, Tournament


def fault_table(worst: dict[str, Worst | None], cycle: float) -> list[str]:
    lines = [
        "",
        f"{'fault kind':<16}{'count':>6}{'live rounds end':>17}{'tables settle':>15}"
        f"{'no settlement':>15}{'max overdue':>13}{'stalled untouched':>19}",
    ]
    for kind, w in worst.items():
        if w is None:
            lines.append(f"{kind:<16}{0:>6}")
            continue
        lines.append(
            f"{kind:<16}{len(w.items):>6}{w.live.text():>17}{w.tables.text():>15}"
            f"{w.quiet:>13.1f} s{w.overdue.overdue:>11.1f} s{len(w.untouched):>9} "
            f"(max {max(w.untouched, default=(0.0, 0))[0]:.1f} s)"
        )
    lines.append(
        f"(a table's usual gap between settlements: {cycle:.1f} s; overdue: a phase deadline "
        f"or a countdown passed with nothing done, polled once a second)"
    )
    return lines


def totals(t: Totals, options: argparse.Namespace) -> list[str]:
    states = dict(t.voided_states)
    return [
        "",
        f"rounds dealt during the run {t.measured}; settled {t.settled}, voided {t.voided}"
        f"{' ' + str(states) if states else ''} (ledger closures voided: {t.closures_voided}),"
        f" live at the end {t.live_at_end}",
        f"stuck (a phase or countdown overdue > {options.recover_within:.0f} s at the end): "
        f"{t.stuck_rounds} rounds, {t.stuck_tables} countdowns",
        f"settled twice: {t.twice_events} (round log), {t.twice_ledger} (ledger), "
        f"{t.twice_clients} (clients)",
        f"holds without a live round: {t.orphan_escrows} escrows, {t.orphan_xu} xu",
        f"absent players (no connection > {AWAY_SECONDS:.0f} s + one sweep) dealt in: "
        f"{t.dealt_absent} rounds, xu lost {t.lost}; dropped players still seated at the end: "
        f"{t.still_seated} of {t.dropped}",
        *t.absent_lines[:10],
        f"longest stretch with no settlement anywhere (after the warm-up): {t.longest_quiet:.1f} s",
    ]


# --- Tournaments -------------------------------------------------------------------------


def tournament_head(t: Tournament, run_start: float) -> str:
    finished, ends = t.finished, t.ends
    return (
        f"  {t.label}: {len(t.entries)} entrants, {t.state}"
        + (f" {float(finished) - run_start:.0f} s into the run" if finished else "")
        + (f" ({float(finished) - float(ends):+.0f} s after its end)" if finished and ends else "")
        + f"; {len(t.rounds)} rounds dealt, {t.settled} settled, on {t.tables} tables"
        + (f"; level {t.played} rounds in" if t.kind == "sit_and_go" else f"; {t.minutes} min")
    )


def chips(t: Tournament, watch: TournamentWatch) -> str:
    return (
        f"    chips: sum of stacks = {len(t.entries)} x {t.stack} = {t.expected_chips} at "
        f"{watch.observations - len(watch.chip_breaks)} of {watch.observations} observations"
    )


def still(longest: float, bound: float) -> str:
    return (
        f"    longest stretch with nothing dealt or settled at its tables: "
        f"{longest:.1f} s (bound {bound:.0f} s)"
    )


def pool(p: Pool) -> str:
    got = p.got.values()
    return (
        f"    pool: {p.into} xu in, prizes {sum(a for _c, a in got)} xu to "
        f"{len(p.got)} entrants ({sum(c for c, _a in got)} transfers), balance "
        f"{p.balance}, closure {p.closure or 'none'}"
    )


def seated_twice(watch: TournamentWatch) -> str:
    return (
        f"    entrants seated at two tables or in two live rounds: "
        f"{len(watch.seated_twice)} observations"
    )


def standings(t: Tournament) -> str:
    places = ", ".join(
        f"{e[5] or '-'}. {e[2]} ({e[3]}{f', {e[6]} xu' if e[6] else ''})" for e in t.entries
    )
    return f"    standings: {places}"


def absence(a: Absence, run_start: float) -> str:
    played_for, entry = a.played_for, a.entry
    return (
        f"    {a.player.name} dropped {a.dropped_at - run_start:.0f} s in: hands from the "
        f"drop on {len(a.hands)}, played for them {len(played_for)} "
        f"({', '.join(sorted({str(h[2]) for h in played_for})) or '-'}), not played "
        f"{len(a.not_played)}, boards scored {len(played_for) - len(a.unscored)}; entry "
        f"{entry[3]} (place {entry[5] or '-'}); paired again while away {len(a.paired_away)}"
    )


# --- The end of the run ------------------------------------------------------------------


def summary(
    options: argparse.Namespace,
    seatings: int,
    faults: list[Fault],
    lines: list[str],
    timer_deliveries: int,
    stats: LoadStats,
    deaths: Sequence[tuple[str, float, Any]],
    ledger: tuple[int, str],
    broken: list[str],
    load_end: tuple[float, float, float],
    start: float,
    end: float,
    logs: Path,
) -> None:
    print()
    print(
        f"chaos: seed {options.seed}, {options.minutes:g} min, {options.tables} bot tables, "
        f"{seatings} tables of scripted players, load average at the end "
        f"{load_end[0]:.1f} / {load_end[1]:.1f} / {load_end[2]:.1f}"
    )
    for fault in faults:
        print(f"  {fault.started - start:6.1f} s  {fault.kind:<16} {fault.detail}")
    for line in lines:
        print(line)
    print(f"timer deliveries injected (duplicate and stale): {timer_deliveries}")
    print(
        f"load: {stats.submitted} submissions acknowledged, {stats.reconnects} reconnects "
        f"({stats.connect_attempts_failed} refused attempts), failed connections "
        f"{stats.failed_connections}, stopped players {len(stats.stopped_players)}, "
        f"errors {dict(stats.errors) or 0}, failed submits resent {dict(stats.resent) or 0}, "
        f"submissions never acknowledged "
        f"{stats.lost_submissions}, present players stood up {dict(stats.stood_up) or 0}, "
        f"version gaps {stats.gaps}"
    )
    print(
        "processes that died without a fault: "
        + (", ".join(f"{n} at {t:.0f} s (exit {rc})" for n, t, rc in deaths) or "none")
    )
    print(f"ledger_check: exit {ledger[0]}: {ledger[1]}")
    print(
        f"harness CPU: {time.process_time():.0f} s over {end - start:.0f} s of play "
        f"(players, monitor, faults)"
    )
    print()
    if broken:
        print(f"INVARIANTS BROKEN ({len(broken)}):")
        for item in broken:
            print(f"  - {item}")
    else:
        print("every invariant held")
    print(f"logs: {logs}")
