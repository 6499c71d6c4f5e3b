"""Scoring a daily attempt: the engine's price of the arrangement against its best."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.db.models import QuerySet
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import (
    Rules,
    appraise,
    format_cards,
    is_foul,
    parse_cards,
    suggest,
)
from games.rules.arrange import naive_arrangement
from practice import services
from practice.models import DailyAttempt
from practice.pricing import Refused
from tests.practice.conftest import DAY, SEED, best_chi

pytestmark = pytest.mark.django_db
PORTAL = Rules.preset("portal")


def test_the_best_arrangement_scores_what_suggest_quotes(make_deal, make_user, on_day) -> None:  # type: ignore[no-untyped-def]
    on_day(DAY)
    deal = make_deal(DAY, SEED)
    attempt = services.submit_daily(make_user(), deal, json.dumps(best_chi(deal)))
    quoted = suggest(parse_cards(deal.cards), PORTAL, n=0)[0]
    assert attempt.ev == pytest.approx(quoted.ev)
    assert attempt.win == pytest.approx(list(quoted.win))
    assert services.best_of(deal).ev == pytest.approx(quoted.ev)


def test_a_weaker_arrangement_scores_its_appraisal(make_deal, make_user, on_day) -> None:  # type: ignore[no-untyped-def]
    on_day(DAY)
    deal = make_deal(DAY, SEED)
    naive = naive_arrangement(parse_cards(deal.cards), "portal")
    chi = [format_cards(part) for part in naive]
    attempt = services.submit_daily(make_user(), deal, json.dumps(chi))
    priced = appraise(naive, PORTAL)
    assert attempt.ev == pytest.approx(priced.ev)
    assert attempt.tie == pytest.approx(list(priced.tie))
    assert attempt.chi == chi
    assert attempt.ev <= services.best_of(deal).ev + 1e-9


def test_the_best_is_cached_on_the_day(make_deal, make_user, on_day) -> None:  # type: ignore[no-untyped-def]
    on_day(DAY)
    deal = make_deal(DAY, SEED)
    assert deal.best is None
    services.submit_daily(make_user(), deal, json.dumps(best_chi(deal)))
    deal.refresh_from_db()
    assert deal.best is not None and deal.best["chi"] == best_chi(deal)


def test_a_second_attempt_on_the_same_day_is_refused(make_deal, make_user, on_day) -> None:  # type: ignore[no-untyped-def]
    on_day(DAY)
    deal = make_deal(DAY, SEED)
    user = make_user()
    services.submit_daily(user, deal, json.dumps(best_chi(deal)))
    with pytest.raises(Refused) as caught:
        services.submit_daily(user, deal, json.dumps(best_chi(deal)))
    assert caught.value.code == "already_played"
    assert DailyAttempt.objects.filter(user=user).count() == 1


def test_a_second_submit_racing_the_first_is_refused_by_the_constraint(
    make_deal, make_user, on_day, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    """A double click whose second request passed the "already played?" check before the
    first one committed: the unique constraint lets one attempt in, the other is refused."""
    on_day(DAY)
    deal = make_deal(DAY, SEED)
    user = make_user()
    services.submit_daily(user, deal, json.dumps(best_chi(deal)))
    monkeypatch.setattr(QuerySet, "exists", lambda self: False)
    with pytest.raises(Refused) as caught:
        services.submit_daily(user, deal, json.dumps(best_chi(deal)))
    assert caught.value.code == "already_played"
    monkeypatch.undo()
    assert DailyAttempt.objects.filter(user=user).count() == 1


def test_a_past_days_hand_cannot_be_played(make_deal, make_user, on_day) -> None:  # type: ignore[no-untyped-def]
    deal = make_deal(DAY, SEED)
    on_day(DAY + timedelta(days=1))
    with pytest.raises(Refused) as caught:
        services.submit_daily(make_user(), deal, json.dumps(best_chi(deal)))
    assert caught.value.code == "day_over"


def test_binh_lung_is_refused_and_nothing_is_stored(make_deal, make_user, on_day) -> None:  # type: ignore[no-untyped-def]
    on_day(DAY)
    deal = make_deal(DAY, SEED)
    chi = best_chi(deal)
    swapped = [chi[1], chi[0], chi[2]]
    assert is_foul(*(parse_cards(part) for part in swapped), "portal")  # the seed's hand allows it
    user = make_user()
    with pytest.raises(Refused) as caught:
        services.submit_daily(user, deal, json.dumps(swapped))
    assert caught.value.code == "foul"
    assert "Binh lủng" in caught.value.message
    assert not DailyAttempt.objects.filter(user=user).exists()


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.binary(min_size=32, max_size=32))
def test_no_legal_arrangement_beats_the_engines_best(seed: bytes) -> None:
    """On any daily deal, the best quoted is at least any arrangement suggest lists."""
    from games.rules.fair import deal_from_seeds

    cards = deal_from_seeds(seed.hex(), ["daily:2026-11-30"], 4)[0]
    found = suggest(cards, PORTAL, n=3)
    best = found[0]
    for other in found[1:]:
        assert appraise(other.chi, PORTAL).ev <= best.ev + 1e-9
    assert appraise(naive_arrangement(cards, "portal"), PORTAL).ev <= best.ev + 1e-9
