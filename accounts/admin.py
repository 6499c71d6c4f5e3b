from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.forms import UserChangeForm as BaseUserChangeForm

from accounts import services
from accounts.errors import AccountError
from accounts.models import User


class UserChangeForm(BaseUserChangeForm):  # type: ignore[type-arg]
    """The admin's own edit holds a display name to the players' rules (no look-alike, no
    hidden character: accounts.services.clean_display_name)."""

    def clean_display_name(self) -> str:
        try:
            return services.clean_display_name(
                self.cleaned_data.get("display_name", ""), user=self.instance
            )
        except AccountError as exc:
            raise forms.ValidationError(str(exc.message), code=exc.code) from exc


@admin.register(User)
class UserAdmin(BaseUserAdmin):  # type: ignore[type-arg]
    form = UserChangeForm
    list_display = ("username", "display_name", "email", "is_staff", "suspended_until")
    list_filter = ("is_staff", "is_superuser", "is_active", "groups", "preferred_language")
    search_fields = ("username", "display_name", "email")
    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        (
            "Mậu Binh",
            {
                "fields": (
                    "display_name",
                    "preferred_language",
                    "suspended_until",
                    "suspension_reason",
                )
            },
        ),
    )
    # Suspensions go through the moderation service (reason, audit), not a form field.
    readonly_fields = ("suspended_until", "suspension_reason")
