"""The stack's floor (benchmarks/bench_floor.py): a relay that only passes on a real round's
messages, served by daphne on the Redis channel layer, with no database and no Celery.

``record`` plays one round through the real services and keeps what each step sent
(``round.json``); ``relay`` is the consumer that replays it; ``asgi`` serves it. Nothing in
the product imports this package.
"""
