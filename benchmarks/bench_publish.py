"""The CPU of one Celery publish (``apply_async``) on the site's broker transport, against
kombu's own, side by side: what ``maubinh_site/broker.py`` saves.

    .venv/bin/python benchmarks/bench_publish.py [--redis redis://127.0.0.1:6379/0] [--batches 15]

Sends ``advance_round_task`` with an eta a day ahead (as ``games.services.timers`` does) in
batches of ``--size``, alternating kombu's transport and the kept client, under a key
prefix of its own (deleted at the end; nothing consumes it). Prints, for each side, the
Redis clients built per publish and the CPU per publish (process time: minimum, first
quartile, median over the batches; on a shared machine read the minimum).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    parser.add_argument("--batches", type=int, default=15)
    parser.add_argument("--size", type=int, default=200)
    args = parser.parse_args()
    prefix = f"bench-publish-{uuid.uuid4().hex[:8]}"
    os.environ.update(REDIS_URL=args.redis, REDIS_PREFIX=prefix, DEBUG="false")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "maubinh_site.settings")
    os.environ.setdefault("SECRET_KEY", "bench-publish-" + "x" * 50)
    os.environ.setdefault("DATABASE_URL", "sqlite:///:memory:")

    import django

    django.setup()
    import redis
    from kombu.transport import redis as kombu_redis

    from games.tasks import advance_round_task
    from maubinh_site import broker

    sides = {"kombu": kombu_redis.Channel.conn_or_acquire, "kept": broker.Channel.conn_or_acquire}
    built = [0]
    original = redis.Redis.__init__

    def counting(self: redis.Redis, *a: object, **k: object) -> None:
        built[0] += 1
        original(self, *a, **k)  # type: ignore[arg-type]

    redis.Redis.__init__ = counting  # type: ignore[method-assign]
    eta = datetime.now(UTC) + timedelta(days=1)
    advance_round_task.apply_async((0, "showdown", 0), eta=eta)  # connect once
    cpu: dict[str, list[float]] = {side: [] for side in sides}
    clients: dict[str, int] = dict.fromkeys(sides, 0)
    try:
        for _ in range(args.batches):
            for side, conn_or_acquire in sides.items():
                broker.Channel.conn_or_acquire = conn_or_acquire  # type: ignore[method-assign]
                built[0] = 0
                start = time.process_time()
                for i in range(args.size):
                    advance_round_task.apply_async((0, "showdown", i), eta=eta)
                cpu[side].append((time.process_time() - start) / args.size * 1e6)
                clients[side] += built[0]
    finally:
        server = redis.Redis.from_url(args.redis)
        for key in server.scan_iter(f"{prefix}:*"):
            server.delete(key)
    publishes = args.batches * args.size
    for side, values in cpu.items():
        values.sort()
        print(
            f"{side:5}: {clients[side] / publishes:.2f} Redis clients built a publish; CPU a "
            f"publish min {values[0]:.0f} us, p25 {values[len(values) // 4]:.0f} us, "
            f"median {statistics.median(values):.0f} us"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
