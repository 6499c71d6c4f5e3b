"""Every write of the profiles app: avatars, and the statistics summary.

The summary is recorded by a scheduled task (``profiles.record_stats``, every
PROFILES_RECORD_SECONDS) rather than inside the settlement: the settlement transaction
stays exactly as it was (no extra statement, lock or failure mode on the hottest path),
one run records many rounds in a few bulk statements, and the same place also picks up
the rare re-settlements. The price is a delay of a few seconds (docs/profiles.md).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Min, Q, Sum
from django.utils import timezone

from accounts.models import User
from games.models import Round, RoundPlayer, RoundState, StakesIn
from ledger.models import AccountKind, Posting, Transfer, TransferKind
from profiles import avatars
from profiles.figures import player_figures
from profiles.models import (
    ALL_TIME,
    GENERATED_AVATARS,
    Period,
    PeriodTotal,
    Profile,
    RoundStat,
    StakeCount,
    StatsCursor,
    UploadedAvatar,
)

logger = logging.getLogger(__name__)

# A round dealt less than this long ago may have a lower id than one already committed
# (ids are taken before commit): the cursor never passes it until it is this old.
SETTLING_MARGIN = timedelta(minutes=2)
# Re-settlements are looked for this far back before the last look (commit-order slack).
RESETTLE_LOOKBACK = timedelta(minutes=10)
# Rows per INSERT on SQLite (12 parameters each, well under its limit; PostgreSQL takes
# every row in one statement of arrays: _bulk_upsert).
UPSERT_CHUNK = 1000
# The cache key whose value is part of every board's key: bumping it drops them all.
BOARDS_GENERATION = "profiles:boards:generation"


# --- Avatars --------------------------------------------------------------------------


def profile_of(user: User) -> Profile:
    profile, _created = Profile.objects.get_or_create(user=user)
    return profile


@transaction.atomic
def choose_avatar(user: User, index: int) -> Profile:
    """Use generated avatar ``index``; an uploaded picture is deleted."""
    if not 0 <= index < GENERATED_AVATARS:
        raise avatars.AvatarRefused("bad_choice")
    # Lock: two changes at once must each bump the version (the avatar's address).
    profile = _locked_profile(user)
    UploadedAvatar.objects.filter(user=user).delete()
    profile.avatar = index
    profile.has_upload = False
    profile.avatar_version += 1
    profile.save(update_fields=["avatar", "has_upload", "avatar_version"])
    return profile


def upload_avatar(user: User, upload: Any) -> Profile:
    """Store a re-encoded copy of an uploaded picture (raises AvatarRefused)."""
    data, content_type = avatars.reencode(upload)  # outside the transaction: CPU work
    with transaction.atomic():
        profile = _locked_profile(user)
        UploadedAvatar.objects.update_or_create(
            user=user, defaults={"data": data, "content_type": content_type}
        )
        profile.has_upload = True
        profile.avatar_version += 1
        profile.save(update_fields=["has_upload", "avatar_version"])
    return profile


def _locked_profile(user: User) -> Profile:
    Profile.objects.get_or_create(user=user)
    return Profile.objects.select_for_update().get(user=user)


# --- The statistics summary -----------------------------------------------------------


@dataclass
class _Sums:
    rounds: int = 0
    net_xu: int = 0
    contests: int = 0
    chi: list[int] = field(default_factory=lambda: [0, 0, 0])
    fouls: int = 0
    biggest_win: int = 0

    def figures(self) -> tuple[int, ...]:
        """The totals' columns after ``rounds``: net xu, contests, chi won, fouls, best."""
        return (self.net_xu, self.contests, *self.chi, self.fouls, self.biggest_win)

    def add(self, stat: RoundStat) -> None:
        self.rounds += 1
        self.net_xu += stat.net_xu
        self.contests += stat.contests
        self.chi[0] += stat.chi1_won
        self.chi[1] += stat.chi2_won
        self.chi[2] += stat.chi3_won
        self.fouls += int(stat.foul)
        self.biggest_win = max(self.biggest_win, stat.net_xu)


def period_starts(moment: datetime) -> dict[str, date]:
    """The day, ISO week and all-time periods a moment falls in (in the site's time zone)."""
    day = timezone.localtime(moment).date()
    return {Period.DAY: day, Period.WEEK: day - timedelta(days=day.weekday()), Period.ALL: ALL_TIME}


@transaction.atomic
def record_settled_rounds(limit: int = 500) -> int:
    """Record the settled rounds not yet in the summary (at most ``limit``); idempotent.

    Returns how many rounds were recorded. The cursor row lock serialises runs, so a
    round is counted once even when two workers run the task at the same moment.
    """
    cursor = _locked_cursor()
    recorded = RoundStat.objects.filter(round_id__gte=cursor.next_round_id).values("round_id")
    ids = list(
        Round.objects.filter(pk__gte=cursor.next_round_id, state=RoundState.SETTLED)
        # Only rounds played for xu: a tournament's chips or points are not the wallet's,
        # so their net xu (zero) would only dilute every figure (docs/profiles.md).
        .filter(table__stakes_in=StakesIn.XU)
        .exclude(pk__in=recorded)
        .order_by("pk")
        .values_list("pk", flat=True)[:limit]
    )
    stats = _round_stats(ids)
    RoundStat.objects.bulk_create(stats)
    _add_to_totals(stats)
    _apply_resettlements(cursor)
    cursor.next_round_id = _next_cursor(cursor.next_round_id, ids, full=len(ids) == limit)
    cursor.recorded_rounds += len(ids)
    cursor.save()
    if stats:
        transaction.on_commit(drop_cached_boards)
    return len(ids)


def drop_cached_boards() -> None:
    """Every cached board and rank is keyed by this generation: bumping it drops them."""
    try:
        cache.incr(BOARDS_GENERATION)
    except ValueError:
        cache.set(BOARDS_GENERATION, 1, None)


def _locked_cursor() -> StatsCursor:
    cursor = StatsCursor.objects.select_for_update().order_by("pk").first()
    if cursor is None:
        StatsCursor.objects.create()
        cursor = StatsCursor.objects.select_for_update().order_by("pk").first()
        assert cursor is not None
    return cursor


def _next_cursor(current: int, ids: list[int], *, full: bool) -> int:
    """The lowest round id that may still need recording (see StatsCursor)."""
    unfinished = (
        Round.objects.filter(pk__gte=current)
        .filter(
            Q(state__in=[RoundState.ARRANGING, RoundState.SHOWDOWN])
            | Q(dealt_at__gt=timezone.now() - SETTLING_MARGIN)
        )
        .aggregate(first=Min("pk"))["first"]
    )
    if full:
        ahead = ids[-1] + 1
    else:
        last = Round.objects.filter(pk__gte=current).order_by("-pk").values_list("pk", flat=True)
        ahead = (last.first() or current - 1) + 1
    return min(ahead, unfinished) if unfinished is not None else ahead


def _round_stats(ids: list[int]) -> list[RoundStat]:
    if not ids:
        return []
    rounds = Round.objects.filter(pk__in=ids).select_related("table").order_by("pk")
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for round_id, user_id, position in RoundPlayer.objects.filter(round_id__in=ids).values_list(
        "round_id", "user_id", "position"
    ):
        seats[round_id][user_id] = position
    nets = wallet_nets(ids)
    stats = []
    for round_ in rounds:
        figures = player_figures(round_.settlement or {})
        assert round_.settled_at is not None
        for user_id, position in seats[round_.pk].items():
            mine = figures.get(str(position))
            if mine is None:
                continue
            stats.append(
                RoundStat(
                    round_id=round_.pk,
                    user_id=user_id,
                    preset=round_.table.preset,
                    stake=round_.stake,
                    settled_at=round_.settled_at,
                    net_xu=nets.get((round_.pk, user_id), 0),
                    contests=mine.contests,
                    chi1_won=mine.chi_won[0],
                    chi2_won=mine.chi_won[1],
                    chi3_won=mine.chi_won[2],
                    foul=mine.foul,
                    instant_kind=mine.instant_kind,
                    scoop_kind=mine.scoop_kind,
                )
            )
    return stats


def wallet_nets(round_ids: Iterable[int]) -> dict[tuple[int, int], int]:
    """{(round id, user id): net xu} from the ledger: every wallet posting of the rounds."""
    rows = (
        Posting.objects.filter(
            transfer__round_id__in=list(round_ids), account__kind=AccountKind.WALLET
        )
        .values_list("transfer__round_id", "account__user_id")
        .annotate(net=Sum("delta"))
    )
    return {(int(r), int(u)): int(net) for r, u, net in rows}


def _add_to_totals(stats: Iterable[RoundStat]) -> None:
    sums: dict[tuple[int, str, str, date], _Sums] = defaultdict(_Sums)
    stakes: dict[tuple[int, int], int] = defaultdict(int)
    for stat in stats:
        stakes[stat.user_id, stat.stake] += 1
        for period, start in period_starts(stat.settled_at).items():
            sums[stat.user_id, stat.preset, period, start].add(stat)
    _upsert(sorted(sums.items()), increase_rounds=True)
    _count_stakes(sorted(stakes.items()))


def _count_stakes(rows: list[tuple[tuple[int, int], int]]) -> None:
    table = StakeCount._meta.db_table
    _bulk_upsert(
        table,
        [("user_id", "bigint"), ("stake", "integer"), ("rounds", "integer")],
        [(user_id, stake, n) for (user_id, stake), n in rows],
        conflict="user_id, stake",
        update=f"rounds = {table}.rounds + excluded.rounds",
    )


_TOTALS_COLUMNS = [
    ("user_id", "bigint"),
    ("preset", "varchar"),
    ("period", "varchar"),
    ("start", "date"),
    ("rounds", "integer"),
    ("net_xu", "bigint"),
    ("contests", "integer"),
    ("chi1_won", "integer"),
    ("chi2_won", "integer"),
    ("chi3_won", "integer"),
    ("fouls", "integer"),
    ("biggest_win", "bigint"),
]


def _upsert(rows: list[tuple[tuple[int, str, str, date], _Sums]], *, increase_rounds: bool) -> None:
    """Add the sums to the totals rows (created when missing), in bulk statements."""
    table = PeriodTotal._meta.db_table
    added = ", ".join(
        f"{c} = {table}.{c} + excluded.{c}"
        for c in ("rounds", "net_xu", "contests", "chi1_won", "chi2_won", "chi3_won", "fouls")
    )
    biggest = (
        f"biggest_win = CASE WHEN excluded.biggest_win > {table}.biggest_win "
        f"THEN excluded.biggest_win ELSE {table}.biggest_win END"
    )
    _bulk_upsert(
        table,
        _TOTALS_COLUMNS,
        [(*key, s.rounds if increase_rounds else 0, *s.figures()) for key, s in rows],
        conflict="user_id, period, start, preset",
        update=f"{added}, {biggest}",
    )


def _bulk_upsert(
    table: str,
    columns: list[tuple[str, str]],
    rows: list[tuple[Any, ...]],
    *,
    conflict: str,
    update: str,
) -> None:
    """Insert ``rows`` into ``table`` (``columns``: each name with its PostgreSQL type),
    updating a row that exists (``ON CONFLICT (conflict) DO UPDATE SET update``).

    On PostgreSQL, one statement of one array per column (``unnest``), whatever the number
    of rows: the same short statement every run. A ``VALUES`` list of a parameter per cell
    (12,000 of them for a thousand totals) was a new statement each time, which psycopg
    does not cache and parsed again for its placeholders: about 8% of the worker's CPU at
    200 busy tables (docs/deploy.md). Elsewhere (SQLite), ``VALUES`` lists of UPSERT_CHUNK rows.
    """
    if not rows:
        return
    names = ", ".join(name for name, _type in columns)
    head = f"INSERT INTO {table} ({names}) "
    tail = f" ON CONFLICT ({conflict}) DO UPDATE SET {update}"
    with connection.cursor() as db:
        if connection.vendor == "postgresql":
            arrays = ", ".join(f"%s::{kind}[]" for _name, kind in columns)
            db.execute(
                f"{head}SELECT * FROM unnest({arrays}){tail}",
                [list(column) for column in zip(*rows, strict=True)],
            )
            return
        cells = "(" + ", ".join(["%s"] * len(columns)) + ")"
        for i in range(0, len(rows), UPSERT_CHUNK):
            chunk = rows[i : i + UPSERT_CHUNK]
            values = ", ".join([cells] * len(chunk))
            db.execute(f"{head}VALUES {values}{tail}", [v for row in chunk for v in row])


def _apply_resettlements(cursor: StatsCursor) -> None:
    """A re-settled round changed its players' net xu: move the summary by the difference."""
    since = cursor.updated_at - RESETTLE_LOOKBACK
    round_ids = {
        int(round_id)
        for round_id in Transfer.objects.filter(
            kind=TransferKind.RESETTLEMENT, created_at__gte=since, round_id__isnull=False
        ).values_list("round_id", flat=True)
        if round_id is not None
    }
    if not round_ids:
        return
    nets = wallet_nets(round_ids)
    changed: list[RoundStat] = []
    moves: dict[tuple[int, str, str, date], _Sums] = defaultdict(_Sums)
    for stat in RoundStat.objects.select_for_update().filter(round_id__in=round_ids):
        net = nets.get((stat.round_id, stat.user_id), 0)
        if net == stat.net_xu:
            continue
        difference, stat.net_xu = net - stat.net_xu, net
        changed.append(stat)
        for period, start in period_starts(stat.settled_at).items():
            move = moves[stat.user_id, stat.preset, period, start]
            move.net_xu += difference
            move.biggest_win = max(move.biggest_win, net)
    if changed:
        RoundStat.objects.bulk_update(changed, ["net_xu"])
        _upsert(sorted(moves.items()), increase_rounds=False)
        logger.info("re-settled rounds moved the summary: %s", sorted(round_ids))
