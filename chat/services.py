"""Every write of table talk. Messages and reactions reach sockets after the commit, through
the table's group; each socket leaves out the senders its user blocked or muted
(`chat.consumers`)."""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from accounts import text as policy
from accounts.errors import TextRefused
from accounts.ids import parse_id
from accounts.models import User
from chat import selectors
from chat.errors import ChatError
from chat.models import (
    Channel,
    ChatMessage,
    ChatSettings,
    PersonalMute,
    ReportedMessage,
    Spectators,
)
from chat.phrases import PHRASES, REACTIONS
from chat.wordfilter import mask
from games import events
from games.errors import NotFound
from games.models import Round, Seat, Table
from games.selectors import is_acting_host, may_enter
from moderation import selectors as moderation_selectors
from moderation import services as moderation
from moderation.errors import ModerationError
from moderation.models import Status

PUBLIC_FILTER = _("Swear words are masked at public tables; only a private table may turn it off.")
CONTEXT = 10
"""Messages before and after a reported one that its case carries."""


def clean_text(value: Any) -> str:
    """The message as the table will read it: plain text on one line, through the text
    policy (accounts.text: NFKC, nothing invisible, a bounded number of accents on a letter;
    a zero-width joiner stays between emoji only)."""
    try:
        text = policy.clean_text(value)
    except TextRefused as exc:
        if exc.code == "text_invisible":  # only blank-looking characters: nothing said
            raise ChatError(_("Write something first."), code="chat_empty") from exc
        raise exc.as_error(ChatError) from exc
    if not text:
        raise ChatError(_("Write something first."), code="chat_empty")
    if len(text) > settings.CHAT_MAX_LENGTH:
        raise ChatError(
            _("A message is at most %(n)s characters."),
            code="chat_too_long",
            n=settings.CHAT_MAX_LENGTH,
        )
    return text


def _may_talk(user: User) -> None:
    """Suspended users and users muted by staff cannot talk (they can still read)."""
    # From the database: a socket's user object is as it was when the socket opened.
    if User.objects.filter(pk=user.pk, suspended_until__gt=timezone.now()).exists():
        raise ChatError(_("Your account is suspended: you cannot talk at tables."))
    until = moderation_selectors.muted_until(user.pk)
    if until is not None:
        raise ChatError(
            _("A moderator muted your table talk until %(until)s."),
            code="chat_muted",
            until=formats.date_format(timezone.localtime(until), "SHORT_DATETIME_FORMAT"),
        )


def _count_message(user_id: int, table_id: int) -> None:
    """At most CHAT_RATE_LIMIT messages and reactions per CHAT_RATE_WINDOW_SECONDS, per user
    and table, whichever server process the sockets are on (the counter is in the shared
    cache: Redis in production). A sliding window, estimated from two fixed ones."""
    window = settings.CHAT_RATE_WINDOW_SECONDS
    now = time.time()
    slot = int(now // window)
    key = f"chat-rate:{table_id}:{user_id}:"
    cache.add(key + str(slot), 0, timeout=window * 2)
    try:
        current = cache.incr(key + str(slot))
    except ValueError:  # expired between add and incr
        cache.set(key + str(slot), 1, timeout=window * 2)
        current = 1
    previous = cache.get(key + str(slot - 1)) or 0
    weight = 1 - (now % window) / window
    if current + previous * weight > settings.CHAT_RATE_LIMIT:
        raise ChatError(
            _("You are talking too fast: at most %(n)s messages in %(s)s seconds."),
            code="chat_rate_limited",
            n=settings.CHAT_RATE_LIMIT,
            s=window,
        )


def _table(table_id: Any) -> Table:
    table = Table.objects.filter(pk=parse_id(table_id) or 0).first()
    if table is None:
        raise NotFound()
    return table


def _channel(user: User, table: Table, chat_settings: ChatSettings, asked: Any) -> str:
    allowed = selectors.may_post(user.pk, table, chat_settings)
    if asked is None:
        asked = allowed[0] if allowed else Channel.PLAYERS
    if asked not in Channel.values:
        raise ValueError("channel")
    if asked in allowed:
        return str(asked)
    if asked == Channel.SPECTATORS and "players" in allowed:
        if chat_settings.spectators == Spectators.TALK:
            return Channel.PLAYERS  # one channel for all
        raise ChatError(_("The spectators' chat is for spectators."))
    if chat_settings.spectators == Spectators.OWN:
        raise ChatError(_("At this table spectators talk in the spectators' chat."))
    raise ChatError(_("At this table only the players talk; spectators read."))


def post_message(
    user: User, table_id: Any, *, text: Any = None, phrase: Any = None, channel: Any = None
) -> ChatMessage:
    """Say something at a table: free text (filtered if the table says so) or a quick phrase."""
    table = _table(table_id)
    if not may_enter(table, user):
        # Only who may be at the table talks there: a socket whose link was just revoked
        # (closed once the revoke commits) is refused meanwhile (docs/social.md).
        raise ChatError()
    _may_talk(user)
    chat_settings = selectors.settings_of(table.pk)
    channel = _channel(user, table, chat_settings, channel)
    raw = ""
    if phrase is not None:
        if not isinstance(phrase, str) or phrase not in PHRASES:
            raise ChatError(_("No such quick phrase."), code="chat_unknown_phrase")
        text = ""
    else:
        text = clean_text(text)
        if chat_settings.word_filter:
            shown = mask(text)
            raw, text = (text if shown != text else ""), shown
    _count_message(user.pk, table.pk)
    latest = Round.objects.filter(table=table).order_by("-number").values_list("pk", flat=True)
    with transaction.atomic():
        message = ChatMessage.objects.create(
            table=table,
            round_id=latest.first(),
            sender=user,
            channel=channel,
            text=text,
            phrase=phrase or "",
            raw=raw,
        )
        events.to_table(table.pk, selectors.message_payload(message, user.shown_name))
    return message


def react(user: User, table_id: Any, reaction: Any) -> None:
    """A seated player's emoji, floating over their seat for everyone at the table."""
    table = _table(table_id)
    _may_talk(user)
    if not isinstance(reaction, str) or reaction not in REACTIONS:
        raise ChatError(_("No such reaction."), code="chat_unknown_reaction")
    seat = Seat.objects.filter(table=table, user=user).first()
    if seat is None:
        raise ChatError(_("Only seated players react."))
    _count_message(user.pk, table.pk)
    events.to_table(
        table.pk,
        {
            "type": "chat_reaction",
            "user": user.pk,
            "position": seat.position,
            "reaction": reaction,
            "emoji": REACTIONS[reaction],
        },
    )


def _other_user(user: User, other_id: Any) -> User:
    if isinstance(other_id, bool) or not isinstance(other_id, int):
        raise TypeError("user")
    if other_id == user.pk:
        raise ChatError(_("You cannot mute yourself."), code="chat_self")
    other = User.objects.filter(pk=parse_id(other_id) or 0).first()
    if other is None:
        raise NotFound(_("No such player."))
    return other


def mute_player(viewer: User, muted_id: Any) -> set[int]:
    """Stop seeing a player's messages and reactions, at every table, until unmuted."""
    muted = _other_user(viewer, muted_id)
    PersonalMute.objects.get_or_create(viewer=viewer, muted=muted)
    return selectors.muted_by(viewer.pk)


def unmute_player(viewer: User, muted_id: Any) -> set[int]:
    muted = _other_user(viewer, muted_id)
    PersonalMute.objects.filter(viewer=viewer, muted=muted).delete()
    return selectors.muted_by(viewer.pk)


def _evidence_line(message: ChatMessage, reported: ChatMessage) -> dict[str, Any]:
    return {
        "id": message.pk,
        "at": message.created_at.isoformat(),
        "user": message.sender_id,
        "name": message.sender.shown_name,
        "channel": message.channel,
        "text": selectors.shown_text(message),
        "raw": message.raw,
        "reported": message.pk == reported.pk,
    }


@transaction.atomic
def report_message(reporter: User, table_id: Any, message_id: Any, text: Any = "") -> int:
    """Report a message said at this table: a moderation case carrying it and its context.

    Returns the case's id. The messages it carries are kept until the case is resolved.
    """
    if isinstance(message_id, bool) or not isinstance(message_id, int):
        raise TypeError("message")
    if not isinstance(text, str):
        raise TypeError("text")
    table = _table(table_id)
    message = (
        ChatMessage.objects.filter(pk=parse_id(message_id) or 0, table=table)
        .select_related("sender")
        .first()
    )
    if message is None:
        raise NotFound(_("This message is no longer there."))
    if message.sender_id == reporter.pk:
        raise ChatError(_("You cannot report your own message."), code="chat_self")
    if ReportedMessage.objects.filter(
        message=message, case__filed_by=reporter, case__kind="report"
    ).exists():
        raise ChatError(_("You already reported this message."), code="chat_already_reported")
    around = ChatMessage.objects.filter(table=table).select_related("sender")
    before = around.filter(created_at__lte=message.created_at).exclude(pk=message.pk)
    after = around.filter(created_at__gte=message.created_at).exclude(pk=message.pk)
    lines = sorted(
        [
            *before.order_by("-created_at", "-pk")[:CONTEXT],
            message,
            *after.order_by("created_at", "pk")[:CONTEXT],
        ],
        key=lambda m: (m.created_at, m.pk),
    )
    try:
        case = moderation.report_chat(
            reporter,
            message.sender_id,
            table_id=table.pk,
            round_id=message.round_id,
            text=text,
            evidence={
                "chat": {
                    "message": message.pk,
                    "lines": [_evidence_line(m, message) for m in lines],
                }
            },
        )
    except ModerationError as exc:
        raise ChatError(exc.message, code=exc.code) from exc
    ReportedMessage.objects.bulk_create([ReportedMessage(message=m, case=case) for m in lines])
    return case.pk


def set_chat_settings(
    user: User, table_id: Any, *, spectators: Any = None, word_filter: Any = None
) -> ChatSettings:
    """The host (as `social` defines them: `games.selectors.acting_host_id`) chooses who
    talks and, at a private table (friends), whether swear words are masked."""
    with transaction.atomic():
        # Two changes at once by the host's two tabs: one after the other.
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            raise NotFound()
        if not is_acting_host(table, user):
            raise ChatError(_("Only the table's host changes its chat settings."))
        chat_settings = selectors.settings_of(table.pk)
        if spectators is not None:
            if spectators not in Spectators.values:
                raise ValueError("spectators")
            chat_settings.spectators = spectators
        if word_filter is not None:
            if not isinstance(word_filter, bool):
                raise TypeError("word_filter")
            if not word_filter and not table.is_private:
                # Strangers meet at public tables: the filter is off only among friends.
                raise ChatError(PUBLIC_FILTER)
            chat_settings.word_filter = word_filter
        chat_settings.save()
        events.to_table(
            table.pk,
            {"type": "chat_settings", "settings": selectors.settings_payload(chat_settings)},
        )
    return chat_settings


def delete_expired(now: datetime | None = None) -> int:
    """Delete messages older than CHAT_RETENTION_DAYS, except those an open case carries."""
    cutoff = (now or timezone.now()) - timedelta(days=settings.CHAT_RETENTION_DAYS)
    kept = ReportedMessage.objects.exclude(case__status=Status.RESOLVED).values("message_id")
    _total, by_model = (
        ChatMessage.objects.filter(created_at__lt=cutoff).exclude(pk__in=kept).delete()
    )
    return int(by_model.get("chat.ChatMessage", 0))
