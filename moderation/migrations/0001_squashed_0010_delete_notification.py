"""Moderation (squashes 0001-0010; the steps are in git history).

The staff audit log and the re-settlement records are history: append-only
(core.dbguards)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from core.dbguards import append_only


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ('moderation', '0001_initial'),
        ('moderation', '0002_staff_audit_append_only'),
        ('moderation', '0003_moderator_limit'),
        ('moderation', '0004_separation_of_duties'),
        ('moderation', '0005_staff_action_refused_close_table'),
        ('moderation', '0006_staff_action_void_round'),
        ('moderation', '0007_staff_action_view_private_table'),
        ('moderation', '0008_chat_evidence_and_staff_mute'),
        ('moderation', '0009_staff_action_kinds_open_board_prizes'),
        ('moderation', '0010_delete_notification'),
    ]

    dependencies = [
        ('accounts', '0001_squashed_0006_user_is_api_bot'),
        ('games', '0001_squashed_0013_duplicate_schedule_owner_and_board_seen'),
        ('ledger', '0001_squashed_0012_prize_holds'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='UserIP',
            fields=[
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='+', serialize=False, to=settings.AUTH_USER_MODEL)),
                ('ip', models.GenericIPAddressField()),
                ('seen_at', models.DateTimeField(auto_now=True)),
            ],
            options={
                'verbose_name': 'user address',
                'verbose_name_plural': 'user addresses',
            },
        ),
        migrations.CreateModel(
            name='Dispute',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('dispute', 'Dispute'), ('report', 'Player report')], max_length=8, verbose_name='kind')),
                ('category', models.CharField(choices=[('wrong_result', 'Wrong result'), ('disconnect', 'Disconnect'), ('collusion', 'Suspected collusion'), ('chat', 'Abusive table talk'), ('other', 'Other')], max_length=16, verbose_name='category')),
                ('text', models.TextField(blank=True, max_length=2000, verbose_name='what happened')),
                ('evidence', models.JSONField(blank=True, default=dict, verbose_name='evidence')),
                ('status', models.CharField(choices=[('open', 'Open'), ('in_review', 'In review'), ('resolved', 'Resolved')], default='open', max_length=10, verbose_name='status')),
                ('claimed_at', models.DateTimeField(blank=True, null=True, verbose_name='claimed')),
                ('outcome', models.CharField(blank=True, choices=[('upheld', 'Upheld'), ('rejected', 'Rejected')], max_length=8, verbose_name='outcome')),
                ('resolution', models.TextField(blank=True, verbose_name='resolution')),
                ('resolved_at', models.DateTimeField(blank=True, null=True, verbose_name='resolved')),
                ('created_at', models.DateTimeField(auto_now_add=True, db_index=True, verbose_name='filed')),
                ('filed_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='disputes_filed', to=settings.AUTH_USER_MODEL, verbose_name='filed by')),
                ('moderator', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='disputes_claimed', to=settings.AUTH_USER_MODEL, verbose_name='moderator')),
                ('reported_user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='reports_against', to=settings.AUTH_USER_MODEL, verbose_name='reported player')),
                ('round', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='disputes', to='games.round', verbose_name='round')),
                ('table', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='disputes', to='games.table', verbose_name='table')),
            ],
            options={
                'verbose_name': 'dispute',
                'verbose_name_plural': 'disputes',
                'ordering': ['created_at'],
            },
        ),
        migrations.CreateModel(
            name='Compensation',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('amount', models.PositiveBigIntegerField(verbose_name='amount (xu)')),
                ('reason', models.TextField(verbose_name='reason')),
                ('status', models.CharField(choices=[('pending', 'Waiting for approval'), ('paid', 'Paid'), ('rejected', 'Rejected')], max_length=8, verbose_name='status')),
                ('decided_at', models.DateTimeField(blank=True, null=True, verbose_name='decided')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='requested')),
                ('decided_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='approved or rejected by')),
                ('recipient', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='recipient')),
                ('requested_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='requested by')),
                ('transfer', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='ledger.transfer', verbose_name='transfer')),
                ('dispute', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='compensations', to='moderation.dispute', verbose_name='case')),
            ],
            options={
                'verbose_name': 'compensation',
                'verbose_name_plural': 'compensations',
                'ordering': ['-created_at'],
            },
        ),
        migrations.CreateModel(
            name='ModeratorLimit',
            fields=[
                ('moderator', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='compensation_limit', serialize=False, to=settings.AUTH_USER_MODEL, verbose_name='moderator')),
                ('per_payment', models.PositiveBigIntegerField(verbose_name='limit per payment (xu)')),
                ('per_day', models.PositiveBigIntegerField(verbose_name='limit per 24 hours (xu)')),
                ('set_at', models.DateTimeField(auto_now=True, verbose_name='set')),
                ('set_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='set by')),
            ],
            options={
                'verbose_name': 'compensation limit',
                'verbose_name_plural': 'compensation limits',
            },
        ),
        migrations.CreateModel(
            name='Mute',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('until', models.DateTimeField(verbose_name='muted until')),
                ('reason', models.TextField(verbose_name='reason')),
                ('created_at', models.DateTimeField(auto_now=True, verbose_name='time')),
                ('by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='muted by')),
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='staff_mute', to=settings.AUTH_USER_MODEL, verbose_name='user')),
            ],
            options={
                'verbose_name': 'chat mute',
                'verbose_name_plural': 'chat mutes',
            },
        ),
        migrations.CreateModel(
            name='Resettlement',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('reason', models.TextField(verbose_name='reason')),
                ('paid', models.JSONField(default=dict, verbose_name='paid before')),
                ('corrected', models.JSONField(default=dict, verbose_name='correct result')),
                ('transfer_ids', models.JSONField(default=list, verbose_name='transfers')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='time')),
                ('actor', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='staff member')),
                ('dispute', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='resettlements', to='moderation.dispute', verbose_name='case')),
                ('round', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='resettlements', to='games.round', verbose_name='round')),
            ],
            options={
                'verbose_name': 're-settlement',
                'verbose_name_plural': 're-settlements',
            },
        ),
        migrations.CreateModel(
            name='SeatIP',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('ip', models.GenericIPAddressField()),
                ('first_seen', models.DateTimeField(auto_now_add=True)),
                ('last_seen', models.DateTimeField(auto_now=True)),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.table')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'seat address',
                'verbose_name_plural': 'seat addresses',
            },
        ),
        migrations.CreateModel(
            name='StaffAction',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('action', models.CharField(choices=[('claim', 'Claimed a case'), ('resolve', 'Resolved a case'), ('view_replay', 'Viewed a round replay'), ('compensate', 'Paid a compensation'), ('request_compensation', 'Asked for approval of a compensation'), ('approve_compensation', 'Approved a compensation'), ('reject_compensation', 'Rejected a compensation'), ('resettle', 'Re-settled a round'), ('suspend', 'Suspended a user'), ('lift_suspension', 'Lifted a suspension'), ('set_limit', "Set a moderator's compensation limit"), ('void_round', 'Voided a round'), ('refused', 'Was refused an action'), ('close_table', 'Closed a table'), ('view_private_table', 'Opened a private table without an invite'), ('mute', "Muted a user's table talk"), ('unmute', 'Lifted a mute'), ('open_board', 'Opened a duplicate board before its reveal'), ('release_prizes', "Released a tournament's held prizes"), ('return_buy_ins', "Returned a tournament's buy-ins instead of its prizes")], max_length=24, verbose_name='action')),
                ('target_type', models.CharField(max_length=32, verbose_name='target type')),
                ('target_id', models.CharField(max_length=32, verbose_name='target id')),
                ('target_repr', models.CharField(max_length=200, verbose_name='target')),
                ('reason', models.TextField(blank=True, verbose_name='reason')),
                ('before', models.JSONField(blank=True, default=dict, verbose_name='before')),
                ('after', models.JSONField(blank=True, default=dict, verbose_name='after')),
                ('created_at', models.DateTimeField(auto_now_add=True, db_index=True, verbose_name='time')),
                ('actor', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='staff member')),
                ('dispute', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='actions', to='moderation.dispute', verbose_name='case')),
            ],
            options={
                'verbose_name': 'staff action',
                'verbose_name_plural': 'staff audit log',
                'ordering': ['-created_at', '-pk'],
            },
        ),
        migrations.AddIndex(
            model_name='dispute',
            index=models.Index(fields=['status', 'created_at'], name='moderation_queue_idx'),
        ),
        migrations.AddConstraint(
            model_name='dispute',
            constraint=models.UniqueConstraint(condition=models.Q(('kind', 'dispute'), models.Q(('status', 'resolved'), _negated=True)), fields=('filed_by', 'round'), name='moderation_one_open_dispute_per_round'),
        ),
        migrations.AddConstraint(
            model_name='dispute',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('kind', 'report'), ('reported_user__isnull', False)), models.Q(('kind', 'dispute'), ('round__isnull', False)), _connector='OR'), name='moderation_case_has_its_subject'),
        ),
        migrations.AddConstraint(
            model_name='dispute',
            constraint=models.CheckConstraint(condition=models.Q(('moderator__isnull', True), models.Q(models.Q(('moderator', models.F('filed_by')), _negated=True), models.Q(('reported_user__isnull', True), models.Q(('moderator', models.F('reported_user')), _negated=True), _connector='OR')), _connector='OR'), name='moderation_not_own_case'),
        ),
        migrations.AddConstraint(
            model_name='compensation',
            constraint=models.CheckConstraint(condition=models.Q(('decided_by__isnull', True), models.Q(('decided_by', models.F('requested_by')), _negated=True), _connector='OR'), name='moderation_four_eyes'),
        ),
        migrations.AddConstraint(
            model_name='compensation',
            constraint=models.CheckConstraint(condition=models.Q(('amount__gt', 0)), name='moderation_amount_positive'),
        ),
        migrations.AddConstraint(
            model_name='compensation',
            constraint=models.CheckConstraint(condition=models.Q(('recipient', models.F('requested_by')), _negated=True), name='moderation_not_paid_by_own_request'),
        ),
        migrations.AddConstraint(
            model_name='compensation',
            constraint=models.CheckConstraint(condition=models.Q(('decided_by__isnull', True), models.Q(('decided_by', models.F('recipient')), _negated=True), _connector='OR'), name='moderation_not_paid_by_own_decision'),
        ),
        migrations.AddConstraint(
            model_name='compensation',
            constraint=models.UniqueConstraint(condition=models.Q(('status', 'rejected'), _negated=True), fields=('dispute',), name='moderation_one_compensation_per_case'),
        ),
        migrations.AddConstraint(
            model_name='moderatorlimit',
            constraint=models.CheckConstraint(condition=models.Q(('set_by', models.F('moderator')), _negated=True), name='moderation_limit_not_own'),
        ),
        migrations.AddIndex(
            model_name='seatip',
            index=models.Index(fields=['table', 'ip'], name='moderation_seat_ip_idx'),
        ),
        migrations.AddConstraint(
            model_name='seatip',
            constraint=models.UniqueConstraint(fields=('user', 'table', 'ip'), name='moderation_seat_ip_once'),
        ),
        append_only("moderation_staffaction", "moderation_resettlement"),
    ]
