"""Addresses (collusion signals): each user's latest, and who sat at a table from where."""

from __future__ import annotations

from accounts.models import User
from games.models import Seat
from moderation.models import SeatIP, UserIP


def record_user_ip(user: User, ip: str) -> None:
    """Remember the address of the user's latest request (one row per user)."""
    UserIP.objects.update_or_create(user=user, defaults={"ip": ip})


def record_seat_ips(table_id: int) -> int:
    """Note the latest known address of everyone seated at this table now."""
    seated = Seat.objects.filter(table_id=table_id).values_list("user_id", flat=True)
    count = 0
    for row in UserIP.objects.filter(user_id__in=list(seated)):
        _seat_ip, created = SeatIP.objects.update_or_create(
            user_id=row.user_id, table_id=table_id, ip=row.ip
        )
        count += created
    return count
