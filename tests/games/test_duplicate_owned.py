"""A competition's schedule is its own (docs/duplicate.md, "Whose schedule"): an arena's
boards are dealt only at the arena's tables. No ordinary path (the lobby's form and its
POST, the staff commands, the services they call) offers or accepts it."""

from __future__ import annotations

import re
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from games import services
from games.errors import GameError
from games.forms import CreateTableForm
from games.models import DuplicateSchedule, Table
from games.services import duplicate
from tournaments.arena import services as arena
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def arena_of_an(people: list[Any], fixed_boards: None) -> Tournament:
    return arena.create_arena(people[0], name="Đấu trường của An", minutes=3, buy_in=100)


def _offered(page: str) -> set[int]:
    """The schedules the create form's "Duplicate deals" list offers."""
    select = re.search(r'<select name="duplicate_schedule".*?</select>', page, re.S)
    return {int(v) for v in re.findall(r'value="(\d+)"', select.group(0))} if select else set()


def test_an_arenas_schedule_belongs_to_the_arena(arena_of_an: Tournament) -> None:
    assert arena_of_an.schedule is not None
    assert arena_of_an.schedule.owner == f"tournament:{arena_of_an.pk}"


def test_the_lobby_form_never_offers_an_arenas_schedule(
    client: Any, people: list[Any], schedule: DuplicateSchedule, arena_of_an: Tournament
) -> None:
    client.force_login(people[3])
    offered = _offered(client.get(reverse("games:lobby")).content.decode())
    assert offered == {schedule.pk}  # staff's open schedule: yes; the arena's: never
    field = CreateTableForm().fields["duplicate_schedule"]
    assert list(field.queryset) == [schedule]  # type: ignore[attr-defined]


def test_an_outsider_cannot_open_a_table_on_an_arena_schedule_through_the_form(
    client: Any, people: list[Any], arena_of_an: Tournament
) -> None:
    client.force_login(people[3])
    response = client.post(
        reverse("games:create_table"),
        {
            "name": "Bàn của tôi",
            "preset": "portal",
            "stake": 10,
            "seats": 2,
            "allow_bots": "on",
            "sit_down": "on",
            "duplicate_schedule": arena_of_an.schedule_id,
        },
    )
    assert response.status_code == 400
    assert "thuộc về một cuộc thi" in response.content.decode()  # the form says why
    assert not Table.objects.filter(duplicate_schedule=arena_of_an.schedule_id).exists()
    assert not Table.objects.filter(name="Bàn của tôi").exists()


def test_the_table_service_refuses_a_competitions_schedule_to_anyone_else(
    people: list[Any], arena_of_an: Tournament
) -> None:
    schedule = arena_of_an.schedule
    assert schedule is not None
    for open_it in (services.create_table, services.open_table):
        with pytest.raises(GameError) as caught:
            open_it(people[3], name="Lén", stake=10, seats=2, duplicate_schedule=schedule)
        assert caught.value.code == "schedule_private"
    # Presenting another competition's key does not open it either.
    with pytest.raises(GameError) as caught:
        services.create_table(
            people[3], name="Lén", stake=10, duplicate_schedule=schedule,
            schedule_owner=f"tournament:{arena_of_an.pk + 1}",
        )  # fmt: skip
    assert caught.value.code == "schedule_private"
    assert not Table.objects.filter(duplicate_schedule=schedule).exists()


def test_a_competitions_table_deals_only_its_own_schedule(
    people: list[Any], schedule: DuplicateSchedule, arena_of_an: Tournament
) -> None:
    with pytest.raises(GameError) as caught:
        services.create_table(
            people[0], name="Nhầm", stake=10, duplicate_schedule=schedule,
            schedule_owner=f"tournament:{arena_of_an.pk}",
        )  # fmt: skip
    assert caught.value.code == "schedule_not_owned"


def test_the_duplicate_table_command_refuses_an_arena_schedule(
    people: list[Any], arena_of_an: Tournament
) -> None:
    with pytest.raises(CommandError, match="thuộc về một cuộc thi"):
        call_command(
            "duplicate", "table", str(arena_of_an.schedule_id), "--host", people[3].username,
            "--name", "Bàn lặp", "--stake", "10", "--seats", "2", "--bots", stdout=StringIO(),
        )  # fmt: skip
    assert not Table.objects.filter(duplicate_schedule=arena_of_an.schedule_id).exists()


def test_the_assign_command_cannot_bind_an_ordinary_table_to_an_arena_schedule(
    people: list[Any], arena_of_an: Tournament
) -> None:
    schedule = arena_of_an.schedule
    assert schedule is not None
    # An ordinary table with the arena's very rules (else "rules differ" would stop it).
    table = services.create_table(
        people[3], name="Bàn thường", stake=10, seats=2,
        preset=schedule.preset, rules_overrides=schedule.rules_overrides,
    )  # fmt: skip
    with pytest.raises(CommandError, match="thuộc về một cuộc thi"):
        call_command("duplicate", "assign", str(table.pk), str(schedule.pk), "1", stdout=StringIO())
    with pytest.raises(GameError) as caught:
        duplicate.assign_board(table.pk, schedule.pk, None)
    assert caught.value.code == "schedule_private"
    table.refresh_from_db()
    assert table.duplicate_schedule_id is None and table.next_board is None


def test_staffs_open_schedules_stay_open_to_every_ordinary_table(
    people: list[Any], schedule: DuplicateSchedule, arena_of_an: Tournament
) -> None:
    table = services.create_table(people[3], name="Lặp", stake=10, duplicate_schedule=schedule)
    assert table.duplicate_schedule_id == schedule.pk
    out = StringIO()
    call_command("duplicate", "assign", str(table.pk), str(schedule.pk), "2", stdout=out)
    table.refresh_from_db()
    assert table.next_board == 2


def test_the_schedule_page_says_an_arena_schedule_is_the_arenas_own(
    client: Any, people: list[Any], schedule: DuplicateSchedule, arena_of_an: Tournament
) -> None:
    client.force_login(people[3])
    url = reverse("games:duplicate_schedule", kwargs={"schedule_id": arena_of_an.schedule_id})
    page = client.get(url).content.decode()
    assert 'data-testid="schedule-owned"' in page
    assert 'name="duplicate_schedule"' not in page  # nothing here opens a table on it
    url = reverse("games:duplicate_schedule", kwargs={"schedule_id": schedule.pk})
    assert 'data-testid="schedule-owned"' not in client.get(url).content.decode()
