"""``manage.py api_token USER --scope S …``: a new personal token, alone on the last line."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from accounts.models import User
from api import services
from api.errors import ApiError
from api.models import Scope


class Command(BaseCommand):
    help = "Create a personal API token for a user and print it (alone on the last line)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--scope", action="append", required=True, choices=Scope.values, dest="scopes"
        )
        parser.add_argument("--name", default="manage.py api_token")
        parser.add_argument("--days", type=int, default=0, help="expiry in days (0: never)")

    def handle(self, *args: Any, **options: Any) -> None:
        user = User.objects.filter(username=options["username"]).first()
        if user is None:
            raise CommandError(f"no such user: {options['username']}")
        days = options["days"]
        expires = timezone.now() + timedelta(days=days) if days > 0 else None
        try:
            new = services.create_token(
                user, name=options["name"], scopes=options["scopes"], expires_at=expires
            )
        except ApiError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(f"token {new.row.pk} for {user.username}: {', '.join(new.row.scopes)}")
        self.stdout.write(new.secret)
