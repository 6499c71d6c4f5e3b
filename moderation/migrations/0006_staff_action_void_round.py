# The void_round action (faults) after the separation-of-duty actions (sec).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('moderation', '0005_staff_action_refused_close_table'),
    ]

    operations = [
        migrations.AlterField(
            model_name='staffaction',
            name='action',
            field=models.CharField(choices=[('claim', 'Claimed a case'), ('resolve', 'Resolved a case'), ('view_replay', 'Viewed a round replay'), ('compensate', 'Paid a compensation'), ('request_compensation', 'Asked for approval of a compensation'), ('approve_compensation', 'Approved a compensation'), ('reject_compensation', 'Rejected a compensation'), ('resettle', 'Re-settled a round'), ('suspend', 'Suspended a user'), ('lift_suspension', 'Lifted a suspension'), ('set_limit', "Set a moderator's compensation limit"), ('void_round', 'Voided a round'), ('refused', 'Was refused an action'), ('close_table', 'Closed a table')], max_length=24, verbose_name='action'),
        ),
    ]
