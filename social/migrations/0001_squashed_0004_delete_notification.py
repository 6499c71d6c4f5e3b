"""Blocks, friends and send limits (squashes 0001-0004; the steps are in git history)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ('social', '0001_blocks'),
        ('social', '0002_friends_and_notifications'),
        ('social', '0003_coalesced_notices_and_send_limits'),
        ('social', '0004_delete_notification'),
    ]

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Block',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                ('blocked', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='blocks_received', to=settings.AUTH_USER_MODEL, verbose_name='blocked user')),
                ('blocker', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='blocks_made', to=settings.AUTH_USER_MODEL, verbose_name='blocker')),
            ],
            options={
                'verbose_name': 'block',
                'verbose_name_plural': 'blocks',
                'constraints': [models.UniqueConstraint(fields=('blocker', 'blocked'), name='block_unique_pair'), models.CheckConstraint(condition=models.Q(('blocker', models.F('blocked')), _negated=True), name='block_not_self')],
            },
        ),
        migrations.CreateModel(
            name='FriendRequest',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                ('from_user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='friend_requests_sent', to=settings.AUTH_USER_MODEL, verbose_name='from')),
                ('to_user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='friend_requests_received', to=settings.AUTH_USER_MODEL, verbose_name='to')),
            ],
            options={
                'verbose_name': 'friend request',
                'verbose_name_plural': 'friend requests',
                'constraints': [models.UniqueConstraint(fields=('from_user', 'to_user'), name='friend_request_unique'), models.CheckConstraint(condition=models.Q(('from_user', models.F('to_user')), _negated=True), name='friend_request_not_self')],
            },
        ),
        migrations.CreateModel(
            name='Friendship',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                ('user_high', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('user_low', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'friendship',
                'verbose_name_plural': 'friendships',
                'constraints': [models.UniqueConstraint(fields=('user_low', 'user_high'), name='friendship_unique'), models.CheckConstraint(condition=models.Q(('user_low__lt', models.F('user_high'))), name='friendship_ordered')],
            },
        ),
        migrations.CreateModel(
            name='Sent',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('friend_request', 'Friend request'), ('table_invite', 'Invitation to a table')], max_length=20)),
                ('created_at', models.DateTimeField()),
                ('sender', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'request or invitation sent',
                'verbose_name_plural': 'requests and invitations sent',
                'indexes': [models.Index(fields=['sender', 'kind', 'created_at'], name='social_sent_idx')],
            },
        ),
    ]
