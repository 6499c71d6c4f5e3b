"""The Redis pub/sub channel layer (channels_redis), with two changes for a busy server.

- **A leaving consumer's clean-up cannot be cut short.** channels_redis unsubscribes a
  consumer's channel inside the consumer's own ``receive`` when it is cancelled, and waits
  there for the shard's lock. A second cancel while it waits (daphne killing an instance
  that is slow to close, during a reconnect storm after a restart) interrupts the
  unsubscribe: it logs "Unexpected exception while cleaning-up channel" (a CancelledError)
  and leaves the channel subscribed on Redis for the rest of the process's life. Here the
  unsubscribe runs in a task of its own, which nothing cancels; the consumer leaves at once.
- **Publishing does not take the shard's lock.** channels_redis holds one lock per Redis
  connection for every publish, subscribe and unsubscribe, so a process's broadcasts went
  out one round trip at a time behind each other and behind a storm of (un)subscribes.
  A publish needs no lock: the Redis client takes a connection from its pool per command.

Messages, channels, groups and the wire format are channels_redis's own; only these two
paths differ. ``tests/site/test_channel_layer.py`` shows both against a real Redis.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from channels_redis import pubsub
from channels_redis.pubsub import RedisPubSubLoopLayer, RedisSingleShardConnection
from channels_redis.utils import _wrap_close

logger = logging.getLogger(__name__)


class _Shard(RedisSingleShardConnection):  # type: ignore[misc]
    async def publish(self, channel: str, message: bytes) -> None:
        self._ensure_redis()
        await self._redis.publish(channel, message)


class _LoopLayer(RedisPubSubLoopLayer):  # type: ignore[misc]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shards: list[_Shard] = [_Shard(shard.host, self) for shard in self._shards]
        self._leaving: set[asyncio.Task[None]] = set()

    async def receive(self, channel: str) -> Any:
        if channel not in self.channels:
            await self._subscribe_to_channel(channel)
        queue = self.channels[channel]
        try:
            message = await queue.get()
        except (TimeoutError, asyncio.CancelledError, GeneratorExit):
            # The consumer is leaving (Channels cancels its receive): unsubscribe in a
            # task of its own, so that a second cancel cannot stop it halfway.
            if self.channels.pop(channel, None) is not None:
                self._unsubscribe_later(channel)
            raise
        return self.channel_layer.deserialize(message)

    def _unsubscribe_later(self, channel: str) -> None:
        task = asyncio.get_running_loop().create_task(self._get_shard(channel).unsubscribe(channel))
        self._leaving.add(task)
        task.add_done_callback(self._left)

    def _left(self, task: asyncio.Task[None]) -> None:
        self._leaving.discard(task)
        if not task.cancelled() and task.exception() is not None:
            # Redis was unreachable: the channel stays subscribed until the connection
            # drops (its messages, if any, are dropped here: no queue reads them).
            logger.warning("could not unsubscribe a closed channel: %r", task.exception())

    async def flush(self) -> None:
        if self._leaving:
            await asyncio.gather(*self._leaving, return_exceptions=True)
        await super().flush()


class RedisPubSubChannelLayer(pubsub.RedisPubSubChannelLayer):  # type: ignore[misc]
    """``channels_redis.pubsub.RedisPubSubChannelLayer`` with the changes above."""

    def _get_layer(self) -> _LoopLayer:
        loop = asyncio.get_running_loop()
        layer: _LoopLayer | None = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = _LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
        return layer
