"""Create the demo accounts (idempotent) and print how to log in."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand
from django.db import transaction

from accounts import services
from accounts.models import User
from accounts.roles import MODERATORS, ensure_moderator_group

DEMO_PLAYERS = [("an", "An"), ("binh", "Bình"), ("chi", "Chi"), ("dung", "Dũng")]
DEMO_PASSWORD = "maubinh-demo"  # printed on purpose: these are local demo accounts


class Command(BaseCommand):
    help = "Create four demo players, a moderator and an admin (safe to run again)."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        ensure_moderator_group()
        rows: list[tuple[str, str, str]] = []
        for username, display in DEMO_PLAYERS:
            self._ensure(username, display)
            rows.append((username, DEMO_PASSWORD, "player"))
        moderator = self._ensure("mod", "Điều hành viên")
        moderator.groups.add(Group.objects.get(name=MODERATORS))
        rows.append(("mod", DEMO_PASSWORD, "moderator"))
        admin = self._ensure("admin", "Quản trị")
        if not (admin.is_staff and admin.is_superuser):
            admin.is_staff = admin.is_superuser = True
            admin.save(update_fields=["is_staff", "is_superuser"])
        rows.append(("admin", DEMO_PASSWORD, "admin"))
        self.stdout.write("Demo accounts (username / password / role):")
        for username, password, role in rows:
            self.stdout.write(f"  {username:<8} {password:<14} {role}")

    def _ensure(self, username: str, display: str) -> User:
        user = User.objects.filter(username=username).first()
        if user is None:
            user = services.sign_up(username=username, password=DEMO_PASSWORD, display_name=display)
        return user
