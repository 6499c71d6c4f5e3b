"""Tournaments and arenas (squashes 0001-0004; the steps are in git history)."""

import django.core.validators
import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ('tournaments', '0001_initial'),
        ('tournaments', '0002_arena'),
        ('tournaments', '0003_arena_schedules_owned'),
        ('tournaments', '0004_progress_end_reason_voided'),
    ]

    dependencies = [
        ('games', '0001_squashed_0013_duplicate_schedule_owner_and_board_seen'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Entry',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('state', models.CharField(choices=[('registered', 'registered'), ('withdrawn', 'withdrawn (refunded)'), ('playing', 'playing'), ('busted', 'busted'), ('won', 'won'), ('refunded', 'refunded'), ('finished', 'finished')], max_length=16)),
                ('registrations', models.PositiveSmallIntegerField(default=1)),
                ('stack', models.BigIntegerField(default=0)),
                ('place', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('busted_at', models.DateTimeField(blank=True, null=True)),
                ('bust_round', models.BigIntegerField(blank=True, null=True)),
                ('prize', models.BigIntegerField(default=0)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('points', models.PositiveIntegerField(default=0)),
                ('streak', models.PositiveSmallIntegerField(default=0)),
                ('boards', models.PositiveSmallIntegerField(default=0)),
                ('points_at', models.DateTimeField(blank=True, null=True)),
                ('paused', models.BooleanField(default=False)),
                ('waiting_since', models.DateTimeField(blank=True, null=True)),
                ('table', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='games.table')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='tournament_entries', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['pk'],
            },
        ),
        migrations.CreateModel(
            name='ArenaSocket',
            fields=[
                ('id', models.UUIDField(primary_key=True, serialize=False)),
                ('seen_at', models.DateTimeField(db_index=True)),
                ('entry', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='sockets', to='tournaments.entry')),
            ],
        ),
        migrations.CreateModel(
            name='HouseBot',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='house_bot', to=settings.AUTH_USER_MODEL)),
            ],
        ),
        migrations.CreateModel(
            name='Tournament',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('sit_and_go', 'Sit-and-go'), ('arena', 'Arena')], max_length=16, verbose_name='kind')),
                ('name', models.CharField(max_length=60, verbose_name='name')),
                ('state', models.CharField(choices=[('registering', 'registering'), ('running', 'running'), ('finished', 'finished'), ('cancelled', 'cancelled'), ('voided', 'voided')], default='registering', max_length=16)),
                ('players', models.PositiveSmallIntegerField(validators=[django.core.validators.MinValueValidator(4), django.core.validators.MaxValueValidator(16)], verbose_name='players')),
                ('buy_in', models.PositiveIntegerField(validators=[django.core.validators.MaxValueValidator(1000000)], verbose_name='buy-in (xu)')),
                ('allow_bots', models.BooleanField(default=False, verbose_name='bots may fill the free places')),
                ('preset', models.CharField(max_length=16, verbose_name='rules preset')),
                ('rules_overrides', models.JSONField(blank=True, default=dict)),
                ('starting_stack', models.PositiveIntegerField(verbose_name='starting chips')),
                ('levels', models.JSONField(default=list)),
                ('rounds_per_level', models.PositiveSmallIntegerField(verbose_name='rounds per level')),
                ('level', models.PositiveSmallIntegerField(default=1)),
                ('rounds_played', models.PositiveIntegerField(default=0)),
                ('bots_at', models.DateTimeField(blank=True, null=True)),
                ('version', models.PositiveBigIntegerField(default=0)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('started_at', models.DateTimeField(blank=True, null=True)),
                ('finished_at', models.DateTimeField(blank=True, null=True)),
                ('progressed_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('end_reason', models.CharField(blank=True, choices=[('creator', 'cancelled by its creator'), ('too_few', 'fewer than two players at the start'), ('stalled', 'no progress for too long'), ('no_end', 'running with no end time'), ('stuck_rounds', 'rounds stuck at its tables were voided')], max_length=16)),
                ('minutes', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='minutes')),
                ('starts_at', models.DateTimeField(blank=True, null=True)),
                ('ends_at', models.DateTimeField(blank=True, null=True)),
                ('created_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='tournaments_created', to=settings.AUTH_USER_MODEL)),
                ('schedule', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='games.duplicateschedule')),
            ],
        ),
        migrations.AddField(
            model_name='entry',
            name='tournament',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='entries', to='tournaments.tournament'),
        ),
        migrations.CreateModel(
            name='ArenaResult',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('board', models.PositiveIntegerField()),
                ('players', models.PositiveSmallIntegerField()),
                ('units', models.IntegerField()),
                ('others', models.PositiveSmallIntegerField()),
                ('matchpoints', models.FloatField(blank=True, null=True)),
                ('base', models.PositiveSmallIntegerField()),
                ('fire', models.BooleanField()),
                ('points', models.PositiveSmallIntegerField()),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('round', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='games.round')),
                ('entry', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='arena_results', to='tournaments.entry')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='arena_results', to='tournaments.tournament')),
            ],
            options={
                'ordering': ['pk'],
            },
        ),
        migrations.CreateModel(
            name='TournamentTable',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField()),
                ('broken_at', models.DateTimeField(blank=True, null=True)),
                ('table', models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='tournament_table', to='games.table')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='tables', to='tournaments.tournament')),
            ],
            options={
                'ordering': ['number'],
            },
        ),
        migrations.AddIndex(
            model_name='tournament',
            index=models.Index(fields=['state', 'created_at'], name='tournament_state_idx'),
        ),
        migrations.AddIndex(
            model_name='tournament',
            index=models.Index(condition=models.Q(('state__in', ['registering', 'running'])), fields=['progressed_at'], name='tournament_progress_idx'),
        ),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.CheckConstraint(condition=models.Q(('players__gte', 4), ('players__lte', 16)), name='tournament_players_4_to_16'),
        ),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.CheckConstraint(condition=models.Q(('level__gte', 1)), name='tournament_level_positive'),
        ),
        migrations.AddConstraint(
            model_name='entry',
            constraint=models.UniqueConstraint(fields=('tournament', 'user'), name='entry_once'),
        ),
        migrations.AddConstraint(
            model_name='entry',
            constraint=models.UniqueConstraint(condition=models.Q(('place__isnull', False)), fields=('tournament', 'place'), name='entry_place_once'),
        ),
        migrations.AddConstraint(
            model_name='entry',
            constraint=models.CheckConstraint(condition=models.Q(('stack__gte', 0)), name='entry_stack_not_negative'),
        ),
        migrations.AddConstraint(
            model_name='entry',
            constraint=models.CheckConstraint(condition=models.Q(('prize__gte', 0)), name='entry_prize_not_negative'),
        ),
        migrations.AddConstraint(
            model_name='arenaresult',
            constraint=models.UniqueConstraint(fields=('entry', 'board'), name='arena_result_board_once'),
        ),
        migrations.AddConstraint(
            model_name='arenaresult',
            constraint=models.UniqueConstraint(fields=('entry', 'round'), name='arena_result_round_once'),
        ),
        migrations.AddConstraint(
            model_name='arenaresult',
            constraint=models.CheckConstraint(condition=models.Q(('base__lte', 2)), name='arena_result_base_0_to_2'),
        ),
        migrations.AddConstraint(
            model_name='tournamenttable',
            constraint=models.UniqueConstraint(fields=('tournament', 'number'), name='tournament_table_number'),
        ),
    ]
