"""A burst of table sockets opening at once on a live daphne: every handshake succeeds.

daphne drops a websocket handshake not answered within 5 s. When a socket's connect did
its database work on Channels' one shared thread, behind the table locks that ``sit``
commands hold, 400 players opening within 10 s (or reconnecting after a restart) saw half
their handshakes fail. Here 200 sockets of 50 tables open on one daphne within 4 s (50 a
second, a table's players one right after the other), each sitting down as soon as its
snapshot arrives, so every handshake meets the sits of the sockets before it.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from django.test import override_settings

from games import services
from games.models import Seat
from tests.support import live
from tests.support.processes import daphne, site_env
from tests.support.services import TEST_REDIS_URL
from tests.support.sessions import session_key
from tests.support.wsclient import Player, run_async

pytestmark = live.MARKS

TABLES = 50
SECONDS = 4  # the sockets open one after another over this time, a table's 4 together


def _session(user: Any, secret_key: str) -> str:
    """A session logged in as the server would make it (its secret key signs the session
    and the password hash), made directly: no 200 logins."""
    with override_settings(SECRET_KEY=secret_key):
        return session_key(user)


def test_two_hundred_sockets_opening_within_4_s_while_players_sit_all_get_in(
    make_user: Any, tmp_path: Path
) -> None:
    env = site_env(DATABASE_URL=live.test_database_url(), REDIS_URL=TEST_REDIS_URL)
    seating = []
    for t in range(TABLES):
        users = [make_user(f"storm{t}p{k}") for k in range(4)]
        table = services.create_table(users[0], name=f"Bão {t}", stake=10)
        for k, user in enumerate(users):
            seating.append((table.pk, _session(user, env["SECRET_KEY"]), f"t{t}p{k}"))

    with daphne(env, tmp_path / "daphne.log") as base:
        players = [Player(base, f"sessionid={key}", table, name) for table, key, name in seating]

        async def arrive(index: int, player: Player) -> dict[str, Any]:
            await asyncio.sleep(SECONDS * index / len(players))
            await player.connect()
            return await player.request(type="sit", timeout=60)

        async def storm() -> list[Any]:
            try:
                arrivals = [arrive(i, player) for i, player in enumerate(players)]
                return await asyncio.gather(*arrivals, return_exceptions=True)
            finally:
                for player in players:
                    with contextlib.suppress(Exception):
                        await player.close()

        results = run_async(storm())

    failed = [
        f"{p.name}: {r!r}"
        for p, r in zip(players, results, strict=True)
        if isinstance(r, BaseException)
    ]
    assert not failed, f"{len(failed)} of {len(players)} could not get in, e.g. {failed[:3]}"
    refused = [r for r in results if r["type"] != "ok"]
    assert not refused, refused[:3]
    assert Seat.objects.count() == 4 * TABLES
    log = (tmp_path / "daphne.log").read_text()
    assert "took too long" not in log and "ERROR" not in log, log[-3000:]
