"""A person alone at a bot table plays a whole round, in-process: the same Celery task code
runs on a worker thread consuming the in-process broker, as in the embedded default."""

from __future__ import annotations

import time

import pytest
from django.core.management import call_command

from bots import selectors
from games import services as games
from games.models import Round, RoundState
from games.selectors import active_round
from ledger import selectors as ledger_selectors
from tests.support.arranging import naive_arrangement
from tests.support.waiting import eventually, worker_thread

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_a_person_alone_at_a_bot_table_plays_a_whole_round_with_bots_that_join_by_themselves(
    person, bot_table, settings
):
    settings.BOTS_THINK_SECONDS = (0.2, 0.6)
    with worker_thread():
        sat_at = time.monotonic()
        games.sit(person, bot_table.pk)
        eventually(lambda: bot_table.seat_set.count() == 4, 10, "bots to sit down")
        joined_after = time.monotonic() - sat_at
        # Not before the wait; the upper bound only guards against "never" on a busy machine.
        assert bot_table.bot_wait_seconds <= joined_after < bot_table.bot_wait_seconds + 10
        round_ = eventually(lambda: active_round(bot_table), 15, "the deal")
        assert round_.players.count() == 4
        eventually(
            lambda: (
                round_.players.filter(user__is_bot=True, submitted_at__isnull=False).count() == 3
            ),
            10,
            "the bots to submit",
        )
        mine = round_.players.get(user=person)
        games.submit_arrangement(person, round_.pk, naive_arrangement(mine.cards))
        eventually(
            lambda: Round.objects.filter(pk=round_.pk, state=RoundState.SETTLED).exists(),
            30,
            "the showdown and settlement",
        )
    round_.refresh_from_db()
    players = list(round_.players.select_related("user"))
    assert all(p.arrangement for p in players)
    assert sum(p.xu for p in players) == 0
    assert ledger_selectors.round_closure(round_.pk) is not None
    assert selectors.seated_people(bot_table).count() == 1  # the bots stay for the next round
    call_command("ledger_check")
