"""The Django admin, closed to staff who are suspended (Django already checks is_active)."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.http import HttpRequest

from accounts.roles import is_admin


class StaffAdminSite(admin.AdminSite):
    def has_permission(self, request: HttpRequest) -> bool:
        # Read on every request: a suspension takes the admin away at the next click.
        return super().has_permission(request) and is_admin(request.user)


class StaffAdminConfig(AdminConfig):
    default_site = "accounts.admin_site.StaffAdminSite"
