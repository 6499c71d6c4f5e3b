"""Prizes do not reward collusion (docs/tournaments.md, prizes under review): when the
collusion signals fire among a finishing tournament's entrants and its own rounds, its
prizes are held in the ledger for a moderator, who releases them or returns the buy-ins;
the entrants see that they are under review, then the outcome (issue 24)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from games import services as games
from ledger import selectors as ledger_selectors
from ledger.audit import run_checks
from ledger.models import Account, PoolClosure, PoolOutcome, PrizeHold, Transfer
from moderation.models import ActionKind, StaffAction, UserIP
from notices.models import Notification, NotificationKind
from tests.moderation.conftest import _staff
from tests.support.arenas import start_arena
from tests.support.arranging import naive_arrangement
from tests.support.played import deal_when_due, run_timers
from tournaments.arena import services as arena
from tournaments.models import EntryState, State, Tournament
from tournaments.sitandgo import services

from .conftest import open_tables

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

UNDER_REVIEW = "Giải thưởng đang được xem xét"


def _foul(cards: list[str]) -> list[list[str]]:
    """The weakest five in chi 1 and the strongest five in chi 2: binh lủng on purpose."""
    best = naive_arrangement(cards)
    return [best[2] + best[1][:2], best[0], best[1][2:]]


def play_with_colluders(t: Tournament, colluders: list[Any]) -> int:
    """Every round, the colluders send a binh lủng and everyone else a fair hand, until one
    player has every chip. Returns the rounds played."""
    played = 0
    for _ in range(80):
        t.refresh_from_db()
        if t.state != State.RUNNING:
            break
        for table_id in open_tables(t):
            round_ = deal_when_due(table_id)
            if round_ is None:
                continue
            for rp in round_.players.select_related("user"):
                chi = _foul(rp.cards) if rp.user in colluders else naive_arrangement(rp.cards)
                games.submit_arrangement(rp.user, round_.pk, chi)
            run_timers(round_)
            played += 1
        services.table_step(t.pk)
    return played


@pytest.fixture
def colluded(players: list[Any]) -> Tournament:
    """The reproduction: a 4-player sit-and-go (1,000 xu each) where three accounts foul
    every round on purpose and the fourth takes every chip."""
    with override_settings(
        TOURNAMENT_STARTING_STACK=300, TOURNAMENT_FIRST_STAKE=10, TOURNAMENT_LEVEL_ROUNDS=100
    ):
        t = services.create_sit_and_go(players[0], name="Nuôi tài khoản", players=4, buy_in=1_000)
    for user in players[1:]:
        services.register(user, t.pk)
    assert play_with_colluders(t, players[1:]) >= 5
    t.refresh_from_db()
    assert t.state == State.FINISHED
    return t


@pytest.fixture
def moderator(make_user: Any) -> Any:
    return _staff(make_user, "mod", moderator=True)


def test_a_sit_and_go_won_by_colluders_fouls_holds_its_prize_instead_of_paying_it(
    players, colluded
):
    winner = colluded.entries.get(place=1)
    assert winner.user == players[0] and winner.state == EntryState.WON
    assert winner.prize == 4_000  # recorded: what a release pays
    assert ledger_selectors.balance(players[0]) == 9_000  # and not paid
    assert ledger_selectors.pool_balance(colluded.pk) == 0
    assert Account.objects.get(key=f"prize_hold:{colluded.pk}").balance == 4_000
    closure = PoolClosure.objects.get(tournament_id=colluded.pk)
    assert (closure.outcome, closure.prizes) == (PoolOutcome.HELD, {str(players[0].pk): 4_000})
    hold = PrizeHold.objects.get(tournament_id=colluded.pk)
    signals = {(f["signal"], tuple(f["users"])) for f in hold.findings}
    for cheat in players[1:]:
        assert ("fouls", (cheat.pk,)) in signals
        assert ("chip_dumping", (cheat.pk, players[0].pk)) in signals
    assert not Transfer.objects.filter(kind="prize").exists()
    # Nobody is locked: every entrant may sit or register again.
    services.create_sit_and_go(players[1], name="Giải sau", players=4, buy_in=0)
    report = run_checks()
    assert report.ok, report.problems


def test_the_entrants_see_the_prize_under_review_on_the_page_and_in_a_notification(
    client, players, colluded
):
    client.force_login(players[0])
    page = client.get(reverse("tournaments:detail", args=[colluded.pk])).content.decode()
    assert 'data-testid="prize-review"' in page and UNDER_REVIEW in page
    state = client.get(reverse("tournaments:state", args=[colluded.pk])).json()
    assert state["review"]["status"] == "pending"
    for user in players:
        note = Notification.objects.get(user=user, kind=NotificationKind.PRIZES_HELD)
        assert "Nuôi tài khoản" in note.message
        assert note.params["url"] == f"/tournaments/{colluded.pk}/"


def test_a_moderator_releases_the_prize_once_and_exactly_as_recorded(
    client, players, colluded, moderator
):
    client.force_login(moderator)
    listing = client.get(reverse("moderation:prizes")).content.decode()
    assert "Nuôi tài khoản" in listing and 'data-testid="release-prizes"' in listing
    decide = reverse("moderation:decide_prizes", kwargs={"tournament_id": colluded.pk})
    refused = client.post(decide, {"decision": "release", "reason": " "}, follow=True)
    assert [m.level_tag for m in refused.context["messages"]] == ["error"]
    assert ledger_selectors.balance(players[0]) == 9_000
    client.post(decide, {"decision": "release", "reason": "Bạn bè chơi thật, đã hỏi"}, follow=True)
    again = client.post(decide, {"decision": "release", "reason": "bấm lại"}, follow=True)
    assert [m.level_tag for m in again.context["messages"]] == ["info"]
    assert ledger_selectors.balance(players[0]) == 13_000
    assert [ledger_selectors.balance(p) for p in players[1:]] == [9_000] * 3
    assert Account.objects.get(key=f"prize_hold:{colluded.pk}").balance == 0
    actions = StaffAction.objects.filter(action=ActionKind.RELEASE_PRIZES)
    assert actions.count() == 1 and actions.get().reason == "Bạn bè chơi thật, đã hỏi"
    assert Notification.objects.filter(kind=NotificationKind.PRIZES_RELEASED).count() == 4
    client.force_login(players[0])
    state = client.get(reverse("tournaments:state", args=[colluded.pk])).json()
    assert state["review"]["status"] == "released"
    assert [r["prize"] for r in state["standings"] if r["place"] == 1] == [4_000]
    report = run_checks()
    assert report.ok, report.problems


def test_a_moderator_returns_every_buy_in_instead(client, players, colluded, moderator):
    client.force_login(moderator)
    decide = reverse("moderation:decide_prizes", kwargs={"tournament_id": colluded.pk})
    client.post(decide, {"decision": "return", "reason": "Ba tài khoản binh lủng cố ý"})
    assert [ledger_selectors.balance(p) for p in players] == [10_000] * 4
    assert Account.objects.get(key=f"prize_hold:{colluded.pk}").balance == 0
    client.post(decide, {"decision": "release", "reason": "đổi ý"})  # refused: decided
    assert ledger_selectors.balance(players[0]) == 10_000
    assert StaffAction.objects.filter(action=ActionKind.RETURN_BUY_INS).count() == 1
    client.force_login(players[0])
    page = client.get(reverse("tournaments:detail", args=[colluded.pk])).content.decode()
    assert "hoàn lại mọi phí tham gia" in page
    state = client.get(reverse("tournaments:state", args=[colluded.pk])).json()
    assert state["review"]["status"] == "returned" and state["pool"] == 0
    assert all(r["prize"] == 0 for r in state["standings"])
    report = run_checks()
    assert report.ok, report.problems


def test_an_entrant_who_is_a_moderator_cannot_decide_their_own_tournament(players, colluded):
    from django.contrib.auth.models import Group

    from accounts.roles import MODERATORS
    from moderation import services as moderation
    from moderation.errors import Forbidden

    players[1].groups.add(Group.objects.get_or_create(name=MODERATORS)[0])
    with pytest.raises(Forbidden):
        moderation.decide_prizes(players[1], colluded.pk, decision="return", reason="của tôi")
    assert Account.objects.get(key=f"prize_hold:{colluded.pk}").balance == 4_000


@override_settings(ARENA_PAIR_WAIT_SECONDS=0)
def test_an_arenas_prizes_go_through_the_same_check(players):
    t = arena.create_arena(players[0], name="Chung nhà", minutes=3, buy_in=500)
    for user in players[1:]:
        arena.join(user, t.pk)
    for user in players[:2]:  # two entrants from one address (not this machine's own)
        UserIP.objects.update_or_create(user=user, defaults={"ip": "203.0.113.7"})
    arena.start_now(players[0], t.pk)
    Tournament.objects.filter(pk=t.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    assert arena.end(t.pk)
    t.refresh_from_db()
    assert t.state == State.FINISHED
    hold = PrizeHold.objects.get(tournament_id=t.pk)
    assert hold.findings == [
        {"signal": "shared_address", "users": sorted([players[0].pk, players[1].pk])}
    ]
    assert sum(ledger_selectors.balance(p) for p in players) == 4 * 10_000 - 2_000
    assert run_checks().ok


def test_a_tournament_without_signals_pays_at_once(players):
    for user in players:  # everyone on this machine's own address: it proves nothing
        UserIP.objects.update_or_create(user=user, defaults={"ip": "127.0.0.1"})
    t = start_arena(players, name="Sạch", minutes=3, buy_in=500)
    Tournament.objects.filter(pk=t.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    arena.end(t.pk)
    assert not PrizeHold.objects.exists()
    assert PoolClosure.objects.get(tournament_id=t.pk).outcome == PoolOutcome.PAID
    assert sum(ledger_selectors.balance(p) for p in players) == 4 * 10_000
