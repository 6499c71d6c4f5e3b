import pytest

from bots import services
from games import services as games
from games.errors import SeatError
from games.models import Seat, Table

pytestmark = pytest.mark.django_db


def test_quick_play_opens_a_bot_table_the_player_can_afford_and_seats_them(person):
    table = services.quick_play(person)
    assert table.allow_bots
    assert table.stake == services.QUICK_PLAY_STAKES[0]
    assert Seat.objects.get(user=person).table == table


def test_quick_play_seats_bots_and_deals_at_once_without_a_countdown(person):
    # docs/rules.md: a quick-play table (one person and the site's bots) waits for nobody.
    from bots import selectors
    from games.models import Round, RoundState

    table = services.quick_play(person)
    table.refresh_from_db()
    assert selectors.seated_bots(table).count() == table.seats - 1
    round_ = Round.objects.get(table=table)
    assert round_.state == RoundState.ARRANGING
    assert round_.players.filter(user=person).exists()
    assert round_.players.count() == table.seats
    assert table.start_at is None  # dealt: no countdown left to wait for


def _deal_due_in(table: Table, seconds: float) -> None:
    from datetime import timedelta

    from django.utils import timezone

    Table.objects.filter(pk=table.pk).update(start_at=timezone.now() + timedelta(seconds=seconds))


def test_quick_play_never_seats_a_player_to_wait_for_someone_elses_deal(
    person, make_user, bot_table
):
    # Issue 25 item 10: cards within seconds of the click. A table with a person waiting,
    # even one about to deal, would restart its countdown for the newcomer (docs/rules.md):
    # quick play opens a new table, dealt at once (Vào nhanh joins people).
    games.sit(person, bot_table.pk)
    _deal_due_in(bot_table, 1)
    table = services.quick_play(make_user("binh"))
    assert table != bot_table
    assert table.rounds.filter(state="arranging").exists()


def test_quick_play_returns_the_table_a_player_already_sits_at(person, bot_table):
    games.sit(person, bot_table.pk)
    assert services.quick_play(person) == bot_table


def test_quick_play_skips_tables_too_rich_for_the_player(person, make_user):
    rich = games.create_table(person, name="Bàn lớn", stake=5000, allow_bots=True)
    table = services.quick_play(person)
    assert table != rich


def test_quick_play_with_too_little_xu_says_how_much_is_needed(make_user):
    poor = make_user("binh")
    from ledger.models import Account

    Account.objects.filter(user=poor).update(balance=5)
    with pytest.raises(SeatError) as refused:
        services.quick_play(poor)
    assert refused.value.code == "balance_too_low"
    assert "20" in refused.value.message


def test_a_bots_refusal_reads_in_vietnamese(make_user):
    from django.utils import translation

    from ledger.models import Account

    poor = make_user("binh")
    Account.objects.filter(user=poor).update(balance=5)
    with translation.override("vi"), pytest.raises(SeatError) as refused:
        services.quick_play(poor)
    with translation.override("vi"):
        assert refused.value.message.startswith("Bạn cần ít nhất 20 xu")


def test_quick_play_does_not_wait_on_a_full_bot_table_in_the_middle_of_a_round(
    person, make_user, bot_table
):
    games.sit(person, bot_table.pk)
    services.fill_table(bot_table.pk, [person.pk])
    games.start_round(person, bot_table.pk)
    table = services.quick_play(make_user("binh"))
    assert table != bot_table


def test_quick_play_chooses_another_table_than_one_where_someone_kept_apart_sits(
    person, make_user, bot_table
):
    from social import services as social

    games.sit(person, bot_table.pk)  # people wait here: quick play would choose it first
    other = make_user("binh")
    social.block_user(person, other)
    table = services.quick_play(other)
    assert table != bot_table
    assert Seat.objects.get(user=other).table == table
