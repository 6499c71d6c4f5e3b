"""The site on two "hosts": network namespaces (tests/support/netns.py), each running its own daphne
and Celery worker, sharing PostgreSQL and Redis reached over their links.

PostgreSQL is the shared test server, reached through a TCP relay on the bridge's address:
it listens on loopback only and other test runs use it, so its configuration is not ours to
change; and a second cluster started here would need initdb, the migrations and a database
the test's own connection (pytest-django's) does not see. Through the relay the hosts work
on the test's database, which the test then checks in-process.

Redis is a private ``redis-server`` bound to the bridge's address: the channel layer, the
Celery broker and the cache of both hosts. Beat runs with the last host's worker (exactly
one per site, docs/deploy.md).
"""

from __future__ import annotations

import contextlib
import re
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support import live, netns
from tests.support.processes import (
    PYTHON,
    celery_worker,
    collect_static,
    daphne_process,
    server_env,
)
from tests.support.redisserver import PrivateRedis, private_redis
from tests.support.tcprelay import TcpRelay

DAPHNE_PORT = 8001  # every host has its own ports


@dataclass
class TwoHosts:
    network: netns.Network
    relay: TcpRelay
    redis: PrivateRedis
    bases: dict[str, str]  # host name → its daphne's base URL
    logs: Path

    @property
    def hosts(self) -> list[netns.Host]:
        return self.network.hosts

    def base(self, host: netns.Host) -> str:
        return self.bases[host.name]

    def kill(self, host: netns.Host) -> None:
        """The host dies: kill -9 of everything on it, then its link is gone."""
        host.delete()

    def reaches(self, host: netns.Host, address: tuple[str, int]) -> bool:
        """Whether a program on ``host`` can open a TCP connection to ``address``."""
        probe = "import socket, sys; socket.create_connection((sys.argv[1], int(sys.argv[2])), 3)"
        done = subprocess.run(
            [*host.prefix, PYTHON, "-c", probe, address[0], str(address[1])],
            capture_output=True,
            timeout=30,
        )
        return done.returncode == 0

    def tasks_held(self, host: netns.Host) -> int:
        """Tasks the host's worker received and never finished (held when it died)."""
        log = (self.logs / f"worker-{host.name}.log").read_text(errors="replace")
        received = re.findall(r"Task [\w.]+\[([0-9a-f-]+)\] received", log)
        ended = re.findall(r"Task [\w.]+\[([0-9a-f-]+)\] (?:succeeded|failed|raised)", log)
        return len(set(received) - set(ended))

    def log_tail(self) -> str:
        return "\n".join(
            f"--- {log.name}\n{log.read_text(errors='replace')[-2500:]}"
            for log in sorted(self.logs.glob("*.log"))
        )


@contextlib.contextmanager
def two_hosts(logs: Path) -> Iterator[TwoHosts]:
    with contextlib.ExitStack() as exits:
        network = exits.enter_context(netns.network(hosts=2))
        relay = exits.enter_context(TcpRelay(network.gateway, live.test_database_address()))
        redis = exits.enter_context(private_redis(logs, host=network.gateway))
        env = server_env(
            DATABASE_URL=live.database_url_at((network.gateway, relay.port)),
            REDIS_URL=redis.url,
            ALLOWED_HOSTS=",".join(host.address for host in network.hosts),
            CELERY_LOG_LEVEL="INFO",
        )
        collect_static(env)
        servers: list[contextlib.AbstractContextManager[Any]] = []
        for host in network.hosts:
            log = logs / f"daphne-{host.name}.log"
            servers.append(daphne_process(env, log, DAPHNE_PORT, host.address, host.prefix))
            servers.append(
                celery_worker(
                    env,
                    logs / f"worker-{host.name}.log",
                    name=host.name,
                    beat=logs / "beat" if host is network.hosts[-1] else None,
                    prefix=host.prefix,
                )
            )
        started = _enter_together(exits, servers)
        bases = {host.name: started[2 * i][0] for i, host in enumerate(network.hosts)}
        yield TwoHosts(network, relay, redis, bases, logs)


def _enter_together(
    exits: contextlib.ExitStack, managers: list[contextlib.AbstractContextManager[Any]]
) -> list[Any]:
    """Enter every context at once (the processes start side by side, not one by one);
    each one entered is exited with ``exits``, even when another failed to start."""
    with ThreadPoolExecutor(len(managers)) as pool:
        futures = [pool.submit(manager.__enter__) for manager in managers]
    results, failures = [], []
    for manager, future in zip(managers, futures, strict=True):
        try:
            results.append(future.result())
        except Exception as exc:
            failures.append(exc)
        else:
            exits.push(manager)
    if failures:
        raise failures[0]
    return results
