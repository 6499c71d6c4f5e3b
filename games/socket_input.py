"""What a socket may send: a JSON text frame of bounded size and depth, at a bounded rate
(docs/protocol.md). Checked before a message is parsed further or acted on."""

from __future__ import annotations

import json
import time
from typing import Any

from django.utils.translation import gettext as _

# A client message is at most this many bytes of UTF-8 and this deep (docs/protocol.md);
# anything else is refused as ``malformed`` before it is parsed or acted on.
MAX_MESSAGE_BYTES = 16 * 1024
MAX_MESSAGE_DEPTH = 6


class TokenBucket:
    """At most ``rate`` messages a second on average, bursts of ``burst``."""

    def __init__(self, rate: float = 8.0, burst: int = 16) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.stamp = float(burst), time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def parse_message(text_data: str | None, bytes_data: bytes | None) -> dict[str, Any] | str:
    """The message as a dict with a string ``type``, or why it is refused (never raises)."""
    if text_data is None or bytes_data is not None:
        return _("A message is a JSON text frame.")
    if len(text_data) > MAX_MESSAGE_BYTES or _utf8_size(text_data) > MAX_MESSAGE_BYTES:
        return _("A message is at most 16 KiB.")
    try:
        content = json.loads(text_data)
    except (ValueError, RecursionError):
        return _("The message is not valid JSON.")
    if not isinstance(content, dict) or not isinstance(content.get("type"), str):
        return _("A message is a JSON object with a “type”.")
    if not _plain(content, MAX_MESSAGE_DEPTH):
        return _("The message is nested too deeply or holds characters that are not allowed.")
    return content


def _utf8_size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def _plain(value: Any, depth: int) -> bool:
    """Nested at most ``depth`` deep, with no NUL and no lone surrogate in any string."""
    if isinstance(value, str):
        return "\x00" not in value and not any("\ud800" <= c <= "\udfff" for c in value)
    if isinstance(value, dict | list):
        if depth <= 0:
            return False
        items = [*value.keys(), *value.values()] if isinstance(value, dict) else value
        return all(_plain(item, depth - 1) for item in items)
    return True
