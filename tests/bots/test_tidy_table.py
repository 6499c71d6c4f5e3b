import pytest

from bots import selectors, services
from games import services as games
from games.errors import SeatError
from games.models import RoundState
from ledger.models import Transfer, TransferKind
from ledger.selectors import balance
from tests.support.played import run_timers

pytestmark = pytest.mark.django_db


@pytest.fixture
def full(person, bot_table):  # type: ignore[no-untyped-def]
    games.sit(person, bot_table.pk)
    services.fill_table(bot_table.pk, [person.pk])
    return bot_table


def _settle(round_):  # type: ignore[no-untyped-def]
    for player in round_.players.filter(user__is_bot=True):
        services.play_turn(round_.pk, player.user_id, round_.phase)
    if run_timers(round_, steps=8).state != RoundState.SETTLED:
        raise AssertionError("the round did not settle")


def test_bots_leave_when_the_last_person_has_left(person, full):
    games.stand(person)
    left = services.tidy_table(full.pk)
    assert len(left) == 3
    assert full.seat_set.count() == 0


def test_bots_never_leave_mid_round_but_do_once_it_is_settled(person, full):
    round_ = games.start_round(person, full.pk)
    games.stand(person)  # the person forfeits; the bots play on
    assert services.tidy_table(full.pk) == []
    assert selectors.seated_bots(full).count() == 3
    _settle(round_)
    assert len(services.tidy_table(full.pk)) == 3


def test_a_person_refused_mid_round_gets_a_bots_seat_when_the_round_ends(person, make_user, full):
    round_ = games.start_round(person, full.pk)
    newcomer = make_user("binh")
    with pytest.raises(SeatError) as refused:
        games.sit(newcomer, full.pk)
    assert refused.value.code == "table_full_bots"
    _settle(round_)
    assert len(services.tidy_table(full.pk)) == 1
    assert services.fill_table(full.pk, selectors.seated_user_ids(full)) == []  # room is kept
    games.sit(newcomer, full.pk)
    assert selectors.seated_people(full).count() == 2


def test_bots_that_stay_are_topped_up_for_the_next_round(person, full):
    bot = selectors.seated_bots(full).first().user
    games.stand(person)
    games.sit(person, full.pk)  # still a person here: the bots stay
    topups = Transfer.objects.filter(kind=TransferKind.BOT_TOPUP, credit__user=bot)
    before = topups.count()
    # The table now asks more than the bot holds (as after a run of lost rounds).
    full.min_balance = balance(bot) + 1
    full.save(update_fields=["min_balance"])
    services.tidy_table(full.pk)
    assert balance(bot) >= full.min_balance
    assert topups.count() == before + 1


def test_the_last_person_leaving_sends_the_bots_away_through_a_task(
    person, full, queued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        games.stand(person)
    assert queued.named("bots.tidy_table") == [((full.pk,), {})]
    assert queued.named("bots.fill_table") == []


def test_a_settled_round_tidies_the_table_for_the_next_deal(
    person, full, queued, django_capture_on_commit_callbacks
):
    round_ = games.start_round(person, full.pk)
    with django_capture_on_commit_callbacks(execute=True):
        _settle(round_)
    assert queued.named("bots.tidy_table") == [((full.pk,), {})]
