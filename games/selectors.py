"""Reads of tables and rounds shared by services, consumers, views and tasks.

What a client may see is decided here: a player's own cards are in their snapshot and
nobody else's until the showdown reveals them chi by chi.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.paginator import Paginator
from django.db.models import Count, F, QuerySet
from django.utils import timezone

from accounts.models import User
from accounts.roles import is_admin, is_moderator
from games.models import (
    Connection,
    PlayerStatus,
    Round,
    RoundPlayer,
    RoundState,
    Seat,
    SeatHold,
    Table,
    TableGuest,
    TableInvite,
)
from games.rules import Rules, is_foul, parse_cards
from games.rules.fair import verify_deal
from games.rules.scoring import PlayerInput, Settlement, settle
from ledger import selectors as ledger_selectors
from ledger.models import Transfer
from maubinh_site.compiled import Compiled

LIVE_STATES = (RoundState.ARRANGING, RoundState.SHOWDOWN)


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
    """The lobby's tables: open and public (a private table is reached by its invite)."""
    return (
        Table.objects.filter(is_open=True, is_private=False)
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
    removed by the host since."""
    if not table.is_private:
        return True
    if not user.is_authenticated:
        return False
    return user.pk == table.host_id or is_staff(user) or _invited(table, user)


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
        "balance": ledger_selectors.balance(seat.user) if balance is None else balance,
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
    """What the showdown has shown so far: instant wins, fouls, then chi 1..revealed."""
    if result is None:
        result = settle_round_result(round_)
    settlement = result.settlement
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
                    "xu": chi.units * round_.stake,
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
        scoop_xu = {str(k): v["scoop"] for k, v in result_breakdown(as_json).items()}
    return {
        "round": round_.pk,
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
        "scoops": scoops,
        "scoop_xu": scoop_xu,
    }


def summary_payload(round_: Round, players: list[RoundPlayer] | None = None) -> dict[str, Any]:
    """The end of a round: every result, the new balances and the revealed server seed.

    ``players``: the round's players with their users, if the caller has them.
    """
    if players is None:
        players = list(round_.players.select_related("user").order_by("position"))
    balances = ledger_selectors.balances([p.user_id for p in players])
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
                "xu": p.xu,
                "chi_won": outcome.get("chi_won"),
                "chi_lost": outcome.get("chi_lost"),
                "scooped": outcome.get("scooped"),
                "foul": outcome.get("foul"),
                "instant": outcome.get("instant"),
                "hands": outcome.get("hands"),
                "status": p.status,
                "auto_arranged": p.auto_arranged or None,
                "breakdown": breakdown.get(p.position),
                "balance": balances[p.user_id],
                "rating": rating_changes.get(str(p.user_id)),
            }
        )
    return {
        "round": round_.pk,
        "number": round_.number,
        "players": rows,
        "pairs": settlement.get("pairs", []),
        "scoops": scoop_lines(settlement) if settlement else [],
        "rated": ratings.get("rated"),
        "unrated_reason": ratings.get("reason") or None,
        "server_seed": round_.server_seed,
        "commitment": round_.server_seed_hash,
        "client_seeds": round_.client_seeds,
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
    if round_.state in (RoundState.SHOWDOWN, RoundState.SETTLED):
        view["reveal"] = reveal_payload(round_)
    if round_.state == RoundState.SETTLED:
        view["summary"] = summary_payload(round_)
    if round_.state == RoundState.CANCELLED:
        view["voided"] = void_payload(round_)
    return view


def void_payload(round_: Round, reason: str | None = None) -> dict[str, Any]:
    """A voided round: why, and every player's returned stake and balance."""
    if reason is None:
        logged = round_.events.filter(kind="voided").values_list("data", flat=True).first()
        reason = (logged or {}).get("reason", "")
    players = list(round_.players.order_by("position"))
    balances = ledger_selectors.balances([p.user_id for p in players])
    return {
        "round": round_.pk,
        "number": round_.number,
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
        "server_seed": round_.server_seed,
    }


def table_snapshot(table: Table, user: User | None) -> dict[str, Any]:
    """Everything a (re)connecting client needs, as this user may see it."""
    seated = list(table.seat_set.select_related("user").order_by("position"))
    balances = ledger_selectors.balances([s.user_id for s in seated])
    online = online_users(table.pk)
    seats = [seat_view(s, balances[s.user_id], online) for s in seated]
    current = active_round(table) or latest_round(table)
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
            "rules": table.rules.to_dict(),
        },
        "start_at": table.start_at.isoformat() if table.start_at else None,
        "seats": seats,
        "you": {
            "user": user.pk if user else None,
            "seated": any(s["user"] == (user.pk if user else None) for s in seats),
        },
        "round": round_view(current, user) if current is not None else None,
    }


def verify_round(round_: Round) -> None:
    """Recompute a finished round's deal from its seeds; raise ``FairnessError`` on mismatch.

    The server seed is secret until the round is over, so only finished rounds verify.
    """
    from games.rules.fair import FairnessError

    if not round_.is_finished:
        raise FairnessError("the server seed is revealed when the round is over", "not_finished")
    hands = [parse_cards(p.cards) for p in round_.players.order_by("position")]
    verify_deal(round_.server_seed, round_.server_seed_hash, round_.client_seeds, hands)
