"""Two answers to one challenge at once (two tabs, a double click, an answer and a
withdrawal) end in one state: one table at most, both seated once."""

from __future__ import annotations

import pytest

from games.errors import GameError
from games.models import Seat, Table
from social import services
from social.models import Challenge, ChallengeState
from tests.support.races import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_a_challenge_accepted_twice_at_once_opens_one_table(people) -> None:
    an, binh, _chi = people
    made = services.challenge(an, binh, preset="portal", stake=10)
    results = race(
        lambda: services.accept_challenge(binh, made.pk),
        lambda: services.accept_challenge(binh, made.pk),
        refusals=(GameError,),
    )
    assert [r.table_id for r in results] == [results[0].table_id] * 2  # the same, twice
    assert Table.objects.filter(host=an).count() == 1
    assert Seat.objects.filter(table_id=results[0].table_id).count() == 2


def test_an_accept_and_a_withdrawal_at_once_end_in_one_of_them(people) -> None:
    an, binh, _chi = people
    made = services.challenge(an, binh, preset="portal", stake=10)
    race(
        lambda: services.accept_challenge(binh, made.pk),
        lambda: services.cancel_challenge(an, made.pk),
        refusals=(GameError,),
    )
    made.refresh_from_db()
    tables = Table.objects.filter(host=an).count()
    if made.state == ChallengeState.ACCEPTED:
        assert tables == 1 and made.version == 2
    else:
        assert made.state == ChallengeState.CANCELLED and tables == 0
    assert Challenge.objects.get(pk=made.pk).version == 2
