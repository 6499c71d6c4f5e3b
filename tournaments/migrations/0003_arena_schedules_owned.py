"""Every arena's schedule belongs to its arena (``DuplicateSchedule.owner``): from now on
only the arena's own tables deal it (docs/duplicate.md). The key is
``tournaments.arena.services.schedule_owner``'s, written out: a migration keeps what it did."""

from typing import Any

from django.db import migrations


def owned(apps: Any, schema_editor: Any) -> None:
    Tournament = apps.get_model("tournaments", "Tournament")
    DuplicateSchedule = apps.get_model("games", "DuplicateSchedule")
    for tournament_id, schedule_id in Tournament.objects.filter(
        schedule__isnull=False
    ).values_list("pk", "schedule_id"):
        DuplicateSchedule.objects.filter(pk=schedule_id).update(owner=f"tournament:{tournament_id}")


def opened(apps: Any, schema_editor: Any) -> None:
    DuplicateSchedule = apps.get_model("games", "DuplicateSchedule")
    DuplicateSchedule.objects.filter(owner__startswith="tournament:").update(owner="")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_duplicate_schedule_owner_and_board_seen"),
        ("tournaments", "0002_arena"),
    ]

    operations = [migrations.RunPython(owned, opened)]
