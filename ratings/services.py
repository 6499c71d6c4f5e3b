"""Rating the players of a settled round (the only writes of the ratings app).

``rate_round`` runs inside the settlement's transaction (through the ``round_rating``
signal games sends), so a round is rated if and only if it is settled: a voided round, or
a settlement rolled back, rates nobody. Why OpenSkill's Bradley-Terry model (full pairing), how
the rating is shown and why rounds with bots are not rated: docs/ratings.md.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.utils import timezone
from openskill.models import BradleyTerryFull

from core.bulk import update_each
from games.models import Round, RoundPlayer, Table
from ratings.models import Rating, RatingChange

logger = logging.getLogger(__name__)

# Every pair of players is compared, as the round settles every pair (docs/rules.md#showdown);
# the library's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300): a new player's
# displayed rating is exactly BASE. Why not Plackett-Luce: docs/ratings.md.
MODEL = BradleyTerryFull()
# Displayed = BASE + SCALE * (mu - 3 sigma): the library's ordinal (a rating the player is
# 99.7% likely to be above), scaled to whole numbers that start at 1000.
BASE = 1000
SCALE = 20


class Unrated:
    """Why a settled round changed no rating (``Round.ratings["reason"]``)."""

    BOTS = "bots"
    TOURNAMENT = "tournament"
    ERROR = "error"


def displayed(mu: float, sigma: float) -> int:
    """The rating shown for (mu, sigma): the library's ordinal, scaled."""
    return round(MODEL.rating(mu=mu, sigma=sigma).ordinal(z=3.0, alpha=SCALE, target=BASE))


def initial_display() -> int:
    return displayed(MODEL.mu, MODEL.sigma)


def ranks_by_result(units: Sequence[int]) -> list[int]:
    """Places by net units, 1 the best; equal results share a place (1, 2, 2, 4)."""
    return [1 + sum(1 for other in units if other > mine) for mine in units]


def on_round_rating(
    sender: Any, table: Table, round: Round, players: list[RoundPlayer], **kwargs: Any
) -> dict[str, Any]:
    return rate_round(table, round, players)


def rate_round(table: Table, round_: Round, players: list[RoundPlayer]) -> dict[str, Any]:
    """Rate a settled round's players at the table's preset; returns ``Round.ratings``.

    Every player dealt in is rated on their result, including one who left or whose hand
    was played for them at the deadline. Rounds with a bot are not rated, nor a
    tournament's rounds (docs/ratings.md).
    Two statements on PostgreSQL: lock (or create) the players' ratings; record the changes
    (once per round: unique on round and player) and store the new ratings.
    """
    if table.is_managed:
        return {"rated": False, "reason": Unrated.TOURNAMENT, "players": {}}
    if any(p.user.plays_as_bot for p in players):
        return {"rated": False, "reason": Unrated.BOTS, "players": {}}
    players = sorted(players, key=lambda p: p.user_id)  # lock in one order: no deadlock
    current = _lock_ratings(table.preset, [p.user_id for p in players])
    ranks = ranks_by_result([p.units or 0 for p in players])
    try:
        teams = [
            [MODEL.rating(mu=current[p.user_id][1], sigma=current[p.user_id][2])] for p in players
        ]
        rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    except Exception:  # a bug here must not void the round (the stakes are settled)
        logger.exception("rating failed: the round is settled unrated")
        return {"rated": False, "reason": Unrated.ERROR, "players": {}}
    now = timezone.now()
    changes = []
    for p, rank, (after,) in zip(players, ranks, rated, strict=True):
        _pk, mu, sigma, _rounds = current[p.user_id]
        changes.append(
            RatingChange(
                round_id=round_.pk,
                user_id=p.user_id,
                preset=table.preset,
                rank=rank,
                mu_before=mu,
                sigma_before=sigma,
                mu_after=after.mu,
                sigma_after=after.sigma,
                display_before=displayed(mu, sigma),
                display_after=displayed(after.mu, after.sigma),
                created_at=now,
            )
        )
    ratings = []
    for c in changes:
        pk, _mu, _sigma, rounds = current[c.user_id]
        ratings.append(
            Rating(
                pk=pk,
                user_id=c.user_id,
                mu=c.mu_after,
                sigma=c.sigma_after,
                display=c.display_after,
                rounds=rounds + 1,
                updated_at=now,
            )
        )
    recorded = _record_and_store(changes, ratings)
    if not recorded:
        logger.warning("round %s was rated already: not rated again", round_.pk)
        return {"rated": True, "reason": "", "players": {}}
    changes = [c for c in changes if c.user_id in recorded]
    return {
        "rated": True,
        "reason": "",
        "players": {
            str(c.user_id): {"before": c.display_before, "after": c.display_after} for c in changes
        },
    }


def _lock_ratings(preset: str, user_ids: list[int]) -> dict[int, tuple[int, float, float, int]]:
    """Each player's (pk, mu, sigma, rounds) at ``preset``, the rows locked; a player
    without one gets the library's initial rating. One statement: the upsert's no-op
    update locks an existing row and returns it as it is."""
    table = Rating._meta.db_table
    values = ", ".join(["(%s, %s, %s, %s, %s, 0, %s)"] * len(user_ids))
    now = timezone.now()
    start = (MODEL.mu, MODEL.sigma, initial_display())
    params: list[Any] = []
    for user_id in user_ids:
        params += [user_id, preset, *start, now]
    with connection.cursor() as db:
        db.execute(
            f"INSERT INTO {table} (user_id, preset, mu, sigma, display, rounds, updated_at) "
            f"VALUES {values} ON CONFLICT (user_id, preset) DO UPDATE SET mu = {table}.mu "
            "RETURNING id, user_id, mu, sigma, rounds",
            params,
        )
        return {user_id: (pk, mu, sigma, rounds) for pk, user_id, mu, sigma, rounds in db}


_CHANGE_COLUMNS = [
    "round_id", "user_id", "preset", "rank", "mu_before", "sigma_before", "mu_after",
    "sigma_after", "display_before", "display_after", "created_at",
]  # fmt: skip


def _changes_sql(changes: list[RatingChange]) -> tuple[str, list[Any]]:
    """The INSERT of the round's changes, returning the players whose change was new."""
    values = ", ".join(["(" + ", ".join(["%s"] * len(_CHANGE_COLUMNS)) + ")"] * len(changes))
    return (
        f"INSERT INTO {RatingChange._meta.db_table} ({', '.join(_CHANGE_COLUMNS)}) "
        f"VALUES {values} ON CONFLICT (round_id, user_id) DO NOTHING RETURNING user_id",
        [getattr(c, column) for c in changes for column in _CHANGE_COLUMNS],
    )


def _record_and_store(changes: list[RatingChange], ratings: list[Rating]) -> set[int]:
    """Insert the round's changes and store the new ratings of the players whose change
    was new (on PostgreSQL in one statement); those players (none if the round was rated
    already)."""
    insert, params = _changes_sql(changes)
    if connection.vendor != "postgresql":
        with connection.cursor() as db:
            db.execute(insert, params)
            recorded = {user_id for (user_id,) in db}
        fields = ["mu", "sigma", "display", "rounds", "updated_at"]
        update_each([r for r in ratings if r.user_id in recorded], fields)
        return recorded
    stored = ["id", "user_id", "mu", "sigma", "display", "rounds", "updated_at"]
    rows = ", ".join(["(" + ", ".join(["%s"] * len(stored)) + ")"] * len(ratings))
    params += [getattr(r, column) for r in ratings for column in stored]
    rating = Rating._meta.db_table
    # The VALUES columns take their types from the literals: each is cast where assigned.
    with connection.cursor() as db:
        db.execute(
            f"WITH recorded AS ({insert}) "
            f"UPDATE {rating} SET mu = v.mu::double precision, "
            "sigma = v.sigma::double precision, display = v.display::integer, "
            "rounds = v.rounds::integer, updated_at = v.updated_at::timestamptz "
            f"FROM (VALUES {rows}) AS v({', '.join(stored)}) "
            f"WHERE {rating}.id = v.id AND v.user_id IN (SELECT user_id FROM recorded) "
            "RETURNING v.user_id",
            params,
        )
        return {user_id for (user_id,) in db}
