"""Rating updates at settlement, checked against OpenSkill's own computation.

Every expectation is computed by the library in the test (a fresh Bradley-Terry model,
full pairing, fed the round's net units as scores), never a hand-written copy of numbers.
"""

from __future__ import annotations

import pytest
from openskill.models import BradleyTerryFull

from accounts.models import User
from games import services
from games.models import Round, RoundPlayer, RoundState
from games.selectors import summary_payload
from ratings import services as ratings
from ratings.models import Rating, RatingChange
from tests.support.arranging import naive_arrangement
from tests.support.played import run_timers

pytestmark = pytest.mark.django_db


def _deal(players, table):  # type: ignore[no-untyped-def]
    for player in players:
        services.sit(player, table.pk)
    return services.start_round(players[0], table.pk)


def _submit_all(round_: Round) -> None:
    for rp in round_.players.select_related("user"):
        services.submit_arrangement(rp.user, round_.pk, naive_arrangement(rp.cards))


def _expected(before: list[tuple[float, float]], units: list[int]):  # type: ignore[no-untyped-def]
    """The library's update for players with these ratings and net results."""
    model = BradleyTerryFull()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    return [team[0] for team in model.rate(teams, scores=[float(u) for u in units])]


def _shown(rating) -> int:  # type: ignore[no-untyped-def]
    return round(rating.ordinal(z=3.0, alpha=ratings.SCALE, target=ratings.BASE))


def test_a_settled_round_moves_each_rating_as_openskill_rates_the_same_results(players, table):
    round_ = _deal(players, table)
    _submit_all(round_)
    round_ = run_timers(round_)
    assert round_.state == RoundState.SETTLED
    rps = list(round_.players.order_by("position"))
    fresh = BradleyTerryFull().rating()
    expected = _expected([(fresh.mu, fresh.sigma)] * len(rps), [rp.units for rp in rps])
    assert len({rp.units for rp in rps}) > 1  # the round has a winner and a loser
    for rp, want in zip(rps, expected, strict=True):
        rating = Rating.objects.get(user_id=rp.user_id, preset=table.preset)
        assert rating.mu == pytest.approx(want.mu)
        assert rating.sigma == pytest.approx(want.sigma)
        assert rating.display == _shown(want)
        assert rating.rounds == 1
        change = RatingChange.objects.get(round=round_, user_id=rp.user_id)
        assert change.display_before == _shown(fresh) == ratings.BASE
        assert change.display_after == rating.display
        assert round_.ratings["players"][str(rp.user_id)] == {
            "before": change.display_before,
            "after": change.display_after,
        }


def test_a_second_round_starts_from_the_ratings_the_first_left(players, table):
    first = _deal(players[:2], table)
    _submit_all(first)
    run_timers(first)
    before = {
        r.user_id: (r.mu, r.sigma)
        for r in Rating.objects.filter(user__in=players[:2], preset=table.preset)
    }
    second = services.start_round(players[0], table.pk)
    _submit_all(second)
    second = run_timers(second)
    rps = list(second.players.order_by("position"))
    expected = _expected([before[rp.user_id] for rp in rps], [rp.units for rp in rps])
    for rp, want in zip(rps, expected, strict=True):
        rating = Rating.objects.get(user_id=rp.user_id, preset=table.preset)
        assert rating.mu == pytest.approx(want.mu)
        assert rating.sigma == pytest.approx(want.sigma)
        assert rating.rounds == 2


def test_players_with_equal_results_share_a_place_as_the_library_ranks_a_tie(players, table):
    round_ = _deal(players, table)
    rps = list(round_.players.select_related("user").order_by("position"))
    for rp, units in zip(rps, [6, -2, -2, -2], strict=True):
        rp.units = units
    outcome = ratings.rate_round(table, round_, rps)
    fresh = BradleyTerryFull().rating()
    expected = _expected([(fresh.mu, fresh.sigma)] * 4, [6, -2, -2, -2])
    changes = {c.user_id: c for c in RatingChange.objects.filter(round=round_)}
    assert [changes[rp.user_id].rank for rp in rps] == [1, 2, 2, 2]
    for rp, want in zip(rps, expected, strict=True):
        assert changes[rp.user_id].mu_after == pytest.approx(want.mu)
        assert changes[rp.user_id].sigma_after == pytest.approx(want.sigma)
    tied = {outcome["players"][str(rp.user_id)]["after"] for rp in rps[1:]}
    assert len(tied) == 1  # the three who tied move alike


def test_places_by_result_share_a_place_on_a_tie_and_skip_the_next():
    assert ratings.ranks_by_result([3, -1, -1, -1]) == [1, 2, 2, 2]
    assert ratings.ranks_by_result([0, 5, 5, -10]) == [3, 1, 1, 4]
    assert ratings.ranks_by_result([2, 2]) == [1, 1]


def test_a_round_rated_again_changes_no_rating(players, table):
    round_ = _deal(players, table)
    _submit_all(round_)
    round_ = run_timers(round_)
    before = list(Rating.objects.order_by("user_id").values_list("mu", "sigma", "rounds"))
    rps = list(round_.players.select_related("user"))
    again = ratings.rate_round(round_.table, round_, rps)
    assert again["players"] == {}
    assert list(Rating.objects.order_by("user_id").values_list("mu", "sigma", "rounds")) == before
    assert RatingChange.objects.filter(round=round_).count() == len(rps)


def test_a_settlement_timer_delivered_twice_rates_the_round_once(players, table):
    round_ = _deal(players, table)
    _submit_all(round_)
    round_ = run_timers(round_)
    # The last timer again, as a redelivered task would carry it.
    assert services.advance_round(round_.pk, RoundState.SHOWDOWN, round_.phase - 1) is None
    assert RatingChange.objects.filter(round=round_).count() == 4
    assert set(Rating.objects.values_list("rounds", flat=True)) == {1}


def test_a_voided_round_changes_no_rating(players, table):
    round_ = _deal(players, table)
    _submit_all(round_)
    services.void_round(round_.pk, reason=services.VoidReason.STAFF)
    round_ = run_timers(round_)
    assert round_.state == RoundState.CANCELLED
    assert not Rating.objects.exists()
    assert not RatingChange.objects.exists()


def test_a_round_with_a_bot_is_not_rated_for_anyone(players, table, make_user):
    bot = make_user("bot-1")
    User.objects.filter(pk=bot.pk).update(is_bot=True)  # as bots.services.create_bot makes one
    bot.refresh_from_db()
    round_ = _deal([*players[:2], bot], table)
    _submit_all(round_)
    round_ = run_timers(round_)
    assert round_.state == RoundState.SETTLED
    assert round_.ratings == {"rated": False, "reason": "bots", "players": {}}
    assert not Rating.objects.exists()
    assert not RatingChange.objects.exists()


def test_leaving_mid_round_does_not_protect_a_rating(players, table):
    round_ = _deal(players, table)
    services.stand(players[3])  # walks away before arranging: the table plays the hand out
    for rp in round_.players.select_related("user").exclude(user=players[3]):
        services.submit_arrangement(rp.user, round_.pk, naive_arrangement(rp.cards))
    round_ = run_timers(round_)
    leaver = RoundPlayer.objects.get(round=round_, user=players[3])
    assert leaver.status == "left"
    rps = list(round_.players.order_by("position"))
    fresh = BradleyTerryFull().rating()
    expected = _expected([(fresh.mu, fresh.sigma)] * 4, [rp.units for rp in rps])
    mine = Rating.objects.get(user=players[3], preset=table.preset)
    want = expected[[rp.user_id for rp in rps].index(players[3].pk)]
    assert mine.mu == pytest.approx(want.mu)
    assert mine.mu < fresh.mu  # a forfeit is a loss, rated as one
    assert mine.display < ratings.BASE


def test_a_hand_played_for_its_absent_owner_is_rated_like_any_other(players, table):
    round_ = _deal(players, table)
    rps = list(round_.players.select_related("user"))
    for rp in rps[:3]:
        services.submit_arrangement(rp.user, round_.pk, naive_arrangement(rp.cards))
    round_ = run_timers(round_)
    absent = RoundPlayer.objects.get(round=round_, user=rps[3].user)
    assert absent.auto_arranged
    assert RatingChange.objects.filter(round=round_, user=absent.user).exists()


def test_the_summary_carries_each_players_rating_change(players, table):
    round_ = _deal(players[:2], table)
    _submit_all(round_)
    round_ = run_timers(round_)
    summary = summary_payload(round_)
    assert summary["rated"] is True
    for row in summary["players"]:
        change = RatingChange.objects.get(round=round_, user_id=row["user"])
        assert row["rating"] == {"before": change.display_before, "after": change.display_after}


def test_a_rating_that_fails_leaves_the_round_settled_and_unrated(players, table, monkeypatch):
    real = ratings.MODEL

    class Broken:
        """The library's model whose update raises (as a bug in it would)."""

        def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
            return getattr(real, name)

        def rate(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            raise ValueError("a bug in the rating")

    monkeypatch.setattr(ratings, "MODEL", Broken())
    round_ = _deal(players[:2], table)
    _submit_all(round_)
    round_ = run_timers(round_)
    assert round_.state == RoundState.SETTLED
    assert round_.ratings == {"rated": False, "reason": "error", "players": {}}
    assert not RatingChange.objects.exists()
    assert all(rp.xu is not None for rp in round_.players.all())
