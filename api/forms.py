from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from api.models import Scope

EXPIRY_CHOICES = [
    ("30", _("30 days")),
    ("90", _("90 days")),
    ("365", _("one year")),
    ("0", _("never")),
]


class NewTokenForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=60, help_text=_("What it is for."))
    scopes = forms.MultipleChoiceField(
        label=_("Scopes"), choices=Scope.choices, widget=forms.CheckboxSelectMultiple
    )
    expires = forms.ChoiceField(label=_("Expires"), choices=EXPIRY_CHOICES, initial="90")

    def expires_at(self) -> Any:
        days = int(self.cleaned_data["expires"])
        return timezone.now() + timedelta(days=days) if days else None
