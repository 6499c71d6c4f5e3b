"""The NDJSON streams (``table_stream``, ``events_stream``): docs/api.md#streams.

Register the stream operations on ``router`` below: ``api.core`` adds it to the API
(``api.add_router("", streams.router)``), so they share the API's prefix (/api/), its
OpenAPI document and its error shape. Authenticate with ``api.auth.authenticate_bearer``
(sync: call it through ``database_sync_to_async``), hold a place with
``api.limits.acquire_stream`` (``TooManyStreams`` -> 429 with ``Retry-After``; renew the
lease with each keep-alive, release it when the stream ends) and check
``api.auth.grant_still_valid`` while the stream is open (a revoked token stops at once).
"""

from __future__ import annotations

from ninja import Router

router = Router(tags=["streams"])
