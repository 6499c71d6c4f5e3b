"""Chaos: the multi-process stack under a seeded schedule of faults, with its invariants checked.

    .venv/bin/python -m benchmarks.chaos [--minutes 30] [--seed 1] [--tables 20]
        [--player-tables 3] [--faults-per-minute 1] [--arena-minutes N] [--sng-stack 100]
        [--no-tournaments] [--keep] [--database-url URL]

Starts, on a scratch PostgreSQL database and a private Redis (a ``redis-server`` child on a
free port, so it can be killed and restarted empty): 2 daphne, 2 prefork Celery workers and
a Celery beat, each restarted one second after it dies, as systemd's ``Restart=always``
would. Plays ``--tables`` bot-only tables and ``--player-tables`` tables of 4 scripted
websocket players (auto-arrange, 0.5-3 s of thinking, a ping every 15 s, reconnecting
through the other daphne as a proxy would, resending an unanswered submission with the same
``ref``). One scripted player drops and never returns: its connection is aborted (no close
frame) a few seconds after the first fault, a daphne kill of its own daphne.

Two tournaments play through the same faults: a sit-and-go of 4 (one scripted entrant and
three house bots, a short stack and a level a round) and an arena of ``--arena-minutes``
with 4 scripted entrants (the arena socket open, following their seat from board to board),
one of whom drops at its first board, without arranging it, and never returns. Per
tournament it checks, and exits 1 when one breaks: chips conserved at every observation,
the pool (prizes each paid exactly once, netting to zero once finished; and for every
tournament of the run that is over, finished, cancelled or voided, no xu left in its pool
or in a decided prize hold: ``ended_pools_holding_xu``), nothing stuck (no
deal or settlement at its tables for longer than the recovery bound plus one round waiting
for an absent hand; an arena that far past its end not finished), nobody at two tables or
in two live rounds at once, and the absent entrant's hands played for them
(docs/rules.md#timing), never eliminated, never paired again once away.

The faults, in a seeded schedule with every kind at least once (``--faults-per-minute`` in
all; none in the first ``--warmup`` or the last ``--tail`` seconds):

    daphne_kill      kill -9 a daphne; its clients reconnect
    worker_kill      kill -9 a worker (main process and pool)
    worker_stop      SIGSTOP a worker, caught holding a table's row lock when possible; SIGCONT
                     after ``--stop-seconds``
    beat_kill        kill -9 the beat
    redis_restart    kill -9 Redis; it comes back empty
    pg_terminate     pg_terminate_backend on every app connection, every 0.5 s for 5 s
    timer_duplicate  every live round's and countdown's current timer task, sent twice more
    timer_stale      timer tasks of past phases and countdowns, for live and settled rounds

It prints, per fault kind: count, recovery time (until every round live at the fault ends;
until every table that was playing settles a round after it), the longest stretch with no
settlement anywhere, and tables overdue (a phase deadline or a countdown passed with nothing
done); overall: rounds settled, voided, stuck, settled twice, holds without a live round,
xu lost by an absent player and ``ledger_check``. It exits 1 when an invariant breaks:

- an absent player (no connection for 30 s + one sweep) dealt in, or xu lost by one;
- a round settled twice, a stuck round or countdown, a hold without a live round;
- a fault kind not recovered within ``--recover-within`` (25 s): a round live at the fault
  ends later, a table overdue longer, or a table settles nothing new for longer than that
  plus its usual gap between settlements;
- a table the fault did not touch stalled over ``--stall-limit`` (10 s) (for redis_restart,
  worker_kill, beat_kill and pg_terminate every table is touched; a stopped worker touches
  at most one table per pool process);
- ``ledger_check`` fails;
- the load did not run: a failed connection (none for 30 s), a player task that stopped,
  an error reply (a submit answered ``server_error`` is resent with its ref, as the page
  does, and counts only if it is never acknowledged), a submission never acknowledged, a
  present player stood up, a process that died without a fault, a fault that could not
  be injected.

Rounds that wait for an absent player's arranging deadline are left out of the recovery
times (they are slow by design) and counted in the absent-player figures instead. A round
ends when it is settled, or voided/cancelled (any state other than arranging, showdown or
settled counts as voided, with the ledger's voided closures). Logs of every process go to
``--logs``; the scratch database is dropped unless ``--keep``.

The package, one module a part: ``stack`` (the processes it starts and restarts, on the
tests' own supervision, tests/support/processes.py), ``seating`` (tables, players and
tournaments made in this process), ``players`` (the scripted websocket players),
``monitor`` (what is overdue, polled once a second), ``faults`` (the schedule and its
injection), ``analysis`` and ``tournament_checks`` (one function per invariant, each returning
what it found broken), ``report`` (the lines it prints) and ``run`` (the run itself;
``__main__`` reads the command line).
"""

from __future__ import annotations

import time

LIVE = ("arranging", "showdown")
AWAY_SECONDS = 30.0  # docs/protocol.md: no connection for 30 s -> stood up at the next deal
SWEEP_SECONDS = 2.0  # the games sweep's beat interval (settings.CELERY_BEAT_SCHEDULE)


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S', time.gmtime())}] {message}", flush=True)
