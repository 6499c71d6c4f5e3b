"""Tables, rounds and duplicate boards (squashes 0001-0013; the steps are in git history).

The round event log (the hand history and the moderators' replay) and the boards a
player has seen are append-only (core.dbguards)."""

import django.core.validators
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from core.dbguards import append_only


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ('games', '0001_initial'),
        ('games', '0002_round_event_append_only'),
        ('games', '0003_table_bot_wait_seconds'),
        ('games', '0004_presence_from_expiring_connections'),
        ('games', '0005_round_player_draft_and_auto_arranged'),
        ('games', '0006_table_empty_since'),
        ('games', '0007_private_tables_invites_and_seat_holds'),
        ('games', '0008_round_ratings'),
        ('games', '0009_duplicate_schedules_and_boards'),
        ('games', '0009_table_stakes_in'),
        ('games', '0010_merge_duplicate_and_stakes'),
        ('games', '0011_table_start_at_pending'),
        ('games', '0012_round_dealt_at_index'),
        ('games', '0013_duplicate_schedule_owner_and_board_seen'),
    ]

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='DuplicateSchedule',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=60, verbose_name='name')),
                ('preset', models.CharField(choices=[('portal', 'Portal (default)'), ('classic', 'Classic')], max_length=16, verbose_name='rules preset')),
                ('rules_overrides', models.JSONField(blank=True, default=dict, verbose_name='house rules')),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('closed_at', models.DateTimeField(blank=True, null=True)),
                ('owner', models.CharField(blank=True, default='', max_length=40, verbose_name='owner')),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'duplicate schedule',
                'verbose_name_plural': 'duplicate schedules',
            },
        ),
        migrations.CreateModel(
            name='DuplicateBoard',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveIntegerField()),
                ('seed', models.CharField(max_length=64)),
                ('seed_hash', models.CharField(max_length=64)),
                ('client_seed', models.CharField(max_length=64)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('revealed_at', models.DateTimeField(blank=True, null=True)),
                ('schedule', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='boards', to='games.duplicateschedule')),
            ],
            options={
                'ordering': ['schedule', 'number'],
            },
        ),
        migrations.CreateModel(
            name='Round',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveIntegerField()),
                ('state', models.CharField(choices=[('arranging', 'arranging'), ('showdown', 'showdown'), ('settled', 'settled'), ('cancelled', 'cancelled')], max_length=16)),
                ('phase', models.PositiveIntegerField(default=0)),
                ('revealed', models.PositiveSmallIntegerField(default=0)),
                ('dealt_version', models.PositiveBigIntegerField(default=0)),
                ('rules_json', models.JSONField()),
                ('stake', models.PositiveIntegerField()),
                ('server_seed', models.CharField(max_length=64)),
                ('server_seed_hash', models.CharField(max_length=64)),
                ('client_seeds', models.JSONField(default=list)),
                ('deadline', models.DateTimeField(blank=True, null=True)),
                ('settlement', models.JSONField(blank=True, null=True)),
                ('ratings', models.JSONField(blank=True, null=True)),
                ('dealt_at', models.DateTimeField(auto_now_add=True)),
                ('settled_at', models.DateTimeField(blank=True, null=True)),
                ('board', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='rounds', to='games.duplicateboard')),
            ],
        ),
        migrations.CreateModel(
            name='BoardSeen',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('why', models.CharField(max_length=32)),
                ('at', models.DateTimeField(auto_now_add=True)),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('board', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='seen_by', to='games.duplicateboard')),
                ('round', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='games.round')),
            ],
        ),
        migrations.CreateModel(
            name='RoundEvent',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('seq', models.PositiveIntegerField()),
                ('kind', models.CharField(max_length=32)),
                ('data', models.JSONField(default=dict)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('round', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='events', to='games.round')),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['round', 'seq'],
            },
        ),
        migrations.CreateModel(
            name='RoundPlayer',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('position', models.PositiveSmallIntegerField()),
                ('cards', models.JSONField()),
                ('arrangement', models.JSONField(blank=True, null=True)),
                ('submitted_at', models.DateTimeField(blank=True, null=True)),
                ('draft', models.JSONField(blank=True, null=True)),
                ('auto_arranged', models.CharField(blank=True, choices=[('draft', 'their last draft'), ('engine', 'the auto-arranger')], default='', max_length=8)),
                ('status', models.CharField(choices=[('playing', 'playing'), ('left', 'left')], default='playing', max_length=8)),
                ('left_after_chi', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('hold', models.PositiveBigIntegerField()),
                ('cap', models.PositiveBigIntegerField()),
                ('units', models.BigIntegerField(blank=True, null=True)),
                ('xu', models.BigIntegerField(blank=True, null=True)),
                ('round', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='players', to='games.round')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='round_players', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['position'],
            },
        ),
        migrations.CreateModel(
            name='Table',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=60, verbose_name='name')),
                ('preset', models.CharField(choices=[('portal', 'Portal (default)'), ('classic', 'Classic')], max_length=16, verbose_name='rules preset')),
                ('rules_overrides', models.JSONField(blank=True, default=dict, verbose_name='house rules')),
                ('stake', models.PositiveIntegerField(validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(1000000)], verbose_name='stake per chi (xu)')),
                ('seats', models.PositiveSmallIntegerField(default=4, validators=[django.core.validators.MinValueValidator(2), django.core.validators.MaxValueValidator(4)], verbose_name='seats')),
                ('min_balance', models.PositiveIntegerField(verbose_name='minimum balance to sit (xu)')),
                ('allow_bots', models.BooleanField(default=False, verbose_name='allow bots')),
                ('bot_wait_seconds', models.PositiveSmallIntegerField(default=5, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(60)], verbose_name='seconds before bots join')),
                ('is_open', models.BooleanField(default=True)),
                ('stakes_in', models.CharField(choices=[('xu', 'xu'), ('chips', 'tournament chips'), ('points', 'points')], default='xu', max_length=8, verbose_name='played for')),
                ('is_private', models.BooleanField(default=False, verbose_name='private table')),
                ('empty_since', models.DateTimeField(blank=True, null=True)),
                ('next_board', models.PositiveIntegerField(blank=True, null=True)),
                ('start_at', models.DateTimeField(blank=True, null=True)),
                ('version', models.PositiveBigIntegerField(default=0)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('duplicate_schedule', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='tables', to='games.duplicateschedule', verbose_name='duplicate schedule')),
                ('host', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='hosted_tables', to=settings.AUTH_USER_MODEL)),
            ],
        ),
        migrations.CreateModel(
            name='SeatHold',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('until', models.DateTimeField()),
                ('held_by', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='holds', to='games.table')),
            ],
        ),
        migrations.CreateModel(
            name='Seat',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('position', models.PositiveSmallIntegerField()),
                ('client_seed', models.CharField(max_length=64)),
                ('last_seen_at', models.DateTimeField()),
                ('joined_at', models.DateTimeField(auto_now_add=True)),
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='seat', to=settings.AUTH_USER_MODEL)),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seat_set', to='games.table')),
            ],
            options={
                'ordering': ['position'],
            },
        ),
        migrations.AddField(
            model_name='round',
            name='table',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='rounds', to='games.table'),
        ),
        migrations.CreateModel(
            name='Connection',
            fields=[
                ('id', models.UUIDField(primary_key=True, serialize=False)),
                ('opened_at', models.DateTimeField()),
                ('seen_at', models.DateTimeField(db_index=True)),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, to=settings.AUTH_USER_MODEL)),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='connections', to='games.table')),
            ],
        ),
        migrations.CreateModel(
            name='TableInvite',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('token', models.CharField(max_length=64, unique=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('expires_at', models.DateTimeField()),
                ('revoked_at', models.DateTimeField(blank=True, null=True)),
                ('created_by', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='invites', to='games.table')),
            ],
        ),
        migrations.CreateModel(
            name='TableGuest',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('removed_at', models.DateTimeField(blank=True, null=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='guests', to='games.table')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('invite', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='guests', to='games.tableinvite')),
            ],
        ),
        migrations.AddConstraint(
            model_name='duplicateboard',
            constraint=models.UniqueConstraint(fields=('schedule', 'number'), name='duplicate_board_number_unique'),
        ),
        migrations.AddConstraint(
            model_name='duplicateboard',
            constraint=models.CheckConstraint(condition=models.Q(('number__gte', 1)), name='duplicate_board_number_positive'),
        ),
        migrations.AddConstraint(
            model_name='boardseen',
            constraint=models.UniqueConstraint(fields=('board', 'user'), name='board_seen_unique'),
        ),
        migrations.AddConstraint(
            model_name='roundevent',
            constraint=models.UniqueConstraint(fields=('round', 'seq'), name='round_event_seq'),
        ),
        migrations.AddConstraint(
            model_name='roundplayer',
            constraint=models.UniqueConstraint(fields=('round', 'user'), name='round_player_unique'),
        ),
        migrations.AddConstraint(
            model_name='roundplayer',
            constraint=models.UniqueConstraint(fields=('round', 'position'), name='round_position_unique'),
        ),
        migrations.AddIndex(
            model_name='table',
            index=models.Index(condition=models.Q(('start_at__isnull', False)), fields=['start_at'], name='table_start_at_pending'),
        ),
        migrations.AddConstraint(
            model_name='table',
            constraint=models.CheckConstraint(condition=models.Q(('seats__gte', 2), ('seats__lte', 4)), name='table_seats_2_to_4'),
        ),
        migrations.AddConstraint(
            model_name='table',
            constraint=models.CheckConstraint(condition=models.Q(('stake__gte', 1)), name='table_stake_positive'),
        ),
        migrations.AddConstraint(
            model_name='seathold',
            constraint=models.UniqueConstraint(fields=('table', 'user'), name='seat_hold_unique'),
        ),
        migrations.AddConstraint(
            model_name='seat',
            constraint=models.UniqueConstraint(fields=('table', 'position'), name='seat_position_unique'),
        ),
        migrations.AddConstraint(
            model_name='seat',
            constraint=models.CheckConstraint(condition=models.Q(('position__lte', 3)), name='seat_position_0_3'),
        ),
        migrations.AddIndex(
            model_name='round',
            index=models.Index(fields=['state', 'deadline'], name='round_due_idx'),
        ),
        migrations.AddIndex(
            model_name='round',
            index=models.Index(fields=['dealt_at'], name='round_dealt_idx'),
        ),
        migrations.AddConstraint(
            model_name='round',
            constraint=models.UniqueConstraint(fields=('table', 'number'), name='round_number_unique'),
        ),
        migrations.AddIndex(
            model_name='connection',
            index=models.Index(fields=['table', 'user'], name='connection_table_user'),
        ),
        migrations.AddConstraint(
            model_name='tableguest',
            constraint=models.UniqueConstraint(fields=('table', 'user'), name='table_guest_unique'),
        ),
        append_only("games_roundevent", "games_boardseen"),
    ]
