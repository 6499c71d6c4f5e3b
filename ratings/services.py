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

from games.models import Round, RoundPlayer, Table
from maubinh_site.bulk import update_each
from ratings.models import Rating, RatingChange

logger = logging.getLogger(__name__)

# Every pair of players is compared, as the round settles every pair (RULES.md section 5);
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
    Three statements: lock (or create) the players' ratings, record the changes (once per
    round: unique on round and player), store the new ratings.
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
    recorded = _record_changes(changes)
    if not recorded:
        logger.warning("round %s was rated already: not rated again", round_.pk)
        return {"rated": True, "reason": "", "players": {}}
    changes = [c for c in changes if c.user_id in recorded]
    ratings = []
    for c in changes:
        pk, _mu, _sigma, rounds = current[c.user_id]
        ratings.append(
            Rating(
                pk=pk,
                mu=c.mu_after,
                sigma=c.sigma_after,
                display=c.display_after,
                rounds=rounds + 1,
                updated_at=now,
            )
        )
    update_each(ratings, ["mu", "sigma", "display", "rounds", "updated_at"])
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


def _record_changes(changes: list[RatingChange]) -> set[int]:
    """Insert the round's changes; the players whose change was new (none if the round
    was rated already)."""
    table = RatingChange._meta.db_table
    columns = [
        "round_id", "user_id", "preset", "rank", "mu_before", "sigma_before", "mu_after",
        "sigma_after", "display_before", "display_after", "created_at",
    ]  # fmt: skip
    values = ", ".join(["(" + ", ".join(["%s"] * len(columns)) + ")"] * len(changes))
    params = [getattr(c, column) for c in changes for column in columns]
    with connection.cursor() as db:
        db.execute(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES {values} "
            "ON CONFLICT (round_id, user_id) DO NOTHING RETURNING user_id",
            params,
        )
        return {user_id for (user_id,) in db}
