"""Property: whatever the entrants, buy-in, withdrawals and bust order, the pool pays out
exactly what came in, every xu lands in a wallet, and the ledger audit stays clean."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger import selectors as ledger_selectors
from ledger import services as ledger
from ledger.audit import run_checks
from tournaments import rules

pytestmark = pytest.mark.django_db

TOURNAMENT_IDS = itertools.count(10_000)


@st.composite
def finished_tournaments(draw):  # type: ignore[no-untyped-def]
    entrants = draw(st.integers(rules.MIN_PLAYERS, rules.MAX_PLAYERS))
    buy_in = draw(st.integers(1, 600))
    withdrawn = draw(st.integers(0, 3))  # registered, withdrew (refunded) before the start
    bust_order = draw(st.permutations(list(range(entrants))))
    return entrants, buy_in, withdrawn, bust_order


def test_the_pool_nets_to_zero_for_any_bust_order_and_prize_table(make_user):
    people = [make_user(f"p{i}") for i in range(rules.MAX_PLAYERS + 3)]
    total = sum(ledger_selectors.balances([p.pk for p in people]).values())

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(finished_tournaments())
    def check(case):  # type: ignore[no-untyped-def]
        entrants, buy_in, withdrawn, bust_order = case
        tid = next(TOURNAMENT_IDS)
        for person in people[entrants : entrants + withdrawn]:
            ledger.buy_in(tid, person, buy_in)
            ledger.refund_buy_in(tid, person)
        for person in people[:entrants]:
            ledger.buy_in(tid, person, buy_in)
        pool = ledger_selectors.pool_balance(tid)
        assert pool == entrants * buy_in
        # The last one out is 1st; places from the bust order, prizes from the table.
        by_place = [people[i] for i in reversed(bust_order)]
        amounts = rules.prizes(entrants, pool)
        ledger.pay_prizes(tid, {by_place[k].pk: a for k, a in enumerate(amounts)})
        assert ledger_selectors.pool_balance(tid) == 0
        assert sum(ledger_selectors.balances([p.pk for p in people]).values()) == total

    check()
    report = run_checks()
    assert report.ok, report.problems
    assert report.figures["pools"] == 0
