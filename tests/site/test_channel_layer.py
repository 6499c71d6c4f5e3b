"""The site's Redis pub/sub channel layer (maubinh_site.channel_layer) against a real Redis."""

import asyncio
import logging
import uuid

import pytest
import redis
import redis.asyncio
import redis.asyncio.connection

from maubinh_site.channel_layer import RedisPubSubChannelLayer
from tests.support.services import TEST_REDIS_URL

pytestmark = pytest.mark.redis


def _layer() -> RedisPubSubChannelLayer:
    return RedisPubSubChannelLayer(hosts=[TEST_REDIS_URL], prefix=f"test-{uuid.uuid4().hex[:8]}:")


def _subscribers(channel: str) -> int:
    server = redis.Redis.from_url(TEST_REDIS_URL)
    try:
        return dict(server.pubsub_numsub(channel))[channel.encode()]
    finally:
        server.close()


async def _until(condition, seconds: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.02)


def test_a_consumer_cancelled_twice_while_leaving_still_unsubscribes_and_logs_no_error(caplog):
    """During a reconnect storm the shard's lock is busy; daphne may cancel a slow-closing
    consumer a second time while its channel waits for that lock to be unsubscribed."""
    caplog.set_level(logging.WARNING)

    async def scenario() -> None:
        layer = _layer()
        channel = await layer.new_channel()
        shard = layer._get_layer()._get_shard(channel)
        await _until(lambda: _subscribers(channel) == 1)
        receiving = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(0.05)
        await shard._lock.acquire()  # the lock is busy, as in a storm of (un)subscribes
        try:
            receiving.cancel()
            await asyncio.sleep(0.05)
            receiving.cancel()  # daphne gives up on the instance
            with pytest.raises(asyncio.CancelledError):
                await receiving
        finally:
            shard._lock.release()
        await _until(lambda: _subscribers(channel) == 0)
        await layer.flush()

    asyncio.run(scenario())
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


def test_messages_and_group_events_still_arrive_in_order():
    async def scenario() -> None:
        layer = _layer()
        first, second = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("table-1", first)
        await layer.group_add("table-1", second)
        await layer.send(first, {"type": "direct", "n": 0})
        # Published concurrently (no lock between them), received in the order sent.
        for n in range(1, 51):
            await layer.group_send("table-1", {"type": "event", "n": n})
        got_first = [(await layer.receive(first))["n"] for _ in range(51)]
        got_second = [(await layer.receive(second))["n"] for _ in range(50)]
        assert got_first == list(range(51))
        assert got_second == list(range(1, 51))
        await layer.group_discard("table-1", first)
        await layer.group_send("table-1", {"type": "event", "n": 99})
        assert (await layer.receive(second))["n"] == 99
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(layer.receive(first), 0.3)
        await layer.flush()

    asyncio.run(scenario())


def test_concurrent_publishes_do_not_wait_for_each_other_behind_the_shards_lock():
    async def scenario() -> None:
        layer = _layer()
        channel = await layer.new_channel()
        shard = layer._get_layer()._get_shard(channel)
        await shard._lock.acquire()  # a subscribe in progress
        try:
            await asyncio.wait_for(layer.send(channel, {"type": "event", "n": 1}), 2)
        finally:
            shard._lock.release()
        assert (await asyncio.wait_for(layer.receive(channel), 2))["n"] == 1
        await layer.flush()

    asyncio.run(scenario())


def test_a_services_broadcasts_reuse_one_redis_client_and_connection(settings, monkeypatch, caplog):
    """games.events sends from service threads through one loop per process, so the
    layer's Redis client and its pooled connection are built once, not once a publish."""
    from games import events

    caplog.set_level(logging.WARNING)
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "maubinh_site.channel_layer.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [TEST_REDIS_URL], "prefix": f"test-{uuid.uuid4().hex[:8]}:"},
        }
    }
    events._send("table-1", {"type": "probe", "version": 0})  # the loop's layer and client
    built: list[str] = []

    def counting(cls: type) -> None:
        original = cls.__init__

        def init(self: object, *args: object, **kwargs: object) -> None:
            built.append(cls.__name__)
            original(self, *args, **kwargs)

        monkeypatch.setattr(cls, "__init__", init)

    counting(redis.asyncio.Redis)
    counting(redis.asyncio.connection.AbstractConnection)
    for version in range(1, 51):
        events._send("table-1", {"type": "probe", "version": version})
    assert built == []
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
