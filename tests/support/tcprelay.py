"""A TCP relay on a thread of its own: a service that listens on loopback only (the shared
PostgreSQL) is reached at another address (a bridge that network namespaces are linked to,
tests/support/netns.py) without touching its configuration."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import Counter


class TcpRelay:
    """Listens on ``host`` (a free port) and pipes every connection to ``target``, for the
    duration of a ``with`` block."""

    def __init__(self, host: str, target: tuple[str, int]) -> None:
        self.host = host
        self.target = target
        self.port = 0
        self.peers: Counter[str] = Counter()  # connections relayed, by the client's address
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tcp-relay", daemon=True)
        self._failure: BaseException | None = None

    def __enter__(self) -> TcpRelay:
        self._thread.start()
        self._ready.wait(10)
        if self._failure is not None or not self.port:
            raise RuntimeError(f"the relay did not start: {self._failure!r}")
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            server = self._loop.run_until_complete(asyncio.start_server(self._relay, self.host, 0))
        except OSError as exc:
            self._failure = exc
            self._ready.set()
            return
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        try:
            self._loop.run_forever()
        finally:
            server.close()
            for task in asyncio.all_tasks(self._loop):
                task.cancel()
            self._loop.run_until_complete(asyncio.sleep(0))
            self._loop.close()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.peers[writer.get_extra_info("peername")[0]] += 1
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        await asyncio.gather(
            _pipe(reader, upstream_writer), _pipe(upstream_reader, writer), return_exceptions=True
        )


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Copy until either side ends, then close the writer: a client that dies (kill -9)
    ends its server connection too, as it would without the relay."""
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await writer.wait_closed()
