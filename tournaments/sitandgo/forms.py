"""The sit-and-go create form (on the tournament list): its size, buy-in and whether bots
may fill it."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments import rules


class SitAndGoForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=60)
    players = forms.IntegerField(
        label=_("Players"),
        min_value=rules.MIN_PLAYERS,
        max_value=rules.MAX_PLAYERS,
        initial=4,
        help_text=_("4 to 16; it starts when full."),
    )
    buy_in = forms.IntegerField(
        label=_("Buy-in (xu)"), min_value=0, max_value=1_000_000, initial=100
    )
    allow_bots = forms.BooleanField(
        label=_("Bots may fill the free places"),
        required=False,
        help_text=_("After a wait with nobody new, or when you press Start now."),
    )
