"""A scripted player for integration tests and benchmarks: HTTP login, then a websocket."""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import re
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import websockets

CARD = re.compile(r"^(10|[2-9TJQKA])[SCDH]$")


def run_async(coroutine: Any) -> Any:
    """``asyncio.run`` on a thread of its own: safe even when a test runner (Playwright's
    sync API, for one) keeps an event loop running on the main thread."""
    with ThreadPoolExecutor(max_workers=1) as executor:
        return executor.submit(asyncio.run, coroutine).result()


def login(base: str, username: str, password: str) -> str:
    """Log in through the real login form; return the Cookie header for the websocket."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(base + "/accounts/login/", timeout=15).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token, "no CSRF token on the login page"
    body = urllib.parse.urlencode(
        {"username": username, "password": password, "csrfmiddlewaretoken": token.group(1)}
    ).encode()
    request = urllib.request.Request(
        base + "/accounts/login/", data=body, headers={"Referer": base + "/", "Origin": base}
    )
    opener.open(request, timeout=15).read()
    cookies = {c.name: c.value for c in jar}
    assert "sessionid" in cookies, f"login failed for {username}"
    return "; ".join(f"{k}={v}" for k, v in cookies.items())


def card_strings(value: Any) -> set[str]:
    """Every card-looking string anywhere inside a JSON value."""
    found: set[str] = set()
    if isinstance(value, str):
        if CARD.match(value):
            found.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            found |= card_strings(item)
    elif isinstance(value, list):
        for item in value:
            found |= card_strings(item)
    return found


class SocketClosed(ConnectionError):
    """The socket closed while a message was awaited: it will never come on this one."""


class Player:
    """One websocket connection at a table, recording everything it receives."""

    def __init__(self, base: str, cookie: str, table_id: int, name: str = "") -> None:
        self.url = base.replace("http://", "ws://") + f"/ws/tables/{table_id}/"
        self.origin = base
        self.cookie = cookie
        self.name = name
        self.received: list[dict[str, Any]] = []
        self._taken: set[int] = set()
        self._scan_from = 0
        self._arrived = asyncio.Event()
        self.ws: Any = None
        self._reader: asyncio.Task[None] | None = None
        self.closed = False
        self.gone = asyncio.Event()  # set once the socket has closed
        self.version = 0

    async def connect(self) -> dict[str, Any]:
        self.ws = await websockets.connect(
            self.url,
            additional_headers={"Cookie": self.cookie},
            origin=self.origin,  # type: ignore[arg-type]
            open_timeout=15,
            max_size=2**22,
        )
        self._reader = asyncio.create_task(self._read())
        return await self.wait_for(lambda m: m["type"] == "snapshot")

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                message = json.loads(raw)
                message["_at"] = time.monotonic()
                if isinstance(message.get("version"), int) and message["type"] != "error":
                    self.version = max(self.version, message["version"])
                self.received.append(message)
                self._arrived.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed = True
            self.gone.set()
            self._arrived.set()  # a wait for a message that cannot come now ends

    async def send(self, **message: Any) -> None:
        try:
            await self.ws.send(json.dumps(message))
        except websockets.ConnectionClosed as exc:
            raise SocketClosed(f"{self.name}: the socket closed") from exc

    async def send_raw(self, text: str) -> None:
        await self.ws.send(text)

    async def wait_for(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 20.0
    ) -> dict[str, Any]:
        """The earliest message not yet taken that matches (waiting for it if need be).

        Messages another wait skipped stay available, so an event that arrives before the
        reply to a request (``cards`` before the ``ok`` of ``start``) is not lost.
        """
        deadline = time.monotonic() + timeout
        while True:
            self._arrived.clear()  # before scanning, so an arrival during the scan wakes us
            for index in range(self._scan_from, len(self.received)):
                if index not in self._taken and predicate(self.received[index]):
                    self._taken.add(index)
                    while self._scan_from in self._taken:
                        self._scan_from += 1
                    return self.received[index]
            if self.closed:
                raise SocketClosed(f"{self.name}: the socket closed")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                kinds = [m.get("type") for m in self.received[-15:]]
                raise TimeoutError(f"{self.name}: nothing matched; last messages {kinds}")
            try:
                await asyncio.wait_for(self._arrived.wait(), remaining)
            except TimeoutError:
                continue

    def forget_through(self, message: dict[str, Any]) -> None:
        """Drop every message received up to and including ``message`` (one a wait took):
        a player that plays for minutes keeps only what it may still wait for."""
        for index in range(len(self.received) - 1, -1, -1):
            if self.received[index] is message:
                break
        else:
            return
        cut = index + 1
        del self.received[:cut]
        self._taken = {i - cut for i in self._taken if i >= cut}
        self._scan_from = max(0, self._scan_from - cut)
        while self._scan_from in self._taken:
            self._scan_from += 1

    async def request(self, timeout: float = 20.0, **message: Any) -> dict[str, Any]:
        """Send a message with a fresh ref and wait for its ok or error."""
        ref = f"r{time.monotonic_ns()}"
        await self.send(ref=ref, **message)
        return await self.wait_for(
            lambda m: m.get("ref") == ref and m["type"] in {"ok", "error"}, timeout
        )

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await asyncio.wait([self._reader], timeout=5)
