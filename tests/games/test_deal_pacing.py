"""Deal pacing: tables whose rounds end together deal one a turn, not all at once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from games import services
from games.models import Table
from games.services.countdown import deal_rate, forget_live_tables, set_start

pytestmark = pytest.mark.django_db(transaction=True)


def _tables(hosts: list[Any], n: int) -> list[Table]:
    return [
        services.create_table(hosts[i % len(hosts)], name=f"Bàn {i}", stake=10) for i in range(n)
    ]


def _start(table: Table, when: datetime) -> datetime:
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        set_start(locked, when)
    table.refresh_from_db()
    assert table.start_at is not None
    return table.start_at


def test_tables_due_at_once_deal_a_turn_at_a_time_when_the_site_paces_its_deals(
    players: list[Any], settings: Any
) -> None:
    settings.DEALS_PER_SECOND = 8  # turns of 250 ms with room for 2
    when = datetime(2030, 1, 1, 12, 0, 0, 30_000, tzinfo=UTC)
    starts = [_start(t, when) for t in _tables(players, 5)]
    turn = timedelta(milliseconds=250)
    after = datetime(2030, 1, 1, 12, 0, 0, tzinfo=UTC) + turn  # the turn after when's
    assert starts == [when, when, after, after, after + turn]


def test_a_site_that_does_not_pace_deals_every_table_on_time(
    players: list[Any], settings: Any
) -> None:
    settings.DEALS_PER_SECOND = 0
    when = datetime(2030, 1, 1, 12, 0, 0, tzinfo=UTC)
    assert {_start(t, when) for t in _tables(players, 3)} == {when}


def _late_tables(make_user: Any, n: int, moment: datetime) -> list[Table]:
    """``n`` tables of two seated players each, whose countdown ran out two seconds before
    ``moment`` (their timers are late)."""
    tables = []
    for i in range(n):
        host, guest = make_user(f"late{i}a"), make_user(f"late{i}b")
        table = services.create_table(host, name=f"Bàn muộn {i}", stake=10)
        services.sit(host, table.pk)
        services.sit(guest, table.pk)
        Table.objects.filter(pk=table.pk).update(start_at=moment - timedelta(seconds=2))
        tables.append(table)
    return tables


def _pin_now(monkeypatch: pytest.MonkeyPatch, moment: datetime) -> None:
    monkeypatch.setattr(timezone, "now", lambda: moment)


def _a_turn_begun_just_now() -> tuple[datetime, timedelta]:
    """The start of the current 250 ms turn (at 8 deals a second), and a turn's length."""
    turn = timedelta(milliseconds=250)
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    return epoch + ((timezone.now() - epoch) // turn) * turn, turn


def test_late_timers_of_a_paced_site_deal_a_turn_at_a_time_not_all_at_once(
    make_user: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.DEALS_PER_SECOND = 8  # turns of 250 ms with room for 2
    begun, turn = _a_turn_begun_just_now()
    moment = begun + timedelta(milliseconds=10)
    tables = _late_tables(make_user, 3, moment)
    _pin_now(monkeypatch, moment)  # a worker that fell behind runs three due timers at once
    dealt = [services.start_round_when_due(t.pk) for t in tables]
    assert [r is not None for r in dealt] == [True, True, False]
    waiting = Table.objects.get(pk=tables[2].pk)
    assert waiting.start_at == begun + turn  # its countdown moved to the next turn with room
    assert not waiting.rounds.exists()
    # Its new timer, on time in that turn, deals.
    _pin_now(monkeypatch, begun + turn + timedelta(milliseconds=5))
    assert services.start_round_when_due(tables[2].pk, waiting.start_at.isoformat()) is not None


def test_the_sweeper_deals_the_late_tables_it_finds_a_turn_at_a_time(
    make_user: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.DEALS_PER_SECOND = 8
    begun, turn = _a_turn_begun_just_now()
    moment = begun + timedelta(milliseconds=10)
    tables = _late_tables(make_user, 5, moment)
    _pin_now(monkeypatch, moment)
    assert services.sweep_due_rounds(now=moment) == 2
    starts = sorted(
        Table.objects.filter(pk__in=[t.pk for t in tables], start_at__isnull=False).values_list(
            "start_at", flat=True
        )
    )
    assert starts == [begun + turn, begun + turn, begun + 2 * turn]


def test_a_site_that_does_not_pace_deals_every_late_table_at_once(
    make_user: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.DEALS_PER_SECOND = 0
    moment = timezone.now()
    tables = _late_tables(make_user, 3, moment)
    _pin_now(monkeypatch, moment)
    assert all(services.start_round_when_due(t.pk) is not None for t in tables)


def _seated_tables(make_user: Any, n: int, seated: int, tag: str) -> None:
    for i in range(n):
        people = [make_user(f"{tag}{i}p{j}") for j in range(seated)]
        table = services.create_table(people[0], name=f"Bàn {tag} {i}", stake=10)
        for person in people:
            services.sit(person, table.pk)


def test_a_site_that_sets_no_rate_paces_at_what_its_live_tables_can_ask_for(
    make_user: Any, settings: Any
) -> None:
    settings.DEALS_PER_SECOND = None  # unset: adaptive, the shipped default
    settings.TABLE_SUMMARY_SECONDS = 3
    settings.DEAL_PACING_MIN_RATE = 1.0
    forget_live_tables()
    assert deal_rate() == 1.0  # no table plays: the floor
    _seated_tables(make_user, 6, 2, "hai")  # six tables that deal
    _seated_tables(make_user, 3, 1, "mot")  # three with one seated: they do not deal
    forget_live_tables()
    assert deal_rate() == 2.0  # 6 tables, a deal each every 3 s at most
    _seated_tables(make_user, 6, 2, "nua")
    assert deal_rate() == 2.0  # counted again only after LIVE_TABLES_TTL (tests/conftest.py)
    forget_live_tables()
    assert deal_rate() == 4.0


def test_with_no_rate_set_tables_due_at_once_still_deal_a_turn_at_a_time(
    players: list[Any], settings: Any
) -> None:
    settings.DEALS_PER_SECOND = None
    settings.DEAL_PACING_MIN_RATE = 8.0  # no live table: the floor, turns with room for 2
    forget_live_tables()
    when = datetime(2030, 1, 1, 12, 0, 0, 30_000, tzinfo=UTC)
    starts = [_start(t, when) for t in _tables(players, 3)]
    after = datetime(2030, 1, 1, 12, 0, 0, tzinfo=UTC) + timedelta(milliseconds=250)
    assert starts == [when, when, after]


def test_rounds_that_end_together_count_down_to_deals_a_turn_apart(
    make_user: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A round's end reads the seats taken and the other tables' deals in one statement
    # (games.selectors.tables.seated_and_starts): the countdown it starts is paced on them.
    from games.services import countdown

    settings.DEALS_PER_SECOND = 8  # turns of 250 ms with room for 2
    ended = datetime(2030, 1, 1, 12, 0, 0, 30_000, tzinfo=UTC)
    monkeypatch.setattr(countdown.timezone, "now", lambda: ended)
    tables = []
    for i in range(5):
        host, guest = make_user(f"end{i}a"), make_user(f"end{i}b")
        table = services.create_table(host, name=f"Bàn xong {i}", stake=10)
        services.sit(host, table.pk)
        services.sit(guest, table.pk)
        tables.append(table)
    Table.objects.filter(pk__in=[t.pk for t in tables]).update(start_at=None)
    starts = []
    for table in tables:
        with transaction.atomic():
            locked = Table.objects.select_for_update().get(pk=table.pk)
            countdown.round_over(locked, {"type": "voided", "round": 0})
        table.refresh_from_db()
        starts.append(table.start_at)
    when = ended + timedelta(seconds=countdown.SUMMARY_SECONDS)
    turn = timedelta(milliseconds=250)
    after = datetime(2030, 1, 1, 12, 0, 12, tzinfo=UTC) + turn  # the turn after when's
    assert starts == [when, when, after, after, after + turn]
