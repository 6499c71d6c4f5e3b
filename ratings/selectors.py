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


@dataclass(frozen=True)
class RatingEntry:
    rank: int
    user_id: int
    name: str
    value: int


def ratings_of(user: User) -> list[PresetRating]:
    """The player's rating at each preset they have a rated round in."""
    return [
        PresetRating(preset, display, rounds)
        for preset, display, rounds in Rating.objects.filter(user=user)
        .order_by("preset")
        .values_list("preset", "display", "rounds")
    ]


def board(preset: str, size: int) -> list[RatingEntry]:
    """The best ``size`` people at a preset; bots, deactivated and suspended players are
    not ranked. Equal ratings share a place (1, 2, 2, 4)."""
    rows = (
        Rating.objects.filter(preset=preset, user__is_bot=False, user__is_active=True)
        .filter(
            Q(user__suspended_until__isnull=True) | Q(user__suspended_until__lte=timezone.now())
        )
        .order_by("-display", "user_id")
        .values_list("user_id", "user__display_name", "user__username", "display")[:size]
    )
    entries: list[RatingEntry] = []
    for i, (user_id, display_name, username, value) in enumerate(rows):
        tied = entries and entries[-1].value == value
        rank = entries[-1].rank if tied else i + 1
        entries.append(RatingEntry(rank, user_id, display_name or username, value))
    return entries


def rank_of(user: User, preset: str, hidden: Collection[int]) -> RatingEntry | None:
    """The player's own place on the board (also far below the top); None if unrated or
    hidden. ``hidden``: the players never ranked now (bots, deactivated, suspended)."""
    if user.pk in hidden:
        return None
    rows = Rating.objects.filter(preset=preset)
    value = rows.filter(user=user).values_list("display", flat=True).first()
    if value is None:
        return None
    ahead = rows.filter(display__gt=value).count()
    ahead -= rows.filter(display__gt=value, user_id__in=list(hidden)).count() if hidden else 0
    return RatingEntry(ahead + 1, user.pk, user.shown_name, value)
