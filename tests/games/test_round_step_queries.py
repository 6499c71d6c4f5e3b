"""What one round costs the database, step by step: a cap on each step's queries.

The caps are the figures of benchmarks/bench_round_steps.py (the step's own statements,
on PostgreSQL), plus the SAVEPOINT and RELEASE each step's transaction becomes inside the
test's transaction. A change that adds a query to a step fails here: make it cheaper, or
raise the cap in the same commit and say why.
"""

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Connection, Round, RoundState, Seat, Table
from tests.support.arranging import naive_arrangement

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

SAVEPOINT = 2
"""The step's own transaction inside the test's: SAVEPOINT and RELEASE."""
RATING = 3
"""A settlement between people rates them in three statements (ratings.services)."""


def _deal_to_four(players, table, django_assert_max_num_queries):  # type: ignore[no-untyped-def]
    for player in players:
        services.sit(player, table.pk)
    Table.objects.filter(pk=table.pk).update(start_at=timezone.now() - timedelta(seconds=1))
    with django_assert_max_num_queries(11 + SAVEPOINT):
        round_ = services.start_round_when_due(table.pk)
    assert round_ is not None
    assert round_.players.count() == 4
    return round_


def _due(round_: Round) -> Round:
    Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    round_.refresh_from_db()
    return round_


def _submit(round_, rp, limit, django_assert_max_num_queries):  # type: ignore[no-untyped-def]
    chi = naive_arrangement(rp.cards)
    with django_assert_max_num_queries(limit):
        services.submit_arrangement(rp.user, round_.pk, chi, table_id=round_.table_id)


def test_a_deal_to_four_players_takes_at_most_eleven_queries(
    players, table, django_assert_max_num_queries
):
    _deal_to_four(players, table, django_assert_max_num_queries)


def test_a_submission_takes_at_most_six_queries_and_the_last_one_seven(
    players, table, django_assert_max_num_queries
):
    round_ = _deal_to_four(players, table, django_assert_max_num_queries)
    *first, last = list(round_.players.select_related("user"))
    for rp in first:
        _submit(round_, rp, 6 + SAVEPOINT, django_assert_max_num_queries)
    _submit(round_, last, 7 + SAVEPOINT, django_assert_max_num_queries)
    round_.refresh_from_db()
    assert round_.deadline is not None and round_.deadline <= timezone.now()


def test_the_showdown_and_each_reveal_take_at_most_six_queries_and_the_settlement_23(
    players, table, django_assert_max_num_queries
):
    round_ = _deal_to_four(players, table, django_assert_max_num_queries)
    for rp in round_.players.select_related("user"):
        services.submit_arrangement(rp.user, round_.pk, naive_arrangement(rp.cards))
    phase = _due(round_).phase
    with django_assert_max_num_queries(6 + SAVEPOINT):
        services.advance_round(round_.pk, RoundState.ARRANGING, phase)
    round_.refresh_from_db()
    while round_.revealed < 3:
        phase = _due(round_).phase
        with django_assert_max_num_queries(6 + SAVEPOINT):
            services.advance_round(round_.pk, RoundState.SHOWDOWN, phase)
        round_.refresh_from_db()
    # settle_or_void's savepoint and the ledger's are the settlement's own statements.
    # 20, and the ratings app's 3 in the same transaction (lock or create the players'
    # ratings, record the round's changes, store the new ratings: docs/ratings.md).
    phase = _due(round_).phase
    with django_assert_max_num_queries(20 + RATING + SAVEPOINT):
        services.advance_round(round_.pk, RoundState.SHOWDOWN, phase)
    round_.refresh_from_db()
    assert round_.state == RoundState.SETTLED


def test_a_showdown_that_plays_for_the_absent_stores_and_logs_their_hands_in_one_query_more(
    players, table, django_assert_max_num_queries
):
    round_ = _deal_to_four(players, table, django_assert_max_num_queries)
    phase = _due(round_).phase
    with django_assert_max_num_queries(7 + SAVEPOINT):
        services.advance_round(round_.pk, RoundState.ARRANGING, phase)
    kinds = list(round_.events.order_by("seq").values_list("kind", flat=True))
    assert kinds[-6:] == ["auto_arranged"] * 4 + ["showdown", "reveal"]
    assert list(round_.events.order_by("seq").values_list("seq", flat=True)) == list(
        range(1, len(kinds) + 1)
    )


def test_a_deal_to_four_quiet_players_asks_about_their_sockets_in_one_query(
    players, table, django_assert_max_num_queries
):
    # Each seat's own renewal is older than AWAY_AFTER (the sweeper has not run), but every
    # player has a socket heard just now: all four are dealt in, after one question.
    for player in players:
        services.sit(player, table.pk)
        Connection.objects.create(
            id=uuid.uuid4(),
            table=table,
            user=player,
            opened_at=timezone.now(),
            seen_at=timezone.now(),
        )
    Seat.objects.filter(table=table).update(
        last_seen_at=timezone.now() - services.AWAY_AFTER - timedelta(seconds=1)
    )
    Table.objects.filter(pk=table.pk).update(start_at=timezone.now() - timedelta(seconds=1))
    with django_assert_max_num_queries(11 + 1 + SAVEPOINT):
        round_ = services.start_round_when_due(table.pk)
    assert round_ is not None and round_.players.count() == 4
