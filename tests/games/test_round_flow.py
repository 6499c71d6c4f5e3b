from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from games import services
from games.models import RoundState
from ledger import selectors as ledger_selectors
from tests.support.played import run_timers

pytestmark = pytest.mark.django_db(transaction=True)


def _arrange(cards):
    return [cards[:5], cards[5:10], cards[10:]]


def _finish(round_):
    later = timezone.now() + timedelta(minutes=5)
    if run_timers(round_).state == RoundState.SETTLED:
        return
    assert later


def test_a_four_player_round_deals_settles_and_balances_add_up(players, table):
    before = sum(ledger_selectors.balance(p) for p in players)
    for p in players:
        services.sit(p, table.pk)
    round_ = services.start_round(players[0], table.pk)
    assert round_.players.count() == 4
    for rp in round_.players.select_related("user"):
        services.submit_arrangement(rp.user, round_.pk, _arrange(rp.cards))
    round_.refresh_from_db()
    assert round_.state == RoundState.SHOWDOWN  # everyone submitted: the showdown began
    _finish(round_)
    round_.refresh_from_db()
    assert round_.state == RoundState.SETTLED
    assert sum(rp.xu for rp in round_.players.all()) == 0
    assert sum(ledger_selectors.balance(p) for p in players) == before
    call_command("ledger_check")
