"""Separation of duties: limits in xu set by another admin; nobody paid by their own case."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def forget_limits_in_stakes(apps, schema_editor):
    # A limit in stakes scaled with the table a moderator chose; the xu defaults apply
    # until an admin sets a new one.
    apps.get_model("moderation", "ModeratorLimit").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0003_moderator_limit"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(forget_limits_in_stakes, migrations.RunPython.noop),
        migrations.RemoveField(model_name="moderatorlimit", name="stakes"),
        migrations.AddField(
            model_name="moderatorlimit",
            name="per_payment",
            field=models.PositiveBigIntegerField(verbose_name="limit per payment (xu)", default=0),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="moderatorlimit",
            name="per_day",
            field=models.PositiveBigIntegerField(verbose_name="limit per 24 hours (xu)", default=0),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="moderatorlimit",
            name="set_by",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
                verbose_name="set by",
                null=True,
            ),
        ),
        migrations.AlterField(
            model_name="moderatorlimit",
            name="set_by",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
                verbose_name="set by",
            ),
        ),
        migrations.AddField(
            model_name="moderatorlimit",
            name="set_at",
            field=models.DateTimeField(auto_now=True, verbose_name="set"),
        ),
        migrations.AddConstraint(
            model_name="moderatorlimit",
            constraint=models.CheckConstraint(
                condition=models.Q(("set_by", models.F("moderator")), _negated=True),
                name="moderation_limit_not_own",
            ),
        ),
        migrations.AddConstraint(
            model_name="compensation",
            constraint=models.CheckConstraint(
                condition=models.Q(("recipient", models.F("requested_by")), _negated=True),
                name="moderation_not_paid_by_own_request",
            ),
        ),
        migrations.AddConstraint(
            model_name="compensation",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("decided_by__isnull", True),
                    models.Q(("decided_by", models.F("recipient")), _negated=True),
                    _connector="OR",
                ),
                name="moderation_not_paid_by_own_decision",
            ),
        ),
        migrations.AddConstraint(
            model_name="dispute",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("moderator__isnull", True),
                    models.Q(
                        models.Q(("moderator", models.F("filed_by")), _negated=True),
                        models.Q(
                            ("reported_user__isnull", True),
                            models.Q(("moderator", models.F("reported_user")), _negated=True),
                            _connector="OR",
                        ),
                    ),
                    _connector="OR",
                ),
                name="moderation_not_own_case",
            ),
        ),
    ]
