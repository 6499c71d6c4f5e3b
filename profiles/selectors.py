"""Reads behind profiles, the statistics page and the leaderboards (all from the summary).

Every query here is one index scan of ``PeriodTotal`` or ``RoundStat`` for one player or
one board; benchmarks/bench_leaderboards.py measures them at a million rounds.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Max, Q, QuerySet, Sum
from django.utils import timezone
from django.utils.translation import get_language

from accounts.models import User
from games.rules.instant import INSTANT_NAMES
from profiles.models import (
    ALL_TIME,
    Period,
    PeriodTotal,
    Profile,
    RoundStat,
    ScoopKind,
    StakeCount,
)
from profiles.services import BOARDS_GENERATION, period_starts
from ratings import selectors as ratings

RECENT_ROUNDS = 10


class Board:
    NET = "net"
    ROUNDS = "rounds"
    ORDER = {NET: "net_xu", ROUNDS: "rounds"}


@dataclass(frozen=True)
class Figures:
    rounds: int
    net_xu: int
    net_7_days: int
    net_30_days: int
    biggest_win: int
    chi_share: tuple[float | None, float | None, float | None]
    """Per chi: the share of chi contests (one per opponent) the player took."""
    foul_rate: float | None
    favourite_stake: int | None
    instants: list[tuple[str, int]]
    """(mậu binh name in the current language, rounds won with it), most first."""
    scoops: list[tuple[str, int]]


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def figures(user: User, today: date | None = None) -> Figures:
    """Every figure of a player's profile."""
    today = today or timezone.localdate()
    # One index range of the player's rows: the all-time rows and the last 30 days.
    every = Q(period=Period.ALL, start=ALL_TIME)
    month = Q(period=Period.DAY, start__gte=today - timedelta(days=29), start__lte=today)
    week = Q(period=Period.DAY, start__gte=today - timedelta(days=6), start__lte=today)
    total = PeriodTotal.objects.filter(every | month, user=user).aggregate(
        rounds=Sum("rounds", filter=every),
        net=Sum("net_xu", filter=every),
        contests=Sum("contests", filter=every),
        chi1=Sum("chi1_won", filter=every),
        chi2=Sum("chi2_won", filter=every),
        chi3=Sum("chi3_won", filter=every),
        fouls=Sum("fouls", filter=every),
        biggest=Max("biggest_win", filter=every),
        net_30=Sum("net_xu", filter=month),
        net_7=Sum("net_xu", filter=week),
    )
    rounds, contests = total["rounds"] or 0, total["contests"] or 0
    stake = (
        StakeCount.objects.filter(user=user)
        .order_by("-rounds", "-stake")
        .values_list("stake", flat=True)
        .first()
    )
    return Figures(
        rounds=rounds,
        net_xu=total["net"] or 0,
        net_7_days=total["net_7"] or 0,
        net_30_days=total["net_30"] or 0,
        biggest_win=max(total["biggest"] or 0, 0),
        chi_share=(
            _share(total["chi1"] or 0, contests),
            _share(total["chi2"] or 0, contests),
            _share(total["chi3"] or 0, contests),
        ),
        foul_rate=_share(total["fouls"] or 0, rounds),
        favourite_stake=stake,
        instants=_instants(user),
        scoops=_scoops(user),
    )


def _instants(user: User) -> list[tuple[str, int]]:
    english = (get_language() or "vi").startswith("en")
    rows = (
        RoundStat.objects.filter(user=user)
        .exclude(instant_kind="")
        .values_list("instant_kind")
        .annotate(n=Count("*"))
        .order_by("-n", "instant_kind")
    )
    return [(INSTANT_NAMES.get(kind, (kind, kind))[int(english)], n) for kind, n in rows]


def _scoops(user: User) -> list[tuple[str, int]]:
    rows = dict(
        RoundStat.objects.filter(user=user)
        .exclude(scoop_kind="")
        .values_list("scoop_kind")
        .annotate(n=Count("*"))
    )
    return [(str(kind.label), rows.get(kind.value, 0)) for kind in ScoopKind]


def recent_rounds(
    user: User, limit: int = RECENT_ROUNDS, *, viewer: Any = None
) -> QuerySet[RoundStat]:
    """The player's last settled rounds at public tables (private tables are never listed).

    Seen by anyone but the player, a round of a duplicate board not revealed yet is not
    listed either: its result would tell how good a hand was that the viewer may still be
    dealt (docs/duplicate.md)."""
    rows = RoundStat.objects.filter(user=user, round__table__is_private=False)
    if getattr(viewer, "pk", None) != user.pk:
        rows = rows.exclude(round__board__isnull=False, round__board__revealed_at__isnull=True)
    return (
        rows.select_related("round", "round__table")
        .only(
            "round_id",
            "settled_at",
            "net_xu",
            "stake",
            "preset",
            "round__number",
            "round__table__name",
        )
        .order_by("-settled_at")[:limit]
    )


def profile_of(user: User) -> Profile:
    """The player's choices, or the defaults when they never changed anything."""
    return Profile.objects.filter(user=user).first() or Profile(user=user)


@dataclass(frozen=True)
class DayPoint:
    day: date
    rounds: int
    net_xu: int


def daily_history(user: User, days: int = 30, today: date | None = None) -> list[DayPoint]:
    """The player's figures for each of the last ``days`` days (zeros included), oldest first."""
    today = today or timezone.localdate()
    first = today - timedelta(days=days - 1)
    rows = (
        PeriodTotal.objects.filter(user=user, period=Period.DAY, start__gte=first, start__lte=today)
        .values("start")
        .annotate(rounds=Sum("rounds"), net=Sum("net_xu"))
    )
    found = {r["start"]: r for r in rows}
    points = []
    for i in range(days):
        day = first + timedelta(days=i)
        row = found.get(day)
        points.append(DayPoint(day, row["rounds"] if row else 0, row["net"] if row else 0))
    return points


@dataclass(frozen=True)
class WeekPoint:
    week: date
    rounds: int
    net_xu: int
    chi_share: tuple[float | None, float | None, float | None]
    foul_rate: float | None


def weekly_history(user: User, weeks: int = 12, today: date | None = None) -> list[WeekPoint]:
    """The player's figures for each of the last ``weeks`` ISO weeks with play, oldest first."""
    today = today or timezone.localdate()
    monday = today - timedelta(days=today.weekday())
    rows = (
        PeriodTotal.objects.filter(
            user=user, period=Period.WEEK, start__gte=monday - timedelta(weeks=weeks - 1)
        )
        .values("start")
        .annotate(
            rounds=Sum("rounds"),
            net=Sum("net_xu"),
            contests=Sum("contests"),
            chi1=Sum("chi1_won"),
            chi2=Sum("chi2_won"),
            chi3=Sum("chi3_won"),
            fouls=Sum("fouls"),
        )
        .order_by("start")
    )
    return [
        WeekPoint(
            r["start"],
            r["rounds"],
            r["net"],
            (
                _share(r["chi1"], r["contests"]),
                _share(r["chi2"], r["contests"]),
                _share(r["chi3"], r["contests"]),
            ),
            _share(r["fouls"], r["rounds"]),
        )
        for r in rows
    ]


# --- Leaderboards ---------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    rank: int
    user_id: int
    name: str
    value: int


def _ranked(period: str, preset: str, start: date) -> QuerySet[PeriodTotal]:
    """The board's rows for players who may appear: people, active, not suspended now."""
    return PeriodTotal.objects.filter(
        period=period,
        preset=preset,
        start=start,
        user__is_bot=False,
        user__is_api_bot=False,
        user__is_active=True,
    ).filter(Q(user__suspended_until__isnull=True) | Q(user__suspended_until__lte=timezone.now()))


def _start(period: str) -> date:
    return period_starts(timezone.now())[period]


def _cache_key(*parts: object) -> str:
    generation = cache.get(BOARDS_GENERATION, 0)
    return ":".join(["profiles", "board", str(generation), *map(str, parts)])


def board(kind: str, period: str, preset: str) -> list[Entry]:
    """The top PROFILES_BOARD_SIZE players; cached (docs/profiles.md says how it refreshes)."""
    start = _start(period)
    key = _cache_key(kind, period, preset, start.isoformat())
    entries: list[Entry] | None = cache.get(key)
    if entries is None:
        entries = _board(kind, period, preset, start)
        cache.set(key, entries, settings.PROFILES_BOARD_CACHE_SECONDS)
    return entries


def _board(kind: str, period: str, preset: str, start: date) -> list[Entry]:
    column = Board.ORDER[kind]
    rows = (
        _ranked(period, preset, start)
        .order_by(f"-{column}", "user_id")
        .values_list("user_id", "user__display_name", "user__username", column)[
            : settings.PROFILES_BOARD_SIZE
        ]
    )
    return _with_ranks(
        [(user_id, display or username, v) for user_id, display, username, v in rows]
    )


def _with_ranks(rows: list[tuple[int, str, int]]) -> list[Entry]:
    """(user id, name, value) rows, best first, with their ranks."""
    entries: list[Entry] = []
    for i, (user_id, name, value) in enumerate(rows):
        # Equal values share a rank (1, 2, 2, 4), as rank_of counts them.
        tied = entries and entries[-1].value == value
        rank = entries[-1].rank if tied else i + 1
        entries.append(Entry(rank, user_id, name, value))
    return entries


def rating_board(preset: str) -> list[Entry]:
    """The top PROFILES_BOARD_SIZE players by rating at a preset (cached for the TTL:
    ratings change at every settlement, not with the recording task's generation)."""
    key = f"profiles:board:rating:{preset}"
    entries: list[Entry] | None = cache.get(key)
    if entries is None:
        entries = _with_ranks(ratings.top(preset, settings.PROFILES_BOARD_SIZE))
        cache.set(key, entries, settings.PROFILES_BOARD_CACHE_SECONDS)
    return entries


def rating_rank_of(user: User, preset: str) -> Entry | None:
    """The player's own place on the rating board (not cached: one index count)."""
    found = ratings.place_of(user, preset, hidden_players())
    return None if found is None else Entry(found[0], user.pk, user.shown_name, found[1])


def rank_of(user: User, kind: str, period: str, preset: str) -> Entry | None:
    """The player's own place on a board (also far below the top); None if not on it."""
    start = _start(period)
    key = _cache_key("rank", user.pk, kind, period, preset, start.isoformat())
    found: Any = cache.get(key)
    if found is None:
        found = _rank_of(user, kind, period, preset, start) or False
        cache.set(key, found, settings.PROFILES_BOARD_CACHE_SECONDS)
    return found or None


def _rank_of(user: User, kind: str, period: str, preset: str, start: date) -> Entry | None:
    column = Board.ORDER[kind]
    if user.pk in hidden_players():
        return None
    board_rows = PeriodTotal.objects.filter(period=period, preset=preset, start=start)
    value = board_rows.filter(user=user).values_list(column, flat=True).first()
    if value is None:
        return None
    # Everyone above, counted in the board's index alone, less the few hidden players
    # above (bots, suspended): no join over what may be every player of the site.
    ahead = board_rows.filter(**{f"{column}__gt": value}).count()
    ahead -= sum(1 for hidden in _hidden_values(kind, period, preset, start) if hidden > value)
    return Entry(ahead + 1, user.pk, user.shown_name, value)


def _hidden_values(kind: str, period: str, preset: str, start: date) -> list[int]:
    """The hidden players' values on a board (cached as the boards are)."""
    key = _cache_key("hidden", kind, period, preset, start.isoformat())
    found: list[int] | None = cache.get(key)
    if found is None:
        found = list(
            PeriodTotal.objects.filter(
                period=period, preset=preset, start=start, user_id__in=hidden_players()
            ).values_list(Board.ORDER[kind], flat=True)
        )
        cache.set(key, found, settings.PROFILES_BOARD_CACHE_SECONDS)
    return found


def hidden_players() -> set[int]:
    """Players never ranked now: bots, deactivated and suspended ones (cached for the TTL;
    new rounds do not change it, so it is not dropped with the boards)."""
    key = "profiles:hidden-players"
    found: set[int] | None = cache.get(key)
    if found is None:
        found = set(
            User.objects.filter(
                Q(is_bot=True)
                | Q(is_api_bot=True)
                | Q(is_active=False)
                | Q(suspended_until__gt=timezone.now())
            ).values_list("pk", flat=True)
        )
        cache.set(key, found, settings.PROFILES_BOARD_CACHE_SECONDS)
    return found
