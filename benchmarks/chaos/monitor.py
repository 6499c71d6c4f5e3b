"""The chaos run's monitor: once a second, on a connection of its own, what is overdue (a
phase deadline or a countdown passed with nothing done) and, per tournament, its chips and
anyone at two tables at once."""

from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass, field
from datetime import UTC
from typing import Any

import psycopg


@dataclass
class Episode:
    """A table overdue: its phase deadline or countdown passed with nothing done."""

    table_id: int
    key: tuple[Any, ...]
    due: float
    overdue: float
    seen_at: float


@dataclass
class TournamentWatch:
    """What the monitor saw of one tournament, once a second."""

    observations: int = 0
    state: str = ""
    chip_breaks: list[tuple[float, int]] = field(default_factory=list)  # (when, sum of stacks)
    seated_twice: list[tuple[float, int]] = field(default_factory=list)  # (when, user)


class Monitor(threading.Thread):
    def __init__(self, url: str) -> None:
        super().__init__(daemon=True, name="chaos-monitor")
        self.url = url
        self.stop_event = threading.Event()
        self.episodes: list[Episode] = []
        self.open: dict[int, Episode] = {}
        self.live: list[tuple[int, int, str, int]] = []  # round id, table, state, phase
        self.countdowns: list[tuple[int, str]] = []  # table, start_at (isoformat, UTC)
        self.recent_settled: list[tuple[int, int]] = []  # round id, settling phase
        self.lock = threading.Lock()
        self.polls = 0
        self.failures = 0
        self.tournaments: dict[int, TournamentWatch] = {}  # set before it starts

    def run(self) -> None:
        conn: psycopg.Connection[Any] | None = None
        while not self.stop_event.is_set():
            try:
                if conn is None or conn.closed:
                    conn = psycopg.connect(
                        self.url, autocommit=True, application_name="chaos-monitor"
                    )
                    conn.execute("SET TIME ZONE 'UTC'")
                self._poll(conn)
                self.polls += 1
            except psycopg.Error:
                self.failures += 1
                if conn is not None:
                    with contextlib.suppress(Exception):
                        conn.close()
                conn = None
            self.stop_event.wait(1.0)
        if conn is not None:
            conn.close()

    def _poll(self, conn: psycopg.Connection[Any]) -> None:
        now = float(conn.execute("SELECT extract(epoch FROM clock_timestamp())").fetchone()[0])  # type: ignore[index]
        rounds = conn.execute(
            "SELECT id, table_id, state, phase, extract(epoch FROM deadline) FROM games_round "
            "WHERE state IN ('arranging', 'showdown')"
        ).fetchall()
        tables = conn.execute(
            "SELECT id, start_at FROM games_table WHERE start_at IS NOT NULL"
        ).fetchall()
        settled = conn.execute(
            "SELECT id, phase - 1 FROM games_round WHERE state = 'settled' "
            "ORDER BY settled_at DESC LIMIT 20"
        ).fetchall()
        targets: dict[int, tuple[tuple[Any, ...], float]] = {}
        playing = set()
        for round_id, table_id, state, phase, deadline in rounds:
            playing.add(table_id)
            if deadline is not None and float(deadline) < now:
                targets[table_id] = (("round", round_id, state, phase), float(deadline))
        for table_id, start_at in tables:
            if table_id not in playing and start_at.timestamp() < now:
                targets[table_id] = (("start", start_at.timestamp()), start_at.timestamp())
        if self.tournaments:
            self._watch_tournaments(conn, now)
        with self.lock:
            self.live = [(r[0], r[1], r[2], r[3]) for r in rounds]
            self.countdowns = [(t, s.astimezone(UTC).isoformat()) for t, s in tables]
            self.recent_settled = [(r[0], r[1]) for r in settled]
            for table_id, (key, due) in targets.items():
                episode = self.open.get(table_id)
                if episode is not None and episode.key == key:
                    episode.overdue, episode.seen_at = now - due, now
                    continue
                if episode is not None:
                    self._close(table_id)
                self.open[table_id] = Episode(table_id, key, due, now - due, now)
            for table_id in [t for t in self.open if t not in targets]:
                self._close(table_id)

    def _watch_tournaments(self, conn: psycopg.Connection[Any], now: float) -> None:
        """Each tournament's chips (one statement: one snapshot), and its entrants seated at
        two tables or dealt into two live rounds at once."""
        ids = list(self.tournaments)
        chips = conn.execute(
            "SELECT t.id, t.state, t.players * t.starting_stack, coalesce(sum(e.stack), 0) "
            "FROM tournaments_tournament t LEFT JOIN tournaments_entry e "
            "ON e.tournament_id = t.id WHERE t.id = ANY(%s) GROUP BY t.id",
            (ids,),
        ).fetchall()
        twice = conn.execute(
            "SELECT e.tournament_id, e.user_id FROM tournaments_entry e WHERE e.tournament_id "
            "= ANY(%s) AND ((SELECT count(*) FROM games_seat s WHERE s.user_id = e.user_id) > 1 "
            "OR (SELECT count(*) FROM games_roundplayer p JOIN games_round r ON r.id = "
            "p.round_id WHERE p.user_id = e.user_id AND r.state IN ('arranging', 'showdown')) > 1)",
            (ids,),
        ).fetchall()
        with self.lock:
            for tournament_id, state, expected, total in chips:
                watch = self.tournaments[tournament_id]
                watch.observations += 1
                watch.state = state
                if state in ("running", "finished") and int(total) != int(expected):
                    watch.chip_breaks.append((now, int(total)))
            for tournament_id, user_id in twice:
                self.tournaments[tournament_id].seated_twice.append((now, user_id))

    def _close(self, table_id: int) -> None:
        episode = self.open.pop(table_id)
        if episode.overdue >= 1.0:
            self.episodes.append(episode)

    def finish(self) -> list[Episode]:
        self.stop_event.set()
        self.join(timeout=10)
        with self.lock:
            for table_id in list(self.open):
                self._close(table_id)
            return list(self.episodes)
