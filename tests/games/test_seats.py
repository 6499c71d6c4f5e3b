import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from accounts.services import suspend_user
from games import services
from games.errors import SeatError
from games.models import Seat

pytestmark = pytest.mark.django_db


def test_a_player_sits_in_the_first_free_seat_and_a_double_click_sits_once(players, table):
    first = services.sit(players[0], table.pk)
    again = services.sit(players[0], table.pk)
    assert first.pk == again.pk
    assert first.position == 0
    assert Seat.objects.filter(table=table).count() == 1


def test_a_player_sits_at_one_table_at_a_time(players, table):
    other = services.create_table(players[1], name="Bàn khác", stake=10)
    services.sit(players[0], table.pk)
    with pytest.raises(SeatError) as refused:
        services.sit(players[0], other.pk)
    assert refused.value.code == "already_seated"
    assert "Bàn thử" in refused.value.message


def test_a_suspended_player_cannot_sit(players, table):
    suspend_user(players[0], until=timezone.now() + timedelta(days=1), reason="spam")
    players[0].refresh_from_db()
    with pytest.raises(SeatError) as refused:
        services.sit(players[0], table.pk)
    assert refused.value.code == "suspended"


def test_a_player_below_the_minimum_balance_cannot_sit(players):
    rich_table = services.create_table(players[0], name="Bàn lớn", stake=1000)
    assert rich_table.min_balance == 20_000
    with pytest.raises(SeatError) as refused:
        services.sit(players[1], rich_table.pk)
    assert refused.value.code == "balance_too_low"
    assert "20000" in refused.value.message.replace(".", "").replace(",", "")


def test_a_taken_seat_cannot_be_taken_again(players, table):
    services.sit(players[0], table.pk, position=2)
    with pytest.raises(SeatError) as refused:
        services.sit(players[1], table.pk, position=2)
    assert refused.value.code == "seat_taken"


def test_a_full_table_says_so(players):
    small = services.create_table(players[0], name="Bàn đôi", stake=10, seats=2)
    services.sit(players[0], small.pk)
    services.sit(players[1], small.pk)
    with pytest.raises(SeatError) as refused:
        services.sit(players[2], small.pk)
    assert refused.value.code == "table_full"


def test_the_second_player_starts_the_countdown_and_standing_up_cancels_it(players, table):
    services.sit(players[0], table.pk)
    table.refresh_from_db()
    assert table.start_at is None
    services.sit(players[1], table.pk)
    table.refresh_from_db()
    assert table.start_at is not None
    services.stand(players[1])
    table.refresh_from_db()
    assert table.start_at is None


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_people_clicking_the_last_seat_one_wins_and_the_other_is_told(players):
    small = services.create_table(players[0], name="Bàn đôi", stake=10, seats=2)
    services.sit(players[0], small.pk)
    results: dict[str, object] = {}
    barrier = threading.Barrier(2)

    def click(user):  # type: ignore[no-untyped-def]
        barrier.wait()
        try:
            results[user.username] = services.sit(user, small.pk).position
        except SeatError as exc:
            results[user.username] = exc.code
        finally:
            connection.close()

    threads = [threading.Thread(target=click, args=(u,)) for u in players[1:3]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(map(str, results.values())) == ["1", "table_full"]
    assert Seat.objects.filter(table=small).count() == 2


def test_table_house_rules_outside_the_limits_are_refused(players):
    from games.errors import GameError

    with pytest.raises(GameError) as refused:
        services.create_table(players[0], name="Bàn lạ", stake=10, rules_overrides={"scoop_all": 9})
    assert refused.value.code == "bad_rules"
