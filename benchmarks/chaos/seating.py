"""Setting up a chaos run, in the harness's own process: migrate, open the bot-only tables,
create the scripted players and their sessions, start the tournaments."""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from typing import Any

from tests.support.sessions import session_key


@dataclass
class Seating:
    table_id: int
    players: list[tuple[int, str, str]]  # (user id, username, session key)


def prepare(
    env: dict[str, str], options: argparse.Namespace
) -> tuple[list[int], list[Seating], Entered | None]:
    """In this process: migrate, open the bot-only tables, create the scripted players,
    start the tournaments."""
    os.environ.update(env)
    os.environ["PGAPPNAME"] = "chaos-harness"
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import override_settings

    from accounts.models import User
    from bots import services as bots
    from games import services as games
    from ledger.services import adjust_balance, grant_signup_bonus

    call_command("migrate", verbosity=0)
    rules: dict[str, object] = {"reveal_seconds": 2, "arrange_seconds": 30, "start_seconds": 5}
    bot_tables = []
    for number in range(options.tables):
        table = bots.open_bot_only_table(
            f"Chaos bots {number + 1}", stake=10, seats=4, rules_overrides=rules
        )
        bots.fill_table(table.pk, [])
        bot_tables.append(table.pk)
    seatings = []
    staff = User.objects.create_user(username="chaos-staff", is_staff=True)
    for t in range(options.player_tables):
        users = [User.objects.create_user(username=f"chaos{t}p{k}") for k in range(4)]
        for user in users:
            grant_signup_bonus(user)
            # Enough for a long run: a present player stood up for balance_too_low would
            # count as load that did not run. The bankroll is the harness's set-up, not a
            # staff decision, so the one-admin daily minting limit is lifted for it alone.
            with override_settings(MODERATION_ADMIN_SOLO_LIMIT_XU=10**12):
                adjust_balance(user, 90_000, reason="chaos run bankroll", actor=staff)
        table = games.create_table(
            users[0], name=f"Chaos players {t + 1}", stake=10, rules_overrides=rules
        )
        seatings.append(Seating(table.pk, [_signed_in(user) for user in users]))
    entered = enter_tournaments(options) if options.tournaments else None
    from django.db import connections

    connections.close_all()
    return bot_tables, seatings, entered


def _signed_in(user: Any) -> tuple[int, str, str]:
    """(user id, username, session key): a browser's session cookie for ``user``."""
    return user.pk, user.username, session_key(user)


@dataclass
class Entered:
    """The run's tournaments and their scripted entrants (the rest are house bots)."""

    sit_and_go: int
    sng_player: tuple[int, str, str]
    sng_table: int
    arena: int
    arena_players: list[tuple[int, str, str]]


def enter_tournaments(options: argparse.Namespace) -> Entered:
    """A sit-and-go of 4 (one scripted entrant, three house bots; a short stack, a first
    stake of a quarter of it and a level a round, so it can finish within the run) and an
    arena of ``--arena-minutes`` with 4 scripted entrants, one of whom drops at its first
    board and never returns. Both start here, through their services, as their creators'
    buttons would start them."""
    from django.test import override_settings

    from accounts.models import User
    from ledger.services import grant_signup_bonus
    from tournaments.arena import services as arena
    from tournaments.models import Entry
    from tournaments.sitandgo import services as tournaments

    sng_user = User.objects.create_user(username="chaos-sng")
    grant_signup_bonus(sng_user)
    with override_settings(
        TOURNAMENT_STARTING_STACK=options.sng_stack,
        TOURNAMENT_FIRST_STAKE=max(1, options.sng_stack // 4),
        TOURNAMENT_LEVEL_ROUNDS=1,
        TOURNAMENT_ARRANGE_SECONDS=30,
    ):
        sng = tournaments.create_sit_and_go(
            sng_user, name="Chaos sit-and-go", players=4, buy_in=100, allow_bots=True
        )
    tournaments.start_now_with_bots(sng_user, sng.pk)
    sng_table = Entry.objects.get(tournament=sng, user=sng_user).table_id
    assert sng_table is not None
    arena_users = [User.objects.create_user(username=f"chaos-arena{k}") for k in range(4)]
    for user in arena_users:
        grant_signup_bonus(user)
    with override_settings(TOURNAMENT_ARRANGE_SECONDS=30):
        created = arena.create_arena(
            arena_users[0],
            name="Chaos arena",
            minutes=options.arena_minutes,
            buy_in=100,
            players=8,
        )
    for user in arena_users[1:]:
        arena.join(user, created.pk)
    arena.start_now(arena_users[0], created.pk)
    return Entered(
        sng.pk,
        _signed_in(sng_user),
        sng_table,
        created.pk,
        [_signed_in(user) for user in arena_users],
    )
