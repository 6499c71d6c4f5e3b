from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts import services
from accounts.errors import AccountError
from accounts.models import Language, User


class SignUpForm(UserCreationForm):  # type: ignore[type-arg]
    display_name = forms.CharField(label=_("Display name"), max_length=40, required=False)
    email = forms.EmailField(
        label=_("Email"), required=False, help_text=_("Used to reset your password.")
    )

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined,misc]
        model = User
        fields = ("username", "display_name", "email")

    def clean_username(self) -> str:
        username: str = super().clean_username()
        if self.has_error("username"):  # Django's own check: taken, whatever the case
            return username
        try:
            return services.clean_username(username)
        except AccountError as exc:
            raise forms.ValidationError(str(exc.message), code=exc.code) from exc

    def clean_display_name(self) -> str:
        try:
            return services.clean_display_name(self.cleaned_data["display_name"])
        except AccountError as exc:
            raise forms.ValidationError(str(exc.message), code=exc.code) from exc


class ProfileForm(forms.Form):
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=services.DISPLAY_NAME_MAX,
        required=False,
        help_text=_("Shown on your profile, at tables and on leaderboards; unique."),
    )
    language = forms.ChoiceField(label=_("Language"), choices=Language.choices)

    def __init__(self, *args: Any, user: User | None = None, **kwargs: Any) -> None:
        self.user = user
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.widget.attrs.setdefault("class", "input")

    def clean_display_name(self) -> str:
        try:
            return services.clean_display_name(self.cleaned_data["display_name"], user=self.user)
        except AccountError as exc:
            raise forms.ValidationError(str(exc.message), code=exc.code) from exc
