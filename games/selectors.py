"""Reads of tables and rounds shared by services, consumers, views and tasks.

What a client may see is decided here: a player's own cards are in their snapshot and
nobody else's until the showdown reveals them chi by chi. At a duplicate table the
showdown's cards go only to those who can no longer be dealt that board
(``board_audience``); everyone else gets the ``withheld_*`` forms.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.paginator import Paginator
from django.db.models import Count, F, Q, QuerySet
from django.utils import timezone

from accounts.models import User
from accounts.roles import is_admin, is_moderator
from games.models import (
    Connection,
    DuplicateBoard,
    PlayerStatus,
    Round,
    RoundEvent,
    RoundPlayer,
    RoundState,
    Seat,
    SeatHold,
    StakesIn,
    Table,
    TableGuest,
    TableInvite,
)
from games.rules import Rules, is_foul, parse_cards
from games.rules.fair import verify_deal
from games.rules.scoring import PlayerInput, Settlement, settle
from games.stakes import for_table, per_unit
from ledger.models import Transfer
from maubinh_site.compiled import Compiled

LIVE_STATES = (RoundState.ARRANGING, RoundState.SHOWDOWN)
FINISHED_STATES = (RoundState.SETTLED, RoundState.CANCELLED)


def active_round(table: Table, *, lock: bool = False) -> Round | None:
    """The round being arranged or shown at this table, if any."""
    rounds = Round.objects.filter(table=table, state__in=LIVE_STATES)
    if lock:
        rounds = rounds.select_for_update()
    return rounds.order_by("-number").first()


def latest_round(table: Table) -> Round | None:
    return Round.objects.filter(table=table).order_by("-number").first()


def round_transfer_ids(round_id: int) -> list[int]:
    """The ledger transfers of a round (holds, payouts, fee), oldest first."""
    return list(
        Transfer.objects.filter(round_id=round_id).order_by("pk").values_list("pk", flat=True)
    )


def open_tables() -> QuerySet[Table]:
    """The lobby's tables: open and public (a private table is reached by its invite, a
    tournament's through the tournament)."""
    return (
        Table.objects.filter(is_open=True, is_private=False, stakes_in=StakesIn.XU)
        .select_related("host")
        .order_by("stake", "pk")
    )


# --- Private tables: who hosts, who may come in (docs/social.md) -----------------------


def acting_host_id(table: Table) -> int:
    """The host: the creator while seated here; when not, the person (not a bot) seated
    longest; with no person seated, the creator again. Derived, never stored, so a host
    leaving hands the powers on with no write and no race."""
    seated = list(
        table.seat_set.filter(user__is_bot=False)
        .order_by("joined_at", "pk")
        .values_list("user_id", flat=True)
    )
    if table.host_id in seated or not seated:
        return table.host_id
    return seated[0]


def is_acting_host(table: Table, user: User) -> bool:
    return user.is_authenticated and acting_host_id(table) == user.pk


def valid_invites(table: Table, now: Any = None) -> QuerySet[TableInvite]:
    now = now or timezone.now()
    return table.invites.filter(revoked_at__isnull=True, expires_at__gt=now)


def active_holds(table: Table, now: Any = None) -> QuerySet[SeatHold]:
    return table.holds.filter(until__gt=now or timezone.now())


def held_seats(table: Table, *, for_others_than: User | None = None) -> int:
    """Free seats the host keeps for invited friends (all, or all but this user's)."""
    holds = active_holds(table)
    if for_others_than is not None:
        holds = holds.exclude(user=for_others_than)
    return holds.count()


def may_enter(table: Table, user: User) -> bool:
    """A public table: anyone. A private one: its host and creator, whoever sits there,
    staff, a friend a seat is held for, and whoever opened a valid invite link and was not
    removed by the host since. A managed table (a tournament's) may keep people out
    (``games.signals.watch_requested``: an arena's board), never staff."""
    if table.is_managed and not _watch_allowed(table, user):
        return False
    if not table.is_private:
        return True
    if not user.is_authenticated:
        return False
    return user.pk == table.host_id or is_staff(user) or _invited(table, user)


def _watch_allowed(table: Table, user: User) -> bool:
    from games.signals import watch_requested

    if user.is_authenticated and is_staff(user):
        return True
    answers = watch_requested.send(sender=Table, table=table, user=user)
    return not any(answer is not None and not answer for _receiver, answer in answers)


def is_staff(user: User) -> bool:
    """A moderator or an admin in good standing (accounts.roles)."""
    return is_moderator(user) or is_admin(user)


def enters_as_staff(table: Table, user: User) -> bool:
    """Staff coming to a private table only by their role: moderation audits the visit."""
    return (
        table.is_private
        and user.pk != table.host_id
        and is_staff(user)
        and not _invited(table, user)
    )


def _invited(table: Table, user: User) -> bool:
    """Let in as a player: a bot the host asked for, a seat, a held seat or a valid link."""
    if user.is_bot and table.allow_bots:
        return True  # the host asked for bots at this table
    if table.seat_set.filter(user=user).exists():
        return True
    if active_holds(table).filter(user=user).exists():
        return True
    guest = TableGuest.objects.filter(table=table, user=user).select_related("invite").first()
    if guest is None or guest.removed_at is not None or guest.invite is None:
        return False
    invite = guest.invite
    return invite.revoked_at is None and invite.expires_at > timezone.now()


def joinable_tables(balance: int, limit: int = 50) -> QuerySet[Table]:
    """Open tables with a free seat this balance can afford, fullest first (quick join)."""
    return (
        open_tables()
        .filter(min_balance__lte=balance)
        .annotate(taken=Count("seat_set"))
        .filter(taken__lt=F("seats"))
        .order_by("-taken", "stake", "pk")[:limit]
    )


def lobby_page(page: Any = 1) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """One page of the lobby (LOBBY_PAGE_SIZE tables), whatever the number of tables.

    A page number that is not one (or past the end) gives the nearest page.
    """
    paginator = Paginator(open_tables(), settings.LOBBY_PAGE_SIZE)
    current = paginator.get_page(page)
    rows = [lobby_row(t) for t in current.object_list]
    return rows, {
        "page": current.number,
        "pages": paginator.num_pages,
        "total": paginator.count,
    }


def table_state(table: Table) -> str:
    if active_round(table) is not None:
        return "playing"
    if table.start_at is not None:
        return "starting"
    return "waiting"


def lobby_row(
    table: Table, *, taken: int | None = None, state: str | None = None
) -> dict[str, Any]:
    """A table as the lobby lists it; ``taken`` and ``state`` when the caller knows them."""
    if taken is None:
        taken = table.seat_set.count()
    return {
        "id": table.pk,
        "name": table.name,
        "preset": table.preset,
        "stake": table.stake,
        "seats": table.seats,
        "taken": taken,
        "free": table.seats - taken,
        "state": state if state is not None else table_state(table),
        "min_balance": table.min_balance,
        "allow_bots": table.allow_bots,
        "host": table.host.shown_name,
        "host_id": table.host_id,
        "version": table.version,
        "open": table.is_open,
        "duplicate": table.duplicate_schedule_id is not None,
    }


def online_users(table_id: int) -> set[int]:
    """Users with an open socket at the table (a row the sweeper has not dropped yet)."""
    return set(Connection.objects.filter(table_id=table_id).values_list("user_id", flat=True))


def seat_view(
    seat: Seat, balance: int | None = None, online: set[int] | None = None
) -> dict[str, Any]:
    """A seat as the table shows it; ``balance``: the sitter's, and ``online``: the
    table's ``online_users``, when the caller has them."""
    is_bot = seat.user.is_bot
    if online is None:
        online = online_users(seat.table_id)
    return {
        "position": seat.position,
        "user": seat.user_id,
        "name": seat.user.shown_name,
        "online": is_bot or seat.user_id in online,  # bots are always present
        "balance": (
            for_table(seat.table).balances(seat.table, [seat.user_id])[seat.user_id]
            if balance is None
            else balance
        ),
        "is_bot": is_bot,
        "difficulty": _bot_difficulty(seat.user) if is_bot else None,
    }


def _bot_difficulty(user: User) -> str | None:
    # The bots app's profile (bots.models.Bot, related_name "bot_profile"), read by name so
    # games does not import the app built on it.
    profile = getattr(user, "bot_profile", None)
    return getattr(profile, "difficulty", None)


def is_foul_arrangement(rules: Rules, chi: list[list[str]]) -> bool:
    parts = [parse_cards(part) for part in chi]
    return is_foul(parts[0], parts[1], parts[2], rules.name)


@dataclass(frozen=True)
class RoundResult:
    """The settlement of a round as things stand (players are keyed by seat position)."""

    settlement: Settlement
    players: list[RoundPlayer]

    @property
    def has_instant(self) -> bool:
        return any(p.instant is not None for p in self.settlement.players)


def _players_query(with_users: bool) -> Compiled[RoundPlayer]:
    def build(round_id: int) -> QuerySet[RoundPlayer]:
        players = RoundPlayer.objects.filter(round_id=round_id).order_by("position")
        return players.select_related("user") if with_users else players

    return Compiled(build)


# Every step of a round reads its players: compiled once (maubinh_site.compiled).
_PLAYERS = {with_users: _players_query(with_users) for with_users in (False, True)}


def round_players(round_: Round, *, with_users: bool = False) -> list[RoundPlayer]:
    """The round's players in seat order (with their users: ``with_users``)."""
    players = _PLAYERS[with_users].all(round_.pk)
    for p in players:
        p.round = round_  # as round_.players would have it: no query for it
    return players


def settle_round_result(
    round_: Round, *, with_users: bool = False, players: list[RoundPlayer] | None = None
) -> RoundResult:
    """Settle with the rules stored at the deal; who left and who did not arrange count.

    ``players``: the round's players in seat order, if the caller has read them."""
    if players is None:
        players = round_players(round_, with_users=with_users)
    inputs = []
    for p in players:
        if p.status == PlayerStatus.LEFT:
            status, after = "left", p.left_after_chi or 0
        else:
            status, after = ("arranged" if p.arrangement else "unarranged"), None
        inputs.append(
            PlayerInput.make(
                str(p.position),
                cards=p.cards,
                chi=p.arrangement if p.arrangement else None,
                status=status,
                left_after_chi=after,
                cap=p.cap,
            )
        )
    return RoundResult(settle(round_.rules, round_.stake, inputs), players)


def result_breakdown(settlement: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Per seat position: where the player's xu came from, adding up exactly to its ``xu``.

    ``instant`` (instant-win pairs), ``chi`` (each chi before any scoop multiplier, what the
    showdown's chi badges show), ``scoop`` (what the sập multipliers added) and ``cap``
    (what the escrow caps took off), all signed from the player's side.
    """
    stake = settlement.get("stake", 1)
    rows: dict[int, dict[str, Any]] = {
        int(p["id"]): {"instant": 0, "chi": [0, 0, 0], "scoop": 0, "cap": 0}
        for p in settlement.get("players", [])
    }
    for pair in settlement.get("pairs", []):
        for side, sign in ((int(pair["a"]), 1), (int(pair["b"]), -1)):
            row = rows[side]
            if pair["kind"] == "instant":
                row["instant"] += sign * pair["units"] * stake
            else:
                for k, units in enumerate(pair["chi"]):
                    row["chi"][k] += sign * units * stake
                row["scoop"] += sign * (pair["units"] - sum(pair["chi"])) * stake
            row["cap"] += sign * (pair["xu"] - pair["units"] * stake)
    return rows


def scoop_lines(settlement: dict[str, Any]) -> list[dict[str, Any]]:
    """Each scooped player once: ``kind`` (one: sập 3 chi, all: sập làng), the multiplier
    ``x``, who scooped them (``by``) and what the multiplier added to their loss (``xu``,
    before caps)."""
    stake = settlement.get("stake", 1)
    lines: dict[int, dict[str, Any]] = {}
    for pair in settlement.get("pairs", []):
        scoop = pair.get("scoop")
        if not scoop:
            continue
        loser = int(scoop["loser"])
        winner = int(pair["b"]) if int(pair["a"]) == loser else int(pair["a"])
        line = lines.setdefault(
            loser, {"loser": loser, "kind": scoop["kind"], "x": scoop["x"], "by": [], "xu": 0}
        )
        line["by"].append(winner)
        line["xu"] += abs(pair["units"] - sum(pair["chi"])) * stake
    return list(lines.values())


def reveal_payload(round_: Round, result: RoundResult | None = None) -> dict[str, Any]:
    """What the showdown has shown so far: instant wins, fouls, then chi 1..revealed.

    Amounts (``xu``) are in what the round is played for (``stakes_in``, games.stakes)."""
    if result is None:
        result = settle_round_result(round_)
    settlement = result.settlement
    stakes_in = round_.table.stakes_in
    per = per_unit(stakes_in, round_.stake)
    by_position = {p.position: p for p in result.players}
    instants = []
    for pr in settlement.players:
        if pr.instant is not None:
            player = by_position[int(pr.id)]
            instants.append(
                {
                    "position": int(pr.id),
                    "kind": pr.instant.kind,
                    "name_vi": pr.instant.name_vi,
                    "name_en": pr.instant.name_en,
                    "cards": player.cards,
                }
            )
    instant_pairs = [
        {
            "a": int(pair.a),
            "b": int(pair.b),
            "units": pair.units,
            "xu": pair.units * round_.stake // per,
            "winner": None if pair.instant_winner is None else int(pair.instant_winner),
        }
        for pair in settlement.pairs
        if pair.kind == "instant"
    ]
    chi_views = []
    for index in range(round_.revealed):
        hands = []
        for pr in settlement.players:
            player = by_position[int(pr.id)]
            shown = (
                pr.hands is not None
                and not (player.status == PlayerStatus.LEFT and (player.left_after_chi or 0) == 0)
                and pr.instant is None
            )
            hand = pr.hands[index].to_json() if shown and pr.hands is not None else None
            hands.append({"position": int(pr.id), "hand": hand, "foul": pr.foul})
        pairs = []
        for pair in settlement.pairs:
            if pair.chi is None:
                continue
            chi = pair.chi[index]
            pairs.append(
                {
                    "a": int(pair.a),
                    "b": int(pair.b),
                    "units": chi.units,
                    "xu": chi.units * round_.stake // per,
                    "winner": None if chi.winner is None else int(chi.winner),
                    "bonus": chi.bonus,
                    "reason": chi.reason,
                }
            )
        chi_views.append({"chi": index + 1, "hands": hands, "pairs": pairs})
    scoops: list[dict[str, Any]] = []
    scoop_xu: dict[str, int] = {}
    if round_.revealed >= 3:
        # Every chi is shown: the scoops are known, and named once per scooped player.
        as_json = settlement.to_json()
        scoops = scoop_lines(as_json)
        scoop_xu = {str(k): v["scoop"] // per for k, v in result_breakdown(as_json).items()}
    return {
        "round": round_.pk,
        "stakes_in": stakes_in,
        "revealed": round_.revealed,
        "deadline": round_.deadline.isoformat() if round_.deadline else None,
        "fouls": [int(p.id) for p in settlement.players if p.foul],
        "unarranged": [p.position for p in result.players if not p.arrangement],
        "auto_arranged": {
            str(p.position): p.auto_arranged for p in result.players if p.auto_arranged
        },
        "instants": instants,
        "instant_pairs": instant_pairs,
        "chi": chi_views,
        "scoops": [{**line, "xu": line["xu"] // per} for line in scoops],
        "scoop_xu": scoop_xu,
    }


def summary_payload(round_: Round, players: list[RoundPlayer] | None = None) -> dict[str, Any]:
    """The end of a round: every result, the new balances and the revealed server seed.

    Amounts (``xu``, ``breakdown``, the scoops') are in what the round was played for
    (``stakes_in``: xu, a tournament's chips, or points, which are units; games.stakes);
    a points table's players have no balance (None).
    ``players``: the round's players with their users, if the caller has them.
    """
    if players is None:
        players = list(round_.players.select_related("user").order_by("position"))
    stakes_in = round_.table.stakes_in
    per = per_unit(stakes_in, round_.stake)
    balances = _shown_balances(round_, [p.user_id for p in players])
    settlement = round_.settlement or {}
    by_id = {p["id"]: p for p in settlement.get("players", [])}
    breakdown = result_breakdown(settlement) if settlement else {}
    ratings = round_.ratings or {}
    rating_changes = ratings.get("players", {})
    rows = []
    for p in players:
        outcome = by_id.get(str(p.position), {})
        rows.append(
            {
                "position": p.position,
                "user": p.user_id,
                "name": p.user.shown_name,
                "units": p.units,
                "xu": None if p.xu is None else p.xu // per,
                "chi_won": outcome.get("chi_won"),
                "chi_lost": outcome.get("chi_lost"),
                "scooped": outcome.get("scooped"),
                "foul": outcome.get("foul"),
                "instant": outcome.get("instant"),
                "hands": outcome.get("hands"),
                "status": p.status,
                "auto_arranged": p.auto_arranged or None,
                "breakdown": _divided(breakdown.get(p.position), per),
                "balance": balances[p.user_id],
                "rating": rating_changes.get(str(p.user_id)),
            }
        )
    return {
        "round": round_.pk,
        "number": round_.number,
        "stakes_in": stakes_in,
        "players": rows,
        "pairs": settlement.get("pairs", []),
        "scoops": [
            {**line, "xu": line["xu"] // per}
            for line in (scoop_lines(settlement) if settlement else [])
        ],
        "rated": ratings.get("rated"),
        "unrated_reason": ratings.get("reason") or None,
        **_seed_view(round_),
        "commitment": round_.server_seed_hash,
        "client_seeds": round_.client_seeds,
    }


def _seed_view(round_: Round) -> dict[str, Any]:
    """The server seed shown now; a duplicate round's board, and whether its seed is out yet
    (a settled round of a board still in play shows the hash only: docs/duplicate.md)."""
    if round_.board_id is None:
        return {"server_seed": round_.revealed_server_seed, "board": None}
    # Read afresh: the settlement that builds this summary may have just revealed the board.
    board = DuplicateBoard.objects.get(pk=round_.board_id)
    return {
        "server_seed": board.seed if board.is_revealed else "",
        "board": {
            "schedule": board.schedule_id,
            "number": board.number,
            "revealed": board.is_revealed,
        },
    }


def board_audience(round_: Round) -> list[int] | None:
    """Who may receive a duplicate round's cards now; None when anyone may.

    A board's cards are a secret while it may still be dealt (docs/duplicate.md): until
    it is revealed they go only to the round's own players and to those who have played
    the board to the end (nobody is dealt a board twice). Someone whose round of the board
    is still live elsewhere is not among them: they would see the hands they play against.
    Staff are not either: the table socket knows no exception (moderation has the replay).
    """
    if round_.board_id is None or _board_revealed(round_.board_id):
        return None
    holders = RoundPlayer.objects.filter(round__board_id=round_.board_id).filter(
        Q(round_id=round_.pk) | Q(round__state__in=FINISHED_STATES)
    )
    return sorted(set(holders.values_list("user_id", flat=True)))


def hands_withheld(round_: Round, user: User | None, players: list[RoundPlayer]) -> bool:
    """Whether ``user`` must not see this round's cards (``board_audience``, for one user)."""
    if round_.board_id is None or _board_revealed(round_.board_id):
        return False
    if user is None or not user.is_authenticated:
        return True
    if any(p.user_id == user.pk for p in players):
        return False
    return not RoundPlayer.objects.filter(
        user=user, round__board_id=round_.board_id, round__state__in=FINISHED_STATES
    ).exists()


def _board_revealed(board_id: int) -> bool:
    # Read afresh: a settlement may have revealed the board a moment ago (round_finished).
    return DuplicateBoard.objects.filter(pk=board_id, revealed_at__isnull=False).exists()


_WITHHELD_REVEAL_KEYS = ("type", "table", "version", "round", "revealed", "deadline", "stakes_in")
_WITHHELD_SUMMARY_KEYS = (
    *("type", "table", "version", "round", "number", "rated", "unrated_reason", "stakes_in"),
    *("server_seed", "commitment", "client_seeds", "board"),
)
_WITHHELD_ROW_KEYS = ("position", "user", "name", "units", "xu", "status", "balance", "rating")


def withheld_reveal(payload: dict[str, Any]) -> dict[str, Any]:
    """A reveal for someone who may still be dealt its board: how far the showdown is,
    nothing of any hand (not the cards, the fouls, the mậu binh or a chi's result)."""
    kept = {k: payload[k] for k in _WITHHELD_REVEAL_KEYS if k in payload}
    empty: dict[str, Any] = {"fouls": [], "unarranged": [], "auto_arranged": {}, "instants": []}
    empty |= {"instant_pairs": [], "chi": [], "scoops": [], "scoop_xu": {}}
    return {**kept, **empty, "withheld": True}


def withheld_summary(payload: dict[str, Any]) -> dict[str, Any]:
    """A summary for someone who may still be dealt its board: each player's result in xu
    (balances are public anyway) and the commitments, nothing of any hand."""
    kept = {k: payload[k] for k in _WITHHELD_SUMMARY_KEYS if k in payload}
    rows = [{k: row.get(k) for k in _WITHHELD_ROW_KEYS} for row in payload["players"]]
    return {**kept, "players": rows, "pairs": [], "scoops": [], "withheld": True}


def _shown_balances(round_: Round, user_ids: list[int]) -> dict[int, int | None]:
    """The players' balances after the round, or None at a points table (nothing is held
    there: its "balance" is no amount of anything)."""
    if round_.table.stakes_in == StakesIn.POINTS:
        return dict.fromkeys(user_ids)
    return dict(for_table(round_.table).balances(round_.table, user_ids))


def _divided(parts: dict[str, Any] | None, per: int) -> dict[str, Any] | None:
    """A result breakdown in units of ``per`` xu (a points round's: see summary_payload)."""
    if parts is None or per == 1:
        return parts
    return {
        "instant": parts["instant"] // per,
        "chi": [amount // per for amount in parts["chi"]],
        "scoop": parts["scoop"] // per,
        "cap": parts["cap"] // per,
    }


def round_view(round_: Round, user: User | None) -> dict[str, Any]:
    """A round as ``user`` may see it now."""
    players = list(round_.players.order_by("position"))
    view: dict[str, Any] = {
        "id": round_.pk,
        "number": round_.number,
        "state": round_.state,
        "deadline": round_.deadline.isoformat() if round_.deadline else None,
        "revealed": round_.revealed,
        "commitment": round_.server_seed_hash,
        "client_seeds": round_.client_seeds,
        "players": [
            {
                "position": p.position,
                "user": p.user_id,
                "submitted": p.submitted_at is not None,
                "status": p.status,
                "hold": p.hold,
            }
            for p in players
        ],
        "you": None,
    }
    mine = next((p for p in players if user is not None and p.user_id == user.pk), None)
    if mine is not None:
        view["you"] = {
            "position": mine.position,
            "cards": mine.cards,
            "arrangement": mine.arrangement,
            # The last complete layout (draft or submission): a reconnecting page restores it.
            "draft": mine.draft if round_.state == RoundState.ARRANGING else None,
            "auto_arranged": mine.auto_arranged or None,
            "foul": mine.arrangement is not None
            and is_foul_arrangement(round_.rules, mine.arrangement),
            "status": mine.status,
        }
    withheld = round_.state in (
        RoundState.SHOWDOWN,
        RoundState.SETTLED,
    ) and hands_withheld(round_, user, players)
    if round_.state in (RoundState.SHOWDOWN, RoundState.SETTLED):
        reveal = reveal_payload(round_)
        view["reveal"] = withheld_reveal(reveal) if withheld else reveal
    if round_.state == RoundState.SETTLED:
        summary = summary_payload(round_)
        view["summary"] = withheld_summary(summary) if withheld else summary
    if round_.state == RoundState.CANCELLED:
        view["voided"] = void_payload(round_)
    return view


def void_payload(round_: Round, reason: str | None = None) -> dict[str, Any]:
    """A voided round: why, and every player's returned stake and balance."""
    if reason is None:
        logged = round_.events.filter(kind="voided").values_list("data", flat=True).first()
        reason = (logged or {}).get("reason", "")
    players = list(round_.players.order_by("position"))
    balances = _shown_balances(round_, [p.user_id for p in players])
    return {
        "round": round_.pk,
        "number": round_.number,
        "stakes_in": round_.table.stakes_in,
        "reason": reason,
        "players": [
            {
                "position": p.position,
                "user": p.user_id,
                "returned": p.hold,
                "balance": balances[p.user_id],
            }
            for p in players
        ],
        "server_seed": round_.revealed_server_seed,
    }


def table_snapshot(table: Table, user: User | None) -> dict[str, Any]:
    """Everything a (re)connecting client needs, as this user may see it."""
    seated = list(table.seat_set.select_related("user").order_by("position"))
    balances = for_table(table).balances(table, [s.user_id for s in seated])
    online = online_users(table.pk)
    seats = [seat_view(s, balances[s.user_id], online) for s in seated]
    current = active_round(table) or latest_round(table)
    if current is not None:
        current.table = table  # its payloads read the table (stakes_in): no second read
    return {
        "type": "snapshot",
        "table": table.pk,
        "version": table.version,
        "server_now": timezone.now().isoformat(),
        "info": {
            **lobby_row(table),
            "host_id": table.host_id,
            # Who hosts now (docs/social.md): the creator while seated, else the longest seated.
            "acting_host_id": acting_host_id(table),
            "private": table.is_private,
            # What balances, holds and results are counted in (games.stakes): xu, or a
            # tournament's chips or points.
            "stakes_in": table.stakes_in,
            "rules": table.rules.to_dict(),
            # When bots take the free seats (bots.receivers: bot_wait_seconds after the
            # last arrival), so the page can count it down; None when no bot is coming.
            "bot_wait_seconds": table.bot_wait_seconds,
            "bots_at": _bots_at(table, seated, current),
        },
        "start_at": table.start_at.isoformat() if table.start_at else None,
        # Between rounds: who said ready, who asked to wait (games.services.between).
        "between": between_view(table, current),
        "seats": seats,
        "you": {
            "user": user.pk if user else None,
            "seated": any(s["user"] == (user.pk if user else None) for s in seats),
        },
        "round": round_view(current, user) if current is not None else None,
    }


def _bots_at(table: Table, seated: list[Seat], current: Round | None) -> str | None:
    if not table.allow_bots or table.is_managed or len(seated) >= table.seats or not seated:
        return None
    if (current is not None and not current.is_finished) or table.start_at is not None:
        return None  # a round or a countdown is on: bots come between rounds, if at all
    if all(seat.user.is_bot for seat in seated):
        return None
    # The bots' wait restarts with each arrival and after each round (bots.receivers).
    changes = [seat.joined_at for seat in seated]
    if current is not None and current.settled_at is not None:
        changes.append(current.settled_at)
    return (max(changes) + timedelta(seconds=table.bot_wait_seconds)).isoformat()


BETWEEN_KINDS = ("wait", "ready")
"""The round log's entries of games.services.between."""


def between_view(table: Table, latest: Round | None) -> dict[str, Any] | None:
    """Who has said ready and who asked to wait since ``latest`` ended (user ids), while the
    next deal is counted down; None otherwise (a round is played, or no deal is due)."""
    if latest is None or not latest.is_finished or table.start_at is None:
        return None
    ready: list[int] = []
    waited: list[int] = []
    rows = RoundEvent.objects.filter(round=latest, kind__in=BETWEEN_KINDS).order_by("seq")
    for kind, user_id in rows.values_list("kind", "user_id"):
        if kind == "wait":  # asking to wait takes back an earlier "ready"
            waited.append(user_id)
            ready = [u for u in ready if u != user_id]
        elif user_id not in ready:
            ready.append(user_id)
    return {"round": latest.pk, "ready": ready, "waited": waited}


def verify_round(round_: Round) -> None:
    """Recompute a finished round's deal from its seeds; raise ``FairnessError`` on mismatch.

    The server seed is secret until the round is over, so only finished rounds verify. A
    duplicate round's seed is its board's, secret until the board is revealed (other tables
    may still be dealt it): until then ``FairnessError`` code ``board_not_revealed``.
    """
    from games.rules.fair import FairnessError

    if not round_.is_finished:
        raise FairnessError("the server seed is revealed when the round is over", "not_finished")
    seed = round_.server_seed
    board = round_.board if round_.board_id is not None else None
    if board is not None:
        if not board.is_revealed:
            raise FairnessError(
                "the board's seed is revealed when the board's play is over",
                "board_not_revealed",
            )
        if round_.server_seed_hash != board.seed_hash:
            raise FairnessError(
                "the round's commitment is not the board's published hash", "commitment"
            )
        if list(round_.client_seeds) != [board.client_seed]:
            raise FairnessError("the round was not dealt with the board's client seed", "seed")
        seed = board.seed
    hands = [parse_cards(p.cards) for p in round_.players.order_by("position")]
    verify_deal(seed, round_.server_seed_hash, round_.client_seeds, hands)
