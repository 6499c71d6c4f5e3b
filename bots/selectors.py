"""What a bot may read. A bot's turn sees its own 13 cards and the public table facts,
never another player's cards: ``bot_hand`` is the only read the turn makes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import QuerySet

from accounts.models import User
from bots.models import Bot, BotOnlyTable, Difficulty
from games.models import PlayerStatus, Round, RoundPlayer, RoundState, Seat, Table
from games.rules import Rules


@dataclass(frozen=True)
class BotHand:
    """One bot's view of a round it must arrange: its own cards and the public rules."""

    round_id: int
    cards: tuple[str, ...]
    rules: Rules
    opponents: int
    dealt_version: int
    difficulty: str


def bot_hand(round_id: int, bot_user_id: int, expected_phase: int) -> BotHand | None:
    """The bot's hand if it still has to arrange in this phase of the round, else None."""
    player = (
        RoundPlayer.objects.filter(
            round_id=round_id,
            user_id=bot_user_id,
            user__is_bot=True,
            status=PlayerStatus.PLAYING,
            submitted_at__isnull=True,
            round__state=RoundState.ARRANGING,
            round__phase=expected_phase,
        )
        .select_related("round", "user__bot_profile")
        .first()
    )
    if player is None:
        return None
    round_: Round = player.round
    return BotHand(
        round_id=round_.pk,
        cards=tuple(player.cards),
        rules=round_.rules,
        opponents=round_.players.count() - 1,
        dealt_version=round_.dealt_version,
        difficulty=getattr(
            getattr(player.user, "bot_profile", None), "difficulty", Difficulty.NORMAL
        ),
    )


def late_bot_turns(dealt_before: datetime) -> list[tuple[int, int, int]]:
    """(round, bot, phase) of bots still to arrange in rounds dealt before ``dealt_before``."""
    return list(
        RoundPlayer.objects.filter(
            user__is_bot=True,
            status=PlayerStatus.PLAYING,
            submitted_at__isnull=True,
            round__state=RoundState.ARRANGING,
            round__dealt_at__lt=dealt_before,
        ).values_list("round_id", "user_id", "round__phase")
    )


def table_and_bots(table_id: int) -> tuple[Table | None, bool]:
    """The table, and whether a bot sits at it, in one statement (after every round and
    every change of its seats: the storm of a server's sit-downs). Written once
    (``_TABLE_AND_BOTS``): the ORM compiled the annotation afresh each time."""
    found = list(Table.objects.raw(_TABLE_AND_BOTS, [table_id]))  # read whole: cursor closed
    if not found:
        return None, False
    table = found[0]
    return table, bool(getattr(table, "bots_seated"))  # noqa: B009 (a column of the statement)


def _table_and_bots_sql() -> str:
    tables, seats, users = Table._meta, Seat._meta, User._meta
    sitter, at = seats.get_field("user").column, seats.get_field("table").column
    is_bot, pk = users.get_field("is_bot").column, tables.pk.column
    bots = (
        f'SELECT 1 FROM "{seats.db_table}" s'
        f' INNER JOIN "{users.db_table}" u ON u."{users.pk.column}" = s."{sitter}"'
        f' WHERE s."{at}" = t."{pk}" AND u."{is_bot}"'
    )
    return (
        f'SELECT t.*, EXISTS({bots}) AS bots_seated FROM "{tables.db_table}" t WHERE t."{pk}" = %s'
    )


_TABLE_AND_BOTS = _table_and_bots_sql()


def seated_bots(table: Table) -> QuerySet[Seat]:
    return table.seat_set.filter(user__is_bot=True).select_related("user")


def seated_people(table: Table) -> QuerySet[Seat]:
    return table.seat_set.filter(user__is_bot=False)


def seated_user_ids(table: Table) -> list[int]:
    """Who sits at the table now: the state a delayed bot arrival expects to find."""
    return sorted(table.seat_set.values_list("user_id", flat=True))


@dataclass(frozen=True)
class Seated:
    """Who sits at a table: every user id (sorted, as ``seated_user_ids``) and whether a
    person (not a bot) is among them."""

    user_ids: list[int]
    people: bool


def who_sits(table: Table) -> Seated:
    """Who sits at the table, in one query (the bots' receivers ask at every seat change)."""
    rows = sorted(table.seat_set.values_list("user_id", "user__is_bot"))
    return Seated([user_id for user_id, _bot in rows], any(not bot for _id, bot in rows))


def is_bot_only(table: Table) -> bool:
    return BotOnlyTable.objects.filter(table=table).exists()


def free_bots() -> QuerySet[Bot]:
    """Bots not seated anywhere, oldest first."""
    return Bot.objects.filter(user__seat__isnull=True).order_by("pk")


def bots_in_round(round_id: int) -> list[int]:
    return list(
        RoundPlayer.objects.filter(round_id=round_id, user__is_bot=True).values_list(
            "user_id", flat=True
        )
    )
