"""The site's web server: daphne in processes forked from a parent that has imported the site.

    python -m maubinh_site.prefork [--processes N] DAPHNE_OPTIONS... maubinh_site.asgi:application

A fresh daphne spends about 1.2 s of CPU importing Django and the site before it serves
anything (more while the machine is busy: 3-6 s after every daphne was killed at 200
tables, docs/deploy.md "Where a storm's time goes"), and every player of that process
waits for it. Here the parent imports the site once, then forks the serving processes,
and forks a new one the moment one dies: the new one starts from the imported site and
serves within milliseconds, on the same inherited listening socket (``--fd 3`` from the
systemd socket unit), whose queue holds the connections meanwhile.

The parent serves nothing and holds no connection: it only imports, forks and waits. A
forked child installs a Twisted reactor of its own (the parent's, installed when the
``daphne`` app was imported, shares its epoll descriptor with every child), as daphne's
own test harness does for the same reason (``daphne.testing._reinstall_reactor``), and
then runs daphne's command line with the options given here. SIGTERM or SIGINT to the
parent stops the children (each as daphne stops on SIGTERM) and then the parent;
a child that keeps dying at once is forked again after a delay that doubles up to
``MAX_BACKOFF`` seconds, not in a loop.

The embedded default (no Redis: the timers run in a thread of the served process) is not
forked: a thread does not survive a fork. ``make run`` serves it with daphne itself. No
other thread runs in the parent, except the query counter's writer of the benchmarks
(``games.querycount``, on with ``QUERY_COUNT_DIR`` only), which starts again in each child.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import socket
import sys
import time
from collections.abc import Sequence
from types import FrameType

logger = logging.getLogger("maubinh_site.prefork")  # also when run as __main__

MAX_BACKOFF = 1.0
"""The longest wait (s) before forking again a child that died within ``QUICK_DEATH`` s."""
QUICK_DEATH = 1.0
"""A child that dies this soon (s) after its fork is forked again only after a delay."""
STOP_SIGNALS = {signal.SIGTERM, signal.SIGINT}
BACKLOG = 4096
"""The queue of the socket the parent holds for ``-b``/``-p``, as the systemd socket unit's
``Backlog=`` (deploy/systemd/maubinh-daphne@.socket)."""


def _parse(argv: Sequence[str]) -> tuple[int, socket.socket | None, list[str]]:
    """Our options, the socket to hold (for ``-b``/``-p``) and daphne's options for the
    children (``--fd`` of the held socket in place of ``-b``/``-p``)."""
    parser = argparse.ArgumentParser(
        prog="python -m maubinh_site.prefork",
        description="daphne in processes forked from a parent that imported the site; "
        "every other option is daphne's",
        allow_abbrev=False,
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="serving processes (default 1, one per core)"
    )
    parser.add_argument("-b", "--bind", dest="host", help="the address to listen on")
    parser.add_argument("-p", "--port", type=int, help="the port to listen on")
    ours, daphne_argv = parser.parse_known_args(argv)
    if ours.processes < 1:
        parser.error("--processes must be at least 1")
    passed = {arg.split("=", 1)[0] for arg in daphne_argv}
    if passed & {"-u", "--unix-socket", "-e", "--endpoint"}:
        parser.error("serve a held socket (--fd) or an address (-b, -p), not -u or -e")
    if "--fd" in passed:
        if ours.host or ours.port:
            parser.error("--fd or -b/-p, not both")
        return ours.processes, None, daphne_argv
    # The parent holds the listening socket, as the systemd socket unit does: every child
    # serves it, and a connection made while none runs waits in its queue.
    held = socket.socket(socket.AF_INET6 if ":" in (ours.host or "") else socket.AF_INET)
    held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    held.bind((ours.host or "127.0.0.1", ours.port or 8000))
    held.listen(BACKLOG)
    held.set_inheritable(True)
    return ours.processes, held, ["--fd", str(held.fileno()), *daphne_argv]


def _import_site(daphne_argv: list[str]) -> None:
    """Import what every child would: Django, the site and the application daphne serves,
    after daphne's own parser has checked the options (an error ends the parent here)."""
    from daphne.cli import CommandLineInterface
    from daphne.utils import import_by_path

    args = CommandLineInterface().parser.parse_args(daphne_argv)
    sys.path.insert(0, ".")
    import_by_path(args.application)
    from django.apps import apps
    from django.conf import settings

    if apps.ready:  # an application that set Django up (the site does)
        if getattr(settings, "CELERY_EMBEDDED_WORKER", False):  # the site's; not a relay's
            raise SystemExit(
                "prefork: the embedded default (no REDIS_URL) runs its timers in a thread of "
                "the served process, which a fork would not carry: serve it with daphne"
            )
        # What Django imports at its first request (the URL configuration, and with it
        # every view module): imported here once, not in every child as its first player
        # waits.
        from django.db import connections
        from django.urls import get_resolver

        if getattr(settings, "ROOT_URLCONF", None):  # the site has one; a relay has not
            get_resolver().url_patterns  # noqa: B018
        connections.close_all()  # none should be open; a child must never share one


def _serve(daphne_argv: list[str]) -> None:
    """In a forked child: a reactor of its own, then daphne's command line."""
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGCHLD):
        signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    from twisted.internet import asyncioreactor

    # The reactor the parent installed (daphne.server, imported by the daphne app) and the
    # modules bound to it: imported again below, on a loop of this process's own.
    for name in ("twisted.internet.reactor", "daphne.server", "daphne.cli"):
        sys.modules.pop(name, None)
    loop = asyncio.new_event_loop()
    asyncioreactor.install(loop)  # type: ignore[no-untyped-call]
    asyncio.set_event_loop(loop)
    from daphne.cli import CommandLineInterface

    CommandLineInterface().run(daphne_argv)


class Parent:
    """Forks ``processes`` children and keeps that many running until told to stop."""

    def __init__(self, processes: int, daphne_argv: list[str]) -> None:
        self.processes, self.daphne_argv = processes, daphne_argv
        self.children: dict[int, float] = {}  # pid -> when forked (monotonic)
        self.stopping = False
        self.backoff = 0.0

    def fork(self) -> None:
        sys.stdout.flush()
        sys.stderr.flush()
        # Held back across the fork: the child must not run the parent's handler (it would
        # signal its siblings), and a stop must not miss a child forked while it ran.
        signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                _serve(self.daphne_argv)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
            except BaseException:
                import traceback

                traceback.print_exc()
                code = 1
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        self.children[pid] = time.monotonic()
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
        logger.info("serving process %d started", pid)

    def stop(self, signum: int, _frame: FrameType | None) -> None:
        self.stopping = True
        for pid in list(self.children):
            with contextlib.suppress(ProcessLookupError):  # ended, not yet reaped
                os.kill(pid, signal.SIGTERM)

    def run(self) -> int:
        signal.signal(signal.SIGTERM, self.stop)
        signal.signal(signal.SIGINT, self.stop)
        for _ in range(self.processes):
            self.fork()
        while self.children:
            try:
                pid, status = os.wait()
            except ChildProcessError:
                break
            forked = self.children.pop(pid, None)
            if forked is None:
                continue
            if self.stopping:
                continue
            logger.warning("serving process %d ended (%s): forking another", pid, _describe(status))
            if time.monotonic() - forked < QUICK_DEATH:
                self.backoff = min(MAX_BACKOFF, max(0.05, self.backoff * 2))
                time.sleep(self.backoff)
            else:
                self.backoff = 0.0
            if not self.stopping:
                self.fork()
        return 0


def _describe(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"signal {signal.Signals(os.WTERMSIG(status)).name}"
    return f"exit {os.waitstatus_to_exitcode(status)}"


def main(argv: Sequence[str] | None = None) -> int:
    processes, _held, daphne_argv = _parse(sys.argv[1:] if argv is None else argv)
    _import_site(daphne_argv)
    return Parent(processes, daphne_argv).run()


if __name__ == "__main__":
    sys.exit(main())
