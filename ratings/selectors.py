"""Reads of ratings: a player's rating per preset, and a preset's board by rating.

The board is one scan of the ``rating_board`` index (preset, display desc, user); a
player's own place is a count in the same index, less the few hidden players above.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from ratings.models import Rating


@dataclass(frozen=True)
class PresetRating:
    preset: str
    display: int
    rounds: int


def ratings_of(user: User) -> list[PresetRating]:
    """The player's rating at each preset they have a rated round in."""
    return [
        PresetRating(preset, display, rounds)
        for preset, display, rounds in Rating.objects.filter(user=user)
        .order_by("preset")
        .values_list("preset", "display", "rounds")
    ]


def top(preset: str, size: int) -> list[tuple[int, str, int]]:
    """The best ``size`` people at a preset, best first, as (user id, name, rating); bots,
    deactivated and suspended players are not ranked."""
    rows = (
        Rating.objects.filter(
            preset=preset, user__is_bot=False, user__is_api_bot=False, user__is_active=True
        )
        .filter(
            Q(user__suspended_until__isnull=True) | Q(user__suspended_until__lte=timezone.now())
        )
        .order_by("-display", "user_id")
        .values_list("user_id", "user__display_name", "user__username", "display")[:size]
    )
    return [
        (user_id, display_name or username, value)
        for user_id, display_name, username, value in rows
    ]


def place_of(user: User, preset: str, hidden: Collection[int]) -> tuple[int, int] | None:
    """The player's own (place, rating) on the board, also far below the top: equal ratings
    share a place. None if unrated or hidden. ``hidden``: the players never ranked now
    (bots, deactivated, suspended), who push nobody down."""
    if user.pk in hidden:
        return None
    rows = Rating.objects.filter(preset=preset)
    value = rows.filter(user=user).values_list("display", flat=True).first()
    if value is None:
        return None
    ahead = rows.filter(display__gt=value).count()
    ahead -= rows.filter(display__gt=value, user_id__in=list(hidden)).count() if hidden else 0
    return ahead + 1, value
