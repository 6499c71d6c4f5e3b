"""Every change to tables and rounds goes through here.

One serialized command stream per table: every service locks the table row first (then
the round row), so seat changes, submissions, leaves and timer steps of one table never
interleave. Holds and settlements go through ``ledger.services`` inside the same
transaction; events to browsers leave after the commit (``games.events``); timer tasks are
enqueued on commit and carry the round ``phase`` they expect.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.errors import SeatRefused
from accounts.models import User
from accounts.services import ensure_can_sit
from games import events
from games.errors import GameError, NotFound, RoundError, SeatError, StaleVersion
from games.models import (
    PlayerStatus,
    Preset,
    Round,
    RoundEvent,
    RoundPlayer,
    RoundState,
    Seat,
    Table,
)
from games.rules import ArrangementError, Rules, RulesConfigError, format_cards, parse_cards
from games.rules.fair import commitment, deal_from_seeds
from games.rules.presets import hold_amount
from games.rules.scoring import validate_arrangement
from games.selectors import (
    RoundResult,
    active_round,
    is_foul_arrangement,
    lobby_row,
    reveal_payload,
    round_transfer_ids,
    seat_view,
    settle_round_result,
    summary_payload,
)
from games.signals import round_dealt, round_settled, seat_changed, seat_wanted, send_on_commit
from ledger import selectors as ledger_selectors
from ledger import services as ledger
from ledger.errors import LedgerError
from maubinh_site.logcontext import log_context

logger = logging.getLogger(__name__)

SUMMARY_SECONDS = 6
"""How long the summary shows before the next round is dealt."""
AWAY_AFTER = timedelta(seconds=30)
"""A seated player with no open connection for this long is stood up at the next deal."""
MAX_CLIENT_SEED = 64
MIN_BALANCE_STAKES = 20

ARRANGEMENT_MESSAGES = {
    "chi_count": _("An arrangement has exactly three chi: 5, 5 and 3 cards."),
    "chi_size": _("Chi 1 and chi 2 take 5 cards each, chi 3 takes 3."),
    "card_unknown": _("That is not a card."),
    "card_duplicate": _("A card appears twice in your arrangement."),
    "card_not_dealt": _("Your arrangement uses a card you were not dealt."),
}


def new_server_seed() -> str:
    """A fresh secret server seed (CSPRNG), committed to before each deal."""
    return secrets.token_hex(32)


def new_client_seed() -> str:
    """The client seed a player starts with; they may choose their own."""
    return secrets.token_hex(8)


# --- Tables and seats -----------------------------------------------------------------


def create_table(
    host: User,
    *,
    name: str,
    preset: str = Preset.PORTAL,
    stake: int,
    seats: int = 4,
    rules_overrides: dict[str, Any] | None = None,
    min_balance: int | None = None,
    allow_bots: bool = False,
    bot_wait_seconds: int = 5,
) -> Table:
    """Open a table; house rules are validated against RULES.md section 9."""
    name = name.strip()
    if not name or len(name) > 60:
        raise GameError(_("A table needs a name of 1 to 60 characters."), code="bad_name")
    if preset not in Preset.values:
        raise GameError(_("Unknown rules preset."), code="bad_preset")
    if not isinstance(stake, int) or not 1 <= stake <= 1_000_000:
        raise GameError(_("The stake must be between 1 and 1,000,000 xu."), code="bad_stake")
    if seats not in (2, 3, 4):
        raise GameError(_("A table has 2 to 4 seats."), code="bad_seats")
    overrides = rules_overrides or {}
    try:
        Rules.preset(preset).with_overrides(overrides)
    except RulesConfigError as exc:
        raise GameError(
            _("These house rules are not allowed: %(detail)s"), code="bad_rules", detail=str(exc)
        ) from exc
    if not isinstance(bot_wait_seconds, int) or not 1 <= bot_wait_seconds <= 60:
        raise GameError(_("Bots wait 1 to 60 seconds before they join."), code="bad_bot_wait")
    minimum = MIN_BALANCE_STAKES * stake if min_balance is None else min_balance
    if minimum < 0:
        raise GameError(_("The minimum balance cannot be negative."), code="bad_min_balance")
    table = Table.objects.create(
        name=name,
        host=host,
        preset=preset,
        rules_overrides=overrides,
        stake=stake,
        seats=seats,
        min_balance=minimum,
        allow_bots=allow_bots,
        bot_wait_seconds=bot_wait_seconds,
    )
    events.to_lobby({"type": "table", "table": lobby_row(table)})
    return table


def _lock_table(table_id: Any) -> Table:
    # The table row is the lock of its whole command stream (see the module docstring).
    # The host comes along (lobby rows show it) without locking the host's user row.
    try:
        return Table.objects.select_for_update(of=("self",)).select_related("host").get(pk=table_id)
    except (Table.DoesNotExist, ValueError, TypeError):
        raise NotFound() from None


def _bump(table: Table, *fields: str) -> int:
    """Count one visible change of the table; every public event carries the new version."""
    table.version += 1
    table.save(update_fields=["version", *fields])
    return table.version


def _table_event(
    table: Table,
    payload: dict[str, Any],
    *,
    lobby: bool = False,
    taken: int | None = None,
    state: str | None = None,
) -> None:
    """Tell the table; with ``lobby``, also the lobby (seats taken or the table's state moved).

    A caller that knows the seats taken and the table's state passes them, saving the
    lobby row their queries.
    """
    events.to_table(table.pk, {**payload, "table": table.pk, "version": table.version})
    if lobby:
        events.to_lobby({"type": "table", "table": lobby_row(table, taken=taken, state=state)})


@transaction.atomic
def sit(user: User, table_id: int, position: int | None = None) -> Seat:
    """Take a free seat (the first free one unless ``position`` is given)."""
    table = _lock_table(table_id)
    existing = Seat.objects.filter(user=user).select_related("table").first()
    if existing is not None:
        if existing.table_id == table.pk:
            return existing  # a double click sits once
        raise SeatError(
            _("You are already seated at table “%(name)s”. Leave it first."),
            code="already_seated",
            name=existing.table.name,
        )
    if not table.is_open:
        raise SeatError(_("This table is closed."), code="table_closed")
    try:
        ensure_can_sit(user)
    except SeatRefused as exc:
        raise SeatError(exc.message, code=exc.code) from exc
    balance = ledger_selectors.balance(user)
    if balance < table.min_balance:
        raise SeatError(
            _("You need at least %(minimum)s xu to sit here; you have %(balance)s xu."),
            code="balance_too_low",
            minimum=table.min_balance,
            balance=balance,
        )
    taken = set(table.seat_set.values_list("position", flat=True))
    free = [p for p in range(table.seats) if p not in taken]
    if not free and not user.is_bot:
        free = _make_room(table)
    if not free:
        raise SeatError(_("This table is full."), code="table_full")
    if position is None:
        position = free[0]
    elif position not in free:
        raise SeatError(_("That seat was just taken. Pick another."), code="seat_taken")
    try:
        # A savepoint: two tables' locks do not stop one user sitting at both at once;
        # the one-seat-per-user constraint does, and the loser gets a clear message.
        with transaction.atomic():
            seat = Seat.objects.create(
                table=table,
                user=user,
                position=position,
                client_seed=new_client_seed(),
                last_seen_at=timezone.now(),
            )
    except IntegrityError:
        raise SeatError(
            _("You are already seated at another table."), code="already_seated"
        ) from None
    _bump(table)
    _table_event(table, {"type": "seat_taken", "seat": seat_view(seat, balance)}, lobby=True)
    current = active_round(table)
    if current is not None:  # watching now, dealt in next round
        _log(current, "join", {"position": seat.position}, user)
    send_on_commit(seat_changed, table_id=table.pk)
    _schedule_auto_start(table)
    return seat


def _make_room(table: Table) -> list[int]:
    """A person needs a seat a bot holds: a bot that is not playing the current round gives
    it up now; bots never leave mid-round, so otherwise one gives it up when the round ends
    (the bots app listens to ``seat_wanted``) and the person is asked to try again."""
    bot_seats = table.seat_set.filter(user__is_bot=True)
    round_ = active_round(table)
    if round_ is not None:
        bot_seats = bot_seats.exclude(user__in=round_.players.values("user"))
    seat = bot_seats.order_by("-position").first()
    if seat is not None:
        _remove_seat(table, seat, reason="made_room")
        return [seat.position]
    if round_ is not None and table.seat_set.filter(user__is_bot=True).exists():
        # Sent now, not on commit: the refusal below rolls this transaction back.
        seat_wanted.send(sender=None, table_id=table.pk)
        raise SeatError(
            _("Bots are playing this round; one will give you its seat when the round ends."),
            code="table_full_bots",
        )
    return []


def _schedule_auto_start(table: Table) -> None:
    """Restart the automatic start countdown if two or more wait and no round runs."""
    if active_round(table) is not None:
        return
    if table.seat_set.count() < 2:
        if table.start_at is not None:
            table.start_at = None
            _bump(table, "start_at")
            _table_event(table, {"type": "countdown", "start_at": None}, lobby=True)
        return
    _set_start(table, timezone.now() + timedelta(seconds=table.rules.start_seconds))


def _set_start(table: Table, when: datetime, *, taken: int | None = None) -> None:
    table.start_at = when
    _bump(table, "start_at")
    _table_event(
        table,
        {"type": "countdown", "start_at": when.isoformat()},
        lobby=True,
        taken=taken,
        state="starting",
    )
    _enqueue_start(table.pk, when)


def _enqueue_start(table_id: int, when: datetime) -> None:
    from games.tasks import start_round_when_due

    transaction.on_commit(
        lambda: start_round_when_due.apply_async((table_id, when.isoformat()), eta=when)
    )


@transaction.atomic
def stand(user: User) -> None:
    """Leave the seat. During a round this is a leave (RULES.md section 8)."""
    seat = Seat.objects.filter(user=user).first()
    if seat is None:
        return  # already standing: a repeated click changes nothing
    table = _lock_table(seat.table_id)
    seat = Seat.objects.filter(pk=seat.pk).first()
    if seat is None:
        return
    round_ = active_round(table, lock=True)
    if round_ is not None:
        player = round_.players.filter(user=user, status=PlayerStatus.PLAYING).first()
        if player is not None:
            _leave_round(table, round_, player)
    _remove_seat(table, seat, reason="left")
    if round_ is None:
        _schedule_auto_start(table)


def _remove_seat(table: Table, seat: Seat, *, reason: str) -> None:
    position, user_id = seat.position, seat.user_id
    seat.delete()
    _bump(table)
    _table_event(
        table,
        {"type": "seat_left", "position": position, "user": user_id, "reason": reason},
        lobby=True,
    )
    send_on_commit(seat_changed, table_id=table.pk)


@transaction.atomic
def set_client_seed(user: User, table_id: int, seed: str) -> Seat:
    """Choose the client seed mixed into the next deal (provably fair)."""
    if not isinstance(seed, str) or not 1 <= len(seed) <= MAX_CLIENT_SEED or not seed.isprintable():
        raise SeatError(_("A client seed is 1 to 64 printable characters."), code="bad_client_seed")
    _lock_table(table_id)
    seat = Seat.objects.filter(user=user, table_id=table_id).first()
    if seat is None:
        raise SeatError(_("You are not seated at this table."), code="not_seated")
    seat.client_seed = seed
    seat.save(update_fields=["client_seed"])
    return seat


# --- Presence -------------------------------------------------------------------------


@transaction.atomic
def connected(user: User, table_id: int) -> None:
    """A websocket of this user opened at this table (a seat, if any, is back)."""
    table = _lock_table(table_id)
    seat = Seat.objects.filter(user=user, table=table).first()
    if seat is None:
        return
    seat.connections += 1
    seat.last_seen_at = timezone.now()
    seat.save(update_fields=["connections", "last_seen_at"])
    if seat.connections == 1:
        _bump(table)
        _table_event(table, {"type": "presence", "position": seat.position, "online": True})
        _log_presence(table, user, "reconnect")


@transaction.atomic
def disconnected(user: User, table_id: int) -> None:
    """A websocket closed. Not a leave: the seat and the round wait for the player."""
    table = _lock_table(table_id)
    seat = Seat.objects.filter(user=user, table=table).first()
    if seat is None:
        return
    seat.connections = max(0, seat.connections - 1)
    seat.last_seen_at = timezone.now()
    seat.save(update_fields=["connections", "last_seen_at"])
    if seat.connections == 0:
        _bump(table)
        _table_event(table, {"type": "presence", "position": seat.position, "online": False})
        _log_presence(table, user, "disconnect")


def _log_presence(table: Table, user: User, kind: str) -> None:
    """Connections that come and go during a round are part of its history (disputes)."""
    round_ = active_round(table)
    if round_ is not None:
        player = round_.players.filter(user=user).first()
        if player is not None:
            _log(round_, kind, {"position": player.position}, user)


def heard_from(user: User, table_id: int) -> None:
    """A heartbeat: the player is still here (no event, no version change)."""
    Seat.objects.filter(user=user, table_id=table_id).update(last_seen_at=timezone.now())


def _is_away(seat: Seat, now: datetime) -> bool:
    if seat.user.is_bot:
        return False  # bots have no websocket and are always present
    return seat.connections == 0 and seat.last_seen_at < now - AWAY_AFTER


# --- Starting a round -----------------------------------------------------------------


@transaction.atomic
def start_round(user: User, table_id: int) -> Round:
    """The host's Start button."""
    table = _lock_table(table_id)
    if table.host_id != user.pk:
        raise RoundError(_("Only the host can start the round."), code="not_host")
    if active_round(table) is not None:
        raise RoundError(_("A round is already being played."), code="round_running")
    if table.seat_set.count() < 2:
        raise RoundError(_("At least two players must be seated."), code="too_few_players")
    round_ = _deal(table)
    if round_ is None:
        raise RoundError(
            _("Not enough players are present and able to pay."), code="too_few_players"
        )
    return round_


@transaction.atomic
def start_round_when_due(table_id: int, expected_start_at: str | None = None) -> Round | None:
    """The automatic start: deal if the countdown this timer belongs to has run out."""
    try:
        table = _lock_table(table_id)
    except NotFound:
        return None
    if table.start_at is None:
        return None
    if expected_start_at is not None and table.start_at.isoformat() != expected_start_at:
        return None  # the countdown restarted or was cancelled since this timer was set
    if timezone.now() < table.start_at:
        _enqueue_start(table.pk, table.start_at)  # fired early: try again on time
        return None
    if active_round(table) is not None:
        return None
    return _deal(table)


def _deal(table: Table) -> Round | None:
    """Stand up who cannot play, then deal, hold the stakes and start the arranging clock."""
    now = timezone.now()
    table.start_at = None  # saved by the _bump below, with the version
    playing: list[Seat] = []
    seats = list(table.seat_set.select_related("user").order_by("position"))
    balances = ledger_selectors.balances([seat.user_id for seat in seats])
    for seat in seats:
        reason = _cannot_play(table, seat, now, balances[seat.user_id])
        if reason is None:
            playing.append(seat)
        else:
            _remove_seat(table, seat, reason=reason)
    if len(playing) < 2:
        _bump(table, "start_at")
        _table_event(table, {"type": "countdown", "start_at": None}, lobby=True)
        return None

    rules = table.rules
    server_seed = new_server_seed()
    client_seeds = [seat.client_seed for seat in playing]
    hands = deal_from_seeds(server_seed, client_seeds, len(playing))
    last = table.rounds.order_by("-number").values_list("number", flat=True).first() or 0
    version = _bump(table, "start_at")
    round_ = Round.objects.create(
        table=table,
        number=last + 1,
        state=RoundState.ARRANGING,
        phase=1,
        dealt_version=version,
        rules_json=rules.to_dict(),
        stake=table.stake,
        server_seed=server_seed,
        server_seed_hash=commitment(server_seed),
        client_seeds=client_seeds,
        deadline=now + timedelta(seconds=rules.arrange_seconds),
    )
    with log_context(table=table.pk, round=round_.pk):
        n = len(playing)
        players: list[RoundPlayer] = []
        for seat, hand in zip(playing, hands, strict=True):
            held = hold_amount(rules, table.stake, balances[seat.user_id], n)
            players.append(
                RoundPlayer(
                    round=round_,
                    user=seat.user,
                    position=seat.position,
                    cards=format_cards(hand),
                    hold=held,
                    cap=held // (n - 1),
                )
            )
        ledger.hold_many(round_.pk, [(p.user, p.hold) for p in players if p.hold > 0])
        RoundPlayer.objects.bulk_create(players)
        deal = {
            "commitment": round_.server_seed_hash,
            "client_seeds": client_seeds,
            "players": [
                {"user": p.user_id, "position": p.position, "hold": p.hold, "cap": p.cap}
                for p in players
            ],
        }
        _log_many(
            round_,
            [("deal", deal, None)]
            + [("cards", {"position": p.position, "cards": p.cards}, p.user) for p in players],
        )
        logger.info("dealt to %d players", n)
    _table_event(
        table,
        {
            "type": "round_started",
            "round": round_.pk,
            "number": round_.number,
            "commitment": round_.server_seed_hash,
            "client_seeds": client_seeds,
            "deadline": round_.deadline.isoformat() if round_.deadline else None,
            "players": [
                {"position": p.position, "user": p.user_id, "hold": p.hold} for p in players
            ],
        },
        lobby=True,
        taken=len(playing),
        state="playing",
    )
    for player in players:
        events.to_player(
            table.pk,
            player.user_id,
            {
                "type": "cards",
                "table": table.pk,
                "round": round_.pk,
                "version": table.version,
                "cards": player.cards,
            },
        )
    _enqueue_advance(round_)
    send_on_commit(round_dealt, table_id=table.pk, round_id=round_.pk)
    return round_


def _cannot_play(table: Table, seat: Seat, now: datetime, balance: int) -> str | None:
    """Why this seated player is stood up at the deal, or None."""
    if _is_away(seat, now):
        return "away"
    try:
        ensure_can_sit(seat.user)
    except SeatRefused:
        return "suspended"
    if balance < table.min_balance:
        return "balance_too_low"
    return None


def _log(round_: Round, kind: str, data: dict[str, Any], user: User | None = None) -> None:
    # The next number is computed inside the INSERT: one round trip. The table lock held
    # by every caller keeps two writers from taking the same number.
    following = Coalesce(
        Subquery(RoundEvent.objects.filter(round=round_).order_by("-seq").values("seq")[:1]),
        Value(0),
    ) + Value(1)
    RoundEvent.objects.create(round=round_, seq=following, kind=kind, user=user, data=data)


def _log_many(round_: Round, entries: list[tuple[str, dict[str, Any], User | None]]) -> None:
    """Several entries at once, numbered after the last one (one read, one INSERT)."""
    last = RoundEvent.objects.filter(round=round_).order_by("-seq").values_list("seq", flat=True)
    start = (last.first() or 0) + 1
    RoundEvent.objects.bulk_create(
        RoundEvent(round=round_, seq=start + i, kind=kind, user=user, data=data)
        for i, (kind, data, user) in enumerate(entries)
    )


def _enqueue_advance(round_: Round) -> None:
    from games.tasks import advance_round as task

    args = (round_.pk, round_.state, round_.phase)
    eta = round_.deadline or timezone.now()
    transaction.on_commit(lambda: task.apply_async(args, eta=eta))


# --- Arranging ------------------------------------------------------------------------


def _lock_round(round_id: Any, table_id: int | None = None) -> tuple[Table, Round]:
    """Lock the round's table, then the round. With ``table_id`` (a table's socket), a
    round of another table is refused as not the caller's."""
    try:
        round_pk = int(round_id)
    except (ValueError, TypeError):
        raise NotFound() from None
    if table_id is None:
        table = _lock_table(Subquery(Round.objects.filter(pk=round_pk).values("table_id")[:1]))
    else:
        table = _lock_table(table_id)
    round_ = Round.objects.select_for_update().filter(pk=round_pk, table=table).first()
    if round_ is None:
        if Round.objects.filter(pk=round_pk).exists():
            raise NotFound(_("You are not playing in this round."), code="not_in_round")
        raise NotFound()
    return table, round_


@transaction.atomic
def submit_arrangement(
    user: User,
    round_id: Any,
    chi: Sequence[Sequence[str]],
    *,
    seen_version: int | None = None,
    table_id: int | None = None,
) -> RoundPlayer:
    """Accept (or replace) a player's arrangement until the deadline or the showdown.

    A foul arrangement is accepted (it loses); a forged or miscounted one is refused.
    ``seen_version`` is the table version the client last saw: a client that has not yet
    seen this round's deal (a stale tab) is refused. ``table_id`` is the table the
    request came from, when known.
    """
    table, round_ = _lock_round(round_id, table_id)
    everyone = list(round_.players.all())
    player = next((p for p in everyone if p.user_id == user.pk), None)
    if player is None:
        raise NotFound(_("You are not playing in this round."), code="not_in_round")
    if seen_version is not None and seen_version < round_.dealt_version:
        raise StaleVersion()
    if round_.state != RoundState.ARRANGING:
        raise RoundError(_("Arranging is over for this round."), code="not_arranging")
    if round_.deadline is not None and timezone.now() >= round_.deadline:
        raise RoundError(_("Time is up: the arrangement was not accepted."), code="too_late")
    if player.status == PlayerStatus.LEFT:
        raise RoundError(_("You have left this round."), code="left")
    try:
        arranged = validate_arrangement(parse_cards(player.cards), chi)
    except ArrangementError as exc:
        raise RoundError(ARRANGEMENT_MESSAGES.get(exc.code, exc.args[0]), code=exc.code) from exc
    player.arrangement = [format_cards(part) for part in arranged]
    player.submitted_at = timezone.now()
    player.save(update_fields=["arrangement", "submitted_at"])
    foul = is_foul_arrangement(round_.rules, player.arrangement)
    _log(
        round_,
        "submit",
        {"position": player.position, "chi": player.arrangement, "foul": foul},
        user,
    )
    _bump(table)
    _table_event(table, {"type": "submitted", "round": round_.pk, "position": player.position})
    events.to_player(
        table.pk,
        user.pk,
        {
            "type": "submission",
            "table": table.pk,
            "round": round_.pk,
            "version": table.version,
            "chi": player.arrangement,
            "foul": foul,
        },
    )
    if all(p.submitted_at is not None for p in everyone if p.status == PlayerStatus.PLAYING):
        _end_arranging_now(round_)
    return player


def _leave_round(table: Table, round_: Round, player: RoundPlayer) -> None:
    """RULES.md section 8: before the showdown all 3 chi are forfeited; during it, the
    chi not yet revealed. After the last reveal there is nothing left to forfeit."""
    if round_.state == RoundState.SHOWDOWN and round_.revealed >= 3:
        return
    player.status = PlayerStatus.LEFT
    player.left_after_chi = round_.revealed if round_.state == RoundState.SHOWDOWN else 0
    player.save(update_fields=["status", "left_after_chi"])
    _log(
        round_,
        "leave",
        {"position": player.position, "after_chi": player.left_after_chi},
        player.user,
    )
    _bump(table)
    _table_event(
        table,
        {
            "type": "player_left",
            "round": round_.pk,
            "position": player.position,
            "after_chi": player.left_after_chi,
        },
    )
    if (
        round_.state == RoundState.ARRANGING
        and not round_.players.filter(
            status=PlayerStatus.PLAYING, submitted_at__isnull=True
        ).exists()
    ):
        _end_arranging_now(round_)


# --- Showdown and settlement ----------------------------------------------------------


def _end_arranging_now(round_: Round) -> None:
    """Everyone still playing has submitted: the showdown starts at once.

    It starts through the same timer task as at the deadline (now due), so the last
    submission stays as quick as the others and the showdown has one code path.
    """
    round_.deadline = timezone.now()
    round_.save(update_fields=["deadline"])
    _enqueue_advance(round_)


def _begin_showdown(table: Table, round_: Round) -> None:
    rules = round_.rules
    result = settle_round_result(round_)
    round_.state = RoundState.SHOWDOWN
    round_.revealed = 0 if result.has_instant else 1
    round_.phase += 1
    round_.deadline = timezone.now() + timedelta(seconds=rules.reveal_seconds)
    round_.save(update_fields=["state", "revealed", "phase", "deadline"])
    missing = [
        p.position
        for p in result.players
        if p.status == PlayerStatus.PLAYING and p.submitted_at is None
    ]
    _log(round_, "showdown", {"unarranged": missing})
    _reveal(table, round_, result)


def _reveal(table: Table, round_: Round, result: RoundResult | None = None) -> None:
    payload = reveal_payload(round_, result)
    _log(round_, "reveal", {"revealed": round_.revealed})
    _bump(table)
    _table_event(table, {"type": "reveal", **payload})
    _enqueue_advance(round_)


@transaction.atomic
def advance_round(round_id: int, expected_state: str, expected_phase: int) -> Round | None:
    """The timer step: end arranging, reveal the next chi, or settle. Idempotent.

    A task that finds the round in another state or phase is stale (a duplicate, a retry,
    or the showdown began early) and does nothing; one that fires early reschedules.
    """
    try:
        table, round_ = _lock_round(round_id)
    except NotFound:
        return None
    if round_.state != expected_state or round_.phase != expected_phase:
        return None
    if round_.deadline is not None and timezone.now() < round_.deadline:
        _enqueue_advance(round_)
        return None
    with log_context(table=table.pk, round=round_.pk):
        if round_.state == RoundState.ARRANGING:
            _begin_showdown(table, round_)
        elif round_.state == RoundState.SHOWDOWN and round_.revealed < 3:
            round_.revealed += 1
            round_.phase += 1
            round_.deadline = timezone.now() + timedelta(seconds=round_.rules.reveal_seconds)
            round_.save(update_fields=["revealed", "phase", "deadline"])
            _reveal(table, round_)
        elif round_.state == RoundState.SHOWDOWN:
            _settle(table, round_)
    return round_


def _settle(table: Table, round_: Round) -> None:
    """Settle with the rules snapshot of the deal and pay through the ledger, exactly once."""
    result = settle_round_result(round_, with_users=True)
    players = result.players
    deltas = {p.user_id: result.settlement.player(str(p.position)).xu for p in players}
    try:
        closure = ledger.settle_round(round_.pk, deltas)
    except LedgerError:
        logger.exception("ledger refused the settlement")
        raise
    for p in players:
        outcome = result.settlement.player(str(p.position))
        p.units, p.xu = outcome.units, outcome.xu
    RoundPlayer.objects.bulk_update(players, ["units", "xu"])
    round_.state = RoundState.SETTLED
    round_.phase += 1
    round_.deadline = None
    round_.settled_at = timezone.now()
    round_.settlement = result.settlement.to_json()
    round_.save(update_fields=["state", "phase", "deadline", "settled_at", "settlement"])
    _log(
        round_,
        "settled",
        {
            "deltas": {str(k): v for k, v in deltas.items()},
            "transfers": round_transfer_ids(round_.pk),
            "fee": closure.fee,
            "server_seed": round_.server_seed,
        },
    )
    _bump(table)
    seated = table.seat_set.count()
    _table_event(
        table,
        {"type": "settled", **summary_payload(round_, players)},
        lobby=True,
        taken=seated,
        state="waiting",
    )
    logger.info("settled")
    send_on_commit(round_settled, table_id=table.pk, round_id=round_.pk)
    if seated >= 2:
        _set_start(table, timezone.now() + timedelta(seconds=SUMMARY_SECONDS), taken=seated)


# --- The sweeper ----------------------------------------------------------------------


def sweep_due(now: datetime | None = None, grace: timedelta = timedelta(seconds=1)) -> int:
    """Advance every round and table whose deadline has passed (lost timers, dead workers)."""
    now = now or timezone.now()
    moved = 0
    due_rounds = Round.objects.filter(
        state__in=[RoundState.ARRANGING, RoundState.SHOWDOWN], deadline__lte=now - grace
    ).values_list("pk", "state", "phase")
    for round_id, state, phase in due_rounds:
        try:
            moved += advance_round(round_id, state, phase) is not None
        except Exception:
            logger.exception("sweeper could not advance round %s", round_id)
    due_tables = Table.objects.filter(start_at__lte=now - grace).values_list("pk", flat=True)
    for table_id in due_tables:
        try:
            moved += start_round_when_due(table_id) is not None
        except Exception:
            logger.exception("sweeper could not start a round at table %s", table_id)
    return moved
