"""The day's hand comes from a seed committed ahead, and the rounds' verify code proves it."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.rules import parse_cards
from games.rules.fair import FairnessError, commitment, deal_from_seeds
from practice import selectors, services
from practice.models import DailyDeal
from tests.practice.conftest import DAY, SEED

pytestmark = pytest.mark.django_db


def test_the_days_hand_is_seat_one_of_the_fair_deal_from_its_seed_and_the_date(make_deal) -> None:  # type: ignore[no-untyped-def]
    deal = make_deal(DAY, SEED)
    assert deal.client_seed == "daily:2026-11-30"
    assert deal.server_seed_hash == commitment(SEED)
    assert parse_cards(deal.cards) == deal_from_seeds(SEED, ["daily:2026-11-30"], 4)[0]
    assert len(set(deal.cards)) == 13


def test_a_past_day_verifies_with_the_rounds_verify_code(make_deal) -> None:  # type: ignore[no-untyped-def]
    deal = make_deal(DAY, SEED)
    selectors.verify_daily(deal, DAY + timedelta(days=1))
    assert selectors.verifies(deal, DAY + timedelta(days=1))


def test_a_hand_that_differs_from_its_seed_does_not_verify(make_deal) -> None:  # type: ignore[no-untyped-def]
    deal = make_deal(DAY, SEED)
    hand = deal.hands[0]
    deal.hands = [[hand[1], hand[0], *hand[2:]], *deal.hands[1:]]
    with pytest.raises(FairnessError) as caught:
        selectors.verify_daily(deal, DAY + timedelta(days=1))
    assert caught.value.code == "deal_mismatch"


def test_todays_seed_is_not_revealed_and_does_not_verify_yet(make_deal) -> None:  # type: ignore[no-untyped-def]
    deal = make_deal(DAY, SEED)
    with pytest.raises(FairnessError):
        selectors.verify_daily(deal, DAY)
    rows = {row.day: row for row in selectors.commitments(DAY)}
    assert rows[DAY].server_seed == "" and rows[DAY].verified is None
    assert rows[DAY].server_seed_hash == commitment(SEED)
    later = {row.day: row for row in selectors.commitments(DAY + timedelta(days=1))}
    assert later[DAY].server_seed == SEED and later[DAY].verified is True


def test_seeds_are_committed_days_ahead_and_never_redrawn(db: None) -> None:
    assert services.schedule_daily_deals(DAY, ahead=7) == 8
    hashes = dict(DailyDeal.objects.values_list("day", "server_seed_hash"))
    assert set(hashes) == {DAY + timedelta(days=n) for n in range(8)}
    assert services.schedule_daily_deals(DAY + timedelta(days=1), ahead=7) == 1
    again = dict(DailyDeal.objects.values_list("day", "server_seed_hash"))
    assert {day: again[day] for day in hashes} == hashes
    for deal in DailyDeal.objects.all():
        assert commitment(deal.server_seed) == deal.server_seed_hash


def test_everyone_gets_the_same_hand_on_a_day(db: None) -> None:
    first = services.todays_deal(DAY)
    second = services.todays_deal(DAY)
    assert first.pk == second.pk and first.cards == second.cards


def test_the_periodic_task_keeps_a_week_of_hashes_published(db: None) -> None:
    from django.utils import timezone

    from practice import tasks

    tasks.schedule_daily_deals_task()
    today = timezone.localdate()
    days = set(DailyDeal.objects.values_list("day", flat=True))
    assert {today + timedelta(days=n) for n in range(8)} <= days
