"""A reader of the API's NDJSON streams for tests and benchmarks (httpx, asyncio)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from typing import Any

import httpx


class Feed:
    """One open stream, read in the background: its status, its frames (parsed, with the
    monotonic time each arrived) and its keep-alives, until it ends or is closed."""

    def __init__(self, base: str, token: str, path: str) -> None:
        self.url = base.rstrip("/") + path
        self.headers = {"Authorization": f"Bearer {token}", "Accept-Language": "en"}
        self.status: int | None = None
        self.response_headers: httpx.Headers | None = None
        self.body: Any = None  # a refusal's JSON
        self.frames: list[dict[str, Any]] = []
        self.arrived: list[float] = []
        self.keepalives = 0
        self.ended = asyncio.Event()  # the server closed it (or it broke)
        self.error: BaseException | None = None
        self._opened = asyncio.Event()
        self._changed = asyncio.Condition()
        self._task: asyncio.Task[None] | None = None
        self.on_frame: Callable[[dict[str, Any], float], None] | None = None

    async def open(self, client: httpx.AsyncClient | None = None, timeout: float = 20) -> Feed:
        self._task = asyncio.get_running_loop().create_task(self._read(client))
        await asyncio.wait_for(self._opened.wait(), timeout)
        return self

    async def _read(self, client: httpx.AsyncClient | None) -> None:
        own = client is None
        if client is None:
            client = httpx.AsyncClient(timeout=httpx.Timeout(20, read=30))
        try:
            async with client.stream("GET", self.url, headers=self.headers) as response:
                self.status = response.status_code
                self.response_headers = response.headers
                if response.status_code != 200:
                    raw = await response.aread()
                    try:
                        self.body = json.loads(raw)
                    except ValueError:
                        self.body = raw.decode(errors="replace")[:300]
                    self._opened.set()
                    return
                self._opened.set()
                async for line in response.aiter_lines():
                    now = time.monotonic()
                    if not line.strip():
                        self.keepalives += 1
                        continue
                    frame = json.loads(line)
                    self.frames.append(frame)
                    self.arrived.append(now)
                    if self.on_frame is not None:
                        self.on_frame(frame, now)
                    async with self._changed:
                        self._changed.notify_all()
        except (httpx.HTTPError, OSError) as exc:
            self.error = exc
        finally:
            self._opened.set()
            self.ended.set()
            async with self._changed:
                self._changed.notify_all()
            if own:
                await client.aclose()

    async def wait_for(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 30, start: int = 0
    ) -> dict[str, Any]:
        """The first frame from index ``start`` on that matches (waiting for it)."""
        seen = start

        async def found() -> dict[str, Any]:
            nonlocal seen
            async with self._changed:
                while True:
                    while seen < len(self.frames):
                        frame = self.frames[seen]
                        seen += 1
                        if predicate(frame):
                            return frame
                    if self.ended.is_set():
                        raise AssertionError(f"the stream ended: {self.frames[-3:]}")
                    await self._changed.wait()

        return await asyncio.wait_for(found(), timeout)

    async def close(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
