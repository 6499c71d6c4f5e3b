"""`make run`'s embedded default plays a whole round: SQLite, in-memory layer, worker thread."""

from __future__ import annotations

import asyncio
import subprocess

import pytest

from tests.support.arranging import naive_arrangement
from tests.support.processes import PYTHON, ROOT, daphne, manage, site_env
from tests.support.wsclient import Player, login, run_async

pytestmark = pytest.mark.slow

MAKE_TABLE = """
import django; django.setup()
from accounts.models import User
from games.services import create_table
table = create_table(User.objects.get(username="an"), name="Demo", stake=10,
                     rules_overrides={"reveal_seconds": 2, "start_seconds": 5})
print(table.pk)
"""


def _manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run(
        [PYTHON, *args], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return result.stdout


def test_two_demo_players_play_a_round_on_the_embedded_default(tmp_path):
    env = site_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    _manage(env, "manage.py", "migrate", "--noinput", "-v0")
    _manage(env, "manage.py", "seed_demo")
    table_id = int(_manage(env, "-c", MAKE_TABLE).split()[-1])

    with daphne(env, tmp_path / "daphne.log") as base:

        async def play():  # type: ignore[no-untyped-def]
            clients = []
            for name in ("an", "binh"):
                cookie = await asyncio.to_thread(login, base, name, "maubinh-demo")
                client = Player(base, cookie, table_id, name)
                await client.connect()
                await client.request(type="sit")
                clients.append(client)
            # Nobody presses Start: the 5 s countdown fires on the embedded worker thread.
            dealt = [await c.wait_for(lambda m: m["type"] == "cards", timeout=20) for c in clients]
            for client, cards in zip(clients, dealt, strict=True):
                reply = await client.request(
                    type="submit", round=cards["round"], chi=naive_arrangement(cards["cards"])
                )
                assert reply["type"] == "ok", reply
            settled = await clients[0].wait_for(lambda m: m["type"] == "settled", timeout=30)
            for client in clients:
                await client.close()
            return settled

        settled = run_async(play())
    assert sum(row["xu"] for row in settled["players"]) == 0
    check = manage(env, "ledger_check")
    assert check.returncode == 0, check.stdout + check.stderr
