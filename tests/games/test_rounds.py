import threading
import uuid
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games import services
from games.errors import GameError, NotFound
from games.models import Round, RoundEvent, RoundState
from games.rules.fair import FairnessError
from games.selectors import table_snapshot, verify_round
from ledger import selectors as ledger_selectors
from ledger.models import Transfer
from tests.support.arranging import naive_arrangement

pytestmark = pytest.mark.django_db


def _deal(players, table, n=2):  # type: ignore[no-untyped-def]
    for p in players[:n]:
        services.sit(p, table.pk)
    return services.start_round(players[0], table.pk)


def _expire(round_):  # type: ignore[no-untyped-def]
    Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    round_.refresh_from_db()


def _submit_all(round_):  # type: ignore[no-untyped-def]
    """Everyone submits; the last submission begins the showdown, in its own step."""
    for rp in round_.players.filter(status="playing").select_related("user"):
        services.submit_arrangement(rp.user, round_.pk, naive_arrangement(rp.cards))
    round_.refresh_from_db()
    assert round_.state == RoundState.SHOWDOWN
    return round_


def _run_to_settlement(round_):  # type: ignore[no-untyped-def]
    for _step in range(6):
        round_.refresh_from_db()
        if round_.state == RoundState.SETTLED:
            return round_
        _expire(round_)
        services.advance_round(round_.pk, round_.state, round_.phase)
    raise AssertionError("the round did not settle")


def test_only_the_host_can_press_start(players, table):
    for p in players[:2]:
        services.sit(p, table.pk)
    with pytest.raises(GameError) as refused:
        services.start_round(players[1], table.pk)
    assert refused.value.code == "not_host"


def test_each_player_is_dealt_13_distinct_cards_and_holds_are_placed(players, table):
    round_ = _deal(players, table, 3)
    hands = [rp.cards for rp in round_.players.all()]
    assert all(len(h) == 13 for h in hands)
    assert len({c for h in hands for c in h}) == 39
    for rp in round_.players.all():
        assert rp.hold == rp.cap * 2
        assert rp.hold > 0
    assert ledger_selectors.holds_of_round(round_.pk) == {
        rp.user_id: rp.hold for rp in round_.players.all()
    }


def test_a_snapshot_shows_only_your_own_cards(players, table):
    round_ = _deal(players, table, 2)
    mine, theirs = round_.players.order_by("position")
    snapshot = table_snapshot(table, mine.user)
    assert snapshot["round"]["you"]["cards"] == mine.cards
    text = str(snapshot)
    assert not any(f"'{card}'" in text for card in theirs.cards)


def test_a_spectator_sees_no_cards_before_the_showdown(players, table):
    round_ = _deal(players, table, 2)
    snapshot = table_snapshot(table, players[3])
    assert snapshot["round"]["you"] is None
    text = str(snapshot)
    for rp in round_.players.all():
        assert not any(f"'{card}'" in text for card in rp.cards)


def test_a_forged_card_is_refused_and_nothing_is_stored(players, table):
    round_ = _deal(players, table, 2)
    mine, theirs = round_.players.order_by("position")
    chi = naive_arrangement(mine.cards)
    chi[2][0] = theirs.cards[0]
    with pytest.raises(GameError) as refused:
        services.submit_arrangement(mine.user, round_.pk, chi)
    assert refused.value.code == "card_not_dealt"
    mine.refresh_from_db()
    assert mine.arrangement is None


@pytest.mark.parametrize(
    ("shape", "code"),
    [((5, 5, 2), "chi_size"), ((4, 6, 3), "chi_size"), ((5, 8), "chi_count")],
)
def test_a_wrong_count_is_refused(players, table, shape, code):
    round_ = _deal(players, table, 2)
    mine = round_.players.order_by("position").first()
    cards, chi, start = mine.cards, [], 0
    for size in shape:
        chi.append(cards[start : start + size])
        start += size
    with pytest.raises(GameError) as refused:
        services.submit_arrangement(mine.user, round_.pk, chi)
    assert refused.value.code == code


def test_another_users_round_is_refused(players, table):
    round_ = _deal(players, table, 2)
    with pytest.raises(NotFound) as refused:
        services.submit_arrangement(players[3], round_.pk, [[], [], []])
    assert refused.value.code == "not_in_round"
    with pytest.raises(NotFound):
        services.submit_arrangement(players[0], 999_999, [[], [], []])


def test_a_stale_tab_that_never_saw_the_deal_is_refused(players, table):
    round_ = _deal(players, table, 2)
    mine = round_.players.order_by("position").first()
    with pytest.raises(GameError) as refused:
        services.submit_arrangement(
            mine.user,
            round_.pk,
            naive_arrangement(mine.cards),
            seen_version=round_.dealt_version - 1,
        )
    assert refused.value.code == "stale_version"


def test_a_submission_after_the_deadline_is_refused(players, table):
    round_ = _deal(players, table, 2)
    mine = round_.players.order_by("position").first()
    _expire(round_)
    with pytest.raises(GameError) as refused:
        services.submit_arrangement(mine.user, round_.pk, naive_arrangement(mine.cards))
    assert refused.value.code == "too_late"


def test_a_resent_submission_counts_once_even_after_the_showdown_began(players, table):
    round_ = _deal(players, table, 2)
    mine, _other = round_.players.order_by("position").select_related("user")
    chi = naive_arrangement(mine.cards)
    services.submit_arrangement(mine.user, round_.pk, chi)
    table.refresh_from_db()
    version = table.version
    services.submit_arrangement(mine.user, round_.pk, chi)  # the reply was lost: resent
    table.refresh_from_db()
    assert table.version == version
    round_ = _submit_all(round_)  # the showdown begins
    services.submit_arrangement(mine.user, round_.pk, chi)  # a late resend is still ok
    submits = RoundEvent.objects.filter(round=round_, kind="submit", user=mine.user)
    assert submits.count() == 1


def test_an_arrangement_can_be_changed_until_everyone_has_submitted(players, table):
    round_ = _deal(players, table, 2)
    mine = round_.players.order_by("position").first()
    foul = [mine.cards[:5], mine.cards[5:10], mine.cards[10:]]
    services.submit_arrangement(mine.user, round_.pk, foul)
    better = naive_arrangement(mine.cards)
    services.submit_arrangement(mine.user, round_.pk, better)
    mine.refresh_from_db()
    assert [sorted(part) for part in mine.arrangement] == [sorted(part) for part in better]
    round_.refresh_from_db()
    assert round_.state == RoundState.ARRANGING


def test_a_duplicated_or_stale_timer_settles_nothing_twice(players, table):
    round_ = _submit_all(_deal(players, table, 2))
    assert round_.state == RoundState.SHOWDOWN
    stale = (round_.pk, RoundState.ARRANGING, 1)
    assert services.advance_round(*stale) is None  # the arranging timer, now stale
    round_ = _run_to_settlement(round_)
    transfers = Transfer.objects.filter(round_id=round_.pk).count()
    settled_phase = round_.phase
    for _attempt in range(3):
        services.advance_round(round_.pk, RoundState.SHOWDOWN, settled_phase - 1)
    assert Transfer.objects.filter(round_id=round_.pk).count() == transfers
    assert RoundEvent.objects.filter(round=round_, kind="settled").count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_workers_running_the_same_settlement_timer_settle_once(players, table):
    round_ = _submit_all(_deal(players, table, 2))
    # chi 2 and 3 show on the clock: the showdown's one timer is the settlement's.
    assert round_.state == RoundState.SHOWDOWN
    _expire(round_)
    barrier = threading.Barrier(2)

    def fire() -> None:
        barrier.wait()
        try:
            services.advance_round(round_.pk, RoundState.SHOWDOWN, round_.phase)
        finally:
            connection.close()

    threads = [threading.Thread(target=fire) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert RoundEvent.objects.filter(round=round_, kind="settled").count() == 1
    assert ledger_selectors.round_closure(round_.pk) is not None


def test_leaving_before_the_showdown_forfeits_every_chi(players, table):
    round_ = _deal(players, table, 3)
    leaver = round_.players.get(user=players[2])
    services.stand(players[2])
    leaver.refresh_from_db()
    assert (leaver.status, leaver.left_after_chi) == ("left", 0)
    round_ = _run_to_settlement(_submit_all(round_))
    outcome = next(p for p in round_.settlement["players"] if p["id"] == str(leaver.position))
    assert outcome["chi_lost"] == 6
    assert outcome["scooped"] is None  # a player who left before the showdown is never scooped


def test_leaving_during_the_showdown_forfeits_the_chi_not_yet_revealed(players, table):
    round_ = _submit_all(_deal(players, table, 2))
    assert round_.revealed == 1
    services.stand(players[1])
    leaver = round_.players.get(user=players[1])
    assert (leaver.status, leaver.left_after_chi) == ("left", 1)
    round_ = _run_to_settlement(round_)
    pair = round_.settlement["pairs"][0]
    detail = pair["chi_detail"]
    assert detail[1]["reason"] == "forfeit" and detail[2]["reason"] == "forfeit"


def test_a_finished_round_verifies_and_one_changed_card_fails(players, table):
    round_ = _deal(players, table, 2)
    with pytest.raises(FairnessError):
        verify_round(round_)  # the server seed stays secret until the round is over
    for rp in round_.players.select_related("user"):
        services.submit_arrangement(rp.user, round_.pk, naive_arrangement(rp.cards))
    round_ = _run_to_settlement(round_)
    verify_round(round_)
    tampered = round_.players.first()
    spare = next(
        c
        for c in ["2S", "2C", "2D", "2H", "3S", "3C"]
        if all(c not in rp.cards for rp in round_.players.all())
    )
    tampered.cards = [spare, *tampered.cards[1:]]
    tampered.save(update_fields=["cards"])
    with pytest.raises(FairnessError) as error:
        verify_round(round_)
    assert error.value.code == "deal_mismatch"


def test_the_next_round_is_dealt_after_the_summary_with_the_players_still_seated(players, table):
    round_ = _deal(players, table, 2)
    for rp in round_.players.select_related("user"):
        services.submit_arrangement(rp.user, round_.pk, naive_arrangement(rp.cards))
    _run_to_settlement(round_)
    table.refresh_from_db()
    assert table.start_at is not None
    assert services.start_round_when_due(table.pk, table.start_at.isoformat()) is None  # not yet
    table.start_at = timezone.now() - timedelta(seconds=1)
    table.save(update_fields=["start_at"])
    nxt = services.start_round_when_due(table.pk)
    assert nxt is not None
    assert nxt.number == 2


def test_the_round_log_records_disconnects_reconnects_and_joins(players, table):
    round_ = _deal(players, table, 2)
    first, second = uuid.uuid4(), uuid.uuid4()
    services.connected(players[1], table.pk, first)
    services.disconnected(players[1], table.pk, first)
    services.connected(players[1], table.pk, second)
    services.sit(players[2], table.pk)
    kinds = list(round_.events.values_list("kind", flat=True))
    assert kinds[-4:] == ["reconnect", "disconnect", "reconnect", "join"]
