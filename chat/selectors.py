"""Reads of table talk: what a viewer sees, whom they do not hear, a round's talk."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import QuerySet
from django.utils import translation

from accounts.models import User
from chat.models import ChatMessage, ChatSettings, PersonalMute, Spectators
from chat.phrases import PHRASES, REACTIONS
from core.compiled import Compiled
from games.models import Round, Seat, Table
from games.selectors import is_acting_host
from games.selectors.tables import seats_with_users, table_with_host
from moderation.selectors import Step
from social.models import Block


def _settings(table_id: int) -> QuerySet[ChatSettings]:
    return ChatSettings.objects.filter(table_id=table_id).order_by("pk")[:1]


# Read with every table socket's arrival (chat_state): compiled once (core.compiled).
_SETTINGS = Compiled(_settings)


def settings_of(table_id: int) -> ChatSettings:
    """The table's chat settings (the defaults when the host never changed them)."""
    found = _SETTINGS.first(table_id)
    return found or ChatSettings(table_id=table_id)


def settings_payload(chat_settings: ChatSettings) -> dict[str, Any]:
    return {"spectators": chat_settings.spectators, "word_filter": chat_settings.word_filter}


def muted_by(user_id: int) -> set[int]:
    """The players this user muted for themselves."""
    return set(PersonalMute.objects.filter(viewer_id=user_id).values_list("muted_id", flat=True))


def hidden_senders(user_id: int) -> set[int]:
    """Whose messages and reactions never reach this user: blocked or muted by them."""
    return set().union(*muted_and_blocked(user_id))


def muted_and_blocked(user_id: int) -> tuple[set[int], set[int]]:
    """Whom this user muted, and whom they blocked (``muted_by``, ``social``'s
    ``blocked_ids``), in one statement."""
    mutes, blocks = PersonalMute._meta, Block._meta
    muted, viewer = mutes.get_field("muted").column, mutes.get_field("viewer").column
    blocked, blocker = blocks.get_field("blocked").column, blocks.get_field("blocker").column
    sql = (
        f'SELECT 0, "{muted}" FROM "{mutes.db_table}" WHERE "{viewer}" = %s'
        f' UNION ALL SELECT 1, "{blocked}" FROM "{blocks.db_table}" WHERE "{blocker}" = %s'
    )
    found: tuple[set[int], set[int]] = (set(), set())
    with connection.cursor() as cursor:
        cursor.execute(sql, [user_id, user_id])
        for which, other in cursor.fetchall():
            found[which].add(other)
    return found


def message_payload(message: ChatMessage, name: str) -> dict[str, Any]:
    return {
        "type": "chat_message",
        "id": message.pk,
        "channel": message.channel,
        "user": message.sender_id,
        "name": name,
        "text": message.text,
        "phrase": message.phrase or None,
        "at": message.created_at.isoformat(),
    }


def history(user_id: int, table_id: int, hidden: set[int] | None = None) -> list[dict[str, Any]]:
    """The table's latest messages this user may see, oldest first; ``hidden``: the user's
    ``hidden_senders`` when the caller has read them."""
    if hidden is None:
        hidden = hidden_senders(user_id)
    if hidden:
        recent = list(
            ChatMessage.objects.filter(table_id=table_id)
            .exclude(sender_id__in=hidden)
            .select_related("sender")
            .order_by("-created_at", "-pk")[: settings.CHAT_HISTORY]
        )
    else:  # nearly everyone: a statement compiled once
        recent = _recent(settings.CHAT_HISTORY).all(table_id)
    return [message_payload(m, m.sender.shown_name) for m in reversed(recent)]


_RECENT: dict[int, Compiled[ChatMessage]] = {}


def _recent(limit: int) -> Compiled[ChatMessage]:
    """A table's latest ``limit`` messages with their senders, newest first (compiled)."""
    if limit not in _RECENT:
        _RECENT[limit] = Compiled(
            lambda table_id: (
                ChatMessage.objects.filter(table_id=table_id)
                .select_related("sender")
                .order_by("-created_at", "-pk")[:limit]
            )
        )
    return _RECENT[limit]


def may_post(
    user_id: int, table: Table, chat_settings: ChatSettings, seated: list[Seat] | None = None
) -> list[str]:
    """The channels this user may write in at this table now; ``seated``: the table's seats
    when the caller has read them."""
    if seated is not None:
        is_seated = any(seat.user_id == user_id for seat in seated)
    else:
        is_seated = Seat.objects.filter(table=table, user_id=user_id).exists()
    if is_seated:
        return ["players"]
    return {Spectators.READ: [], Spectators.OWN: ["spectators"], Spectators.TALK: ["players"]}[
        Spectators(chat_settings.spectators)
    ]


def phrase_list(language: str) -> list[dict[str, str]]:
    with translation.override(language):
        return [{"id": key, "text": str(text)} for key, text in PHRASES.items()]


@dataclass(frozen=True)
class TableRoles:
    """What everyone's chat role at a table follows from, read once: the table, its seats
    and its chat settings (``table_roles``); ``of`` gives one user's."""

    table: Table
    seated: list[Seat]
    chat_settings: ChatSettings

    def of(self, user: User) -> dict[str, Any]:
        """Whether the user hosts the table and where they may write (``chat_role``)."""
        return {
            "type": "chat_role",
            "host": is_acting_host(self.table, user, self.seated),
            "post": may_post(user.pk, self.table, self.chat_settings, self.seated),
        }


def table_roles(table_id: int) -> TableRoles:
    """The table's chat roles after a seat changed or its settings did: three reads, the
    first two compiled (core.compiled), shared by every socket of the table in a process
    (chat.consumers)."""
    table = table_with_host(table_id)
    return TableRoles(table, seats_with_users(table), settings_of(table_id))


def chat_role(user: User, table_id: int) -> dict[str, Any]:
    """Whether the user hosts the table and where they may write, after a seat changed."""
    return table_roles(table_id).of(user)


def chat_state(
    user: User,
    table_id: int,
    language: str,
    *,
    table: Table | None = None,
    seated: list[Seat] | None = None,
) -> dict[str, Any]:
    """All a table socket needs to show the chat: sent after the snapshot. Each thing is
    read once (the seats serve both the host and where the user may write; the mutes both
    the list and what is hidden): 5 queries, all but one compiled once (core.compiled)
    when the user hides nobody; 3 with the socket's arrival, which passes the ``table``
    (with its host) and its ``seated`` (``seats_with_users``) its snapshot just read."""
    if table is None:
        table = table_with_host(table_id)
    chat_settings = settings_of(table_id)
    if seated is None:
        seated = seats_with_users(table)
    muted, blocked = muted_and_blocked(user.pk)
    hidden = blocked | muted
    return {
        "type": "chat_state",
        "settings": settings_payload(chat_settings),
        "host": is_acting_host(table, user, seated),
        "private": table.is_private,
        "post": may_post(user.pk, table, chat_settings, seated),
        "phrases": phrase_list(language),
        "reactions": [{"id": key, "emoji": emoji} for key, emoji in REACTIONS.items()],
        "max_length": settings.CHAT_MAX_LENGTH,
        "muted": sorted(muted),
        "hidden": sorted(hidden),
        "history": history(user.pk, table_id, hidden),
    }


def shown_text(message: ChatMessage) -> str:
    """The message as the active language shows it (a phrase in that language)."""
    if message.phrase:
        return str(PHRASES.get(message.phrase, message.phrase))
    return message.text


def replay_steps(round_: Round) -> list[Step]:
    """The table talk of a round (while the chat keeps it), for the moderators' replay."""
    from django.utils.translation import gettext as _

    messages = (
        ChatMessage.objects.filter(round=round_).select_related("sender").order_by("created_at")
    )
    return [
        Step(
            seq=0,
            time=m.created_at,
            kind="chat",
            title=_("Table talk"),
            who=m.sender.shown_name,
            data={"channel": m.channel, "text": shown_text(m), "raw": m.raw, "id": m.pk},
        )
        for m in messages
    ]
