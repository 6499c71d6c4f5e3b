"""The collusion signals among one tournament's entrants and its own rounds (the question
``games.signals.collusion_check_requested`` asks before a tournament's prizes are paid).

A finding holds the prizes for a moderator (docs/moderation.md, prize holds); it is a
reason to look, not a verdict. House bots are the house's and never count. The thresholds
are named below and documented; each is meant to be far from what honest play reaches in
one tournament, and every finding is reviewed by a person anyway.
"""

from __future__ import annotations

import ipaddress
from collections import defaultdict
from collections.abc import Collection, Iterable
from typing import Any

from accounts.models import User
from games.models import Round, RoundState
from moderation.models import SeatIP, UserIP

FOUL_MIN = 3
"""Deliberate fouls: an entrant who submitted a binh lủng (a hand they sent, not one played
for them) in at least this many of the tournament's rounds…"""
FOUL_SHARE = 0.5
"""… and in at least this share of the rounds they were dealt there."""
DUMP_MIN_ROUNDS = 6
"""Chip dumping: two entrants dealt together, with a third player or more at the table,
in at least this many rounds (a round of three counting ``THREE_HANDED_WEIGHT``)…"""
DUMP_SHARE = 0.8
"""… where one lost to the other in at least this share of those rounds, and at least this
share of everything they lost in them went to that one other (with others at the table to
lose to, honest losses spread; with two, all of them go to the only opponent, so
heads-up rounds do not count)."""
THREE_HANDED_WEIGHT = 0.5
"""What a round of three players counts towards ``DUMP_MIN_ROUNDS``. With one other
opponent to lose to, honest losses spread far less than with two: honest players taking
the engine's best arrangement fired a count of 5 rounds in 13 % of three-handed
tournaments and in 2.2 % of four-handed ones; at these thresholds (6 four-handed rounds,
12 three-handed) in 0.8 % and 0.07 % (``benchmarks/bench_collusion.py``, docs/moderation.md)."""


def tournament_findings(
    user_ids: Collection[int], round_ids: Collection[int]
) -> list[dict[str, Any]]:
    """What fires among these entrants in these rounds and at their tables: people and
    third-party bot accounts (``is_api_bot``: driven from outside, so watched like anyone);
    only the site's own bots are left out."""
    people = set(
        User.objects.filter(pk__in=list(user_ids), is_bot=False).values_list("pk", flat=True)
    )
    if len(people) < 1:
        return []
    rounds = list(
        Round.objects.filter(pk__in=list(round_ids), state=RoundState.SETTLED).prefetch_related(
            "players"
        )
    )
    return [
        *deliberate_fouls(people, rounds),
        *shared_addresses(people, {r.table_id for r in rounds}),
        *chip_dumping(people, rounds),
    ]


def deliberate_fouls(people: set[int], rounds: list[Round]) -> list[dict[str, Any]]:
    dealt: dict[int, int] = defaultdict(int)
    fouled: dict[int, int] = defaultdict(int)
    for round_ in rounds:
        fouls = {
            str(p.get("id")): bool(p.get("foul"))
            for p in (round_.settlement or {}).get("players", [])
        }
        for player in round_.players.all():
            if player.user_id not in people:
                continue
            dealt[player.user_id] += 1
            sent = player.submitted_at is not None and not player.auto_arranged
            if sent and fouls.get(str(player.position)):
                fouled[player.user_id] += 1
    return [
        {"signal": "fouls", "users": [user], "fouls": fouled[user], "rounds": dealt[user]}
        for user in sorted(fouled)
        if fouled[user] >= FOUL_MIN and fouled[user] >= FOUL_SHARE * dealt[user]
    ]


def _counts(address: str) -> bool:
    """A loopback address is this machine's own (development, tests, a proxy that does not
    pass the client's address on): everyone would share it, so it proves nothing."""
    try:
        return not ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def shared_addresses(people: set[int], table_ids: set[int]) -> list[dict[str, Any]]:
    """Two or more entrants seen from one address: at the tournament's tables (``SeatIP``)
    or as their latest address (``UserIP``). The address itself is not kept in the finding
    (it would stay in the ledger's history); the users' pages show where they were seen."""
    by_address: dict[str, set[int]] = defaultdict(set)
    seen = [
        *SeatIP.objects.filter(table_id__in=table_ids, user_id__in=people).values_list(
            "ip", "user_id"
        ),
        *UserIP.objects.filter(user_id__in=people).values_list("ip", "user_id"),
    ]
    for address, user_id in seen:
        if _counts(address):
            by_address[address].add(user_id)
    groups = sorted({tuple(sorted(users)) for users in by_address.values() if len(users) >= 2})
    return [{"signal": "shared_address", "users": list(users)} for users in groups]


def chip_dumping(people: set[int], rounds: list[Round]) -> list[dict[str, Any]]:
    return dumping_findings(
        people,
        (
            (
                {str(p.position): p.user_id for p in round_.players.all()},
                (round_.settlement or {}).get("pairs", []),
            )
            for round_ in rounds
        ),
    )


def dumping_findings(
    people: set[int], rounds: Iterable[tuple[dict[str, int], list[dict[str, Any]]]]
) -> list[dict[str, Any]]:
    """``chip_dumping`` over plain rounds: each its players (position: user id) and its
    settlement's pairs (``a``, ``b``, ``xu`` from a's side)."""
    together: dict[tuple[int, int], int] = defaultdict(int)
    weight: dict[tuple[int, int], float] = defaultdict(float)
    lost_to: dict[tuple[int, int], int] = defaultdict(int)
    lost_rounds: dict[tuple[int, int], int] = defaultdict(int)
    lost: dict[int, int] = defaultdict(int)
    for users, pairs in rounds:
        if len(users) < 3:
            continue
        counts = THREE_HANDED_WEIGHT if len(users) == 3 else 1.0
        here = [u for u in users.values() if u in people]
        for one in here:
            for other in here:
                if one != other:
                    together[(one, other)] += 1
                    weight[(one, other)] += counts
        for pair in pairs:
            a, b = users.get(str(pair.get("a"))), users.get(str(pair.get("b")))
            amount = int(pair.get("xu") or 0)
            if a is None or b is None or not amount:
                continue
            loser, winner = (b, a) if amount > 0 else (a, b)
            if loser not in people:
                continue
            lost[loser] += abs(amount)
            if winner in people:
                lost_to[(loser, winner)] += abs(amount)
                lost_rounds[(loser, winner)] += 1
    findings = []
    for (loser, winner), shared in sorted(together.items()):
        rounds_lost = lost_rounds[(loser, winner)]
        if weight[(loser, winner)] < DUMP_MIN_ROUNDS or not lost[loser]:
            continue
        share = lost_to[(loser, winner)] / lost[loser]
        if rounds_lost >= DUMP_SHARE * shared and share >= DUMP_SHARE:
            findings.append(
                {
                    "signal": "chip_dumping",
                    "users": [loser, winner],
                    "rounds": shared,
                    "lost_in": rounds_lost,
                    "share": round(share, 2),
                }
            )
    return findings
