"""The invariants of a chaos run's tournaments, one function each (returning what it found
broken): chips conserved at every observation, the pool netting to zero with its prizes
paid exactly once, nothing stuck, nobody at two tables, an absent entrant's hands played
for them (docs/rules.md#timing) and never eliminated or paired for it; and, for every
tournament that is over, no xu left in its pool (``ended_pools_holding_xu``)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

import psycopg

from benchmarks.chaos import AWAY_SECONDS, LIVE, SWEEP_SECONDS, report
from benchmarks.chaos.analysis import longest_gap
from benchmarks.chaos.monitor import TournamentWatch
from benchmarks.chaos.players import TournamentPlayer

ENDED = ("finished", "cancelled", "voided")
"""A tournament in one of these states is over: its pool must be closed and empty."""


def ended_pools_holding_xu(db: psycopg.Connection[Any]) -> list[str]:
    """Every tournament that is over (finished, cancelled or voided) has its pool closed and
    empty: paid (or, finished, held for review: then the xu sit in its prize hold until a
    moderator decides, and a decided hold is empty), refunded when cancelled or voided."""
    rows = db.execute(
        "SELECT t.id, t.state, coalesce(p.balance, 0), c.outcome, coalesce(h.balance, 0), "
        "EXISTS (SELECT 1 FROM ledger_prizeholddecision d JOIN ledger_prizehold ph "
        "ON ph.id = d.hold_id WHERE ph.tournament_id = t.id) "
        "FROM tournaments_tournament t "
        "LEFT JOIN ledger_account p ON p.key = 'pool:' || t.id "
        "LEFT JOIN ledger_account h ON h.key = 'prize_hold:' || t.id "
        "LEFT JOIN ledger_poolclosure c ON c.tournament_id = t.id "
        "WHERE t.state = ANY(%s) ORDER BY t.id",
        (list(ENDED),),
    ).fetchall()
    problems = []
    for tournament_id, state, pool, outcome, held, decided in rows:
        expected = ("paid", "held") if state == "finished" else ("refunded",)
        if pool != 0 or outcome not in expected:
            problems.append(
                f"tournament {tournament_id} {state}: its pool holds {pool} xu "
                f"(closure {outcome or 'none'})"
            )
        if held and (outcome != "held" or decided):
            problems.append(
                f"tournament {tournament_id} {state}: its prize hold keeps {held} xu "
                f"({'decided' if decided else 'no hold recorded'})"
            )
    return problems


# --- One tournament ----------------------------------------------------------------------


@dataclass
class Tournament:
    """A tournament of the run as its tables and entries are at the end."""

    id: int
    kind: str
    state: str
    seats: int
    stack: int
    rules: dict[str, Any]
    started: Any
    finished: Any
    ends: Any
    played: int
    minutes: int
    rounds: list[tuple[Any, ...]]  # (state, dealt, settled)
    tables: int
    entries: list[tuple[Any, ...]]  # (id, user, username, state, stack, place, prize)

    @property
    def label(self) -> str:
        return f"{'sit-and-go' if self.kind == 'sit_and_go' else 'arena'} {self.id}"

    @property
    def expected_chips(self) -> int:
        return int(self.seats) * int(self.stack)

    @property
    def settled(self) -> int:
        return sum(r[0] == "settled" for r in self.rounds)


def read_tournament(db: psycopg.Connection[Any], tournament_id: int) -> Tournament:
    kind, state, seats, stack, rules, started, finished, ends, played, minutes = db.execute(
        "SELECT kind, state, players, starting_stack, rules_overrides, extract(epoch FROM "
        "started_at), extract(epoch FROM finished_at), extract(epoch FROM ends_at), "
        "rounds_played, minutes FROM tournaments_tournament WHERE id = %s",
        (tournament_id,),
    ).fetchone()  # type: ignore[misc]
    rounds = db.execute(
        "SELECT r.state, extract(epoch FROM r.dealt_at), extract(epoch FROM r.settled_at) "
        "FROM games_round r JOIN tournaments_tournamenttable l ON l.table_id = r.table_id "
        "WHERE l.tournament_id = %s",
        (tournament_id,),
    ).fetchall()
    tables = db.execute(
        "SELECT count(*) FROM tournaments_tournamenttable WHERE tournament_id = %s",
        (tournament_id,),
    ).fetchone()[0]  # type: ignore[index]
    entries = db.execute(
        "SELECT e.id, e.user_id, u.username, e.state, e.stack, e.place, e.prize "
        "FROM tournaments_entry e JOIN accounts_user u ON u.id = e.user_id "
        "WHERE e.tournament_id = %s ORDER BY e.place NULLS LAST, e.id",
        (tournament_id,),
    ).fetchall()
    return Tournament(
        tournament_id, kind, state, seats, stack, rules, started, finished, ends, played,
        minutes, rounds, tables, entries,
    )  # fmt: skip


def stuck_bound(options: argparse.Namespace, t: Tournament) -> float:
    """A round waiting for an absent player's arranging deadline is slow by design, so the
    bound is the faults' recovery bound plus one such round."""
    return float(
        options.recover_within
        + int(t.rules.get("arrange_seconds", 60))
        + 3 * int(t.rules.get("reveal_seconds", 3))
        + SWEEP_SECONDS
    )


def longest_still(t: Tournament, now: float) -> float:
    """The longest stretch with nothing dealt or settled at its tables while it ran."""
    marks = [float(m) for r in t.rounds for m in r[1:] if m is not None]
    return longest_gap(marks, float(t.started), float(t.finished) if t.finished else now)


def chips_conserved(t: Tournament, watch: TournamentWatch, run_start: float) -> list[str]:
    """The sum of the stacks never changes while it runs."""
    if not watch.chip_breaks:
        return []
    when, total = watch.chip_breaks[0]
    return [
        f"{t.label}: chips not conserved at {len(watch.chip_breaks)} observations "
        f"(first {when - run_start:.0f} s in: {total} instead of {t.expected_chips})"
    ]


def observed(t: Tournament, watch: TournamentWatch) -> list[str]:
    return [f"{t.label}: never observed"] if watch.observations == 0 else []


def never_still(t: Tournament, longest: float | None, bound: float) -> list[str]:
    if longest is None:
        return [f"{t.label}: never started"]
    if longest > bound:
        return [f"{t.label}: stuck, nothing dealt or settled for {longest:.1f} s"]
    return []


def arena_finishes(t: Tournament, now: float, bound: float) -> list[str]:
    if t.kind == "arena" and t.state == "running" and t.ends and now > float(t.ends) + bound:
        return [f"{t.label}: {now - float(t.ends):.0f} s past its end, not finished"]
    return []


def seated_once(t: Tournament, watch: TournamentWatch) -> list[str]:
    """Nobody at two tables (or in two live rounds) at once."""
    if not watch.seated_twice:
        return []
    return [
        f"{t.label}: user {watch.seated_twice[0][1]} at two tables "
        f"({len(watch.seated_twice)} observations)"
    ]


# --- Its pool ------------------------------------------------------------------------------


@dataclass
class Pool:
    """In by buy-ins, out by prizes (each once), zero once it is over."""

    balance: int
    closure: str | None
    into: int
    owed: dict[int, int]  # user -> the prize their entry says
    got: dict[int, tuple[int, int]]  # user -> (prize transfers, xu)


def read_pool(db: psycopg.Connection[Any], t: Tournament) -> Pool | None:
    pool = db.execute(
        "SELECT id, balance FROM ledger_account WHERE key = %s", (f"pool:{t.id}",)
    ).fetchone()
    if pool is None:
        return None
    flows = dict(
        db.execute(
            "SELECT kind, coalesce(sum(amount), 0) FROM ledger_transfer "
            "WHERE credit_id = %s OR debit_id = %s GROUP BY kind",
            (pool[0], pool[0]),
        ).fetchall()
    )
    # Prizes come from the pool, or (held for review, then released) from the prize hold.
    paid = db.execute(
        "SELECT a.user_id, count(*), sum(t.amount) FROM ledger_transfer t JOIN ledger_account "
        "a ON a.id = t.credit_id JOIN ledger_account d ON d.id = t.debit_id "
        "WHERE d.key IN (%s, %s) AND t.kind = 'prize' GROUP BY a.user_id",
        (f"pool:{t.id}", f"prize_hold:{t.id}"),
    ).fetchall()
    closure = db.execute(
        "SELECT outcome FROM ledger_poolclosure WHERE tournament_id = %s", (t.id,)
    ).fetchone()
    released = db.execute(
        "SELECT d.outcome FROM ledger_prizeholddecision d JOIN ledger_prizehold h "
        "ON h.id = d.hold_id WHERE h.tournament_id = %s",
        (t.id,),
    ).fetchone()
    owed = {e[1]: int(e[6]) for e in t.entries if e[6]}
    if closure is not None and closure[0] == "held" and (released or ("",))[0] != "released":
        owed = {}  # under review, or the buy-ins returned: no prize is paid
    return Pool(
        balance=pool[1],
        closure=closure[0] if closure else None,
        into=int(flows.get("buy_in", 0)) - int(flows.get("buy_in_refund", 0)),
        owed=owed,
        got={user: (int(count), int(amount)) for user, count, amount in paid},
    )


def prizes_paid_once(t: Tournament, p: Pool) -> list[str]:
    twice = [user for user, (count, _amount) in p.got.items() if count > 1]
    return [f"{t.label}: a prize paid more than once (users {twice})"] if twice else []


def prizes_as_entered(t: Tournament, p: Pool) -> list[str]:
    wrong = [u for u in set(p.owed) | set(p.got) if p.got.get(u, (0, 0))[1] != p.owed.get(u, 0)]
    if not wrong:
        return []
    return [f"{t.label}: prizes paid differ from the entries' prizes (users {wrong})"]


def pool_empty_once_over(t: Tournament, p: Pool) -> list[str]:
    closure = (p.closure,) if p.closure else None
    if t.state == "finished" and (p.balance != 0 or p.closure not in ("paid", "held")):
        return [f"{t.label}: finished but its pool holds {p.balance} xu (closure {closure})"]
    if t.state in ("cancelled", "voided") and (p.balance != 0 or p.closure != "refunded"):
        return [f"{t.label}: {t.state} but its pool holds {p.balance} xu (closure {closure})"]
    return []


def pool_open_while_playing(t: Tournament, p: Pool) -> list[str]:
    broken = []
    if t.state != "finished" and p.got:
        broken.append(f"{t.label}: prizes paid before it finished")
    if t.state in ("registering", "running") and p.closure is not None:
        broken.append(f"{t.label}: its pool closed while it is still {t.state}")
    return broken


# --- Its absent entrant ----------------------------------------------------------------


@dataclass
class Absence:
    """The entrant who dropped, and every hand dealt to them from the drop on."""

    player: TournamentPlayer
    dropped_at: float
    hands: list[tuple[Any, ...]]  # (round, state, auto-arranged, submitted, table made, scored)
    entry: tuple[Any, ...]

    @property
    def played_for(self) -> list[tuple[Any, ...]]:
        return [h for h in self.hands if h[1] == "settled" and h[2] and not h[3]]

    @property
    def not_played(self) -> list[int]:
        return [h[0] for h in self.hands if h[1] == "settled" and not h[2] and not h[3]]

    @property
    def unscored(self) -> list[int]:
        return [h[0] for h in self.played_for if self.player.arena and not h[5]]

    @property
    def paired_away(self) -> list[int]:
        """Tables made for them once they were away (no connection for the presence timeout)."""
        limit = self.dropped_at + AWAY_SECONDS + 1.0
        return [h[0] for h in self.hands if float(h[4]) > limit]


def read_absence(
    db: psycopg.Connection[Any], player: TournamentPlayer, entries: list[tuple[Any, ...]]
) -> Absence | None:
    """None when they were never dealt a board to drop at."""
    if player.dropped_at is None:
        return None
    hands = db.execute(
        "SELECT r.id, r.state, p.auto_arranged, p.submitted_at IS NOT NULL, extract(epoch "
        "FROM t.created_at), (SELECT count(*) FROM tournaments_arenaresult a WHERE "
        "a.round_id = r.id AND a.entry_id = e.id) FROM games_roundplayer p JOIN games_round r "
        "ON r.id = p.round_id JOIN games_table t ON t.id = r.table_id JOIN tournaments_entry e "
        "ON e.user_id = p.user_id AND e.tournament_id = %s WHERE p.user_id = %s AND "
        "(r.settled_at IS NULL OR r.settled_at > to_timestamp(%s))",
        (player.tournament_id, player.user_id, player.dropped_at),
    ).fetchall()
    entry = next(e for e in entries if e[1] == player.user_id)
    return Absence(player, player.dropped_at, hands, entry)


def dealt_a_board_to_drop_at(label: str, player: TournamentPlayer) -> list[str]:
    return [f"{label}: {player.name} was never dealt a board to drop at"]


def hands_played_for_them(label: str, a: Absence) -> list[str]:
    if not a.not_played:
        return []
    return [f"{label}: {a.player.name}'s hands not played for them: {a.not_played}"]


def boards_scored(label: str, a: Absence) -> list[str]:
    if not a.unscored:
        return []
    return [f"{label}: {a.player.name}'s boards played for them scored nothing: {a.unscored}"]


def not_paired_while_away(label: str, a: Absence) -> list[str]:
    if not a.paired_away:
        return []
    return [f"{label}: {a.player.name} paired again while away: rounds {a.paired_away}"]


def not_eliminated_while_away(label: str, a: Absence) -> list[str]:
    if a.entry[3] in ("playing", "finished", "won"):
        return []
    return [f"{label}: {a.player.name} eliminated while away ({a.entry[3]})"]


def some_hand_played_for_them(label: str, a: Absence) -> list[str]:
    if a.played_for or any(h[1] in LIVE for h in a.hands):
        return []
    return [f"{label}: {a.player.name} had no hand played for them"]


# --- The run's tournaments -------------------------------------------------------------


def analyse(
    db: psycopg.Connection[Any],
    options: argparse.Namespace,
    watches: dict[int, TournamentWatch],
    entrants: list[TournamentPlayer],
    run_start: float,
    run_end: float,
) -> tuple[list[str], list[str]]:
    """The report lines and the broken invariants of every tournament the run watched."""
    lines = ["", "tournaments:"]
    broken: list[str] = []
    now = float(db.execute("SELECT extract(epoch FROM clock_timestamp())").fetchone()[0])  # type: ignore[index]
    for tournament_id, watch in watches.items():
        t = read_tournament(db, tournament_id)
        lines += [report.tournament_head(t, run_start), report.chips(t, watch)]
        broken += chips_conserved(t, watch, run_start)
        broken += observed(t, watch)
        bound = stuck_bound(options, t)
        longest = longest_still(t, now) if t.started is not None else None
        if longest is not None:
            lines.append(report.still(longest, bound))
        broken += never_still(t, longest, bound)
        broken += arena_finishes(t, now, bound)
        pool = read_pool(db, t)
        if pool is None:
            broken.append(f"{t.label}: no pool")
        else:
            lines.append(report.pool(pool))
            broken += prizes_paid_once(t, pool)
            broken += prizes_as_entered(t, pool)
            broken += pool_empty_once_over(t, pool)
            broken += pool_open_while_playing(t, pool)
        lines.append(report.seated_twice(watch))
        broken += seated_once(t, watch)
        lines.append(report.standings(t))
        for player in entrants:
            if player.tournament_id != tournament_id or not (player.drop_on_deal or player.dropped):
                continue
            absence = read_absence(db, player, t.entries)
            if absence is None:
                broken += dealt_a_board_to_drop_at(t.label, player)
                lines.append(f"    {player.name}: never dealt a board (meant to drop at its first)")
                continue
            lines.append(report.absence(absence, run_start))
            broken += hands_played_for_them(t.label, absence)
            broken += boards_scored(t.label, absence)
            broken += not_paired_while_away(t.label, absence)
            broken += not_eliminated_while_away(t.label, absence)
            broken += some_hand_played_for_them(t.label, absence)
    # Every tournament of the run that is over, watched or not: no xu left in its pool.
    stuck = ended_pools_holding_xu(db)
    lines.append(f"  tournaments over with xu still in their pool or a decided hold: {len(stuck)}")
    return lines, broken + stuck
