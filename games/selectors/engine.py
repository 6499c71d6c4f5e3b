"""The bridge from stored rounds to the rules engine (``games.rules``).

A round's players as the engine takes them (``player_inputs``: one place, used by the
showdown, the hand history's hindsight and moderation's replay and re-settlement through
``settle_round_result``), the settlement as things stand, a stored arrangement's foul, and
the fairness check of a finished deal.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import QuerySet

from core.compiled import Compiled
from games.models import PlayerStatus, Round, RoundPlayer
from games.rules import Rules, is_foul, parse_cards
from games.rules.fair import verify_deal
from games.rules.scoring import PlayerInput, Settlement, settle


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


# Every step of a round reads its players: compiled once (core.compiled).
_PLAYERS = {with_users: _players_query(with_users) for with_users in (False, True)}


def round_players(round_: Round, *, with_users: bool = False) -> list[RoundPlayer]:
    """The round's players in seat order (with their users: ``with_users``)."""
    players = _PLAYERS[with_users].all(round_.pk)
    for p in players:
        p.round = round_  # as round_.players would have it: no query for it
    return players


def player_inputs(players: Iterable[RoundPlayer]) -> list[PlayerInput]:
    """The engine's players (``games.rules.scoring.PlayerInput``, id: the seat position) as
    the round stored them: who left and after which chi, who did not arrange, each one's
    cap (what their escrow hold lets them pay one opponent)."""
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
    return inputs


def settle_round_result(
    round_: Round, *, with_users: bool = False, players: list[RoundPlayer] | None = None
) -> RoundResult:
    """Settle with the rules stored at the deal; who left and who did not arrange count.

    ``players``: the round's players in seat order, if the caller has read them."""
    if players is None:
        players = round_players(round_, with_users=with_users)
    return RoundResult(settle(round_.rules, round_.stake, player_inputs(players)), players)


def is_foul_arrangement(rules: Rules, chi: list[list[str]]) -> bool:
    parts = [parse_cards(part) for part in chi]
    return is_foul(parts[0], parts[1], parts[2], rules.name)


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
