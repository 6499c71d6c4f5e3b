"""The arena create form: how long, the buy-in, the rules, how many may join."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import Preset
from tournaments import rules
from tournaments.arena import services


class ArenaForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=60)
    minutes = forms.IntegerField(
        label=_("Duration (minutes)"),
        min_value=services.MIN_MINUTES,
        max_value=services.MAX_MINUTES,
        initial=10,
        help_text=_("3 to 60; boards in play when the time is up are finished."),
    )
    buy_in = forms.IntegerField(
        label=_("Buy-in (xu)"), min_value=0, max_value=1_000_000, initial=100
    )
    players = forms.IntegerField(
        label=_("Most players"),
        min_value=rules.MIN_PLAYERS,
        max_value=rules.MAX_PLAYERS,
        initial=rules.MAX_PLAYERS,
    )
    preset = forms.ChoiceField(label=_("Rules"), choices=Preset.choices, initial=Preset.PORTAL)
