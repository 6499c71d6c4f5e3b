"""The data migration notices/0002: the rows of the two old tables (social's and
moderation's ``Notification``) move into the one model, with their dates, read marks,
senders, links and, for moderation's, the case as a number and a link."""

from __future__ import annotations

import importlib
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from moderation.models import Dispute
from notices.models import Notification

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]  # DDL inside the test's transaction

migration = importlib.import_module("notices.migrations.0002_rows_from_social_and_moderation")
BEFORE = [
    ("notices", "0001_notification"),
    ("social", "0003_coalesced_notices_and_send_limits"),
    ("moderation", "0009_staff_action_kinds_open_board_prizes"),
]


def _old_tables() -> Any:
    """The apps as they were before the move, with the two old tables made again."""
    old = MigrationExecutor(connection).loader.project_state(BEFORE).apps
    with connection.schema_editor() as editor:
        editor.create_model(old.get_model("social", "Notification"))
        editor.create_model(old.get_model("moderation", "Notification"))
    return old


def test_both_old_tables_move_into_the_one_model_in_the_order_they_were_sent(
    make_user: Any,
) -> None:
    an, binh = make_user("an"), make_user("binh")
    case = Dispute.objects.create(kind="report", filed_by=an, reported_user=binh, category="other")
    old = _old_tables()
    social = old.get_model("social", "Notification")
    moderation = old.get_model("moderation", "Notification")
    hour_ago, now = timezone.now() - timedelta(hours=1), timezone.now()
    invite = social.objects.create(
        user_id=an.pk, kind="table_invite", actor_id=binh.pk, table_name="Bàn hai", url="/t/"
    )
    social.objects.filter(pk=invite.pk).update(created_at=now)
    filed = moderation.objects.create(user_id=an.pk, kind="case_filed", dispute_id=case.pk)
    moderation.objects.filter(pk=filed.pk).update(created_at=hour_ago, read_at=now)
    moderation.objects.create(user_id=binh.pk, kind="resettled", params={"round": 7, "change": -5})

    migration.forwards(old, None)

    first, second, third = Notification.objects.order_by("pk")
    assert (first.kind, first.url, first.params, first.read_at) == (
        "case_filed", f"/moderation/cases/{case.pk}/", {"case": case.pk}, now
    )  # fmt: skip
    assert first.created_at == hour_ago
    assert (second.kind, second.actor, second.table_name, second.url) == (
        "table_invite", binh, "Bàn hai", "/t/"
    )  # fmt: skip
    assert second.created_at == now and second.read_at is None
    assert (third.user, third.kind, third.params, third.url) == (
        binh, "resettled", {"round": 7, "change": -5}, ""
    )  # fmt: skip
    assert f"#{case.pk}" in first.message and "Bàn hai" in second.message
