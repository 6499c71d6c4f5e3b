"""Names: accounts by natural key, transfers by idempotency key.

A key names what a transfer is for ("hold:1001:42"), so repeating an operation finds the
first one instead of posting twice.
"""

from __future__ import annotations

import zlib
from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.utils import timezone

from ledger.models import SYSTEM_SHARDS

# The daily bonus resets at midnight in Vietnam, wherever the server runs.
BONUS_TIMEZONE = ZoneInfo("Asia/Ho_Chi_Minh")


def wallet_key(user_id: int) -> str:
    return f"wallet:{user_id}"


def escrow_key(round_id: int) -> str:
    return f"escrow:{round_id}"


def pool_key(tournament_id: int) -> str:
    return f"pool:{tournament_id}"


def prize_hold_key(tournament_id: int) -> str:
    return f"prize_hold:{tournament_id}"


def shard_of(transfer_key: str) -> int:
    # Stable across processes and restarts (unlike hash()), so a retry hits the same row.
    return zlib.crc32(transfer_key.encode()) % SYSTEM_SHARDS


def issuance_key(transfer_key: str) -> str:
    return f"issuance:{shard_of(transfer_key)}"


def house_key(transfer_key: str) -> str:
    return f"house:{shard_of(transfer_key)}"


def bonus_day(now: datetime | None = None) -> date:
    return timezone.localtime(now or timezone.now(), BONUS_TIMEZONE).date()


def daily_bonus_key(user_id: int, day: date) -> str:
    return f"daily_bonus:{user_id}:{day.isoformat()}"
