"""Accounts (squashes 0001-0006; the steps are in git history)."""

import django.contrib.auth.models
import django.contrib.auth.validators
import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ('accounts', '0001_initial'),
        ('accounts', '0002_user_is_bot'),
        ('accounts', '0003_user_sound_on'),
        ('accounts', '0004_signup_address'),
        ('accounts', '0005_name_keys'),
        ('accounts', '0006_user_is_api_bot'),
    ]

    dependencies = [
        ('auth', '0012_alter_user_first_name_max_length'),
    ]

    operations = [
        migrations.CreateModel(
            name='User',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('password', models.CharField(max_length=128, verbose_name='password')),
                ('last_login', models.DateTimeField(blank=True, null=True, verbose_name='last login')),
                ('is_superuser', models.BooleanField(default=False, help_text='Designates that this user has all permissions without explicitly assigning them.', verbose_name='superuser status')),
                ('username', models.CharField(error_messages={'unique': 'A user with that username already exists.'}, help_text='Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only.', max_length=150, unique=True, validators=[django.contrib.auth.validators.UnicodeUsernameValidator()], verbose_name='username')),
                ('first_name', models.CharField(blank=True, max_length=150, verbose_name='first name')),
                ('last_name', models.CharField(blank=True, max_length=150, verbose_name='last name')),
                ('email', models.EmailField(blank=True, max_length=254, verbose_name='email address')),
                ('is_staff', models.BooleanField(default=False, help_text='Designates whether the user can log into this admin site.', verbose_name='staff status')),
                ('is_active', models.BooleanField(default=True, help_text='Designates whether this user should be treated as active. Unselect this instead of deleting accounts.', verbose_name='active')),
                ('date_joined', models.DateTimeField(default=django.utils.timezone.now, verbose_name='date joined')),
                ('display_name', models.CharField(blank=True, max_length=40, verbose_name='display name')),
                ('preferred_language', models.CharField(choices=[('vi', 'Tiếng Việt'), ('en', 'English')], default='vi', max_length=5, verbose_name='language')),
                ('sound_on', models.BooleanField(default=True, verbose_name='sound at the table')),
                ('suspended_until', models.DateTimeField(blank=True, null=True, verbose_name='suspended until')),
                ('suspension_reason', models.TextField(blank=True, verbose_name='suspension reason')),
                ('is_bot', models.BooleanField(default=False, editable=False, verbose_name='bot')),
                ('is_api_bot', models.BooleanField(default=False, editable=False, verbose_name='bot account')),
                ('display_key', models.TextField(blank=True, db_index=True, editable=False)),
                ('username_key', models.TextField(blank=True, db_index=True, editable=False)),
                ('groups', models.ManyToManyField(blank=True, help_text='The groups this user belongs to. A user will get all permissions granted to each of their groups.', related_name='user_set', related_query_name='user', to='auth.group', verbose_name='groups')),
                ('user_permissions', models.ManyToManyField(blank=True, help_text='Specific permissions for this user.', related_name='user_set', related_query_name='user', to='auth.permission', verbose_name='user permissions')),
            ],
            options={
                'verbose_name': 'user',
                'verbose_name_plural': 'user',
                'permissions': [('suspend_user', 'Can suspend and reinstate users')],
            },
            managers=[
                ('objects', django.contrib.auth.models.UserManager()),
            ],
        ),
        migrations.CreateModel(
            name='SignUp',
            fields=[
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='signup', serialize=False, to=settings.AUTH_USER_MODEL)),
                ('address', models.CharField(max_length=64, verbose_name='address')),
                ('day', models.DateField(verbose_name='day (Vietnam time)')),
                ('granted', models.BooleanField(verbose_name='received the sign-up grant')),
            ],
            options={
                'verbose_name': 'sign-up',
                'verbose_name_plural': 'sign-ups',
                'indexes': [models.Index(fields=['address', 'day'], name='signup_address_day_idx')],
            },
        ),
    ]
