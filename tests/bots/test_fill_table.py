import pytest

from bots import selectors, services
from bots.models import Bot
from games import services as games
from games.models import Seat
from games.selectors import table_snapshot
from ledger.selectors import balance

pytestmark = pytest.mark.django_db


def test_bots_fill_every_free_seat_after_a_person_waited_alone(person, bot_table):
    games.sit(person, bot_table.pk)
    seated = services.fill_table(bot_table.pk, [person.pk])
    assert len(seated) == 3
    assert bot_table.seat_set.count() == 4
    for seat in seated:
        assert seat.user.is_bot
        assert balance(seat.user) >= services.needed_balance(bot_table)


def test_seats_show_bots_with_a_badge_their_difficulty_and_always_online(person, bot_table):
    games.sit(person, bot_table.pk)
    services.fill_table(bot_table.pk, [person.pk])
    seats = table_snapshot(bot_table, person)["seats"]
    people = [s for s in seats if not s["is_bot"]]
    bots = [s for s in seats if s["is_bot"]]
    assert [s["user"] for s in people] == [person.pk]
    assert people[0]["difficulty"] is None
    assert len(bots) == 3
    assert all(s["difficulty"] in {"easy", "normal"} and s["online"] for s in bots)
    assert all(s["name"] in services.BOT_NAMES for s in bots)


def test_bots_do_not_come_when_someone_arrived_or_left_since_the_wait_began(
    person, make_user, bot_table
):
    games.sit(person, bot_table.pk)
    games.sit(make_user("binh"), bot_table.pk)
    assert services.fill_table(bot_table.pk, [person.pk]) == []
    assert bot_table.seat_set.count() == 2


def test_bots_do_not_sit_at_tables_that_do_not_allow_them(person):
    table = games.create_table(person, name="Chỉ người", stake=10)
    games.sit(person, table.pk)
    assert services.fill_table(table.pk, [person.pk]) == []


def test_bots_do_not_sit_at_an_empty_table(bot_table):
    assert services.fill_table(bot_table.pk, []) == []


def test_free_bots_are_reused_before_new_ones_are_made(person, make_user, bot_table):
    idle = [services.create_bot() for _ in range(3)]
    games.sit(person, bot_table.pk)
    services.fill_table(bot_table.pk, [person.pk])
    assert Bot.objects.count() == 3
    assert {s.user_id for s in selectors.seated_bots(bot_table)} == {b.user_id for b in idle}


def test_a_person_sitting_schedules_bots_after_the_table_wait(
    person, bot_table, queued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        games.sit(person, bot_table.pk)
    [(args, options)] = queued.named("bots.fill_table")
    assert args == (bot_table.pk, [person.pk])
    assert options["countdown"] == bot_table.bot_wait_seconds


def test_a_person_takes_the_seat_of_a_bot_that_is_not_playing(person, make_user, bot_table):
    games.sit(person, bot_table.pk)
    services.fill_table(bot_table.pk, [person.pk])
    newcomer = make_user("binh")
    seat = games.sit(newcomer, bot_table.pk)
    assert Seat.objects.get(user=newcomer) == seat
    assert selectors.seated_bots(bot_table).count() == 2


def test_the_snapshot_says_when_bots_take_the_free_seats(person, bot_table) -> None:  # type: ignore[no-untyped-def]
    # Issue 25 item 10: a wait that remains is counted down on the table page.
    from datetime import datetime, timedelta

    games.sit(person, bot_table.pk)
    joined = Seat.objects.get(user=person).joined_at
    info = table_snapshot(bot_table, person)["info"]
    assert datetime.fromisoformat(info["bots_at"]) == joined + timedelta(seconds=1)
    services.fill_table(bot_table.pk, [person.pk])
    bot_table.refresh_from_db()
    assert table_snapshot(bot_table, person)["info"]["bots_at"] is None  # seated: none to come
