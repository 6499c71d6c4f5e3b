"""Roles: player (everyone), moderator (a group), admin (staff)."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_migrate

MODERATORS = "moderators"

# Permissions later features grant to moderators, as (app_label, codename). A permission
# whose model does not exist yet is skipped and picked up by the next migrate.
MODERATOR_PERMISSIONS: list[tuple[str, str]] = [
    ("accounts", "view_user"),
    ("accounts", "suspend_user"),
]


def in_good_standing(user: Any) -> bool:
    """Logged in, active and not suspended: a staff role gives powers only then.

    The user row is read afresh on every request (and checked again by every staff
    service), so a suspension or a deactivation takes every staff power away at once.
    """
    if not user.is_authenticated or not user.is_active:
        return False
    return not (hasattr(user, "is_suspended") and user.is_suspended())


def holds_staff_role(user: Any) -> bool:
    """In the moderators group, or staff, whatever their standing (to audit refusals)."""
    return bool(
        user.is_authenticated
        and (user.is_staff or user.is_superuser or user.groups.filter(name=MODERATORS).exists())
    )


def is_moderator(user: Any) -> bool:
    return bool(
        in_good_standing(user)
        and (user.is_superuser or user.groups.filter(name=MODERATORS).exists())
    )


def is_admin(user: Any) -> bool:
    return bool(in_good_standing(user) and user.is_staff)


def ensure_moderator_group(**_kwargs: Any) -> None:
    from django.contrib.auth.models import Group, Permission

    group, _created = Group.objects.get_or_create(name=MODERATORS)
    for app_label, codename in MODERATOR_PERMISSIONS:
        permission = Permission.objects.filter(
            content_type__app_label=app_label, codename=codename
        ).first()
        if permission is not None:
            group.permissions.add(permission)


def connect_signals() -> None:
    post_migrate.connect(ensure_moderator_group, dispatch_uid="accounts.ensure_moderator_group")
