"""An example bot for Mậu Binh Online's API (docs/api.md): a token is all it needs.

    MAUBINH_URL=https://example.org MAUBINH_TOKEN=mbp_... python examples/bot.py [--rounds N]

It follows its event stream (``events_stream``), accepts each challenge addressed to it
(``challenge_accept``: both seated at the challenge's own table), sits where a friend
invites it or at a table that lets bots in (``tables_list`` with ``bots=true&free=true``;
with none, it opens one), follows that table's stream (``table_stream``: its snapshot,
then its events; an open stream also keeps its seat, like a page's socket) and plays each
hand it is dealt with the site's own engine (``games.rules.arrange.suggest``) when this
file sits in the repository, else with a simple strategy that never fouls. It submits with
``round_submit`` and a ``ref``, resending on a network error until it gets an answer.
Ctrl-C (or the ``--rounds`` played) leaves the table and stops.

The standard library and one HTTP client, httpx (pinned in requirements-dev.txt).
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # games.rules, if here
try:
    from games.rules import format_cards, parse_cards
    from games.rules.arrange import suggest
    from games.rules.presets import Rules
except ImportError:  # the bot copied out of the repository: the simple strategy
    suggest = None  # type: ignore[assignment]

RANKS = "23456789TJQKA"
RETRIES = 5


def simple_arrangement(cards: list[str]) -> list[list[str]]:
    """The cards grouped by rank (quads, trips, pairs, then single cards, highest first)
    and dealt out five, five and three: rough, rarely a foul (which only loses)."""

    def rank(card: str) -> int:
        return RANKS.index(card[:-1].replace("10", "T"))

    groups: dict[int, list[str]] = {}
    for card in cards:
        groups.setdefault(rank(card), []).append(card)
    ordered = sorted(groups.values(), key=lambda g: (len(g), rank(g[0])), reverse=True)
    flat = [card for group in ordered for card in group]
    return [flat[:5], flat[5:10], flat[10:]]


def arrange(cards: list[str], rules: dict[str, Any] | None) -> list[list[str]]:
    """The engine's best arrangement under the table's rules, or the simple strategy."""
    if suggest is None or rules is None:
        return simple_arrangement(cards)
    best = suggest(parse_cards(cards), Rules.from_dict(rules), n=0)[0]
    return [format_cards(chi) for chi in best.chi]


class Revoked(Exception):
    pass


class Bot:
    def __init__(self, base: str, token: str, rounds: int | None = None) -> None:
        self.base = base.rstrip("/")
        self.headers = {"Authorization": f"Bearer {token}", "Accept-Language": "en"}
        self.http = httpx.Client(base_url=self.base, headers=self.headers, timeout=15)
        self.rounds = rounds
        self.inbox: queue.Queue[tuple[str, dict[str, Any]]] = queue.Queue()
        self.stopping = threading.Event()
        self.table: int | None = None
        self.table_stream: threading.Thread | None = None
        self.rules: dict[int, dict[str, Any]] = {}
        self.played: set[int] = set()  # rounds submitted
        self.settled: list[int] = []  # rounds played to their settlement
        self.me = 0

    # --- HTTP -------------------------------------------------------------------------

    def call(self, method: str, path: str, body: Any = None, **params: Any) -> httpx.Response:
        """One request, resent after a network error (every operation used here is safe to
        resend: sit, leave, a submit with its ref) or a 429 (after its Retry-After)."""
        for attempt in range(RETRIES):
            try:
                response = self.http.request(method, path, json=body, params=params or None)
            except httpx.TransportError as exc:
                log(f"{method} {path}: {exc!r}, again")
                time.sleep(1 + attempt)
                continue
            if response.status_code == 429 and attempt < RETRIES - 1:
                time.sleep(float(response.headers.get("Retry-After", "1")))
                continue
            return response
        raise RuntimeError(f"{method} {path}: no answer after {RETRIES} tries")

    def follow(self, path: str, tag: str) -> None:
        """Put each line of a stream in the inbox; reconnect when it breaks (not when the
        server ended it for good: a revoked token, a table we may no longer watch)."""
        while not self.stopping.is_set():
            try:
                for event in self._lines(path):
                    self.inbox.put((tag, event))
                    if event.get("type") == "end" and event.get("reason") in {
                        "revoked",
                        "forbidden",
                    }:
                        return
            except (httpx.TransportError, httpx.HTTPStatusError) as exc:
                log(f"stream {path}: {exc!r}")
            if tag != "event" and tag != f"table:{self.table}":
                return  # a table we left
            time.sleep(2)

    def _lines(self, path: str) -> Iterator[dict[str, Any]]:
        timeout = httpx.Timeout(15, read=30)  # keep-alives every few seconds
        with (
            httpx.Client(base_url=self.base, headers=self.headers, timeout=timeout) as client,
            client.stream("GET", path) as response,
        ):
            if response.status_code != 200:
                response.read()
                log(f"stream {path}: {response.status_code} {response.text}")
                if response.status_code in (401, 403, 404):
                    yield {"type": "end", "reason": "forbidden"}
                    return
                time.sleep(float(response.headers.get("Retry-After", "2")))
                return
            for line in response.iter_lines():
                if self.stopping.is_set():
                    return
                if line.strip():
                    yield json.loads(line)

    def spawn(self, path: str, tag: str) -> threading.Thread:
        thread = threading.Thread(target=self.follow, args=(path, tag), daemon=True, name=tag)
        thread.start()
        return thread

    # --- Playing ----------------------------------------------------------------------

    def run(self) -> int:
        account = self.call("GET", "/api/account")
        if account.status_code != 200:
            log(f"the token does not work: {account.status_code} {account.text}")
            return 1
        self.me = account.json()["id"]
        log(f"playing as {account.json()['name']} (#{self.me})")
        self.spawn("/api/stream/event", "event")
        try:
            while not self.done():
                try:
                    # The event stream's first lines (a challenge, an invitation still
                    # open) come before looking for a table of its own.
                    tag, event = self.inbox.get(timeout=2)
                except queue.Empty:
                    if self.table is None:
                        self.find_a_table()
                    continue
                self.on_event(tag, event)
        except KeyboardInterrupt:
            log("Ctrl-C: leaving")
        except Revoked:
            log("the token was revoked: stopping")
            self.stopping.set()
            return 1
        finally:
            self.stopping.set()
            self.leave()
            self.http.close()
        return 0

    def done(self) -> bool:
        return self.rounds is not None and len(self.settled) >= self.rounds

    def find_a_table(self) -> None:
        page = self.call("GET", "/api/tables", bots="true", free="true")
        tables = page.json().get("tables", []) if page.status_code == 200 else []
        for row in tables:
            if self.sit(row["id"]):
                return
        created = self.call(
            "POST", "/api/tables", {"name": "Bàn của bot", "allow_bots": True, "stake": 10}
        )
        if created.status_code == 201 and created.json()["seated"]:
            self.at_table(created.json()["table"])
        else:
            log(f"no table for now: {created.status_code} {created.text}")
            time.sleep(5)

    def sit(self, table_id: int) -> bool:
        reply = self.call("POST", f"/api/tables/{table_id}/sit", {})
        if reply.status_code == 200:
            self.at_table(table_id)
            return True
        code = reply.json().get("error", {}).get("code") if reply.content else None
        log(f"not at table {table_id}: {code}")
        return False

    def at_table(self, table_id: int) -> None:
        self.table = table_id
        log(f"seated at table {table_id}")
        self.table_stream = self.spawn(f"/api/tables/{table_id}/stream", f"table:{table_id}")

    def leave(self) -> None:
        if self.table is not None:
            self.call("POST", f"/api/tables/{self.table}/leave")
            log(f"left table {self.table}")
            self.table = None

    def on_event(self, tag: str, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "end":
            log(f"{tag} ended: {event.get('reason')}")
            if event.get("reason") == "revoked":
                raise Revoked  # nothing more can be done with this token
            if tag == f"table:{self.table}":
                self.table = None  # find another table
        elif kind == "invitation" and event.get("table") and self.table != event["table"]:
            log(f"invited by {event['from']['name']} to table {event['table']}")
            previous = self.table
            self.leave()
            if not self.sit(event["table"]) and previous is not None:
                self.sit(previous)
        elif kind == "challenge" and event["state"] == "open" and event["to"]["user"] == self.me:
            self.accept(event)
        elif kind == "challenge_accepted" and event.get("table") not in (None, self.table):
            # One it made (through another program), accepted: it sits there already.
            log(f"challenge {event['id']} accepted by {event['to']['name']}")
            self.at_table(event["table"])
        elif kind == "round_dealt" and not event.get("submitted"):
            self.play(event["table"], event["round"], event["cards"], event.get("version"))
        elif kind == "snapshot":
            table = event["table"]
            self.rules[table] = event["info"]["rules"]
            current = event.get("round") or {}
            mine = current.get("you") or {}
            if (
                current.get("state") == "arranging"
                and mine.get("cards")
                and not mine.get("arrangement")
            ):
                self.play(table, current["id"], mine["cards"], event["version"])
        elif kind == "cards":
            self.play(event["table"], event["round"], event["cards"], event.get("version"))
        elif kind == "settled":
            if event["round"] in self.played and event["round"] not in self.settled:
                self.settled.append(event["round"])
                mine = [p for p in event["players"] if p.get("user") == self.me]
                xu = mine[0].get("xu") if mine else None
                log(f"round {event['round']} settled: {xu} xu ({len(self.settled)} played)")
        elif kind == "seat_left" and event.get("user") == self.me:
            log(f"stood up at table {event.get('table')}: {event.get('reason')}")
            self.table = None

    def accept(self, challenge: dict[str, Any]) -> None:
        """Accept a challenge to it: out of its seat first (one seat at a time), back there
        if the challenge cannot be accepted any more (expired, withdrawn)."""
        log(f"challenged by {challenge['from']['name']} at {challenge['stake']} xu a chi")
        previous = self.table
        self.leave()
        reply = self.call("POST", f"/api/challenges/{challenge['id']}/accept")
        if reply.status_code == 200:
            self.at_table(reply.json()["table"])
            return
        code = reply.json().get("error", {}).get("code") if reply.content else None
        log(f"challenge {challenge['id']} not accepted: {code}")
        if previous is not None:
            self.sit(previous)

    def play(self, table: int, round_id: int, cards: list[str], version: int | None) -> None:
        if round_id in self.played:
            return
        self.played.add(round_id)
        chi = arrange(cards, self.rules.get(table))
        body = {"chi": chi, "ref": f"round-{round_id}", "version": version}
        reply = self.call("POST", f"/api/rounds/{round_id}/submit", body)
        if reply.status_code == 409 and reply.json()["error"]["code"] == "stale_version":
            body["version"] = None  # the table moved on since: as things stand now
            reply = self.call("POST", f"/api/rounds/{round_id}/submit", body)
        if reply.status_code == 200:
            log(f"round {round_id}: submitted {chi}")
        else:
            log(f"round {round_id}: refused {reply.status_code} {reply.text}")


def log(text: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {text}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=None, help="stop after this many")
    args = parser.parse_args(argv)
    token = os.environ.get("MAUBINH_TOKEN", "")
    if not token:
        print("Set MAUBINH_TOKEN (a token with the play or bot:play scope).", file=sys.stderr)
        return 2
    base = os.environ.get("MAUBINH_URL", "http://127.0.0.1:8000")
    return Bot(base, token, args.rounds).run()


if __name__ == "__main__":
    sys.exit(main())
