"""The create-table form: house rules with a plain explanation of each (RULES.md section 9).

A blank rule keeps the preset's value, so switching preset never carries the other
preset's numbers along. ``games.services.create_table`` does the real validation.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.ids import IdField
from games.models import DuplicateSchedule, Preset
from games.rules import Rules
from games.rules.hands import PRESET_NAMES
from games.rules.presets import BONUS_KEYS, LIMITS
from games.selectors.duplicate import open_schedules

TIMER_FIELDS = ("start_seconds", "arrange_seconds", "reveal_seconds")
SCOOP_FIELDS = ("scoop_one", "scoop_all", "scoop_all_min")

RULE_HELP = {
    "start_seconds": _(
        "Seconds between the second player sitting down and the automatic deal (5–60)."
    ),
    "arrange_seconds": _(
        "Seconds everyone has to arrange their 13 cards (30–180). "
        "If everyone presses Done earlier, the showdown starts at once."
    ),
    "reveal_seconds": _("Seconds each chi stays on screen during the showdown (2–10)."),
    "scoop_one": _(
        "Sập 3 chi: a player who loses all three chi to one opponent pays that opponent "
        "this many times the amount (1–6)."
    ),
    "scoop_all": _(
        "Sập làng: a player who loses all three chi to every opponent pays everyone "
        "this many times the amount (1–6)."
    ),
    "scoop_all_min": _("Sập làng needs at least this many opponents at the table (1–3)."),
    "trips_chi3": _("Units for winning chi 3 with three of a kind (sám chi cuối)."),
    "full_house_chi2": _("Units for winning chi 2 with a full house (cù lũ chi giữa)."),
    "quads_chi1": _("Units for winning chi 1 with four of a kind (tứ quý)."),
    "quads_chi2": _("Units for winning chi 2 with four of a kind."),
    "straight_flush_chi1": _("Units for winning chi 1 with a straight flush (thùng phá sảnh)."),
    "straight_flush_chi2": _("Units for winning chi 2 with a straight flush."),
}

RULE_LABELS = {
    "start_seconds": _("Auto-start after (s)"),
    "arrange_seconds": _("Time to arrange (s)"),
    "reveal_seconds": _("Each chi shown for (s)"),
    "scoop_one": _("Sập 3 chi multiplier"),
    "scoop_all": _("Sập làng multiplier"),
    "scoop_all_min": _("Sập làng: minimum opponents"),
    "trips_chi3": _("Three of a kind in chi 3"),
    "full_house_chi2": _("Full house in chi 2"),
    "quads_chi1": _("Four of a kind in chi 1"),
    "quads_chi2": _("Four of a kind in chi 2"),
    "straight_flush_chi1": _("Straight flush in chi 1"),
    "straight_flush_chi2": _("Straight flush in chi 2"),
}


class CreateTableForm(forms.Form):
    name = forms.CharField(label=_("Table name"), max_length=60)
    preset = forms.ChoiceField(
        label=_("Rules"),
        choices=Preset.choices,
        initial=Preset.PORTAL,
        help_text=_(
            "Portal: the common online rules. Classic: the traditional rules "
            "(more instant wins, sập 3 chi pays double)."
        ),
    )
    stake = forms.IntegerField(
        label=_("Stake per chi (xu)"),
        min_value=1,
        max_value=1_000_000,
        initial=100,
        help_text=_("What one chi is worth. You need 20 times the stake to sit."),
    )
    seats = forms.TypedChoiceField(
        label=_("Seats"),
        choices=[(2, "2"), (3, "3"), (4, "4")],
        coerce=int,
        initial=4,
    )

    duplicate_schedule = forms.ModelChoiceField(
        label=_("Duplicate deals"),
        queryset=DuplicateSchedule.objects.none(),  # the open schedules, set per form
        required=False,
        empty_label=_("No: fresh deals each round"),
        # A forged or stale choice: closed since, or a competition's (never offered here).
        error_messages={
            "invalid_choice": _(
                "This duplicate schedule cannot be chosen: it is closed, or it belongs to a "
                "competition whose own tables alone deal it."
            )
        },
        help_text=_(
            "A duplicate table deals the boards of a schedule: every table of it gets the "
            "same cards, and your result is compared with everyone who held yours. The "
            "schedule's rules replace the ones chosen here."
        ),
    )
    is_private = forms.BooleanField(
        label=_("Private table"),
        required=False,
        initial=False,
        help_text=_(
            "Not listed in the lobby: only people you send the invite link to can come in."
        ),
    )
    sit_down = forms.BooleanField(
        label=_("Sit at this table at once"),
        required=False,
        initial=True,
        help_text=_("You take the first seat as soon as the table opens."),
    )
    allow_bots = forms.BooleanField(
        label=_("Fill empty seats with bots"),
        required=False,
        initial=False,
        help_text=_(
            "If nobody comes or goes for the number of seconds below, bots take the "
            "free seats so the round can start. They leave when the last person does."
        ),
    )
    bot_wait_seconds = forms.IntegerField(
        label=_("Bots come after (s)"),
        required=False,
        min_value=1,
        max_value=60,
        initial=10,
        help_text=_("How long people wait at the table before bots sit down (1–60)."),
    )
    on_timeout = forms.ChoiceField(
        label=_("When a player's time runs out"),
        choices=[
            (
                "auto",
                _("Play it for them: their last legal arrangement, else the best one"),
            ),
            ("foul", _("Strict: a hand not sent in time is binh lủng")),
        ],
        initial="auto",
        required=False,  # not chosen: the preset's own (auto)
        help_text=_(
            "A hand played for its owner is marked “tự xếp” in the showdown and the history."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        schedule_field = self.fields["duplicate_schedule"]
        assert isinstance(schedule_field, forms.ModelChoiceField)
        schedule_field.queryset = open_schedules()
        for key in (*TIMER_FIELDS, *SCOOP_FIELDS):
            low, high = LIMITS[key]
            self.fields[key] = forms.IntegerField(
                label=RULE_LABELS[key],
                required=False,
                min_value=low,
                max_value=high,
                help_text=RULE_HELP[key],
            )
        for key in BONUS_KEYS:
            self.fields[f"bonus_{key}"] = forms.IntegerField(
                label=RULE_LABELS[key],
                required=False,
                min_value=1,
                max_value=20,
                help_text=RULE_HELP[key],
            )

    def timer_fields(self) -> list[forms.BoundField]:
        return [self[key] for key in TIMER_FIELDS]

    def scoop_fields(self) -> list[forms.BoundField]:
        return [self[key] for key in SCOOP_FIELDS]

    def bonus_fields(self) -> list[forms.BoundField]:
        return [self[f"bonus_{key}"] for key in BONUS_KEYS]

    def rules_overrides(self) -> dict[str, Any]:
        """Only the rules the creator filled in; the rest stay as the preset has them."""
        data = self.cleaned_data
        overrides: dict[str, Any] = {
            key: data[key] for key in (*TIMER_FIELDS, *SCOOP_FIELDS) if data.get(key) is not None
        }
        bonus = {
            key: data[f"bonus_{key}"] for key in BONUS_KEYS if data.get(f"bonus_{key}") is not None
        }
        if bonus:
            overrides["bonus"] = bonus
        if data.get("on_timeout") == "foul":  # "auto" is every preset's own value
            overrides["on_timeout"] = "foul"
        return overrides

    def table_options(self) -> dict[str, Any]:
        """What ``games.services.open_table`` gets from a valid form (the lobby's form and
        the API's ``tables_create`` alike)."""
        data = self.cleaned_data
        return {
            "sit_down": data["sit_down"],
            "name": data["name"],
            "preset": data["preset"],
            "stake": data["stake"],
            "seats": data["seats"],
            "rules_overrides": self.rules_overrides(),
            "allow_bots": data["allow_bots"],
            "bot_wait_seconds": data["bot_wait_seconds"] or 10,
            "is_private": data["is_private"],
            "duplicate_schedule": data.get("duplicate_schedule"),
        }

    def rule_field_names(self) -> tuple[str, ...]:
        return (*TIMER_FIELDS, "on_timeout", *SCOOP_FIELDS, *(f"bonus_{k}" for k in BONUS_KEYS))

    def effective_rules(self) -> list[Rules]:
        """Each preset's rules with the house rules filled in so far: what the table would get.

        games.rules computes them, as ``create_table`` will; a rule whose box does not hold a
        valid value yet is left out (the create form refuses it; see ``rule_errors``)."""
        overrides: dict[str, Any] = {}
        if self.is_bound:
            self.is_valid()  # cleans every field; the valid ones are in cleaned_data
            overrides = self.rules_overrides()
        return [Rules.preset(name).with_overrides(overrides) for name in PRESET_NAMES]

    def rule_errors(self) -> list[tuple[forms.BoundField, str]]:
        """The house rules whose boxes are not valid yet, each with its first error."""
        if not self.is_bound:
            return []
        return [
            (self[name], str(self.errors[name][0]))
            for name in self.rule_field_names()
            if name in self.errors
        ]


HOST_ACTIONS = ("new_invite", "revoke", "hold", "release", "remove")


class HostActionForm(forms.Form):
    """One of the host tools' buttons (games/host_tools.html): what it does, and the invite
    or the player it is about (ids bounded by accounts.ids.IdField)."""

    action = forms.ChoiceField(choices=[(action, action) for action in HOST_ACTIONS])
    invite = IdField(required=False)
    user = IdField(required=False)
    username = forms.CharField(required=False, max_length=150)

    NEEDS = {"revoke": "invite", "release": "user", "remove": "user", "hold": "username"}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        needed = self.NEEDS.get(data.get("action", ""))
        if needed and not data.get(needed):
            raise forms.ValidationError(
                _("This form is missing a field or has a wrong value."), code="missing"
            )
        return data
