"""A player's command that committed is answered as done even when the broker is away."""

from datetime import timedelta

import pytest
from celery.app.task import Task
from django.utils import timezone
from kombu.exceptions import OperationalError

from games import services
from games.models import Round, RoundState

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def broker_away(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every task send fails as kombu fails while Redis restarts."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(Task, "apply_async", refuse)


def _arrange(cards):
    return [cards[:5], cards[5:10], cards[10:]]


def test_sitting_down_and_submitting_succeed_while_the_broker_is_away(players, table, broker_away):
    for p in players:
        services.sit(p, table.pk)  # each sit restarts the countdown: a timer send fails
    round_ = services.start_round(players[0], table.pk)
    for rp in round_.players.select_related("user"):
        services.submit_arrangement(rp.user, round_.pk, _arrange(rp.cards))
    assert round_.players.filter(submitted_at__isnull=True).count() == 0


def test_the_sweeper_moves_a_round_whose_timer_was_never_sent(players, table, broker_away):
    for p in players[:2]:
        services.sit(p, table.pk)
    round_ = services.start_round(players[0], table.pk)
    Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(seconds=5))
    assert services.sweep_due_rounds() >= 1
    round_.refresh_from_db()
    assert round_.state == RoundState.SHOWDOWN
