"""Reads for a player's hand history: only rounds they played, everyone's cards only when over.

A round still being played shows its owner nothing more than the table does, so the
history can never leak an opponent's cards before the showdown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import QuerySet

from accounts.models import User
from games.models import Round, RoundPlayer, RoundState
from games.rules import Rules, category_of, eval3, eval5, parse_cards
from games.selectors.duplicate import viewable_rounds_filter
from games.selectors.engine import player_inputs
from games.selectors.payloads import scoop_lines
from ledger.keys import wallet_key
from ledger.models import Posting


def rounds_played(user: User) -> QuerySet[RoundPlayer]:
    """The user's seats in rounds, newest first."""
    return (
        RoundPlayer.objects.filter(user=user)
        .select_related("round", "round__table")
        .order_by("-round__dealt_at", "-round_id")
    )


def played_round(user: User, round_id: int) -> Round | None:
    """The round if ``user`` played in it, else None (others' rounds do not exist for them)."""
    return (
        Round.objects.filter(pk=round_id, players__user=user)
        .select_related("table", "board")
        .first()
    )


def viewable_round(user: User, round_id: int) -> Round | None:
    """A round the user played, or a finished one at a public table (profiles link to it).

    Others' live rounds and rounds at private tables do not exist for them, nor does a
    duplicate round of a board they may yet be dealt (games.selectors.duplicate).
    """
    return played_round(user, round_id) or (
        Round.objects.filter(
            viewable_rounds_filter(user),
            pk=round_id,
            table__is_private=False,
            state__in=[RoundState.SETTLED, RoundState.CANCELLED],
        )
        .select_related("table", "board")
        .first()
    )


def round_postings(user: User, round_id: int) -> list[Posting]:
    """The user's wallet postings caused by this round (hold, settlement, release)."""
    return list(
        Posting.objects.filter(account__key=wallet_key(user.pk), transfer__round_id=round_id)
        .select_related("transfer")
        .order_by("account_version")
    )


@dataclass(frozen=True)
class PlayerLine:
    position: int
    name: str
    is_you: bool
    cards: list[str]
    arrangement: list[list[str]] | None
    status: str
    left_after_chi: int | None
    xu: int | None
    result: dict[str, Any]
    auto_arranged: str
    """``draft`` or ``engine`` when the hand was played for its owner at the deadline, else ""."""
    scoop: dict[str, Any] | None
    """This player's scoop, named once (``games.selectors.payloads.scoop_lines``), or None."""
    rating: dict[str, int] | None = None
    """The rating before and after the round, and the change (docs/ratings.md), if rated."""


def player_lines(round_: Round, viewer: User) -> list[PlayerLine]:
    """Every player of a finished round with their cards, arrangement and result."""
    settlement = round_.settlement or {}
    by_id = {p["id"]: p for p in settlement.get("players", [])}
    scoops = {line["loser"]: line for line in scoop_lines(settlement)} if settlement else {}
    lines = []
    for p in round_.players.select_related("user").order_by("position"):
        lines.append(
            PlayerLine(
                position=p.position,
                name=p.user.shown_name,
                is_you=p.user_id == viewer.pk,
                cards=p.cards,
                arrangement=p.arrangement,
                status=p.status,
                left_after_chi=p.left_after_chi,
                xu=p.xu,
                result=by_id.get(str(p.position), {}),
                auto_arranged=p.auto_arranged,
                scoop=scoops.get(p.position),
                rating=rating_change(round_, p.user_id),
            )
        )
    return lines


def rating_change(round_: Round, user_id: int) -> dict[str, int] | None:
    """The player's rating before and after the round and the change, if it was rated."""
    change = (round_.ratings or {}).get("players", {}).get(str(user_id))
    if change is None:
        return None
    return {**change, "change": change["after"] - change["before"]}


def chi_results(round_: Round) -> list[dict[str, Any]]:
    """Per pair: the three chi (winner position, units, bonus, reason), scoop and xu."""
    settlement = round_.settlement or {}
    return list(settlement.get("pairs", []))


HINDSIGHT_CACHE_SECONDS = 24 * 3600


def hindsight(round_: Round, viewer: User) -> dict[str, Any] | None:
    """The viewer's best arrangement in hindsight (a settled round never changes: cached)."""
    key = f"games:hindsight:{round_.pk}:{viewer.pk}"
    cached: dict[str, Any] | None = cache.get(key)
    if cached is None:
        cached = _hindsight(round_, viewer)
        if cached is not None:
            cache.set(key, cached, HINDSIGHT_CACHE_SECONDS)
    return cached


def _hindsight(round_: Round, viewer: User) -> dict[str, Any] | None:
    try:
        from games.rules.arrange import best_in_hindsight
    except ImportError:
        return None
    players = list(round_.players.order_by("position"))
    mine = next((p for p in players if p.user_id == viewer.pk), None)
    if mine is None:
        return None
    opponents = player_inputs(p for p in players if p.pk != mine.pk)
    rules: Rules = round_.rules
    best = best_in_hindsight(parse_cards(mine.cards), opponents, rules)
    data: dict[str, Any] = best.to_json()
    data["units"] = round(best.ev)
    values = [eval5(best.chi[0], rules), eval5(best.chi[1], rules), eval3(best.chi[2])]
    data["hands"] = [
        {"name_vi": category_of(v).name_vi, "name_en": category_of(v).name_en} for v in values
    ]
    return data


def pair_rows(round_: Round, names: dict[int, str]) -> list[dict[str, Any]]:
    """The settlement's pairs ready for a table: names, per-chi detail, scoop, xu."""
    rows = []
    for pair in chi_results(round_):
        a, b = int(pair["a"]), int(pair["b"])
        chi = []
        for detail in pair.get("chi_detail") or []:
            winner = detail.get("winner")
            chi.append(
                {
                    "units": detail["units"],
                    "winner": None if winner is None else names.get(int(winner), ""),
                    "bonus": detail.get("bonus"),
                    "reason": detail.get("reason"),
                }
            )
        scoop = pair.get("scoop")
        rows.append(
            {
                "a": names.get(a, ""),
                "b": names.get(b, ""),
                "kind": pair["kind"],
                "chi": chi,
                "instant": pair.get("instant"),
                "instant_winner": names.get(int(pair["instant"]["winner"]), "")
                if pair.get("instant") and pair["instant"].get("winner") is not None
                else None,
                "scoop": scoop,
                "scoop_loser": names.get(int(scoop["loser"]), "") if scoop else None,
                "units": pair["units"],
                "xu": pair["xu"],
                "capped": pair.get("capped", False),
            }
        )
    return rows
