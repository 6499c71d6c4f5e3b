"""Two settlements that share a player (one left a round and sat elsewhere) rate in turn."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection, transaction
from openskill.models import BradleyTerryFull

from games import services
from games.models import Round
from ratings import services as ratings
from ratings.models import Rating

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _rate(round_id: int, table_id: int, units: dict[int, int], hold: Any = None) -> None:
    round_ = Round.objects.select_related("table").get(pk=round_id)
    rps = list(round_.players.select_related("user").filter(user_id__in=units))
    for rp in rps:
        rp.units = units[rp.user_id]
    with transaction.atomic():
        ratings.rate_round(round_.table, round_, rps)
        if hold is not None:
            locked, release = hold
            locked.set()
            release.wait(10)
    connection.close()


def test_a_player_rated_by_two_settlements_at_once_gets_both_updates_in_turn(players, table):
    an, binh, chi = players[:3]
    services.sit(an, table.pk)
    services.sit(binh, table.pk)
    first = services.start_round(an, table.pk)
    services.stand(an)  # leaves the round (still rated on it) and sits elsewhere
    other = services.create_table(chi, name="Bàn khác", stake=10)
    services.sit(chi, other.pk)
    services.sit(an, other.pk)
    second = services.start_round(chi, other.pk)

    locked, release = threading.Event(), threading.Event()
    holder = threading.Thread(
        target=_rate, args=(first.pk, table.pk, {an.pk: -6, binh.pk: 6}, (locked, release))
    )
    holder.start()
    assert locked.wait(10)
    waiter = threading.Thread(target=_rate, args=(second.pk, other.pk, {an.pk: 3, chi.pk: -3}))
    waiter.start()
    waiter.join(1.0)
    assert waiter.is_alive(), "the second settlement waits for the first's lock on the rating"
    release.set()
    holder.join(10)
    waiter.join(10)
    assert not waiter.is_alive()

    model = BradleyTerryFull()
    start = model.rating()
    (after_first, _b) = model.rate([[start], [model.rating()]], scores=[-6.0, 6.0])
    (after_second, _c) = model.rate([after_first, [model.rating()]], scores=[3.0, -3.0])
    mine = Rating.objects.get(user=an, preset=table.preset)
    assert mine.rounds == 2
    assert mine.mu == pytest.approx(after_second[0].mu)
    assert mine.sigma == pytest.approx(after_second[0].sigma)
