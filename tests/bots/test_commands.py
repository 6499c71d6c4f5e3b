from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from bots import selectors, services
from bots.models import BotOnlyTable
from games.models import Seat, Table
from tests.bots.test_tidy_table import _settle
from tests.support.played import deal_when_due

pytestmark = pytest.mark.django_db


def test_seed_demo_tables_opens_the_bot_tables_once():
    call_command("seed_demo_tables", stdout=StringIO())
    call_command("seed_demo_tables", stdout=StringIO())
    tables = Table.objects.filter(allow_bots=True)
    assert tables.count() == 3
    assert all(t.rules.start_seconds == 5 for t in tables)


def test_start_bot_tables_seats_four_bots_at_each_table_and_starts_the_countdown():
    call_command("start_bot_tables", "--tables", "3", stdout=StringIO())
    tables = Table.objects.filter(bot_only__isnull=False)
    assert tables.count() == 3
    for table in tables:
        assert selectors.seated_bots(table).count() == 4
        assert table.start_at is not None  # no person needed to start


def test_bots_at_a_bot_only_table_are_never_away_and_play_on_alone():
    call_command("start_bot_tables", "--tables", "1", stdout=StringIO())
    table = Table.objects.get(bot_only__isnull=False)
    Seat.objects.filter(table=table).update(last_seen_at=timezone.now() - timedelta(hours=1))
    round_ = deal_when_due(table.pk)
    assert round_ is not None
    assert round_.players.count() == 4
    _settle(round_)
    assert services.tidy_table(table.pk) == []
    assert selectors.seated_bots(table).count() == 4


def test_stopping_bot_tables_closes_them_and_bots_leave_between_rounds():
    call_command("start_bot_tables", "--tables", "2", stdout=StringIO())
    call_command("start_bot_tables", "--stop", stdout=StringIO())
    assert not BotOnlyTable.objects.exists()
    for table in Table.objects.all():
        assert not table.is_open
        assert len(services.tidy_table(table.pk)) == 4
