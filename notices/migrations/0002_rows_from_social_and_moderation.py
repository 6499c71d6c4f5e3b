"""The notices of the two old tables (social.Notification, moderation.Notification) move
here, dates and read marks kept; the next migrations of social and moderation drop them.

A moderation notice's case becomes ``params["case"]`` and its link the case's page."""

from django.db import migrations

BATCH = 2000


def _case_page(case_id):
    return f"/moderation/cases/{case_id}/"


def forwards(apps, schema_editor):
    Notice = apps.get_model("notices", "Notification")
    Social = apps.get_model("social", "Notification")
    Moderation = apps.get_model("moderation", "Notification")
    rows = []
    for old in Social.objects.order_by("pk").iterator(chunk_size=BATCH):
        rows.append(Notice(user_id=old.user_id, kind=old.kind, actor_id=old.actor_id,
                           table_name=old.table_name, url=old.url, params={},
                           read_at=old.read_at, created_at=old.created_at))  # fmt: skip
    for old in Moderation.objects.order_by("pk").iterator(chunk_size=BATCH):
        params = dict(old.params or {})
        url = ""
        if old.dispute_id is not None:
            params = {"case": old.dispute_id, **params}
            url = _case_page(old.dispute_id)
        rows.append(Notice(user_id=old.user_id, kind=old.kind, url=url, params=params,
                           read_at=old.read_at, created_at=old.created_at))  # fmt: skip
    rows.sort(key=lambda row: row.created_at)  # ids in the order the notices were sent
    Notice.objects.bulk_create(rows, batch_size=BATCH)


def backwards(apps, schema_editor):
    Notice = apps.get_model("notices", "Notification")
    Social = apps.get_model("social", "Notification")
    Moderation = apps.get_model("moderation", "Notification")
    social_kinds = {"friend_request", "friend_accepted", "table_invite"}
    for row in Notice.objects.order_by("pk").iterator(chunk_size=BATCH):
        if row.kind in social_kinds:
            made = Social.objects.create(user_id=row.user_id, kind=row.kind, actor_id=row.actor_id,
                                         table_name=row.table_name, url=row.url, read_at=row.read_at)  # fmt: skip
            Social.objects.filter(pk=made.pk).update(created_at=row.created_at)  # auto_now_add there
        else:
            params = dict(row.params)
            case = params.pop("case", None)
            made = Moderation.objects.create(user_id=row.user_id, kind=row.kind, dispute_id=case,
                                             params=params, read_at=row.read_at)  # fmt: skip
            Moderation.objects.filter(pk=made.pk).update(created_at=row.created_at)
    Notice.objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("notices", "0001_notification"),
        ("social", "0003_coalesced_notices_and_send_limits"),
        ("moderation", "0009_staff_action_kinds_open_board_prizes"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
