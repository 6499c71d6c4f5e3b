"""What the server sends to browsers (docs/protocol.md), in the order that page lists them.

The snapshot a (re)connecting client gets (``table_snapshot``, with its ``info``
(``lobby_row``), ``seats`` (``seat_view``, also the ``seat_taken`` event's ``seat``) and
``round`` (``round_view``)); the events of a round's end, ``reveal`` (``reveal_payload``),
``settled`` (``summary_payload``) and ``voided`` (``void_payload``); their ``withheld_*``
forms for those who may still be dealt a duplicate board (docs/protocol.md, "A round, step
by step", step 4); and the lobby socket's page (``lobby_page``). Amounts are in what the
round is played for (``Table.stakes_in``, games.stakes).
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.paginator import Paginator
from django.utils import timezone

from accounts.models import User
from games.models import (
    DuplicateBoard,
    PlayerStatus,
    Round,
    RoundPlayer,
    RoundState,
    Seat,
    StakesIn,
    Table,
)
from games.selectors.duplicate import hands_withheld
from games.selectors.engine import (
    RoundResult,
    is_foul_arrangement,
    round_players,
    settle_round_result,
)
from games.selectors.presence import online_users
from games.selectors.private import acting_host_id
from games.selectors.rounds import between_view, latest_round
from games.selectors.tables import open_tables, seats_with_users, table_state
from games.stakes import for_table, per_unit

# --- The snapshot (docs/protocol.md, "The snapshot") ------------------------------------


def table_snapshot(table: Table, user: User | None) -> dict[str, Any]:
    """The ``snapshot``: everything a (re)connecting client needs, as this user may see it."""
    return snapshot_and_later(table, user)[0]


def snapshot_and_later(
    table: Table, user: User | None, seated: list[Seat] | None = None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The ``snapshot``, and the showdown's chi still to come as this user gets them: the
    socket holds each until its time (``later_reveals``, games.sequencer). They are never
    part of the snapshot, whatever sends it. ``seated``: the table's seats with their
    users (``seats_with_users``), when the caller has just read them."""
    now = timezone.now()
    if seated is None:
        seated = seats_with_users(table)
    balances = for_table(table).balances(table, [s.user_id for s in seated])
    online = online_users(table.pk)
    seats = [seat_view(s, balances[s.user_id], online) for s in seated]
    # The round being played, if any, is the latest (games.services.rounds.is_live): one
    # read gives the round to show and whether the table is playing.
    current = latest_round(table)
    live = current is not None and not current.is_finished
    players: list[RoundPlayer] = []
    withheld = False
    result: RoundResult | None = None
    later: list[dict[str, Any]] = []
    if current is not None:
        current.table = table  # its payloads read the table (stakes_in): no second read
        players = round_players(current)
        withheld = hands_withheld(current, user, players)
        if current.state == RoundState.SHOWDOWN:
            result = settle_round_result(current)
            for key, at, then in later_reveals(current, result, current.chi_shown(now)):
                then = scheduled(then, table.pk, table.version)
                text = json.dumps(withheld_reveal(then) if withheld else then)
                later.append({"key": key, "round": current.pk, "at": at.timestamp(), "text": text})
    if withheld:
        # A balance now is the balance before plus this board's result (and those of the
        # boards before it here): not for someone who may still be dealt the board.
        dealt = {p.user_id for p in players}
        for seat in seats:
            if seat["user"] in dealt:
                seat["balance"] = None
    snapshot = {
        "type": "snapshot",
        "table": table.pk,
        "version": table.version,
        "server_now": now.isoformat(),
        "info": {
            **lobby_row(table, taken=len(seated), state=table_state(table, live=live)),
            "host_id": table.host_id,
            # Who hosts now (docs/social.md): the creator while seated, else the longest seated.
            "acting_host_id": acting_host_id(table, seated),
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
        "round": (
            round_view(current, user, players, withheld, result=result, now=now)
            if current is not None
            else None
        ),
    }
    return snapshot, later


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


def lobby_row(
    table: Table, *, taken: int | None = None, state: str | None = None
) -> dict[str, Any]:
    """A table as the lobby lists it (also the snapshot's ``info``, the lobby socket's rows
    and its ``table`` events); ``taken`` and ``state`` when the caller knows them."""
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


def seat_view(
    seat: Seat, balance: int | None = None, online: set[int] | None = None
) -> dict[str, Any]:
    """A seat as the table shows it (the snapshot's ``seats``, the ``seat_taken`` event's
    ``seat``); ``balance``: the sitter's, and ``online``: the table's ``online_users``, when
    the caller has them."""
    is_bot = seat.user.is_bot  # the site's bot: no socket, always present
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
        # A third-party bot account (docs/api.md#bot-accounts) is labelled a bot too.
        "is_bot": seat.user.plays_as_bot,
        "difficulty": _bot_difficulty(seat.user) if is_bot else None,
    }


def _bot_difficulty(user: User) -> str | None:
    # The bots app's profile (bots.models.Bot, related_name "bot_profile"), read by name so
    # games does not import the app built on it.
    profile = getattr(user, "bot_profile", None)
    return getattr(profile, "difficulty", None)


def round_view(
    round_: Round,
    user: User | None,
    players: list[RoundPlayer] | None = None,
    withheld: bool | None = None,
    *,
    result: RoundResult | None = None,
    now: datetime | None = None,
) -> dict[str, Any]:
    """A round as ``user`` may see it at ``now`` (the snapshot's ``round``; ``players``: its
    players in seat order, ``withheld``: ``hands_withheld`` for this user, and ``result``:
    its settlement, if the caller has them)."""
    if players is None:
        players = list(round_.players.order_by("position"))
    if withheld is None:
        withheld = hands_withheld(round_, user, players)
    revealed = round_.chi_shown(now)
    deadline = round_.step_deadline(revealed)
    view: dict[str, Any] = {
        "id": round_.pk,
        "number": round_.number,
        "state": round_.state,
        "deadline": deadline.isoformat() if deadline else None,
        "revealed": revealed,
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
        reveal = reveal_payload(round_, result, revealed)
        view["reveal"] = withheld_reveal(reveal) if withheld else reveal
    if round_.state == RoundState.SETTLED:
        summary = summary_payload(round_)
        view["summary"] = withheld_summary(summary) if withheld else summary
    if round_.state == RoundState.CANCELLED:
        voided = void_payload(round_)
        view["voided"] = withheld_void(voided) if withheld else voided
    return view


# --- The events of a round's end: reveal, settled, voided -------------------------------


def reveal_payload(
    round_: Round,
    result: RoundResult | None = None,
    revealed: int | None = None,
    now: datetime | None = None,
) -> dict[str, Any]:
    """The ``reveal`` event: what the showdown has shown (instant wins, fouls, then chi
    1..``revealed``; by default as many as the clock shows at ``now``: Round.chi_shown).

    Amounts (``xu``) are in what the round is played for (``stakes_in``, games.stakes)."""
    if result is None:
        result = settle_round_result(round_)
    if revealed is None:
        revealed = round_.chi_shown(now)
    deadline = round_.step_deadline(revealed)  # the next chi's time, or the settlement's
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
    for index in range(revealed):
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
    if revealed >= 3:
        # Every chi is shown: the scoops are known, and named once per scooped player.
        as_json = settlement.to_json()
        scoops = scoop_lines(as_json)
        scoop_xu = {str(k): v["scoop"] // per for k, v in result_breakdown(as_json).items()}
    return {
        "round": round_.pk,
        "stakes_in": stakes_in,
        "revealed": revealed,
        "deadline": deadline.isoformat() if deadline else None,
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


def scheduled(payload: dict[str, Any], table_id: int, version: int) -> dict[str, Any]:
    """An event sent ahead of its time (``later_reveals``), as the client gets it: with the
    version of the step that sent it, and ``scheduled`` (docs/protocol.md, "Reveals")."""
    return {**payload, "table": table_id, "version": version, "scheduled": True}


def later_reveals(
    round_: Round, result: RoundResult, after: int
) -> list[tuple[str, datetime, dict[str, Any]]]:
    """The showdown's ``reveal`` events after chi ``after``, each with its key and its time:
    sent ahead and held by each socket until then (games.sequencer), so no client sees a
    chi before its time and no timer of the server has to run for it."""
    if round_.state != RoundState.SHOWDOWN or round_.showdown_at is None:
        return []
    return [
        (
            f"reveal-{round_.pk}-{chi}",
            round_.reveal_time(chi),
            {"type": "reveal", **reveal_payload(round_, result, revealed=chi)},
        )
        for chi in range(after + 1, 4)
    ]


def summary_payload(round_: Round, players: list[RoundPlayer] | None = None) -> dict[str, Any]:
    """The ``settled`` event: every result, the new balances and the revealed server seed.

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


def void_payload(round_: Round, reason: str | None = None) -> dict[str, Any]:
    """The ``voided`` event: why, and every player's returned stake and balance."""
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


# --- Withheld: for someone who may still be dealt a duplicate board ---------------------


_WITHHELD_REVEAL_KEYS = ("type", "table", "version", "round", "revealed", "deadline", "stakes_in")
_WITHHELD_SUMMARY_KEYS = (
    *("type", "table", "version", "round", "number", "rated", "unrated_reason", "stakes_in"),
    *("server_seed", "commitment", "client_seeds", "board"),
)
_WITHHELD_ROW_KEYS = ("position", "user", "name")
"""Who sat where, and nothing of how it went for them: a result (units, xu, a rating's
change, a balance after the round) tells something of the cards they held."""
_WITHHELD_VOID_ROW_KEYS = ("position", "user", "returned")


def withheld_reveal(payload: dict[str, Any]) -> dict[str, Any]:
    """A reveal for someone who may still be dealt its board: how far the showdown is,
    nothing of any hand (not the cards, the fouls, the mậu binh or a chi's result)."""
    kept = {k: payload[k] for k in _WITHHELD_REVEAL_KEYS if k in payload}
    empty: dict[str, Any] = {"fouls": [], "unarranged": [], "auto_arranged": {}, "instants": []}
    empty |= {"instant_pairs": [], "chi": [], "scoops": [], "scoop_xu": {}}
    return {**kept, **empty, "withheld": True}


def withheld_summary(payload: dict[str, Any]) -> dict[str, Any]:
    """A summary for someone who may still be dealt its board: who played and the
    commitments; nothing of any hand, nor any player's result (units, xu, status, balance,
    rating), which would tell how good the hand they held was."""
    kept = {k: payload[k] for k in _WITHHELD_SUMMARY_KEYS if k in payload}
    rows = [{k: row.get(k) for k in _WITHHELD_ROW_KEYS} for row in payload["players"]]
    return {**kept, "players": rows, "pairs": [], "scoops": [], "withheld": True}


_WITHHELD_VOID_KEYS = ("type", "table", "version", "round", "number", "stakes_in", "reason")


def withheld_void(payload: dict[str, Any]) -> dict[str, Any]:
    """A voided round for someone who may still be dealt its board: why, and each stake
    given back; not the balances, which hold the results of the table's earlier rounds."""
    kept = {k: payload[k] for k in _WITHHELD_VOID_KEYS if k in payload}
    rows = [{k: row.get(k) for k in _WITHHELD_VOID_ROW_KEYS} for row in payload["players"]]
    return {**kept, "players": rows, "server_seed": "", "withheld": True}


# --- The lobby socket (docs/protocol.md, "The lobby socket") ----------------------------


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


# --- One user's own events (the API's event stream: docs/api.md, "Streams") --------------


def round_dealt(round_: Round, player: RoundPlayer) -> dict[str, Any]:
    """``round_dealt``: a round dealt to this player, with their own cards (no one else's),
    sent at the deal and, while it is being arranged, to a stream that opens."""
    return {
        "type": "round_dealt",
        "table": round_.table_id,
        "round": round_.pk,
        "number": round_.number,
        # The table version of the deal: a submit that carries it is never stale.
        "version": round_.dealt_version,
        "deadline": round_.deadline.isoformat() if round_.deadline else None,
        "position": player.position,
        "cards": player.cards,
        "submitted": player.submitted_at is not None,
    }


def tournament_seat(table: Table) -> dict[str, Any]:
    """``tournament_table``: a tournament seated this user at ``table`` (its first deal
    follows: docs/tournaments.md, "Your table starts")."""
    # The tournaments app's row (TournamentTable, related_name "tournament_table"), read by
    # name so games does not import the app built on it.
    link = getattr(table, "tournament_table", None)
    return {
        "type": "tournament_table",
        "table": table.pk,
        "name": table.name,
        "tournament": getattr(link, "tournament_id", None),
        "stakes_in": table.stakes_in,
        "start_at": table.start_at.isoformat() if table.start_at else None,
    }


def open_rounds(user: User) -> list[dict[str, Any]]:
    """``round_dealt`` for every round this user is still arranging (oldest first)."""
    players = (
        RoundPlayer.objects.filter(
            user=user, round__state=RoundState.ARRANGING, status=PlayerStatus.PLAYING
        )
        .select_related("round")
        .order_by("round_id")
    )
    return [round_dealt(p.round, p) for p in players]


def open_tournament_seats(user: User) -> list[dict[str, Any]]:
    """``tournament_table`` for the tournament table this user is seated at, if any."""
    seats = Seat.objects.filter(user=user, table__is_open=True).select_related("table")
    return [tournament_seat(s.table) for s in seats if s.table.is_managed]
