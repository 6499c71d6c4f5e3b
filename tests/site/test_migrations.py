"""A database migrated under the old migration names (the previous release, before the
squashes) is recognised as migrated through the squashes: only the migrations written since
are left to apply; and the models need no new migration."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder

# Every migration of our apps that a database at the previous release's end has applied,
# frozen here: a squash must keep answering for each of them (docs/deploy.md).
APPLIED_BEFORE_THE_SQUASHES = {
    "accounts": [
        "0001_initial",
        "0002_user_is_bot",
        "0003_user_sound_on",
        "0004_signup_address",
        "0005_name_keys",
        "0006_user_is_api_bot",
    ],
    "api": ["0001_initial"],
    "bots": ["0001_initial"],
    "chat": ["0001_table_talk"],
    "games": [
        "0001_initial",
        "0002_round_event_append_only",
        "0003_table_bot_wait_seconds",
        "0004_presence_from_expiring_connections",
        "0005_round_player_draft_and_auto_arranged",
        "0006_table_empty_since",
        "0007_private_tables_invites_and_seat_holds",
        "0008_round_ratings",
        "0009_duplicate_schedules_and_boards",
        "0009_table_stakes_in",
        "0010_merge_duplicate_and_stakes",
        "0011_table_start_at_pending",
        "0012_round_dealt_at_index",
        "0013_duplicate_schedule_owner_and_board_seen",
    ],
    "ledger": [
        "0001_initial",
        "0002_append_only_triggers",
        "0003_post_transfers_function",
        "0004_correct_balance_permission",
        "0005_posting_indexes_from_unique_constraints",
        "0006_compensation_and_resettlement_kinds",
        "0007_account_indexes_and_fillfactor",
        "0008_post_transfers_set_based",
        "0009_tournament_pools",
        "0010_transfer_optional_columns_partial_indexes",
        "0011_post_single_transfer_function",
        "0012_prize_holds",
    ],
    "moderation": [
        "0001_initial",
        "0002_staff_audit_append_only",
        "0003_moderator_limit",
        "0004_separation_of_duties",
        "0005_staff_action_refused_close_table",
        "0006_staff_action_void_round",
        "0007_staff_action_view_private_table",
        "0008_chat_evidence_and_staff_mute",
        "0009_staff_action_kinds_open_board_prizes",
        "0010_delete_notification",
    ],
    "notices": ["0001_notification", "0002_rows_from_social_and_moderation"],
    "practice": ["0001_daily_deals_and_attempts"],
    "profiles": ["0001_summary_and_avatars"],
    "ratings": ["0001_ratings_and_changes"],
    "social": [
        "0001_blocks",
        "0002_friends_and_notifications",
        "0003_coalesced_notices_and_send_limits",
        "0004_delete_notification",
    ],
    "tournaments": [
        "0001_initial",
        "0002_arena",
        "0003_arena_schedules_owned",
        "0004_progress_end_reason_voided",
    ],
}


def _newer(loader: MigrationLoader) -> set[tuple[str, str]]:
    """The migrations written since the squashes: neither an old name nor a squash."""
    return {
        key
        for key, migration in loader.disk_migrations.items()
        if key[0] in APPLIED_BEFORE_THE_SQUASHES
        and not migration.replaces
        and key[1] not in APPLIED_BEFORE_THE_SQUASHES[key[0]]
    }


def test_each_app_migration_on_disk_is_an_old_one_or_a_squash_of_exactly_the_old_ones() -> None:
    loader = MigrationLoader(None, ignore_no_migrations=True)
    newer = _newer(loader)
    for app, applied in APPLIED_BEFORE_THE_SQUASHES.items():
        on_disk = [
            m
            for (label, name), m in loader.disk_migrations.items()
            if label == app and (label, name) not in newer
        ]
        answered = [
            name
            for migration in on_disk
            for name in ([n for _, n in migration.replaces] or [migration.name])
        ]
        assert sorted(answered) == sorted(applied), app
        assert all(label == app for m in on_disk for label, _ in m.replaces), app
    # A migration written since comes after its app's squash (or its old last one).
    for app, name in newer:
        ancestors = loader.graph.forwards_plan((app, name))
        assert any(a == app and (a, n) not in newer for a, n in ancestors), (app, name)


@pytest.mark.django_db
def test_a_database_that_applied_the_old_migrations_has_nothing_left_to_apply() -> None:
    recorder = MigrationRecorder(connection)
    recorder.migration_qs.filter(app__in=APPLIED_BEFORE_THE_SQUASHES).delete()
    recorder.migration_qs.bulk_create(
        recorder.Migration(app=app, name=name)
        for app, names in APPLIED_BEFORE_THE_SQUASHES.items()
        for name in names
    )
    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    # Only what was written since the squashes is left to apply.
    assert {(m.app_label, m.name) for m, _backwards in plan} == _newer(executor.loader)
    squashes = executor.loader.replacements  # the squashes on disk, used or not
    assert squashes and all(key in executor.loader.applied_migrations for key in squashes)


@pytest.mark.django_db
def test_the_models_and_the_migrations_agree() -> None:
    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()
