"""The data migration that gives every existing arena schedule its owner
(tournaments/0003): from then on only the arena's tables deal it."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.apps import apps

from games.models import DuplicateSchedule
from games.services import duplicate
from tournaments.arena import services as arena

pytestmark = pytest.mark.django_db

migration = importlib.import_module("tournaments.migrations.0003_arena_schedules_owned")


def test_existing_arena_schedules_get_their_arena_as_owner_and_staffs_stay_open(
    make_user: Any,
) -> None:
    an = make_user("an")
    t = arena.create_arena(an, name="Cũ", minutes=3, buy_in=0)
    staff = duplicate.create_schedule(name="Giải mở", boards=2, created_by=an)
    DuplicateSchedule.objects.update(owner="")  # as the schedules were before owners existed
    migration.owned(apps, None)
    assert DuplicateSchedule.objects.get(pk=t.schedule_id).owner == arena.schedule_owner(t.pk)
    assert DuplicateSchedule.objects.get(pk=staff.pk).owner == ""
    migration.opened(apps, None)
    assert set(DuplicateSchedule.objects.values_list("owner", flat=True)) == {""}
