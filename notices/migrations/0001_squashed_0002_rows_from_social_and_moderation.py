"""Notices (squashes 0001-0002; the steps are in git history)."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ('notices', '0001_notification'),
        ('notices', '0002_rows_from_social_and_moderation'),
    ]

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Notification',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('friend_request', 'Friend request'), ('friend_accepted', 'Friend request accepted'), ('table_invite', 'Invitation to a table'), ('case_filed', 'Case received'), ('case_claimed', 'Case in review'), ('case_resolved', 'Case resolved'), ('compensated', 'Compensation paid'), ('resettled', 'Round re-settled'), ('suspended', 'Account suspended'), ('suspension_lifted', 'Suspension lifted'), ('prizes_held', 'Tournament prizes under review'), ('prizes_released', 'Tournament prizes released'), ('buy_ins_returned', 'Tournament buy-ins returned')], max_length=20)),
                ('table_name', models.CharField(blank=True, default='', max_length=60)),
                ('url', models.CharField(blank=True, default='', max_length=300)),
                ('params', models.JSONField(blank=True, default=dict)),
                ('read_at', models.DateTimeField(blank=True, null=True)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('actor', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='notifications', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'notification',
                'verbose_name_plural': 'notifications',
                'ordering': ['-created_at', '-pk'],
                'indexes': [models.Index(fields=['user', 'read_at'], name='notices_unread_idx')],
                'constraints': [models.UniqueConstraint(condition=models.Q(('actor__isnull', False), ('read_at__isnull', True)), fields=('user', 'kind', 'actor'), name='notices_one_unread_per_actor')],
            },
        ),
    ]
